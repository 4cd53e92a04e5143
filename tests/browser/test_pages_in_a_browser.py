"""The web companion in a real browser (issue 33): Chromium driven by Playwright
(tests/browser/find.py says which Chromium; a missing one fails, never skips). A played
server's leaderboard at a phone's 390x844 and at desktop width, a replay stepped with the
arrow keys (the step and the board change), a link from a /replay answer followed to its
page; no console error on any page, and every image loads.

With SCREENS=docs/screens the pages' screenshots are written there (the README shows two)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.async_api import Browser, Page, async_playwright

from bot.store import queue
from tests.browser.find import executable
from tests.discord.conftest import MakeEnv
from tests.web.conftest import WebOf
from tests.web.played import Played, play_server

SITE = "https://games.example"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    path = executable()
    if path is None:
        pytest.fail("no Chromium for the browser tests: see tests/browser/find.py")
    async with async_playwright() as p:
        launched = await p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield launched
        await launched.close()


@pytest.fixture
def engine() -> str:
    return "sqlite"  # the browser reads pages; both engines' pages are tests/web's


@pytest.fixture
async def played(make_env: MakeEnv) -> Played:
    env = await make_env(seed=21, public_url=SITE)
    env.h.ignore_tasks(from_playwright)  # its connection to the browser waits, idle
    return await play_server(env)


def from_playwright(task: Any) -> bool:
    code = getattr(task.get_coro(), "cr_code", None)
    return "playwright" in getattr(code, "co_filename", "")


class Watched:
    """A page with its console errors and failed requests recorded."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("requestfailed", lambda r: self.errors.append(f"failed: {r.url}"))
        page.on(
            "response",
            lambda r: self.errors.append(f"{r.status}: {r.url}") if r.status >= 400 else None,
        )

    async def images_loaded(self) -> int:
        broken = await self.page.evaluate(
            "[...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)"
        )
        assert broken == []
        return int(await self.page.evaluate("document.images.length"))


async def open_page(browser: Browser, url: str, viewport: dict[str, int]) -> Watched:
    page = await browser.new_page(viewport=viewport)  # type: ignore[arg-type]
    watched = Watched(page)
    response = await page.goto(url)
    assert response is not None and response.status == 200, url
    await page.wait_for_load_state("networkidle")
    return watched


def screen(watched: Watched, name: str) -> Any:
    folder = os.environ.get("SCREENS")
    if not folder:
        return None
    Path(folder).mkdir(parents=True, exist_ok=True)
    return watched.page.screenshot(path=str(Path(folder) / name), full_page=True)


async def test_the_leaderboard_on_a_phone_and_a_desktop(
    played: Played, web_of: WebOf, browser: Browser
) -> None:
    client = await web_of(played.env)
    url = str(client.make_url(f"/s/{played.web_id}?game=heartsdue"))
    for viewport, name in ((PHONE, "web-leaderboard-phone.png"), (DESKTOP, "web-leaderboard.png")):
        watched = await open_page(browser, url, viewport)
        page = watched.page
        assert await page.locator("table.leaderboard").is_visible()
        assert "Cyrille" in await page.locator("table.leaderboard").inner_text()
        # Nothing wider than the screen: the page scrolls down, never sideways.
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], (viewport, width)
        await watched.images_loaded()
        if (shot := screen(watched, name)) is not None:
            await shot
        await page.fill("input[name=q]", "cyr")
        await page.press("input[name=q]", "Enter")
        await page.wait_for_load_state("networkidle")
        rows = await page.locator("table.leaderboard tbody tr").count()
        assert rows == 1 and "q=cyr" in page.url
        await page.go_back()
        assert watched.errors == [], watched.errors
        await page.close()


async def test_a_replay_stepped_with_the_arrow_keys(
    played: Played, web_of: WebOf, browser: Browser
) -> None:
    client = await web_of(played.env)
    watched = await open_page(browser, str(client.make_url(f"/s/{played.web_id}/g/1")), DESKTOP)
    page = watched.page
    assert "Step 0 of" in await page.locator("#step").inner_text()
    boards = [await page.locator("#board").get_attribute("src")]
    for want in (1, 2, 3):
        async with page.expect_navigation():
            await page.keyboard.press("ArrowRight")
        await page.wait_for_load_state("networkidle")
        assert f"Step {want} of" in await page.locator("#step").inner_text()
        assert f"step={want}" in page.url
        boards.append(await page.locator("#board").get_attribute("src"))
        assert await watched.images_loaded() == 1
    async with page.expect_navigation():
        await page.keyboard.press("ArrowLeft")
    assert "Step 2 of" in await page.locator("#step").inner_text()
    assert len(set(boards)) == 4  # each step its own picture
    shown = await page.evaluate("document.getElementById('board').naturalWidth")
    assert shown > 300
    if (shot := screen(watched, "web-replay.png")) is not None:
        await shot
    assert watched.errors == [], watched.errors


async def test_a_link_from_a_replay_answer_opens_its_page(
    played: Played, web_of: WebOf, browser: Browser
) -> None:
    client = await web_of(played.env)
    answer = await played.cy.slash("replay", game=1, step=3)
    [url] = [b.url for b in answer.message.buttons if b.url]
    assert url.startswith(SITE)
    parts = urlsplit(url)
    local = str(client.make_url(f"{parts.path}?{parts.query}"))  # the proxy's side of SITE
    watched = await open_page(browser, local, PHONE)
    assert "Step 3 of" in await watched.page.locator("#step").inner_text()
    assert await watched.images_loaded() == 1
    width = await watched.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    # The player and tournament pages too, with every image loaded and no error.
    player = await open_page(browser, str(client.make_url(f"/s/{played.web_id}")), DESKTOP)
    href = await player.page.locator("table.leaderboard a").first.get_attribute("href")
    assert href is not None
    profile = await open_page(browser, str(client.make_url(href)), DESKTOP)
    assert await profile.images_loaded() >= 1
    if (shot := screen(profile, "web-player.png")) is not None:
        await shot
    assert watched.errors == [] and player.errors == [] and profile.errors == []


async def test_the_quick_play_queue_on_a_phone(
    played: Played, web_of: WebOf, browser: Browser
) -> None:
    """The server page's quick-play section (issue 36.7), shown while members wait: at a
    phone's width it is there, fits the screen, is read at a normal size and names nobody."""
    env, client = played.env, await web_of(played.env)
    url = str(client.make_url(f"/s/{played.web_id}"))
    watched = await open_page(browser, url, PHONE)
    assert await watched.page.locator("section.waiting").count() == 0  # nobody waits
    await watched.page.close()
    for member, game in ((played.ana, "heartsdue"), (played.bo, "heartsdue")):
        assert await queue.enqueue(
            env.bot.db,
            user_id=member.id,
            guild_id=env.h.guild.id,
            channel_id=env.h.channel.id,
            game_key=game,
            rating=1000,
            now=env.clock(),
            bot_after=env.clock() + 60,
        )
    watched = await open_page(browser, url, PHONE)
    page = watched.page
    section = page.locator("section.waiting")
    assert await section.is_visible()
    text = await section.inner_text()
    assert "Waiting for an opponent" in text and "Hearts Due" in text and "2 waiting" in text
    for member in (played.ana, played.bo):  # how many, never who
        assert member.name not in text and str(member.id) not in await page.content()
    box = await section.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    # Each line holds its words (nothing cut or spilling out), at a size read without zoom.
    spilled = await section.evaluate(
        "s => [...s.querySelectorAll('li, li span, h2')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert spilled == [], spilled
    size = await section.locator("li").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 14, size
    assert watched.errors == [], watched.errors
    await page.close()
