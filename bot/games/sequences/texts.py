"""The rules of this game as the bot plays them (RULINGS.md), in the words players read
in ``/rules``; and the names its leaderboards go by."""

from __future__ import annotations

from bot.errors import add_texts
from bot.games.base import RulesPage
from bot.rules import pushluck as pl

VARIANT_NAMES = {
    "standard": "",
    "reverse": "Reverse",
    "team": "Team",
    "sudden": "Sudden",
    "extended": "Extended",
}


def variant_title(variant: str) -> str:
    """The one name of a variant, wherever a game of it is named: "Sequences (Reverse)"."""
    name = VARIANT_NAMES.get(variant, variant.title())
    return f"Sequences ({name})" if name else "Sequences"


RULES_PAGES = (
    RulesPage(
        "sequences",
        "Sequences (push-your-luck)",
        "**2–4 players, 5 dice.** Start your turn by throwing all five dice.\n"
        "• The **run** starts at 1 and grows one number at a time: 1, 1-2, 1-2-3 …\n"
        "• A die **extends** the run if it shows the next missing number; one throw can extend "
        "it by several (run at 2, throw 3-4-4-6-1: the 3 and one 4). Duplicates never count.\n"
        "• After a throw you **lock** at least one extending die (the buttons lock them all; "
        "*Lock only …* keeps fewer), then **Bank** (score = highest number reached) or "
        "**Push** (re-throw the dice not locked).\n"
        "• A throw with no extending die is a **bust**: the turn scores 0. "
        "(A first throw with no 1 busts.)\n"
        "• With all five locked (1-5) bank 5, or take one **bonus throw** of a single die: "
        "a 6 scores **10**, anything else busts.\n"
        "• The game lasts a number of rounds (default 5) or runs to a target score; with a "
        "target the round is finished so everyone has the same number of turns. Highest "
        "total wins. A tie: the tied players take one more turn each; the higher turn wins "
        "(repeat while tied).\n"
        "• House rule *soft last die* (off unless chosen): a bust while throwing a single die "
        "keeps half the run, rounded down.\n"
        "• Turn timer: if you don't act in time the bot banks for you (or throws); three "
        "missed turns in a row forfeit your seat (see `/rules game:tables`).\n"
        "• Best play, exactly (`/odds`, or the **Odds** button in your turn): push a lone 1, "
        "bank from 2 up, and never take the bonus throw (it is worth 1.67 on average against "
        "5 banked). The old advice to push on 1-2 with three dice left is wrong: pushing is "
        "worth 1.43, banking 2.",
    ),
    RulesPage(
        "reverse",
        variant_title("reverse"),
        "As standard, but the run starts at **6** and goes down (6, 6-5, 6-5-4 …). A turn "
        "scores how many numbers the run holds (6-5-4 = 3); five locked dice reach 2, and a "
        "bonus throw of **1** scores 10.",
    ),
    RulesPage(
        "team",
        variant_title("team"),
        "Exactly **4 players** in two teams of two; partners alternate in turn order "
        "(A1 B1 A2 B2). A team's total is the sum of its players' turns; the first team to "
        "the target (default **30**) at the end of a round wins. A tie between teams: every "
        "member of the tied teams takes one more turn; the higher team sum wins.",
    ),
    RulesPage(
        "sudden",
        variant_title("sudden"),
        "No rounds: the first player whose total is **exactly 21** wins at once. A bank (or "
        "bonus) that would take your total past 21 scores nothing that turn, so locking fewer "
        "dice to bank a smaller number can win the game.",
    ),
    RulesPage(
        "extended",
        variant_title("extended"),
        "Played with **6 dice**. Reaching 6 ends the turn at once with **15** points; there is "
        "no bonus throw.",
    ),
)

LABELS = {f"sequences:{variant}": variant_title(variant) for variant in VARIANT_NAMES}

# The words of the settings' refusals (``bot.games.sequences.settings``).
add_texts(
    {
        "sequences.variant": "Unknown variant.",
        "sequences.rounds_and_target": "Choose rounds or a target score, not both.",
        "sequences.sudden_rounds": (
            "Sudden has no rounds or target: the first to exactly {target} wins at once."
        ),
    }
)

# The words of the rules core's refusals (``bot.rules.pushluck``).
add_texts(
    {
        "push.variant": "Unknown variant {variant!r}.",
        "push.length_none": "Choose a number of rounds or a target score.",
        "push.length_both": "Choose rounds or a target score, not both.",
        "push.rounds": "Rounds must be between 1 and {most}.",
        "push.target": "The target score must be between 5 and {most}.",
        "push.exactly": "This variant needs exactly {seats} players.",
        "push.no_lock": "There is nothing to lock now.",
        "push.lock_range": "You can lock 1 to {most} dice from this throw.",
        "push.lock_first": "Lock at least one die first.",
        "push.no_dice": "No dice are left to throw.",
        "push.bonus_locked": "The bonus throw needs all five dice locked.",
        "push.thrown": "The dice are already thrown.",
        "push.not_now": "That move is not possible now.",
        "odds.over": "This game is over: there are no odds to show.",
        "odds.nothing": "There is nothing to decide now.",
    }
)

# What each bot level does (``bot.rules.dice_bots.LEVELS``), one line in the lobby.
BOT_LEVEL_TEXTS = {
    "cautious": "banks as soon as it has a run: it seldom busts and seldom scores big.",
    "bold": "pushes until the run reaches 3 (4 with six dice) and never risks the bonus.",
    "optimal": "plays the exact odds for the best average turn (Sudden: fewest turns).",
}


def length_text(config: pl.PushConfig) -> str:
    """How long a game of ``config`` lasts: "5 rounds", "first to 30"."""
    if config.variant == "sudden":
        return "first to exactly 21"
    if config.rounds is not None:
        return f"{config.rounds} round{'s' if config.rounds != 1 else ''}"
    return f"first to {config.target}"
