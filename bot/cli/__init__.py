"""Subcommands of ``python -m bot``: each module has ``add_arguments(parser)`` and ``run(args)``.

Add a subcommand by writing ``bot/cli/<name>.py`` and listing it here.
"""

COMMANDS: dict[str, tuple[str, str]] = {
    # name: (module, one-line help)
    "run": ("bot.cli.run", "run the bot (the default)"),
    "score": ("bot.cli.score", "score one throw of one-roll Sequences or Hearts Due"),
    "odds": ("bot.cli.odds", "print the exact odds of every dice game"),
    "simulate": ("bot.cli.simulate", "play dice turns with the real rules, beside the exact odds"),
    "bench-odds": ("bot.cli.bench_odds", "time the exact odds: cold, cached, full tables"),
    "sync": ("bot.cli.sync", "register the slash commands with Discord"),
    "demo": ("bot.cli.demo", "play a whole game among bot players offline"),
    "bench-render": ("bot.cli.bench_render", "time board image rendering"),
    "board-sim": ("bot.cli.board_sim", "play seeded board games between bot levels"),
    "board-fit": ("bot.cli.board_fit", "learn the strong board bot's weights from its games"),
    "bench-tables": ("bot.cli.bench_tables", "time a click inside the bot (service + redraw)"),
    "bench": ("bot.cli.bench", "run every benchmark and print the numbers"),
    "rebuild-ratings": ("bot.cli.rebuild_ratings", "recompute stats and ratings from results"),
    "bench-store": ("bot.cli.bench_store", "time leaderboards, escrows and payouts"),
    "backup": ("bot.cli.backup", "write a consistent copy of the database (safe while running)"),
    "forget": ("bot.cli.forget", "delete a member's data: anonymise their id and names"),
    "soak": ("bot.cli.soak", "random games, faults and restarts; check the chips add up"),
}
