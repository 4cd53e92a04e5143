"""Subcommands of ``python -m bot``: each module has ``add_arguments(parser)`` and ``run(args)``;
list a new one here, in its group, and in the README's "Offline tools" table (tests/cli/test_help.py
checks both)."""

# (group title, {name: (module, one-line help)}), in the order `python -m bot --help` shows.
GROUPS: tuple[tuple[str, dict[str, tuple[str, str]]], ...] = (
    (
        "the bot",
        {
            "run": ("bot.cli.run", "run the bot (the default)"),
            "sync": ("bot.cli.sync", "register the slash commands with Discord"),
            "health": ("bot.cli.health", "check that the database opens and is intact (0/1)"),
        },
    ),
    (
        "the database",
        {
            "backup": (
                "bot.cli.backup",
                "write a checked copy of the database, safe while running",
            ),
            "migrate-db": (
                "bot.cli.migrate_db",
                "copy a SQLite database into a new, empty PostgreSQL one: ids kept, checked",
            ),
            "forget": ("bot.cli.forget", "delete a member's data: anonymise their id and names"),
            "rebuild-ratings": (
                "bot.cli.rebuild_ratings",
                "recompute stats and ratings from results",
            ),
            "reports": (
                "bot.cli.reports",
                "the tables members reported (/play report), with their reasons",
            ),
            "verify-log": (
                "bot.cli.verify_log",
                "replay every finished game from its log; check it ends as stored (0/1)",
            ),
            "replay": (
                "bot.cli.replay",
                "a finished game from its log: its story as text, or board pictures",
            ),
        },
    ),
    (
        "games and odds, offline",
        {
            "demo": ("bot.cli.demo", "play a whole game among bot players offline"),
            "odds": ("bot.cli.odds", "print the exact odds of every dice game"),
            "score": ("bot.cli.score", "score one throw of one-roll Sequences or Hearts Due"),
            "simulate": (
                "bot.cli.simulate",
                "play dice turns with the real rules, beside the exact odds",
            ),
            "board-sim": ("bot.cli.board_sim", "play seeded board games between bot levels"),
            "i18n": (
                "bot.cli.i18n",
                "the translation catalogues: extract, update or compile (docs/i18n.md)",
            ),
            "board-fit": (
                "bot.cli.board_fit",
                "learn the strong board bot's weights from its games",
            ),
            "soak": ("bot.cli.soak", "random games, faults and restarts; check the chips add up"),
        },
    ),
    (
        "benchmarks",
        {
            "bench": (
                "bot.cli.bench",
                "every benchmark: clicks, bursts, timers, store, pictures, odds against floors",
            ),
        },
    ),
)

COMMANDS: dict[str, tuple[str, str]] = {
    name: entry for _, commands in GROUPS for name, entry in commands.items()
}
