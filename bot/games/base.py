"""What a game package gives the Discord shell: ``Game``, a game's presentation, holding its kind
(values only, all the table layer sees; the ``game-halves`` contract). One subclass a package,
listed in ``bot/games/registry.py``."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import discord

from bot.errors import add_texts
from bot.i18n.speaking import N_, _, number
from bot.records import NO_GUILD, Button, TurnAction
from bot.render.common import COLOUR, COLOUR_DONE
from bot.render.odds_text import PlayerOdds
from bot.tables.kind import GameKind
from bot.tables.model import Place
from bot.tables.names import md_name

if TYPE_CHECKING:
    from bot.tables.events import Event
    from bot.tables.history import Step
    from bot.tables.model import Change, Seat, Table, TableSnapshot
    from bot.tables.service import TableService

S = TypeVar("S")


def _seat_count(low: int, high: int, seats: int) -> str:
    if low == high:
        return _(
            "This game needs exactly %(low)s players; the table has %(seats)s.",
            low=number(low),
            seats=number(seats),
        )
    return _(
        "This game needs %(low)s to %(high)s players; the table has %(seats)s.",
        low=number(low),
        high=number(high),
        seats=number(seats),
    )


# The words of the errors every game's logic half may raise (``bot.errors``).
add_texts(
    {
        "button.idle": lambda: _("That button does nothing now."),
        "button.foreign": lambda: _("That button does not belong to this game."),
        "seats.count": _seat_count,
        # the rules cores' refusals every game shares (``bot.rules``)
        "rules.over": lambda: _("This game is over."),
        "rules.no_seat": lambda seat: _("Seat %(seat)s is not at this table.", seat=seat),
        "rules.forfeited": lambda: _("That seat has already forfeited."),
        "rules.last_seat": lambda: _("The last seat playing cannot forfeit."),
        "rules.unknown_action": lambda action: _("Unknown action %(action)s.", action=repr(action)),
        "rules.needs": lambda low, high: _(
            "This game needs %(low)s to %(high)s players.", low=number(low), high=number(high)
        ),
    }
)

# A replayed game (``bot.tables.history.replay``): ``(None, initial state)``, then
# ``(step, state after it)`` for every logged step.
Moments = Sequence[tuple["Step | None", Any]]


@dataclass(frozen=True)
class RulesPage:
    """One entry of ``/rules``: ``key`` is the option value, ``title`` what players see."""

    key: str
    title: str
    text: str


@dataclass(frozen=True)
class OddsPage:
    """One entry of ``/odds``: ``key`` the option value, ``choice`` its label, ``game_key`` the
    leaderboard key naming the title, ``figures`` what it says."""

    key: str
    choice: str
    game_key: str
    figures: Callable[[], PlayerOdds]


@dataclass(frozen=True)
class Demo:
    """A game among bot players for ``python -m bot demo NAME``."""

    name: str
    settings: dict[str, Any]
    bot_levels: tuple[str, ...]


# TRANSLATORS: /stats, a player's best turn in a dice game.
BEST_TURN = N_("best turn %(best)s")
BEST_TURN_MEANING = N_("best turn: the most points one turn scored")


def guild_of(interaction: discord.Interaction[Any]) -> int:
    """Where a table of this interaction belongs: its server, or NO_GUILD in a DM and in a server
    that has not installed the app (a member's own install)."""
    if interaction.guild_id is None or not interaction.is_guild_integration():
        return NO_GUILD
    return interaction.guild_id


def place_of(interaction: discord.Interaction[Any], on: str = "") -> Place:
    """Where a click comes from, for the table service to check against the table; ``on``:
    which of the table's messages the button belongs on (``Place``), checked for a public
    message in a server (a private one is checked by the button: ``GameButton``)."""
    guild_id = guild_of(interaction)
    message = interaction.message
    public = on and guild_id != NO_GUILD and message is not None and not message.flags.ephemeral
    if not public:
        return Place(guild_id, interaction.channel_id)
    assert message is not None
    return Place(guild_id, interaction.channel_id, message.id, on)


async def defer_update(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge a click now, within Discord's 3 seconds, and show its answer later with
    :func:`answer_update`: for a click that must first wait (a table's lock) or draw."""
    if not interaction.response.is_done():
        await interaction.response.defer()


async def answer_update(interaction: discord.Interaction[Any], **payload: Any) -> None:
    """Edit the clicked message as the click's answer: through its response, or (after
    :func:`defer_update`) as the original response."""
    deferred = discord.InteractionResponseType.deferred_message_update
    if interaction.response.type == deferred:
        await interaction.edit_original_response(**payload)
    else:
        await interaction.response.edit_message(**payload)


@dataclass(frozen=True)
class TurnView:
    """The public message of a turn: an embed and, for games with a picture, its file."""

    embed: discord.Embed
    file: discord.File | None = None


class Publishes(Protocol):
    """The part of the publisher a game's private UI uses (``bot.ui.publisher``)."""

    async def publish(
        self, change: Change, interaction: discord.Interaction[Any] | None = None
    ) -> None: ...


@dataclass(frozen=True)
class ClickContext:
    """What a game's private UI may use to answer a click: the table service to act, the
    publisher to redraw the public message."""

    tables: TableService
    publisher: Publishes


class Game(Generic[S]):
    """A game as the bot shows it, made with its kind (its rules half): override ``turn_text`` (or
    ``turn_view``); ``display`` gives the leaderboard label and ``rules_text`` the /rules page."""

    display: str = ""  # what players call it ("Heart's Due"): the default title and label
    summary: str = ""  # the lobby's default settings line
    bot_level_texts: dict[str, str] = {}  # bot level -> how it plays, in one line
    # action -> (label, emoji) of a turn button whose words never change ("Roll the die")
    button_texts: dict[str, tuple[str, str | None]] = {}
    rules_pages: tuple[RulesPage, ...] = ()  # /rules entries, the first is the game's own
    rules_text: str = ""  # the default rules page's text
    labels: dict[str, str] = {}  # game_key -> leaderboard label ("Sequences · Reverse")
    # start option -> its name in the host's settings form, a catalogue message (N_): the
    # option's own name is one lowercase word (Discord's rule), which a form need not keep.
    option_labels: dict[str, str] = {}
    demos: tuple[Demo, ...] = ()  # offline demos, the first is the game's own
    odds_pages: tuple[OddsPage, ...] = ()  # /odds entries (bot/games/<name>/odds.py)
    # Whether a finished game has a Review for its players (``review_payload``; bot.ui.review).
    reviewable: bool = False
    # /stats: a player's best turn as this game words it (N_); None: the game scores no turn.
    best_turn_text: str | None = BEST_TURN
    best_turn_meaning: str | None = BEST_TURN_MEANING

    def __init__(self, kind: GameKind[S]) -> None:
        self.kind = kind
        title = self.display or kind.name
        if self.display and not self.labels:
            self.labels = {kind.name: title}
        if self.rules_text and not self.rules_pages:
            self.rules_pages = (RulesPage(kind.name, title, self.rules_text),)
        _PRESENTATIONS[kind] = self

    @property
    def name(self) -> str:
        return self.kind.name

    async def review_payload(
        self, tables: TableService, game_id: int, moments: Moments, seats: list[Seat], seat: int
    ) -> dict[str, Any]:
        """A ``reviewable`` game's private review of ``seat``'s moves: the message's keyword
        arguments, from that seat's own cards and what was public only."""
        raise NotImplementedError

    def title(self, settings: Mapping[str, Any]) -> str:
        """The game's name for a table of these settings (lobby, thread, turns, results)."""
        return self.display or self.kind.name

    def describe_settings(self, settings: Mapping[str, Any]) -> str:
        """The settings in one line (the lobby, the Rules button)."""
        return self.summary

    def stage(self, state: S) -> str | None:
        """Where a running game stands in words ("Round 2 of 3", "Tie-break"), for a log to mark its
        stages; None without stages or once over."""
        return None

    def button_text(self, state: S, action: TurnAction) -> tuple[str, str | None]:
        """A turn button's label and emoji. Default: ``button_texts``."""
        return self.button_texts.get(action.action, (action.action, None))

    def turn_buttons(self, state: S) -> list[Button]:
        """The turn's actions (``turn_actions``) as labelled buttons."""
        buttons = []
        for action in self.kind.turn_actions(state):
            label, emoji = self.button_text(state, action)
            buttons.append(
                Button(
                    action.action,
                    label,
                    action.style,
                    row=action.row,
                    private=action.private,
                    emoji=emoji,
                    disabled=action.disabled,
                )
            )
        return buttons

    def event_words(self, event: Event, seats: list[Seat]) -> str | None:
        """The recent-events line of one of this game's own events (the values its
        ``apply`` returns); None: not one of them. ``bot.games.words`` words the table's."""
        return None

    def member_button(self, state: S, rng: random.Random) -> str | None:
        """The button a member playing well would press now (the demo's staked game plays
        members this way); None where the game has no such script."""
        return None

    def prepare(self) -> None:
        """Slow set-up done once at start, off the event loop (e.g. drawing a base picture)."""

    def table_rules(self, table: TableSnapshot) -> tuple[RulesPage, ...]:
        """The rules pages of this table's game and variant, for the Rules button of its
        turn messages: the game's own page first."""
        return self.rules_pages[:1]

    def turn_view(self, table: TableSnapshot) -> TurnView:
        """The public message for the table's current turn (or the final position). Default:
        an embed of ``turn_text`` titled with the game's title (the winners' once it is over),
        no picture."""
        title = self.title(table.settings)
        over = table.rules is not None and self.kind.current_seat(table.rules) is None
        if over and (sides := self.standings(table)):
            title = _("🏆 %(winners)s won %(game)s!", winners=sides[0][0], game=title)
        colour = COLOUR_DONE if over else COLOUR
        return TurnView(
            discord.Embed(title=title, description=self.turn_text(table), colour=colour)
        )

    def turn_text(self, table: TableSnapshot) -> str:
        """The default turn message's text: the last move and who is to play."""
        raise NotImplementedError

    def closed_lines(self, table: TableSnapshot) -> list[str]:
        """What a game closed without a result adds to its table message under the reason (the turn
        view's fields and picture are kept anyway); default nothing."""
        return []

    def standings(self, table: TableSnapshot) -> list[tuple[str, int]]:
        """A finished game's sides, best first, as (who as markdown, score): one per seat, or one
        per team ("Ana & Cy") with the team's score."""
        rules = table.rules
        results = None if rules is None else self.kind.results(rules, list(table.seats))
        ranked = sorted(results or [], key=lambda r: (r.place, -r.score, r.seat))
        sides: dict[tuple[str, int], tuple[list[str], int]] = {}
        for r in ranked:
            side = ("team", r.team) if r.team is not None else ("seat", r.seat)
            sides.setdefault(side, ([], r.score))[0].append(md_name(r.name))
        return [(" & ".join(names), score) for names, score in sides.values()]

    def result_note(self, table: TableSnapshot) -> str | None:
        """A line said with a finished game's result wherever shown, e.g. the tie-break that decided
        it; None: the scores say it all."""
        return None

    def replay_text(self, moments: Moments, seats: list[Seat]) -> str | None:
        """A finished game's story as text up to the last of ``moments``, then the scores; public
        information only. None: no text replay."""
        return None

    def replay_picture(self, moments: Moments, seats: list[Seat]) -> bytes | None:
        """The position after the last of ``moments`` as a PNG, its move framed; None: the
        game has no picture."""
        return None

    def replay_animation(self, moments: Moments, seats: list[Seat], fmt: str) -> bytes | None:
        """The whole game as an animated image, ``fmt`` "png" (APNG) or "gif"; None: the
        game has no picture."""
        return None

    def is_private(self, action: str) -> bool:
        """Whether a button's ``action`` is answered privately by ``private_click``,
        instead of being played through the table service."""
        return False

    async def private_click(
        self,
        ctx: ClickContext,
        interaction: discord.Interaction[Any],
        table: Table,
        version: int,
        action: str,
    ) -> None:
        """Answer a private button (see ``is_private``)."""
        raise NotImplementedError


# Each kind's presentation, as each ``Game`` is made: the table layer holds the kind only.
_PRESENTATIONS: dict[GameKind[Any], Game[Any]] = {}


def presented(kind: GameKind[Any]) -> Game[Any] | None:
    """The ``Game`` made with this kind; None for a kind shown nowhere (a test's)."""
    return _PRESENTATIONS.get(kind)


def presentation(kind: GameKind[Any]) -> Game[Any]:
    """A table's game with its words (the ``Game`` made with its kind)."""
    game = presented(kind)
    if game is None:
        raise LookupError(f"{kind.name} is a kind without presentation")
    return game
