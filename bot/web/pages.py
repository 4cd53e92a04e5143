"""The public pages: the index, a server's leaderboards and games, a player, a game's
replay viewer and a tournament. Each page is drawn in its reader's language (``?lang=``,
else ``Accept-Language``, else the server's) from the services the bot's commands use, with
the same privacy: opaque ids in addresses, forgotten members as "Deleted member", no hand.

A server that has not made its pages public (``/settings web on``) is answered 404, the same
as one that does not exist."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlencode

import jinja2
from aiohttp import web

from bot.errors import UserError
from bot.games.registry import Games
from bot.i18n import catalogues
from bot.i18n.catalogue import Language
from bot.i18n.speaking import number, speaking
from bot.records import LeaderboardRow
from bot.render.chart import rating_chart
from bot.tables.limits import MAX_ID
from bot.tables.replays import Replay, Replays
from bot.tables.stats import Stats
from bot.tables.tournaments import Tournaments
from bot.tables.web import WebDirectory
from bot.ui.tournament_pictures import picture_png, standings_table
from bot.web import words
from bot.web.discord_links import ChannelPublic, jump_url, never_public, where
from bot.web.pictures import PictureCache

TEMPLATES = Path(__file__).with_name("templates")
PAGE_SIZE = 25
MAX_PAGE = 100_000
STORY_LINES = 40  # the moves shown above the board: the latest, the whole story a step away
LANG_MAX = 35


class Services(Protocol):
    """The services the pages read (the bot's ``Shell`` has them; the pages' own process
    makes its own over its own database connection, ``bot.web_process``)."""

    games: Games
    stats: Stats
    replays: Replays
    tournaments: Tournaments


async def no_name(guild_id: int) -> str | None:
    return None


@dataclass
class Site:
    """What the pages read: the services, and what the bot knows of each server (its name
    and language, which channels every member may read: Discord's cache)."""

    shell: Services
    web: WebDirectory
    language_of: Callable[[int], Awaitable[Language]]  # a server's language
    guild_name: Callable[[int], Awaitable[str | None]] = no_name
    public_url: str | None = None
    pictures: PictureCache = field(default_factory=PictureCache)
    # Whether every member may read a channel: only such tables are listed.
    channel_public: ChannelPublic = never_public


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,  # every value is text; nothing a member typed becomes markup
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def whole(text: str | None, low: int, high: int, default: int | None = None) -> int | None:
    """A query's number, or ``default`` when absent; 400 for anything but digits in range
    (a 20-digit number, a negative page, a word)."""
    if text is None or text == "":
        return default
    if not text.isascii() or not text.isdigit() or len(text) > 12:
        raise web.HTTPBadRequest()
    value = int(text)
    if not low <= value <= high:
        raise web.HTTPBadRequest()
    return value


def path_id(text: str) -> int:
    """A game's or a tournament's number in an address; 404 for anything else."""
    if not text.isascii() or not text.isdigit() or len(text) > 12 or not 0 < int(text) <= MAX_ID:
        raise web.HTTPNotFound()
    return int(text)


_ENVIRONMENT: list[jinja2.Environment] = []


def render_page(template: str, tag: str, values: dict[str, Any]) -> str:
    """A page's HTML from its values, in the language ``tag``."""
    if not _ENVIRONMENT:
        _ENVIRONMENT.append(_environment())
    with speaking(tag):
        return _ENVIRONMENT[0].get_template(template).render(w=words.words(), lang=tag, **values)


class Pages:
    def __init__(self, site: Site) -> None:
        self.site = site

    # --- languages ----------------------------------------------------------------------

    def asked_language(self, request: web.Request) -> Language | None:
        """The reader's language from ``?lang=`` (400 when it names none of the catalogues'),
        else from ``Accept-Language``; None: neither says, the server's decides."""
        books = catalogues()
        asked = request.query.get("lang")
        if asked is not None:
            tag = asked.strip()
            if not tag or len(tag) > LANG_MAX or (books.resolve(tag) == "en" and not _english(tag)):
                raise web.HTTPBadRequest()
            return books.language(tag)
        for tag in _accepted(request.headers.get("Accept-Language", "")):
            if books.resolve(tag) != "en" or _english(tag):
                return books.language(tag)
        return None

    async def language(self, request: web.Request, guild_id: int | None) -> Language:
        asked = self.asked_language(request)
        if asked is not None:
            return asked
        if guild_id is not None:
            return await self.site.language_of(guild_id)
        return catalogues().language(None)

    # --- drawing ------------------------------------------------------------------------

    async def render(
        self,
        request: web.Request,
        template: str,
        words_in: Language,
        status: int = 200,
        **values: Any,
    ) -> web.Response:
        values.update(languages=_language_links(request), og=values.get("og"))
        page = render_page(template, words_in.tag, values)
        return web.Response(text=page, content_type="text/html", status=status)

    async def error_page(self, request: web.Request, status: int) -> web.Response:
        try:
            words_in = self.asked_language(request) or catalogues().language(None)
        except web.HTTPException:
            words_in = catalogues().language(None)
        with speaking(words_in):
            title, text = {400: words.bad_request, 404: words.not_found, 429: words.too_many}.get(
                status, words.not_found if status < 500 else words.broken
            )()
        return await self.render(request, "error.html", words_in, status, title=title, text=text)

    def absolute(self, path: str) -> str | None:
        return None if self.site.public_url is None else self.site.public_url + path

    # --- the server behind an address -----------------------------------------------------

    async def guild(self, request: web.Request) -> tuple[int, str, str]:
        """(guild id, web id, name) of the public server the address names; 404 else."""
        web_id = request.match_info["server"]
        guild_id = await self.site.web.guild(web_id)
        if guild_id is None:
            raise web.HTTPNotFound()
        return guild_id, web_id, await self.site.guild_name(guild_id) or ""

    # --- pages --------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.Response:
        words_in = await self.language(request, None)
        servers = []
        for web_id, guild_id in await self.site.web.public_guilds():
            servers.append({"url": f"/s/{web_id}", "name": await self.site.guild_name(guild_id)})
        with speaking(words_in):
            for server in servers:
                server["name"] = server["name"] or words.a_server()
            title = words.words()["site"]
        og = {"title": title, "url": self.absolute("/"), "image": None}
        return await self.render(
            request, "index.html", words_in, title=title, servers=servers, og=og
        )

    async def server(self, request: web.Request) -> web.Response:
        guild_id, web_id, name = await self.guild(request)
        shell = self.site.shell
        words_in = await self.language(request, guild_id)
        keys, seasons = await asyncio.gather(
            shell.stats.game_keys(guild_id), shell.stats.list_seasons(guild_id)
        )
        season_id = whole(request.query.get("season"), 1, MAX_ID)
        if season_id is not None and all(s.id != season_id for s in seasons):
            raise web.HTTPNotFound()
        if season_id is not None:
            keys = await shell.stats.season_game_keys(season_id)
        game_key = request.query.get("game") or (keys[0] if keys else None)
        if game_key is not None and game_key not in keys:
            raise web.HTTPNotFound()
        page = whole(request.query.get("page"), 1, MAX_PAGE, 1) or 1
        query = request.query.get("q", "").strip()[:100]
        rows: list[LeaderboardRow] = []
        total, pages = 0, 1
        if game_key is not None:
            if query:
                rows, total = await self.site.web.search(
                    guild_id, game_key, query, season_id=season_id, page=page
                )
                pages = max(1, -(-total // PAGE_SIZE))
            else:
                board = await shell.stats.leaderboard(
                    game_key, "server", guild_id, "rating", page=page, season_id=season_id
                )
                rows, total = board.rows, board.total
                pages = max(1, -(-total // board.page_size))
        ids, history, listed, live, queued = await asyncio.gather(
            self.site.web.player_ids(guild_id, [r.user_id for r in rows]),
            # The latest ten, uncounted: counting a busy server's 100,000 games took a second.
            shell.replays.recent(guild_id, limit=10),
            shell.tournaments.listed(guild_id),
            self.site.web.live_tables(guild_id),
            self.site.web.queue_sizes(guild_id),
        )
        live = [t for t in live if await self.site.channel_public(guild_id, where(t))]
        tournaments = listed[:10]
        base = f"/s/{web_id}"

        def link(**changed: Any) -> str:
            values = {"game": game_key, "season": season_id, "q": query or None, "page": page}
            values.update(changed)
            kept = {k: v for k, v in values.items() if v is not None and v != ""}
            return base + ("?" + urlencode(kept) if kept else "")

        with speaking(words_in):
            title = words.server_title(name or words.a_server())
            board_rows = [
                {
                    "rank": number(r.rank),
                    "name": words.name_of(r.user_id, r.name),
                    "url": f"{base}/p/{ids[r.user_id]}" if r.user_id in ids else None,
                    "rating": number(r.rating),
                    "games": number(r.games),
                    "wins": number(r.wins),
                    "win_rate": f"{round(r.win_rate * 100)} %",
                }
                for r in rows
            ]
            games_tabs = [
                {
                    "label": shell.games.label(k),
                    "url": link(game=k, page=None, q=None),
                    "current": k == game_key,
                }
                for k in keys
            ]
            season_tabs = [
                {
                    "label": words.words()["all_time"],
                    "url": link(season=None, page=None),
                    "current": season_id is None,
                },
                *(
                    {
                        "label": s.name,
                        "url": link(season=s.id, page=None),
                        "current": s.id == season_id,
                    }
                    for s in seasons
                ),
            ]
            recent = _recent(shell, base, history)
            events = [
                {
                    "name": f"#{t.id} · {shell.games.label(t.game_key)}",
                    "status": t.status,
                    "url": f"{base}/t/{t.id}",
                }
                for t in tournaments
            ]
            tables = [
                {
                    "name": words.game_title(t.id, shell.games.label(t.game_key)),
                    "status": words.table_status(t.status),
                    "url": f"{base}/live/{t.id}",
                }
                for t in live
            ]
            waiting = [
                {"game": shell.games.label(k), "count": words.queued(n)}
                for k, n in sorted(queued.items(), key=lambda kv: shell.games.label(kv[0]))
                if n > 0
            ]
            paging = {
                "text": words.page_of(min(page, pages), pages),
                "previous": link(page=page - 1) if page > 1 else None,
                "next": link(page=page + 1) if page < pages else None,
            }
        og = {"title": title, "url": self.absolute(base), "image": None}
        return await self.render(
            request,
            "server.html",
            words_in,
            title=title,
            rows=board_rows,
            games=games_tabs,
            seasons=season_tabs if seasons else [],
            query=query,
            paging=paging,
            recent=recent,
            live=tables,
            waiting=waiting,
            tournaments=events,
            action=base,
            game_key=game_key or "",
            season_id=season_id,
            searched=bool(query),
            og=og,
        )

    async def live(self, request: web.Request) -> web.Response:
        """Into Discord: the live table's message, for a table in a channel every member
        may read (the page links here, so that no Discord id is in it); 404 else."""
        guild_id, _web_id, _name = await self.guild(request)
        table_id = path_id(request.match_info["table"])
        for table in await self.site.web.live_tables(guild_id):
            if table.id == table_id and await self.site.channel_public(guild_id, where(table)):
                raise web.HTTPFound(jump_url(guild_id, table))
        raise web.HTTPNotFound()

    async def player(self, request: web.Request) -> web.Response:
        guild_id, web_id, server_name = await self.guild(request)
        found = await self.site.web.player(guild_id, request.match_info["player"])
        if found is None:
            raise web.HTTPNotFound()
        user_id, name = found
        shell = self.site.shell
        words_in = await self.language(request, guild_id)
        lines = await shell.stats.player_stats(guild_id, user_id)
        rivals = await self.site.web.rivals(guild_id, user_id)
        rival_ids = await self.site.web.player_ids(guild_id, [r.user_id for r in rivals])
        history = await shell.replays.history(guild_id, user_id=user_id)
        base = f"/s/{web_id}"
        me = f"{base}/p/{request.match_info['player']}"
        with speaking(words_in):
            shown = words.name_of(user_id, name)
            title = words.player_title(shown, server_name or words.a_server())
            per_game = [
                {
                    "label": shell.games.label(line.game_key),
                    "games": number(line.games),
                    "wins": number(line.wins),
                    "chart": f"{me}/rating.png?game={line.game_key}",
                    "rated": line.rated_games > 0,
                }
                for line in lines
            ]
            met = [
                {
                    "name": words.name_of(r.user_id, r.name),
                    "games": number(r.games),
                    "wins": number(r.wins),
                    "losses": number(r.losses),
                    "url": f"{base}/p/{rival_ids[r.user_id]}" if r.user_id in rival_ids else None,
                }
                for r in rivals
            ]
            recent = _recent(shell, base, history.games)
        og = {"title": title, "url": self.absolute(me), "image": None}
        if per_game and per_game[0]["rated"]:
            og["image"] = self.absolute(str(per_game[0]["chart"]))
        return await self.render(
            request,
            "player.html",
            words_in,
            title=title,
            per_game=per_game,
            rivals=met,
            recent=recent,
            server_url=base,
            og=og,
        )

    async def rating_png(self, request: web.Request) -> web.Response:
        guild_id, _web_id, _name = await self.guild(request)
        found = await self.site.web.player(guild_id, request.match_info["player"])
        if found is None:
            raise web.HTTPNotFound()
        user_id = found[0]
        game_key = request.query.get("game", "")
        lines = await self.site.shell.stats.player_stats(guild_id, user_id, game_key or None)
        if not game_key or not lines:
            raise web.HTTPNotFound()
        words_in = await self.language(request, guild_id)
        points = await self.site.shell.stats.rating_points(guild_id, game_key, user_id, 50)
        key = ("rating", guild_id, user_id, game_key, lines[0].last_game_id, words_in.tag)
        with speaking(words_in):
            data = await self.site.pictures.get(key, lambda: rating_chart(points))
        return _png(data)

    async def replay(self, request: web.Request) -> Replay:
        guild_id, _web_id, _name = await self.guild(request)
        game_id = path_id(request.match_info["game"])
        try:
            return await self.site.shell.replays.load(game_id, guild_id)
        except UserError:  # unknown, unfinished, another server's, not replayable
            raise web.HTTPNotFound() from None

    async def game(self, request: web.Request) -> web.Response:
        guild_id, web_id, _name = await self.guild(request)
        replay = await self.replay(request)
        step = replay.clamp(whole(request.query.get("step"), 0, 1_000_000, 0) or 0)
        shell = self.site.shell
        game = shell.games.shown(replay.kind)
        words_in = await self.language(request, guild_id)
        base = f"/s/{web_id}/g/{replay.game_id}"
        lang = request.query.get("lang")

        def at(to: int) -> str:
            query = {"step": replay.clamp(to), **({"lang": lang} if lang else {})}
            return f"{base}?{urlencode(query)}"

        with speaking(words_in):
            label = shell.games.label(replay.game_key)
            title = words.game_title(replay.game_id, label)
            text = game.replay_text(replay.moments[: step + 1], replay.seats) or ""
            story, cut, scores = text.rpartition("\n\n")
            if not cut:
                story, scores = text, ""
            lines = [line for line in story.splitlines() if line.strip()][-STORY_LINES:]
            players = [words.name_of(s.user_id, s.name) for s in replay.seats]
            steps = {
                "first": at(0),
                "back": at(step - 1),
                "next": at(step + 1),
                "last": at(replay.last),
                "step": step,
                "last_step": replay.last,
                "text": words.step_of(step, replay.last),
            }
        pictures = _has_pictures(game)
        image = f"{base}/{step}.png" + (f"?lang={lang}" if lang else "") if pictures else None
        og = {"title": title, "url": self.absolute(f"{base}?step={step}"), "image": None}
        if image is not None:
            og["image"] = self.absolute(f"{base}/{replay.last}.png")
        return await self.render(
            request,
            "game.html",
            words_in,
            title=title,
            steps=steps,
            story=lines if step else [],
            scores=scores.strip(),
            players=players,
            image=image,
            server_url=f"/s/{web_id}",
            og=og,
            autoplay=request.query.get("play") == "1",
        )

    async def step_png(self, request: web.Request) -> web.Response:
        guild_id, _web_id, _name = await self.guild(request)
        replay = await self.replay(request)
        step_text = request.match_info["step"]  # a part of the address: 404, not 400
        if not step_text.isascii() or not step_text.isdigit() or len(step_text) > 7:
            raise web.HTTPNotFound()
        step = int(step_text)
        if step > replay.last:
            raise web.HTTPNotFound()
        game = self.site.shell.games.shown(replay.kind)
        words_in = await self.language(request, guild_id)
        names = tuple(s.name for s in replay.seats)
        key = ("step", replay.game_id, step, words_in.tag, names)
        shown, seats = replay.moments[: step + 1], replay.seats
        with speaking(words_in):
            data = await self.site.pictures.get(key, lambda: game.replay_picture(shown, seats))
        return _png(data)

    async def tournament(self, request: web.Request) -> web.Response:
        guild_id, web_id, _name = await self.guild(request)
        tournament_id = path_id(request.match_info["tournament"])
        picture = await self._picture(guild_id, tournament_id)
        shell = self.site.shell
        words_in = await self.language(request, guild_id)
        t = picture.tournament
        base = f"/s/{web_id}/t/{t.id}"
        with speaking(words_in):
            head, header, rows = standings_table(picture, shell.games)
            rounds, results, prizes = _tournament_sections(picture, f"/s/{web_id}")
        has_picture = t.status not in ("signup", "cancelled") and bool(picture.entries)
        image = f"{base}.png" if has_picture else None
        og = {"title": head, "url": self.absolute(base), "image": None}
        if image is not None:
            og["image"] = self.absolute(image)
        return await self.render(
            request,
            "tournament.html",
            words_in,
            title=head,
            header=header,
            rows=rows,
            rounds=rounds,
            results=results,
            prizes=prizes,
            image=image,
            server_url=f"/s/{web_id}",
            og=og,
        )

    async def tournament_png(self, request: web.Request) -> web.Response:
        guild_id, _web_id, _name = await self.guild(request)
        tournament_id = path_id(request.match_info["tournament"])
        picture = await self._picture(guild_id, tournament_id)
        words_in = await self.language(request, guild_id)
        games = self.site.shell.games
        t = picture.tournament
        key = (
            "bracket",
            t.id,
            t.status,
            t.round,
            len(picture.matches),
            words_in.tag,
            time.time() // 30,
        )  # a live bracket: drawn again every 30 s
        with speaking(words_in):
            data = await self.site.pictures.get(key, lambda: picture_png(picture, games))
        return _png(data)

    async def _picture(self, guild_id: int, tournament_id: int) -> Any:
        try:
            picture = await self.site.shell.tournaments.picture(tournament_id)
        except UserError:
            raise web.HTTPNotFound() from None
        if picture.tournament.guild_id != guild_id:
            raise web.HTTPNotFound()
        return picture


def _tournament_sections(
    picture: Any, base: str
) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """A tournament's rounds (each match, who won it, its game's page once it is over), its
    final places once it is finished, and the chips each place won."""
    t = picture.tournament
    names = {e.user_id: words.name_of(e.user_id, e.name) for e in picture.entries}

    def name(user_id: int | None) -> str:
        return names.get(user_id, words.deleted()) if user_id is not None else "—"

    rounds = []
    for n in range(1, t.round + 1):
        lines = []
        for m in sorted((m for m in picture.matches if m.round == n), key=lambda m: m.slot):
            players = " · ".join(name(u) for u in m.seated)
            if len(m.seated) == 1:
                text = words.match_bye(players)
            elif m.status == "done" and m.winner_id is not None:
                text = words.match_won(players, name(m.winner_id))
            else:
                text = words.match_open(players)
            done = m.status == "done" and m.game_id is not None
            lines.append({"text": text, "url": f"{base}/g/{m.game_id}" if done else None})
        rounds.append({"title": words.round_title(n), "matches": lines})
    results: list[str] = []
    if t.status == "finished":
        order = picture.places or [s.id for s in picture.standings]
        results = [words.place_line(i, name(u)) for i, u in enumerate(order, 1)]
    prizes = [
        words.place_line(place, words.chips(amount))
        for place, amount in sorted(picture.prizes.items())
    ]
    return rounds, results, prizes


def _has_pictures(game: Any) -> bool:
    """Whether the game draws a board for its replay (the board game; the dice games not)."""
    from bot.games.base import Game

    return type(game).replay_picture is not Game.replay_picture


def _recent(shell: Services, base: str, games: list[Any]) -> list[dict[str, Any]]:
    return [
        {
            "title": words.game_title(g.id, shell.games.label(g.game_key)),
            "players": ", ".join(g.players),
            "winners": ", ".join(g.winners),
            "url": f"{base}/g/{g.id}",
        }
        for g in games
    ]


def _png(data: bytes | None) -> web.Response:
    if data is None:
        raise web.HTTPNotFound()
    return web.Response(
        body=data, content_type="image/png", headers={"Cache-Control": "public, max-age=300"}
    )


def _english(tag: str) -> bool:
    return tag.replace("_", "-").casefold().split("-", 1)[0] == "en"


def _accepted(header: str) -> list[str]:
    """Accept-Language's tags, the most wanted first (``de-CH, de;q=0.8, en;q=0.5``)."""
    found: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:500].split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if tag and tag != "*" and weight > 0 and len(tag) <= LANG_MAX:
            found.append((-weight, index, tag))
    return [tag for _w, _i, tag in sorted(found)]


def _language_links(request: web.Request) -> list[dict[str, str]]:
    """This page in each of the bot's languages."""
    books = catalogues()
    kept = urlencode([(k, v) for k, v in request.query.items() if k != "lang"])
    start = f"{request.path}?{kept}&lang=" if kept else f"{request.path}?lang="
    return [{"name": _language_name(tag), "url": start + tag} for tag in books.tags]


@functools.cache
def _language_name(tag: str) -> str:
    return catalogues().language(tag).name
