"""The rules of this game as the bot plays them (RULINGS.md), in the words players read
in ``/rules``; and the names its leaderboards go by."""

from __future__ import annotations

from bot.errors import add_texts
from bot.games.base import RulesPage
from bot.i18n.speaking import N_, _, number, pgettext, plural
from bot.rules import pushluck as pl

# The one name of each variant, wherever a game of it is named: "Sequences (Reverse)".
VARIANT_TITLES = {
    "standard": N_("Sequences"),
    # TRANSLATORS: the variant whose run goes down from 6 (6, 6-5, 6-5-4 ...).
    "reverse": N_("Sequences (Reverse)"),
    # TRANSLATORS: the variant of two teams of two.
    "team": N_("Sequences (Team)"),
    # TRANSLATORS: the variant where the first to exactly 21 wins at once (sudden death).
    "sudden": N_("Sequences (Sudden)"),
    # TRANSLATORS: the variant played with six dice.
    "extended": N_("Sequences (Extended)"),
}


def variant_title(variant: str) -> str:
    """The one name of a variant, wherever a game of it is named: "Sequences (Reverse)"."""
    title = VARIANT_TITLES.get(variant)
    return _(title) if title else f"Sequences ({variant.title()})"


def variant_name(variant: str) -> str:
    """A variant's short name, lowercase, as a turn message's footer says it: "reverse"."""
    # TRANSLATORS: the variants' short names in a turn message's footer ("Game #12 · reverse").
    names = {
        "standard": pgettext("variant", "standard"),
        "reverse": pgettext("variant", "reverse"),
        "team": pgettext("variant", "team"),
        "sudden": pgettext("variant", "sudden"),
        "extended": pgettext("variant", "extended"),
    }
    return names.get(variant, variant)


def _main_page() -> str:
    return "\n".join(
        (
            _("**2–4 players, 5 dice.** Start your turn by throwing all five dice."),
            _("• The **run** starts at 1 and grows one number at a time: 1, 1-2, 1-2-3 …"),
            _(
                "• A die **extends** the run if it shows the next missing number; one throw "
                "can extend it by several (run at 2, throw 3-4-4-6-1: the 3 and one 4). "
                "Duplicates never count."
            ),
            _(
                "• After a throw you **lock** at least one extending die (the buttons lock "
                "them all; *Lock only …* keeps fewer), then **Bank** (score = highest number "
                "reached) or **Push** (re-throw the dice not locked)."
            ),
            _(
                "• A throw with no extending die is a **bust**: the turn scores 0. "
                "(A first throw with no 1 busts.)"
            ),
            _(
                "• With all five locked (1-5) bank 5, or take one **bonus throw** of a single "
                "die: a 6 scores **10**, anything else busts."
            ),
            _(
                "• The game lasts a number of rounds (default 5) or runs to a target score; "
                "with a target the round is finished so everyone has the same number of "
                "turns. Highest total wins. A tie: the tied players take one more turn each; "
                "the higher turn wins (repeat while tied)."
            ),
            _(
                "• House rule *soft last die* (off unless chosen): a bust while throwing a "
                "single die keeps half the run, rounded down."
            ),
            _(
                "• Turn timer: if you don't act in time the bot banks for you (or throws); "
                "three missed turns in a row forfeit your seat (see `/rules game:tables`)."
            ),
            _(
                "• Best play, exactly (`/odds`, or the **Odds** button in your turn): push a "
                "lone 1, bank from 2 up, and never take the bonus throw (it is worth 1.67 on "
                "average against 5 banked). The old advice to push on 1-2 with three dice "
                "left is wrong: pushing is worth 1.43, banking 2."
            ),
        )
    )


