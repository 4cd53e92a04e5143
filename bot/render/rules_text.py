"""The rules as the bot plays them (RULINGS.md), in the words players read in ``/rules``."""

from __future__ import annotations

RULES: dict[str, tuple[str, str]] = {
    "sequences": (
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
        "missed turns in a row abandon the game.\n"
        "• Best play, exactly (`/odds`, or the **Odds** button in your turn): push a lone 1, "
        "bank from 2 up, and never take the bonus throw (it is worth 1.67 on average against "
        "5 banked). The old advice to push on 1-2 with three dice left is wrong: pushing is "
        "worth 1.43, banking 2.",
    ),
    "reverse": (
        "Sequences: Reverse",
        "As standard, but the run starts at **6** and goes down (6, 6-5, 6-5-4 …). A turn "
        "scores how many numbers the run holds (6-5-4 = 3); five locked dice reach 2, and a "
        "bonus throw of **1** scores 10.",
    ),
    "team": (
        "Sequences: Team",
        "Exactly **4 players** in two teams of two; partners alternate in turn order "
        "(A1 B1 A2 B2). A team's total is the sum of its players' turns; the first team to "
        "the target (default **30**) at the end of a round wins. A tie between teams: every "
        "member of the tied teams takes one more turn; the higher team sum wins.",
    ),
    "sudden": (
        "Sequences: Sudden",
        "No rounds: the first player whose total is **exactly 21** wins at once. A bank (or "
        "bonus) that would take your total past 21 scores nothing that turn, so locking fewer "
        "dice to bank a smaller number can win the game.",
    ),
    "extended": (
        "Sequences: Extended",
        "Played with **6 dice**. Reaching 6 ends the turn at once with **15** points; there is "
        "no bonus throw.",
    ),
    "classic": (
        "Sequences (classic one-roll)",
        "**Any number of players (up to 10), six dice, one throw a turn: no decisions.**\n"
        "• Opening: everyone throws once; the highest sum of pips starts (ties throw again), "
        "and play goes round the table from there.\n"
        "• A throw scores its dice split into runs that start at 1, each die in one run at "
        "most, taking the split that scores most; every run scores:\n"
        "`1` 0 · `1-2` 5 · `1-2-3` 10 · `1-…-4` 15 · `1-…-5` 20 · `1-…-6` 25 · "
        "five 6s 30 · six 6s 60.\n"
        "  e.g. 1-1-2-2-3-5 → 1-2 + 1-2-3 = 15; five 6s and a 1 → 30.\n"
        "• **Four or more 1s** wipe your total to 0 (the throw scores 0).\n"
        "• When anyone reaches 100 the round is finished so everyone has thrown equally "
        "often; the highest total wins; a tie is settled by one more throw each.\n"
        "• The figures, exactly: an average throw scores **4.51** points (the old book says "
        "10), **58 %** of throws score nothing (it says about half), and reaching 100 takes "
        "**25.3 turns** on average (it says about twenty). See `/odds`.",
    ),
    "heartsdue": (
        "Hearts Due",
        "As classic one-roll Sequences, with its own table (every run scores, a lone 1 "
        "too):\n"
        "`1` 5 · `1-2` 10 · `1-2-3` 15 · `1-…-4` 20 · `1-…-5` 25 · `1-…-6` 30 · "
        "five 6s 35 · six 6s 70.\n"
        "  e.g. 1-1-2-3-5-6 → 1 + 1-2-3 = 20; 6-6-6-6-6-1 → 35 + 5 = 40.\n"
        "• Four or more 1s wipe your total to 0. Race to 100, round finished, tie throws.\n"
        "• Exactly: **9.33** points a throw on average; **11.9 turns** to reach 100 (only "
        "29 % of players get there within 9 turns, though the book says most do).",
    ),
    "board": (
        "Sequence (board game)",
        "**2–12 players.** 2 or 3 play alone; 4, 6, 8, 9, 10 or 12 play in 2 or 3 equal "
        "teams taking turns in alternation (5, 7 and 11 can't make equal teams). Two decks, "
        "104 cards, jacks included.\n"
        "• On your turn play a card and put a chip on one of the (up to two) free spaces "
        "showing it, then draw. The four corners are free spaces for every side.\n"
        "• **Two-eyed jacks** (J♦ J♣) go on any open space. **One-eyed jacks** (J♥ J♠) remove "
        "an opponent's chip that is not part of a sequence: that is your whole turn.\n"
        "• A card whose two spaces are both taken is **dead**: once a turn, before you play, "
        "trade it for a new card.\n"
        "• A **sequence** is five in a row (across, down or diagonal) of your chips or "
        "corners; its chips are locked. Two of your sequences may share one space, so nine "
        "in a line make two.\n"
        "• Win: 2 sequences with 2 sides, 1 with 3 sides (or 1 if the table chose *first "
        "sequence wins*). If nobody can play for a whole round, the game is drawn.\n"
        "• Press **My hand** on the board message to see your cards (only you see them), "
        "choose a card, then a space.",
    ),
}


def rules_text(game: str) -> tuple[str, str]:
    return RULES.get(game, RULES["sequences"])
