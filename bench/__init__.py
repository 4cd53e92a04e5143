"""``python -m bot bench``: the performance table of issue 13, measured in one run.

Every row is measured through the offline interaction harness (``tests/harness``: discord.py's
own dispatch against a fake Discord), next to a floor measured in the same run through the
same harness where there is one: a no-op ``DynamicItem`` click answered by
``interaction.response.edit_message`` on a bare ``commands.Bot``. The harness lives in the
checkout's ``tests/`` folder, so this package lives in the checkout too, outside ``bot/``
(the bot never imports the tests): ``bot/cli/bench.py`` holds the command's arguments and
finds this package, and an installed bot without the checkout says so in one line. Run it
from a checkout with the dev extras installed (``make bench``). Nothing is asserted: it
prints numbers. ``--quick`` runs a tiny version of every row in seconds (``make test`` runs
it so it cannot rot); ``--json`` prints one JSON object instead of the table.

One job per module: ``report`` (sizes, numbers, the table), ``env`` (the bot in the harness),
``floor``, ``clicks``, ``database``, ``scale`` (timers, opening, memory), ``processes``,
``frame`` (the sections), and ``run`` (the arguments checked, the sections run, printed).

The N live games are copies of one game really opened, joined and started through the
harness, written through the store's repositories in one transaction
(``bot.sim.live_games``). The other benchmarks (``bench-tables``, ``bench-odds``,
``bench-render``, ``bench-store``) need no harness and stay in ``bot/cli``.
"""
