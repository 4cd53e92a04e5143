"""Every game the bot runs, from one list: to add a game, write its package (docs/architecture.md,
"How to add a game") and add its ``GAME`` to ``GAMES``; a test may pass its own ``Games``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from bot.games import board, oneroll, sequences
from bot.games.base import Game, OddsPage, RulesPage
from bot.i18n.speaking import _
from bot.tables.kind import GameKind

GAMES: tuple[Game[Any], ...] = (sequences.GAME, oneroll.GAME, board.GAME)


class Games(Mapping[str, GameKind[Any]]):
    """The registered games: each one's kind by name (what the table layer runs), its
    presentation by ``shown``, and what the shell asks of them all."""

    def __init__(self, games: Iterable[Game[Any]] = GAMES) -> None:
        self._games: dict[str, Game[Any]] = {}
        for game in games:
            if not game.name or game.name in self._games:
                raise ValueError(f"game name {game.name!r} is empty or taken")
            self._games[game.name] = game

    def __getitem__(self, name: str) -> GameKind[Any]:
        return self._games[name].kind

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    def shown(self, name: str) -> Game[Any]:
        """A game's presentation: its words, pictures and private UI."""
        return self._games[name]

    def presentations(self) -> Iterable[Game[Any]]:
        return self._games.values()

    def may_be_private(self, action: str) -> bool:
        """Whether some game answers a button ``action`` privately (``Game.is_private``):
        only then must a click's table be read before it is played."""
        return any(game.is_private(action) for game in self._games.values())

    @property
    def labels(self) -> dict[str, str]:
        """Leaderboard key -> its name, for every game key the games declare."""
        return {key: label for game in self._games.values() for key, label in game.labels.items()}

    def label(self, game_key: str) -> str:
        """A leaderboard key's name in the reader's language (the games mark their labels
        N_)."""
        return _(self.source_label(game_key))

    def source_label(self, game_key: str) -> str:
        """A leaderboard key's name in English, as the game declares it; a key no game
        declares (an old or removed game) is shown from its parts."""
        known = self.labels.get(game_key)
        if known is not None:
            return known
        return " · ".join(part.replace("_", " ").title() for part in game_key.split(":"))

    def of_key(self, game_key: str) -> Game[Any] | None:
        """The game that declares a leaderboard key (None: an old or removed game)."""
        return next((game for game in self._games.values() if game_key in game.labels), None)

    def find_key(self, text: str) -> str | None:
        """The leaderboard key a member typed or picked: a key or a label, any case."""
        wanted = text.strip().casefold()
        for key, label in self.labels.items():
            if wanted in (key.casefold(), label.casefold()):
                return key
        return None

    @property
    def rules_pages(self) -> list[RulesPage]:
        return [page for game in self._games.values() for page in game.rules_pages]

    @property
    def odds_pages(self) -> dict[str, OddsPage]:
        """The ``/odds`` entries of every game by key, in the games' order."""
        return {page.key: page for game in self._games.values() for page in game.odds_pages}
