"""A tournament's page on the web (issue 33): a round robin played to its end through the
harness, its page with the standings picture (the one its Discord post has) and table, in
the reader's language; its post's "View on the web" button leads there; another server's
or an unknown tournament is 404."""

from __future__ import annotations

from tests.discord.conftest import MakeEnv
from tests.discord.test_tournament_play import play_round_robin
from tests.web.conftest import WebOf

SITE = "https://games.example"


async def test_a_tournaments_page_has_its_standings_and_picture(
    make_env: MakeEnv, web_of: WebOf
) -> None:
    env = await make_env(public_url=SITE)
    admin = await env.h.member("Dee", manage_guild=True)
    on = await admin.slash("settings web", state="on")
    web_id = on.text.split("/s/", 1)[1].split(" ", 1)[0]
    await play_round_robin(env, ("Ana", "Bo", "Cy"))
    client = await web_of(env)
    response = await client.get(f"/s/{web_id}/t/1")
    html = await response.text()
    assert response.status == 200, html[:300]
    assert "final standings" in html and "Ana" in html and "Cy" in html
    assert f'src="/s/{web_id}/t/1.png"' in html
    picture = await client.get(f"/s/{web_id}/t/1.png")
    assert picture.status == 200 and picture.content_type == "image/png"
    assert f'<meta property="og:image" content="{SITE}/s/{web_id}/t/1.png">' in html
    german = await (await client.get(f"/s/{web_id}/t/1?lang=de")).text()
    assert "Turnier #1" in german
    server = await (await client.get(f"/s/{web_id}")).text()
    assert f"/s/{web_id}/t/1" in server
    # The sign-up message (now the standings) links to the page.
    posts = [m for m in env.h.messages(env.h.channel) if any(b.url for b in m.buttons)]
    assert any(b.url == f"{SITE}/s/{web_id}/t/1" for m in posts for b in m.buttons)
    assert (await client.get(f"/s/{web_id}/t/2")).status == 404


async def test_a_tournaments_page_has_its_rounds_results_and_prizes(
    make_env: MakeEnv, web_of: WebOf
) -> None:
    env = await make_env()
    admin = await env.h.member("Dee", manage_guild=True)
    on = await admin.slash("settings web", state="on")
    web_id = on.text.split("/s/", 1)[1].split(" ", 1)[0]
    await play_round_robin(env, ("Ana", "Bo", "Cy"))
    picture = await env.bot.shell.tournaments.picture(1)
    client = await web_of(env)
    html = await (await client.get(f"/s/{web_id}/t/1")).text()
    rounds = html.split('<section class="rounds">', 1)[1].split("</section>", 1)[0]
    assert "Round 1" in rounds and f"Round {picture.tournament.round}" in rounds
    done = [m for m in picture.matches if m.status == "done" and m.game_id is not None]
    assert done and all(f'href="/s/{web_id}/g/{m.game_id}"' in rounds for m in done)
    assert rounds.count(" won</") + rounds.count(": a bye") == len(picture.matches)
    results = html.split('<section class="results">', 1)[1].split("</section>", 1)[0]
    first = picture.places[0] if picture.places else picture.standings[0].id
    winner = next(e.name for e in picture.entries if e.user_id == first)
    assert f"Place 1: {winner}" in results and "Place 3: " in results
    if picture.prizes:
        assert '<section class="prizes">' in html
    french = await (await client.get(f"/s/{web_id}/t/1?lang=fr")).text()
    assert "Matchs par ronde" in french and "Résultats" in french
