"""One package per game: its table kind, renderer, rules text, labels and private UI, listed once in
``bot.games.registry``."""
