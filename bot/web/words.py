"""The pages' own words, in the reader's language: templates hold no English, only the
names of these (``{{ w.players }}``), so the catalogues' extraction reads them here as it reads
every other message (the ``pages`` domain)."""

from __future__ import annotations

from bot.i18n.speaking import _, number, plural


def words() -> dict[str, str]:
    """Every fixed word of the pages, in the language being drawn (``speaking``)."""
    return {
        # TRANSLATORS: the web pages' name, in the header of every page.
        "site": _("Sequences at the table"),
        "about": _(
            "A Discord bot for dice and board sequence games: push-your-luck Sequences, "
            "one-roll Sequences, Hearts Due and the Sequence board game. These pages show "
            "the leaderboards, players, replays and tournaments of the servers that made "
            "theirs public."
        ),
        "servers": _("Public servers"),
        "no_servers": _("No server has made its pages public yet."),
        "how_public": _("A server's admins make its pages public with /settings web on."),
        "leaderboard": _("Leaderboard"),
        "all_time": _("All time"),
        "season": _("Season"),
        "search": _("Search"),
        "search_name": _("A player's name"),
        "rank": _("Rank"),
        "player": _("Player"),
        "rating": _("Rating"),
        "games": _("Games"),
        "wins": _("Wins"),
        "win_rate": _("Win rate"),
        "no_rows": _("Nobody is on this leaderboard yet."),
        "no_match": _("No player of that name on this leaderboard."),
        "previous": _("Previous"),
        "next": _("Next"),
        "recent": _("Recent games"),
        "no_games": _("No finished games yet."),
        "tournaments": _("Tournaments"),
        # TRANSLATORS: the server page's section of the lobbies and games being played now.
        "live": _("Live tables and open lobbies"),
        "open_in_discord": _("Open in Discord"),
        # TRANSLATORS: the server page's section of quick play's queue (/play queue).
        "waiting": _("Waiting for an opponent (/play queue)"),
        "rounds": _("Matches by round"),
        "results": _("Results"),
        "prizes": _("Prizes"),
        "rating_over_time": _("Rating over time"),
        "per_game": _("Games and wins per game"),
        "rivals": _("Head to head"),
        "rival_games": _("Games together"),
        "their_wins": _("Their wins"),
        "first": _("⏮ First"),
        "back": _("◀ Back"),
        "forward": _("Next ▶"),
        "last": _("Last ⏭"),
        "autoplay": _("Autoplay"),
        "arrow_keys": _("The arrow keys step too."),
        "story": _("The story so far"),
        "at_start": _("At the start: nothing played yet."),
        "board_at_step": _("The board at this step"),
        "bracket": _("Bracket and standings"),
        "back_to_server": _("Back to the server's page"),
        "language": _("Language"),
    }


def deleted() -> str:
    # TRANSLATORS: a member who asked the bot to forget them, as every page names them.
    return _("Deleted member")


def name_of(user_id: int | None, name: str | None) -> str:
    """A player's name on a page: a forgotten member is "Deleted member", as in Discord."""
    # Forgetting gives a member a negative id (no Discord id is negative): bot.store.privacy.
    if name is None or (user_id is not None and user_id < 0):
        return deleted()
    return name


def page_of(page: int, pages: int) -> str:
    return _("Page %(page)s of %(pages)s", page=number(page), pages=number(pages))


def step_of(step: int, last: int) -> str:
    return _("Step %(step)s of %(last)s", step=number(step), last=number(last))


def game_title(game_id: int, label: str) -> str:
    return _("Game #%(id)s: %(game)s", id=game_id, game=label)


def server_title(name: str) -> str:
    return _("%(server)s: leaderboards and games", server=name)


def player_title(name: str, server: str) -> str:
    return _("%(player)s in %(server)s", player=name, server=server)


def queued(count: int) -> str:
    """How many members wait in quick play's queue for one game."""
    return plural("%(count)s waiting", "%(count)s waiting", count, count=number(count))


def table_status(status: str) -> str:
    """A live table's state on the server page."""
    return _("Lobby open") if status == "lobby" else _("Being played")


def round_title(round_number: int) -> str:
    return _("Round %(round)s", round=number(round_number))


def match_won(players: str, winner: str) -> str:
    # TRANSLATORS: a tournament match on its page: "Ana · Bo: Ana won".
    return _("%(players)s: %(winner)s won", players=players, winner=winner)


def match_open(players: str) -> str:
    return _("%(players)s: not decided yet", players=players)


def match_bye(player: str) -> str:
    return _("%(player)s: a bye", player=player)


def place_line(place: int, what: str) -> str:
    # TRANSLATORS: a final place of a tournament and who took it, or the chips it won.
    return _("Place %(place)s: %(what)s", place=number(place), what=what)


def chips(amount: int) -> str:
    return _("%(chips)s chips", chips=number(amount))


def a_server() -> str:
    return _("A Discord server")


def not_found() -> tuple[str, str]:
    return _("Not found"), _("There is no such page here (or it is not public).")


def bad_request() -> tuple[str, str]:
    return _("Bad request"), _("This address asks for something the pages cannot show.")


def too_many() -> tuple[str, str]:
    return _("Too many requests"), _("Please wait a few seconds before the next page.")


def broken() -> tuple[str, str]:
    return _("Something went wrong"), _("The page could not be drawn; please try again.")
