"""Small word helpers every game's presentation shares (issue 21): a seat's name, dice,
and seat counts in words. The logic halves keep the values (seat indexes, faces, counts);
these make them words when a message is drawn."""

from __future__ import annotations

from bot.i18n.speaking import _, pgettext
from bot.tables.model import Seat


def seat_name(seats: list[Seat], index: int) -> str:
    """The seat's player, or "Seat N" where the seats are not known (a replayed step)."""
    return seats[index].name if 0 <= index < len(seats) else _("Seat %(number)s", number=index + 1)


def dice_text(faces: tuple[int, ...] | list[int]) -> str:
    return "-".join(str(f) for f in faces)


def counts_text(counts: list[int]) -> str:
    """Seat counts in words: [3, 6, 9, 12] -> "3, 6, 9 or 12"; runs of three or more
    shorten, [2, 3, 4, 6, 8, 9, 10, 12] -> "2–4, 6, 8–10 or 12"."""
    runs: list[list[int]] = []
    for n in counts:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts: list[str] = []
    for run in runs:
        if len(run) >= 3:
            parts.append(f"{run[0]}–{run[-1]}")
        else:
            parts += [str(n) for n in run]
    if len(parts) <= 1:
        return "".join(parts)
    # TRANSLATORS: seat counts: %(counts)s is "3, 6, 9", %(last)s "12".
    return _("%(counts)s or %(last)s", counts=", ".join(parts[:-1]), last=parts[-1])


def bot_level(level: str) -> str:
    """A bot player's level as players read it (the games' levels: ``bot_levels``)."""
    # TRANSLATORS: how well a bot player plays, shown as "Add bot: cautious" and beside its
    # name in the seat list; one short lowercase word where the language allows.
    names = {
        "cautious": pgettext("bot level", "cautious"),
        "bold": pgettext("bot level", "bold"),
        "optimal": pgettext("bot level", "optimal"),
        "random": pgettext("bot level", "random"),
        "greedy": pgettext("bot level", "greedy"),
        "strong": pgettext("bot level", "strong"),
        "thrower": pgettext("bot level", "thrower"),
        "easy": pgettext("bot level", "easy"),
        "medium": pgettext("bot level", "medium"),
        "hard": pgettext("bot level", "hard"),
        "expert": pgettext("bot level", "expert"),
    }
    return names.get(level, level)
