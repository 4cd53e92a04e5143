"""One package per game: its table kind, renderer, rules text, labels and private UI.

The games the bot runs are listed once, in ``bot.games.registry``.
"""