def rules_pages() -> tuple[RulesPage, ...]:
    """The /rules pages, in the reader's language (made when read: ``Game.rules_pages``)."""
    return (
        RulesPage("sequences", _("Sequences (push-your-luck)"), _main_page()),
        RulesPage(
            "reverse",
            variant_title("reverse"),
            _(
                "As standard, but the run starts at **6** and goes down (6, 6-5, 6-5-4 …). "
                "A turn scores how many numbers the run holds (6-5-4 = 3); five locked dice "
                "reach 2, and a bonus throw of **1** scores 10."
            ),
        ),
        RulesPage(
            "team",
            variant_title("team"),
            _(
                "Exactly **4 players** in two teams of two; partners alternate in turn order "
                "(A1 B1 A2 B2). A team's total is the sum of its players' turns; the first "
                "team to the target (default **30**) at the end of a round wins. A tie "
                "between teams: every member of the tied teams takes one more turn; the "
                "higher team sum wins."
            ),
        ),
        RulesPage(
            "sudden",
            variant_title("sudden"),
            _(
                "No rounds: the first player whose total is **exactly 21** wins at once. A "
                "bank (or bonus) that would take your total past 21 scores nothing that "
                "turn, so locking fewer dice to bank a smaller number can win the game."
            ),
        ),
        RulesPage(
            "extended",
            variant_title("extended"),
            _(
                "Played with **6 dice**. Reaching 6 ends the turn at once with **15** points; "
                "there is no bonus throw."
            ),
        ),
    )


LABELS = {f"sequences:{variant}": title for variant, title in VARIANT_TITLES.items()}

# The words of the settings' refusals (``bot.games.sequences.settings``).
add_texts(
    {
        "sequences.variant": lambda: _("Unknown variant."),
        "sequences.rounds_and_target": lambda: _("Choose rounds or a target score, not both."),
        "sequences.sudden_rounds": lambda target: _(
            "Sudden has no rounds or target: the first to exactly %(target)s wins at once.",
            target=number(target),
        ),
    }
)

# The words of the rules core's refusals (``bot.rules.pushluck``).
add_texts(
    {
        # TRANSLATORS: %(variant)s is the name a request gave, quoted ('sudden').
        "push.variant": lambda variant: _("Unknown variant %(variant)s.", variant=repr(variant)),
        "push.length_none": lambda: _("Choose a number of rounds or a target score."),
        "push.length_both": lambda: _("Choose rounds or a target score, not both."),
        "push.rounds": lambda most: _("Rounds must be between 1 and %(most)s.", most=number(most)),
        "push.target": lambda most: _(
            "The target score must be between 5 and %(most)s.", most=number(most)
        ),
        "push.exactly": lambda seats: _(
            "This variant needs exactly %(seats)s players.", seats=number(seats)
        ),
        "push.no_lock": lambda: _("There is nothing to lock now."),
        "push.lock_range": lambda most: _(
            "You can lock 1 to %(most)s dice from this throw.", most=number(most)
        ),
        "push.lock_first": lambda: _("Lock at least one die first."),
        "push.no_dice": lambda: _("No dice are left to throw."),
        "push.bonus_locked": lambda: _("The bonus throw needs all five dice locked."),
        "push.thrown": lambda: _("The dice are already thrown."),
        "push.not_now": lambda: _("That move is not possible now."),
        "odds.over": lambda: _("This game is over: there are no odds to show."),
        "odds.nothing": lambda: _("There is nothing to decide now."),
    }
)

# What each bot level does (``bot.rules.dice_bots.LEVELS``), one line in the lobby.
BOT_LEVEL_TEXTS = {
    "cautious": N_("banks as soon as it has a run: it seldom busts and seldom scores big."),
    "bold": N_("pushes until the run reaches 3 (4 with six dice) and never risks the bonus."),
    "optimal": N_("plays the exact odds for the best average turn (Sudden: fewest turns)."),
}


def bot_level_texts() -> dict[str, str]:
    """``BOT_LEVEL_TEXTS`` in the reader's language."""
    return {level: _(text) for level, text in BOT_LEVEL_TEXTS.items()}


def length_text(config: pl.PushConfig) -> str:
    """How long a game of ``config`` lasts: "5 rounds", "first to 30"."""
    if config.variant == "sudden":
        return _("first to exactly %(target)s", target=number(pl.SUDDEN_TARGET))
    if config.rounds is not None:
        return plural("%(count)s round", "%(count)s rounds", config.rounds)
    return _("first to %(target)s", target=number(config.target or 0))


# The start options' names in the host's settings form (``Game.option_labels``).
OPTION_LABELS = {
    # TRANSLATORS: a field of the host's settings form (at most 45 characters).
    "variant": N_("Variant"),
    # TRANSLATORS: a field of the host's settings form (at most 45 characters).
    "rounds": N_("Rounds"),
    # TRANSLATORS: a field of the host's settings form (at most 45 characters).
    "target": N_("Target score"),
    # TRANSLATORS: a field of the host's settings form (at most 45 characters).
    "soft_last_die": N_("Soft last die"),
}
