"""The web companion's pages through aiohttp's test client, on both engines (issue 33):
a server's pages are off until an admin turns them on (404 as for a server that does not
exist), the leaderboard with its search and paging, a player's page with the rating chart,
the replay viewer step by step with the board picture, the reader's language, hostile
input answered 400/404 with nothing logged, and a scan of every page for Discord ids."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from tests.discord.conftest import MakeEnv
from tests.web.conftest import WebOf
from tests.web.played import Played, play_server

PNG = b"\x89PNG\r\n\x1a\n"


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value and value.startswith("/"):
                self.found.append(value)


def links(html: str) -> list[str]:
    parser = Links()
    parser.feed(html)
    return parser.found


async def page(client: TestClient[Any, Any], path: str, status: int = 200, **kw: Any) -> str:
    response = await client.get(path, **kw)
    text = await response.text()
    assert response.status == status, (path, response.status, text[:300])
    return text


def main(html: str) -> str:
    """A page's own content, without the header's links to itself in each language."""
    return html.split("<main>", 1)[1]


def table(html: str) -> str:
    """The leaderboard's table of a server's page."""
    return html.split('<table class="leaderboard">', 1)[1].split("</table>", 1)[0]


@pytest.fixture
async def played(make_env: MakeEnv) -> Played:
    env = await make_env(seed=21)
    return await play_server(env)


async def test_a_server_is_off_the_web_until_an_admin_turns_it_on(
    make_env: MakeEnv, web_of: WebOf
) -> None:
    env = await make_env(seed=21)
    played = await play_server(env, public=False)
    client = await web_of(env)
    assert "Ana" not in await page(client, "/")
    refused = await played.ana.slash("settings web", state="on")
    assert refused.ephemeral and "Manage Server" in refused.text
    on = await played.admin.slash("settings web", state="on")
    web_id = on.text.split("/s/", 1)[1].split(" ", 1)[0]
    assert "Ana" in await page(client, f"/s/{web_id}")
    assert f"/s/{web_id}" in await page(client, "/")
    off = await played.admin.slash("settings web", state="off")
    assert "not found" in off.text
    # Off: the same 404 page as an id no server has, for every page of it.
    missing = main(await page(client, "/s/AAAAAAAAAAAA", 404))
    for path in (f"/s/{web_id}", f"/s/{web_id}/g/1", f"/s/{web_id}/g/1/0.png"):
        assert main(await page(client, path, 404)) == missing
    again = await played.admin.slash("settings web", state="on")
    assert f"/s/{web_id}" in again.text  # the same address as before


async def test_the_leaderboard_its_search_and_paging(played: Played, web_of: WebOf) -> None:
    client = await web_of(played.env)
    base = f"/s/{played.web_id}"
    board = await page(client, base)
    assert "Sequence (board game)" in board or "Sequence" in board
    assert "Ana" in board and "Bobby" in board
    assert "Hearts Due" in board
    hearts = table(await page(client, f"{base}?game=heartsdue"))
    assert "Cyrille" in hearts and "Ana" in hearts and "Bobby" not in hearts
    found = table(await page(client, f"{base}?game=heartsdue&q=CYR"))
    assert "Cyrille" in found and "Ana" not in found
    nobody = await page(client, f"{base}?game=heartsdue&q=%25_")  # LIKE's signs: literal
    assert "No player of that name" in nobody
    await page(client, f"{base}?game=nosuchgame", 404)
    await page(client, f"{base}?page=0", 400)
    await page(client, f"{base}?page=-1", 400)
    await page(client, f"{base}?page=99999999999999999999", 400)
    assert "Page 1 of 1" in await page(client, f"{base}?page=7")  # past the end: the last


async def test_a_players_page_has_the_chart_rivals_and_games(played: Played, web_of: WebOf) -> None:
    client = await web_of(played.env)
    board = await page(client, f"/s/{played.web_id}?game=heartsdue")
    [ana_url] = [u for u in links(board) if "/p/" in u and u in board.split(">Ana<")[0]][-1:]
    ana = await page(client, ana_url)
    assert "Ana" in ana and "Cyrille" in ana and "Bobby" in ana  # met both
    charts = [u for u in links(ana) if u.endswith(".png") or "rating.png" in u]
    assert charts
    for chart in charts:
        response = await client.get(chart)
        assert response.status == 200 and response.content_type == "image/png"
        assert (await response.read()).startswith(PNG)
    await page(client, f"/s/{played.web_id}/p/AAAAAAAAAAAA", 404)
    await page(client, f"{ana_url}/rating.png?game=nosuchgame", 404)


async def test_the_replay_viewer_steps_with_the_board_picture(
    played: Played, web_of: WebOf
) -> None:
    client = await web_of(played.env)
    game = f"/s/{played.web_id}/g/1"
    start = await page(client, game)
    assert "Step 0 of" in start and "At the start" in start
    assert "The arrow keys step too." in start  # a word of the template, not a dict method
    last = int(re.search(r"Step 0 of (\d+)", start)[1])  # type: ignore[index]
    assert last >= 4
    pictures = []
    for step in range(last + 1):
        html = await page(client, f"{game}?step={step}")
        assert f"Step {step} of {last}" in html
        [image] = [u for u in links(html) if u.endswith(".png")]
        response = await client.get(image)
        assert response.status == 200 and response.content_type == "image/png"
        pictures.append(await response.read())
    # Each move its own board; the last step is Bobby's resignation, which moves nothing.
    assert len(set(pictures[:last])) == last and pictures[last] == pictures[last - 1]
    assert "Bobby" in html and "resigned" in html
    assert "<li>1. Ana played" in html  # the story's own numbers, once
    assert f"Step {last} of {last}" in await page(client, f"{game}?step=999999")
    await page(client, f"{game}/{last + 1}.png", 404)
    await page(client, f"{game}?step=-3", 400)
    dice = await page(client, f"/s/{played.web_id}/g/2?step=3")
    assert "Step 3 of" in dice and not [u for u in links(dice) if u.endswith(".png")]


async def test_pages_in_the_readers_language(played: Played, web_of: WebOf) -> None:
    client = await web_of(played.env)
    base = f"/s/{played.web_id}"
    assert "Rangliste" in await page(client, f"{base}?lang=de")
    assert "Classement" in await page(client, base, headers={"Accept-Language": "fr-CH, en;q=0.5"})
    assert "Clasificación" in await page(client, base, headers={"Accept-Language": "es-419"})
    assert "Leaderboard" in await page(client, base, headers={"Accept-Language": "ja, en;q=0.1"})
    assert 'lang="pt-BR"' in await page(client, f"/s/{played.web_id}/g/1?lang=pt-BR")
    await page(client, f"{base}?lang=xx", 400)
    await page(client, f"{base}?lang=" + "d" * 40, 400)
    # Neither asks: the server's language (/settings language).
    await played.admin.slash("settings language", language="de")
    assert "Rangliste" in await page(client, base)


HOSTILE = [
    ("/s/../../etc/passwd", 404),
    ("/static/../config.py", 404),
    ("/static/%2e%2e/config.py", 404),
    ("/s/AAAAAAAAAAAA/g/1", 404),
    ("/s/x", 404),
    ("/s/" + "9" * 20, 404),
    ("/s/{web}/g/99999999999999999999", 404),
    ("/s/{web}/g/0", 404),
    ("/s/{web}/g/-1", 404),
    ("/s/{web}/g/abc", 404),
    ("/s/{web}/g/1/99999999999999999999.png", 404),
    ("/s/{web}/t/99999", 404),
    ("/s/{web}/t/1.png", 404),
    ("/s/{web}/p/" + "A" * 12 + "/rating.png", 404),
    ("/s/{web}/p/<script>", 404),
    ("/s/{web}?q=" + "x" * 4000, 400),
    ("/s/{web}?season=abc", 400),
    ("/s/{web}?season=99999999", 404),
    ("/s/{web}?lang=%00", 400),
    ("/nowhere", 404),
]


async def test_hostile_addresses_are_answered_400_or_404_and_nothing_is_logged(
    played: Played, web_of: WebOf
) -> None:
    client = await web_of(played.env)
    for path, status in HOSTILE:
        text = await page(client, path.replace("{web}", played.web_id), status)
        assert "<script>" not in text and "Traceback" not in text
    # The harness fails the test on any error logged (tests/harness: ErrorCollector).


SNOWFLAKE = re.compile(r"(?<!\d)\d{17,20}(?!\d)")


async def test_no_page_shows_a_discord_id_a_card_of_a_hand_or_a_token(
    make_env: MakeEnv, web_of: WebOf
) -> None:
    """Every page reachable from the index, in every language, of a played server with a
    lobby open in its public channel and one in a staff channel @everyone may not read: no
    member's, server's or channel's Discord id in a page or an address (the private
    channel's and the DMs' included), not the token, and no card of any hand of the board
    game that was not played in the open (each card's name alone: "7♥")."""
    from bot.rules.board.cards import card_label

    env = await make_env(seed=21, channels=("general", "staff"))
    played = await play_server(env)
    staff = env.h.text_channel("staff")
    await env.h.set_permissions(env.h.guild.default_role, staff, view_channel=False)
    for player in (played.ana, played.cy):
        await env.h.set_permissions(player, staff, view_channel=True)
    await env.h.set_bot_permissions(staff, view_channel=True)
    hidden_lobby = await played.ana.slash("board start", _channel=staff)  # not on the pages
    assert "table #3" in hidden_lobby.text, hidden_lobby.text
    await played.bo.slash("board start")  # table 4: listed, its redirect followed
    client = await web_of(env)
    secret = {str(p.id) for p in env.h.players.values()}
    secret |= {str(env.h.guild.id), str(env.bot.user.id) if env.bot.user else ""}
    secret |= {str(c.id) for c in env.h.guild.channels}
    secret |= {str(t.id) for t in env.h.threads}
    secret |= {str(c) for c in (*env.h.fake.private_channels, *env.h.fake.dm_channels)}
    token = env.bot.settings.discord_token
    secret |= {token.get_secret_value()} if token is not None else set()
    secret.discard("")
    board = await env.bot.tables.get(1)
    held = {card for hand in board.rules.hands for card in hand}
    hidden = {card_label(c) for c in held - set(board.rules.discards)}
    assert hidden, "the board game ended with cards in hands"
    seen: set[str] = set()
    redirects: list[str] = []
    todo = ["/", *(f"/?lang={tag}" for tag in ("de", "fr", "es", "pt-BR"))]
    while todo:
        path = todo.pop()
        if path in seen or path.startswith("/static/") or len(seen) > 400:
            continue
        seen.add(path)
        assert not SNOWFLAKE.search(path), path
        response = await client.get(path, allow_redirects=False)
        if "/live/" in path:  # into Discord: the only answer with a Discord id
            assert response.status == 302, path
            redirects.append(response.headers["Location"])
            continue
        assert response.status == 200, path
        if response.content_type != "text/html":
            continue
        html = await response.text()
        assert not SNOWFLAKE.search(html), (path, SNOWFLAKE.search(html))
        assert not [s for s in secret if s in html], path
        assert "My hand" not in html and "Your hand" not in html, path
        assert not [card for card in hidden if card in html], (path, hidden)
        todo += links(html)
    assert any("/g/1" in p for p in seen) and any("/p/" in p for p in seen)
    live = [p for p in seen if "/live/" in p]
    assert live and all(p.endswith("/live/4") for p in live), live
    assert redirects and all(str(staff.id) not in url for url in redirects)


async def test_a_forgotten_member_is_deleted_member_on_every_page(
    played: Played, web_of: WebOf
) -> None:
    import argparse
    import asyncio

    from bot.cli import forget

    env = played.env
    client = await web_of(env)
    args = argparse.Namespace(user_id=played.bo.id, database=env.bot.db.target)
    assert await asyncio.to_thread(forget.run, args) == 0
    base = f"/s/{played.web_id}"
    for path in (base, f"{base}/g/1?step=5", f"{base}/g/1?step=2"):
        html = await page(client, path)
        assert "Bobby" not in html, path
    assert "Deleted member" in await page(client, base)
    assert "Gelöschtes Mitglied" in await page(client, f"{base}?lang=de")


async def test_the_server_page_counts_quick_plays_queue_per_game(
    played: Played, web_of: WebOf
) -> None:
    """Issue 36.7: the server page says how many members wait in quick play's queue for
    each game, never who; the section goes when the queue is empty."""
    client = await web_of(played.env)
    base = f"/s/{played.web_id}"
    assert "Waiting for an opponent" not in await page(client, base)
    answer = await played.cy.slash("play queue", game="heartsdue")
    assert answer.ephemeral and "in the queue for Hearts Due" in answer.text
    shown = main(await page(client, base))
    section = shown[shown.index("Waiting for an opponent") :]
    section = section[: section.index("</section>")]
    assert "Hearts Due" in section and "1 waiting" in section
    assert "Cyrille" not in section and str(played.cy.id) not in shown
    await played.cy.slash("play leave")
    assert "Waiting for an opponent" not in await page(client, base)
