"""The words of the tournament service's refusals, worded from their codes and values as
``bot.ui.texts`` does for the table layer."""

from __future__ import annotations

from bot.errors import ErrorText, add_texts
from bot.i18n.speaking import _, number, plural
from bot.tables.names import md_name

# The words of the tournament service's refusals (``bot.tables.tournaments``, its
# options' ``check``): a code and its values there, a sentence here, in the reader's language.
TOURNAMENT_TEXTS: dict[str, ErrorText] = {
    "tournament.unknown": lambda: _("There is no such tournament here."),
    "tournament.choice": lambda: _("Pick a format and a prize split from the list."),
    "tournament.rounds": lambda: _(
        # TRANSLATORS: rounds is /tournament create's option: write its name as your
        # language's Discord shows it (the commands catalogue).
        "Only a Swiss has a number of rounds to choose: a round robin plays "
        "everyone once, a bracket until one is left. Leave rounds out."
    ),
    "tournament.final": lambda: _(
        # TRANSLATORS: final-best-of and best-of are /tournament create's options:
        # write their names as your language's Discord shows them.
        "Only single elimination has a final: leave final-best-of out, or set best-of."
    ),
    "tournament.best_of": lambda: _("A match is a best of 1 or a best of 3."),
    "tournament.fee_cap": lambda cap: plural(
        "The entry fee must be between 0 and %(count)s chip.",
        "The entry fee must be between 0 and %(count)s chips.",
        cap,
    ),
    "tournament.fee": lambda balance, fee: plural(
        "You have %(count)s chip; this tournament's entry fee is %(fee)s.",
        "You have %(count)s chips; this tournament's entry fee is %(fee)s.",
        balance,
        count=number(balance),
        fee=number(fee),
    ),
    "tournament.join_full": lambda most: plural(
        "The field is full: a tournament takes %(count)s player at most.",
        "The field is full: a tournament takes %(count)s players at most.",
        most,
        count=number(most),
    ),
    "tournament.join_closed": lambda: _("Sign-up for this tournament is closed."),
    "tournament.join_again": lambda: _("You are signed up already."),
    "tournament.leave": lambda: _("You are not signed up, or the tournament has started."),
    "tournament.start": lambda: _("This tournament has started already or is over."),
    "tournament.players": lambda: _("A tournament needs two players at least."),
    "tournament.cancel": lambda: _("This tournament is over already."),
    "tournament.remove": lambda: _("They are not in this tournament, or it is over."),
    "tournament.override": lambda: _("Only a match of the round being played can be changed."),
    "tournament.override_winner": lambda name: _(
        "%(name)s is not playing at that table: pick one of its players as the winner.",
        name=md_name(name),
    ),
    "tournament.checkin": lambda: _(
        # TRANSLATORS: signup-minutes is /tournament create's option: write its name as
        # your language's Discord shows it (the commands catalogue).
        "Check-in needs a sign-up window at least as long: set signup-minutes too."
    ),
    "tournament.checkin_closed": lambda: _("Check-in is not open."),
    "tournament.checkin_again": lambda: _("You are checked in already."),
    "tournament.checkin_not_in": lambda: _(
        "You are not signed up: press **Join** (it checks you in too)."
    ),
    "tournament.checkin_not_open": lambda: _(
        "Check-in has not opened yet: start once it has, or wait."
    ),
    "tournament.seats": lambda: _("This game cannot seat that many at a table."),
    "tournament.seats_format": lambda: _(
        # TRANSLATORS: seats is /tournament create's option: write its name as your
        # language's Discord shows it.
        "Tables of three or more are for Swiss: pick Swiss, or 2 seats."
    ),
    "tournament.seats_best_of": lambda: _(
        # TRANSLATORS: best-of is /tournament create's option: write its name as your
        # language's Discord shows it.
        "Tables of three or more play one game a round: leave best-of at 1."
    ),
}
add_texts(TOURNAMENT_TEXTS)
