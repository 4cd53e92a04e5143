"""Subcommands of ``python -m bot``: each module has ``add_arguments(parser)`` and ``run(args)``.

Add a subcommand by writing ``bot/cli/<name>.py`` and listing it here.
"""

COMMANDS: dict[str, tuple[str, str]] = {
    # name: (module, one-line help)
    "run": ("bot.cli.run", "run the bot (the default)"),
    "sync": ("bot.cli.sync", "register the slash commands with Discord"),
    "demo": ("bot.cli.demo", "play a whole game among bot players offline"),
    "rebuild-ratings": ("bot.cli.rebuild_ratings", "recompute stats and ratings from results"),
    "bench-store": ("bot.cli.bench_store", "time leaderboards, escrows and payouts"),
}
