"""``python -m bot bench``: every benchmark of the project, one section each, in one run.

The sections are one list (``bench/sections.py``): floor and work floor, memory, clicks,
board moves, bursts, bots thinking, processes (PostgreSQL only), timers, opening a table, the
table service alone, the store on a big database, board pictures, the exact odds. Rows
that a click drives go through the offline interaction harness (``tests/harness``:
discord.py's own dispatch against a fake Discord), next to a floor measured in the same run
through the same harness: a no-op ``DynamicItem`` click (the floor) and one doing a click's
unavoidable work (the work floor). The harness lives in the checkout's ``tests/`` folder, so
this package lives in the checkout too, outside ``bot/`` (the bot never imports the tests):
``bot/cli/bench.py`` holds the command's arguments and finds this package, and an installed
bot without the checkout says so in one line. Nothing is asserted: it prints numbers.

Each timed section runs ``--repeat`` times (3): a row is the median of its runs, with their
spread, and each run notes how busy the machine was (``machine``); a row whose run was
disturbed says so. ``--quick`` runs a tiny version of every row in seconds (``make test``
runs it so it cannot rot); ``--json`` prints one JSON object instead of the table.

One job per module: ``report`` (sizes, numbers, the table), ``machine`` (the run's load),
``targets`` (the databases), ``env`` (the bot in the harness), ``sections`` (the list) and
``run`` (the arguments checked, the sections run, printed); the rest are the sections.
"""
