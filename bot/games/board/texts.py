"""The rules of this game as the bot plays them (RULINGS.md), in the words players read
in ``/rules``; and the names its leaderboards go by."""

from __future__ import annotations

from bot.games.base import RulesPage

# The one name of the game, wherever it is named (lobby, thread, board, results, /stats).
TITLE = "Sequence (board game)"

RULES_PAGES = (
    RulesPage(
        "board",
        TITLE,
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
        "sequence wins*).\n"
        "• Can't play? Trade a dead card if you hold one, then pass; the game goes on. It is "
        "a **draw** (stakes back, no rating change) only when no card left can ever be "
        "played, or when the pile is shuffled twice with no chip placed or removed.\n"
        "• Press **My hand** on the board message to see your cards (only you see them), "
        "choose a card, then a space.",
    ),
)

LABELS = {"board": TITLE}

# The bot levels a host can add (the lobby's Add bot buttons), as ``/rules`` describes them;
# ``bot.rules.board.levels`` says which engine plays each. Tables saved with the older level
# names (random, greedy, strong) play on with those bots.
BOT_LEVELS = {
    "easy": "looks one move ahead: extends its own lines and blocks any four it sees",
    "medium": "one move ahead, weighing every line and which cards are still unseen",
    "hard": "plays its best moves out a turn ahead over guesses of the hidden hands",
    "expert": "like hard, with five times as many guesses: slower and stronger",
}
# An Add bot button on a lobby message posted before the levels were renamed.
OLD_BOT_LEVELS = {"random": "easy", "greedy": "easy", "strong": "medium"}
