""" "View on the web" from Discord (issue 33): with PUBLIC_URL set and the server's pages
public, /leaderboard, /stats, /history and /replay carry a link button to the same page on
the web, whose address the pages answer; without either, no button. The pages carry
OpenGraph tags (title, address, the board's picture) so a posted link unfurls."""

from __future__ import annotations

from urllib.parse import urlsplit

from tests.discord.conftest import MakeEnv
from tests.harness import Reply
from tests.web.conftest import WebOf
from tests.web.played import play_server

SITE = "https://games.example"


def link(reply: Reply) -> str | None:
    urls = [b.url for b in reply.message.buttons if b.url]
    assert len(urls) <= 1
    return urls[0] if urls else None


async def test_answers_link_to_their_page_on_the_web(make_env: MakeEnv, web_of: WebOf) -> None:
    env = await make_env(seed=21, public_url=SITE)
    played = await play_server(env)
    client = await web_of(env)
    base = f"{SITE}/s/{played.web_id}"
    answers = {
        "leaderboard": await played.ana.slash("leaderboard", game="heartsdue"),
        "history": await played.ana.slash("history"),
        "replay": await played.cy.slash("replay", game=1, step=2),
        "stats": await played.ana.slash("stats"),
    }
    urls = {name: link(reply) for name, reply in answers.items()}
    assert urls["leaderboard"] == f"{base}?game=heartsdue"
    assert urls["history"] == base
    assert urls["replay"] == f"{base}/g/1?step=2"
    assert urls["stats"] is not None and urls["stats"].startswith(f"{base}/p/")
    pages = {}
    for name, url in urls.items():
        assert url is not None
        parts = urlsplit(url)
        response = await client.get(parts.path + (f"?{parts.query}" if parts.query else ""))
        assert response.status == 200, (name, url)
        pages[name] = await response.text()
    assert "Step 2 of" in pages["replay"]
    assert "Ana" in pages["stats"] and "Games and wins per game" in pages["stats"]
    # OpenGraph: a link posted in a channel unfurls with its title and the board.
    replay = pages["replay"]
    assert '<meta property="og:title" content="Game #1: ' in replay
    assert f'<meta property="og:url" content="{base}/g/1?step=2">' in replay
    assert f'<meta property="og:image" content="{base}/g/1/' in replay


async def test_no_link_without_public_pages_or_a_public_url(make_env: MakeEnv) -> None:
    env = await make_env(seed=21, public_url=SITE)
    played = await play_server(env, public=False)
    assert link(await played.ana.slash("history")) is None
    assert link(await played.cy.slash("replay", game=1)) is None
    bare = await make_env(seed=21, guild_id=env.h.guild.id + 1)
    other = await play_server(bare)  # public, but the operator set no PUBLIC_URL
    assert link(await other.ana.slash("history")) is None
    assert link(await other.ana.slash("leaderboard", game="heartsdue")) is None
