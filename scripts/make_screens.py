"""Pictures of the bot's real messages for the README, drawn like Discord's dark theme.

Plays short seeded sessions through the offline interaction harness (``tests/harness``),
captures the messages the bot really sent (content, embeds, buttons, attachments), renders
each as an HTML page styled like the Discord client and screenshots it with headless Chromium.

    .venv/bin/python scripts/make_screens.py docs/screens

Needs Chromium and the Noto fonts, colour emoji included; on Debian or Ubuntu, ``APT_LINE``
(the README says the same; the script checks both before it plays anything).
Dev tooling only: not part of the bot and not run by ``make test``.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import datetime as dt
import html
import io
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import SequencesBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.store.db import Database  # noqa: E402
from tests.discord.conftest import Env  # noqa: E402
from tests.discord.play import board_turn, needed, open_table  # noqa: E402
from tests.fakes import FakeClock, ScriptedRandom  # noqa: E402
from tests.harness import Harness, Message, Player  # noqa: E402

BACKGROUND = (0x31, 0x33, 0x38)  # Discord dark theme, chat background
MAX_PNG_BYTES = 400_000
SCALE = 2  # device pixels per CSS pixel: crisp text on high-density screens


# --------------------------------------------------------------------------- capture


@dataclass
class Shot:
    """One message as Discord showed it at one moment."""

    payload: dict[str, Any]
    ephemeral: bool
    files: dict[str, bytes]
    caption: str | None = None  # a small channel label drawn above the message
    used: tuple[str, str] | None = None  # ("Ana", "/sequences start"): a command's reply
    viewer: int | None = None  # the member looking: mentions of them are highlighted


@dataclass
class Screen:
    name: str
    shots: list[Shot]
    names: dict[int, str]  # user id -> display name, for <@id>
    channels: dict[int, str]  # channel id -> name, for <#id>
    now: float  # the fake clock, for <t:unix:R>
    client: str = "en"  # the Discord client's own language ("Today at", relative times)


def snap(message: Message, **extra: Any) -> Shot:
    return Shot(
        payload=copy.deepcopy(dict(message.payload)),
        ephemeral=message.ephemeral,
        files={a.filename: bytes(a.data) for a in message.attachments},
        **extra,
    )


@dataclass
class Session(Env):
    """A test ``Env`` (harness, bot, fake clock) that also remembers its players."""

    players: list[Player] = field(default_factory=list)

    async def member(self, name: str) -> Player:
        player = await self.h.member(name)
        self.players.append(player)
        return player

    def screen(self, name: str, shots: list[Shot]) -> Screen:
        channels = {c.id: c.name for c in self.h.guild.text_channels}
        channels.update({t.id: t.name for t in self.h.threads})
        client = "de" if name.endswith("-de") else "en"
        names = {p.id: p.name for p in self.players}
        return Screen(name, shots, names, channels, self.clock(), client)


async def open_session(
    tmp: Path, rng: random.Random, locale: str = "en-US"
) -> tuple[Session, Database]:
    db_path = tmp / f"screens-{len(list(tmp.iterdir()))}.sqlite3"
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        start_cooldown_seconds=0,
        bot_turn_delay_seconds=1.0,
        database_path=db_path,
    )
    db = await Database.open(db_path)
    clock = FakeClock()
    bot = SequencesBot(settings, db, clock=clock, rng=rng, run_timers=False)
    # The members' clients and the server in ``locale``: private and public words in it.
    h = await Harness.start(bot, locale=locale, guild_locale=locale)
    return Session(h, bot, clock, db_path, settings, seed=0), db


def label_starting(message: Message, *prefixes: str) -> str:
    for label in message.labels:
        if label and label.startswith(prefixes):
            return label
    raise RuntimeError(f"no button starting with {prefixes} in {message.labels}")


async def sequences_session(tmp: Path) -> list[Screen]:
    """A push-your-luck game: lobby, a turn mid-throw with its odds, the end."""
    rng = ScriptedRandom([], seed=7)
    s, db = await open_session(tmp, rng)
    try:
        ana, bo = await s.member("Ana"), await s.member("Bo")
        lobby = (await ana.slash("sequences start", rounds=2)).message
        lobby = (await bo.click(lobby, "Join")).message
        lobby = (await ana.click(lobby, "Add bot: optimal")).message
        screens = [
            s.screen("lobby", [snap(lobby, used=("Ana", "/sequences start"), viewer=ana.id)])
        ]
        await ana.click(lobby, "Start")

        by_id = {p.id: p for p in s.players}
        turn_shot = False
        for _ in range(400):
            table = await s.bot.tables.get(1)
            if table.status != "running":
                break
            state = table.rules
            seat = table.seats[state.current]
            if seat.is_bot:
                await s.run_bots()
                continue
            player = by_id[seat.user_id or 0]
            message = s.turn_message()
            if state.phase == "throw":
                if not turn_shot and player is ana and state.turns_taken[state.current]:
                    # Ana's second turn falls as scripted: 1-2 starts her run, she pushes
                    # the other three dice and 3-4 extends it.
                    rng.script.extend([1, 2, 5, 5, 6, 3, 4, 4])  # type: ignore[attr-defined]
                    await ana.click(message, label_starting(message, "Throw"))
                    await ana.click(s.turn_message(), label_starting(s.turn_message(), "Push"))
                    turn = s.turn_message()
                    odds = (await ana.click(turn, "Odds")).message
                    screens.append(s.screen("turn", [snap(turn, viewer=ana.id)]))
                    screens.append(s.screen("odds", [snap(odds, viewer=ana.id)]))
                    turn_shot = True
                    continue
                label = label_starting(message, "Throw", "Bonus")
            elif len(state.run) + len(state.extending) >= 3 or not any(
                lb and lb.startswith("Push") for lb in message.labels
            ):
                label = label_starting(message, "Bank")
            else:
                label = label_starting(message, "Push")
            await player.click(message, label)
        else:
            raise RuntimeError("the Sequences game did not finish")
        if not turn_shot:
            raise RuntimeError("Ana never threw in round 2: change the seed")
        final = s.turn_message()
        summary = s.h.last_message(s.h.channel)
        [thread] = s.h.threads
        screens.append(
            s.screen(
                "result",
                [
                    snap(final, caption=f"🧵 {thread.name}: the game's thread", viewer=ana.id),
                    snap(summary, caption=f"# {s.h.channel.name}: where the table was opened"),
                ],
            )
        )
        return screens
    finally:
        await s.h.stop()
        await db.close()


async def hearts_due_session(tmp: Path) -> list[Screen]:
    """Hearts Due with scripted dice: Ana scores 20, then throws four 1s."""
    faces = [
        *(6, 6, 6, 6, 6, 6),  # Ana's opening throw: 36, she starts
        *(1, 1, 1, 1, 1, 2),  # Bo's opening throw: 7
        *(1, 1, 2, 3, 5, 6),  # Ana: 1 + 1-2-3 = 20
        *(1, 2, 3, 4, 5, 6),  # Bo: 1-2-3-4-5-6 = 30
        *(1, 1, 1, 4, 1, 6),  # Ana: four 1s, total wiped
    ]
    s, db = await open_session(tmp, ScriptedRandom(faces, seed=3))
    try:
        ana, bo = await s.member("Ana"), await s.member("Bo")
        lobby = (await ana.slash("heartsdue start")).message
        lobby = (await bo.click(lobby, "Join")).message
        await ana.click(lobby, "Start")
        for player in (ana, bo, ana, bo, ana):
            message = s.turn_message()
            await player.click(message, label_starting(message, "Throw"))
        return [s.screen("heartsdue", [snap(s.turn_message(), viewer=ana.id)])]
    finally:
        await s.h.stop()
        await db.close()


async def board_session(tmp: Path) -> list[Screen]:
    """The board game a few moves in: the public board, then Ana's hand with a card chosen."""
    s, db = await open_session(tmp, random.Random(21))
    try:
        ana, bo = await s.member("Ana"), await s.member("Bo")
        lobby = (await ana.slash("board start")).message
        lobby = (await bo.click(lobby, "Join")).message
        await ana.click(lobby, "Start")
        by_id = {ana.id: ana, bo.id: bo}
        for _ in range(10):  # five moves each: a board with some chips on it
            table = await s.bot.tables.get(1)
            player = by_id[table.seats[table.rules.turn].user_id or 0]
            await play_board_move(s, player)
        board = s.turn_message()
        table = await s.bot.tables.get(1)
        if table.seats[table.rules.turn].user_id != ana.id:
            raise RuntimeError("expected Ana to play")
        hand = (await ana.click(board, "My hand")).message
        chosen = await choose_card_with_choices(ana, hand)
        ping = s.ping()  # the thread: the table message, then the ping of the member to move
        pinged = [snap(ping, viewer=ana.id)] if ping is not None else []
        return [
            s.screen("board", [snap(board, viewer=ana.id), *pinged]),
            s.screen("hand", [snap(chosen, viewer=ana.id)]),
        ]
    finally:
        await s.h.stop()
        await db.close()


async def table_session(tmp: Path) -> list[Screen]:
    """Around a game (issue 22): the host's private Manage panel, a turn reminder under the
    live table message, the result's Rematch and its lobby, and a game in a group DM."""
    s, db = await open_session(tmp, random.Random(11))
    try:
        ana, bo = await s.member("Ana"), await s.member("Bo")
        lobby = (await ana.slash("heartsdue start", target=20)).message
        lobby = (await bo.click(lobby, "Join")).message
        panel = (await ana.click(lobby, "Manage")).message
        screens = [s.screen("manage", [snap(panel, viewer=ana.id)])]
        await ana.click(lobby, "Start")
        await s.tick(120)  # a third of Ana's 180 s left: she is reminded
        table_message, ping = s.turn_message(), s.ping()
        if ping is None:
            raise RuntimeError("no reminder was posted")
        [thread] = s.h.threads
        screens.append(
            s.screen(
                "reminder",
                [
                    snap(table_message, caption=f"🧵 {thread.name}: the game's thread"),
                    snap(ping, viewer=ana.id),
                ],
            )
        )
        by_id = {ana.id: ana, bo.id: bo}
        for _ in range(200):
            table = await s.bot.tables.get(1)
            if table.status != "running":
                break
            current = table.game.current_seat(table.rules)
            player = by_id[table.seats[current].user_id or 0]
            message = s.turn_message()
            await player.click(message, label_starting(message, "Throw"))
        else:
            raise RuntimeError("the Hearts Due game did not finish")
        final = s.turn_message()
        await bo.click(final, "Rematch")
        rematch = s.h.last_message(s.h.channel)
        screens.append(
            s.screen(
                "rematch",
                [
                    snap(final, caption=f"🧵 {thread.name}: the game's thread", viewer=bo.id),
                    snap(rematch, caption=f"# {s.h.channel.name}: the rematch lobby"),
                ],
            )
        )
        cy = await s.member("Cy")
        chat = s.h.private_channel(ana, bo, cy, group=True)
        dm_lobby = (await cy.slash("heartsdue start", _channel=chat, target=20)).message
        await ana.click(dm_lobby, "Join")
        await cy.click(dm_lobby, "Start")
        await cy.click(dm_lobby, label_starting(dm_lobby, "Throw"))
        screens.append(
            s.screen("anywhere", [snap(dm_lobby, caption="👥 a group DM", viewer=cy.id)])
        )
        return screens
    finally:
        await s.h.stop()
        await db.close()


async def replay_session(tmp: Path) -> list[Screen]:
    """A finished board game between Ana and a bot player, replayed at one step."""
    s, db = await open_session(tmp, random.Random(8))
    try:
        ana = await s.member("Ana")
        lobby = (await ana.slash("board start")).message
        lobby = (await ana.click(lobby, "Add bot: easy")).message
        await ana.click(lobby, "Start")
        for _ in range(400):
            table = await s.bot.tables.get(1)
            if table.status != "running":
                break
            if table.seats[table.rules.turn].user_id == ana.id:
                await play_board_move(s, ana)
            else:
                await s.run_bots(limit=1)
        if (await s.bot.tables.get(1)).status != "finished":
            raise RuntimeError("the replayed game did not finish")
        reply = await ana.slash("replay", game=1, step=40)
        return [s.screen("replay", [snap(reply.message, used=("Ana", "/replay"))])]
    finally:
        await s.h.stop()
        await db.close()


def card_labels(message: Message) -> list[str]:
    skip = ("Refresh", "Back")
    return [lb for lb in message.labels if lb and lb not in skip and not lb.startswith("Pass")]


async def play_board_move(s: Session, player: Player) -> None:
    """My hand, the first card, (a row,) a space: the last space offered, for variety."""
    message = (await player.click(s.turn_message(), "My hand")).message
    for _ in range(4):
        labels = card_labels(message)
        if not labels:
            raise RuntimeError(f"nothing to press in {message.labels}")
        reply = await player.click(
            message, labels[0] if "choose a card" in message.text else labels[-1]
        )
        if "choose" not in reply.text:
            return
        message = reply.message
    raise RuntimeError("a board move took more than four clicks")


async def choose_card_with_choices(player: Player, hand: Message) -> Message:
    """Choose an ordinary card with two spaces to pick from (the usual picture)."""
    for label in card_labels(hand):
        if "·" in label or label.startswith("Trade"):
            continue  # jacks and dead cards: not the common case
        chosen = (await player.click(hand, label)).message
        if len(card_labels(chosen)) >= 2 and chosen.attachments:
            return chosen
        hand = (await player.click(chosen, "Back")).message
    raise RuntimeError("no card with two spaces in Ana's hand: change the seed")


# --------------------------------------------------------------------------- markup

EMOJI_RE = re.compile(
    r"(?:[0-9#*]\ufe0f?\u20e3"  # keycaps
    r"|[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2190-\u21FF\u2300-\u23FF]\ufe0f?"
    r"(?:\u200d[\U0001F000-\U0001FAFF\u2600-\u27BF]\ufe0f?)*)"
)
TEXT_SYMBOLS = set("♠♥♦♣●▲■◆★▶→←–—·✓✗")


@dataclass
class Markup:
    names: dict[int, str]
    channels: dict[int, str]
    now: float
    viewer: int | None = None
    client: str = "en"

    def relative(self, unix: int) -> str:
        delta = unix - self.now
        seconds = abs(delta)
        if self.client == "de":
            return german_relative(delta)
        if seconds < 45:
            words = "a few seconds"
        elif seconds < 90:
            words = "a minute"
        elif seconds < 45 * 60:
            words = f"{round(seconds / 60)} minutes"
        elif seconds < 90 * 60:
            words = "an hour"
        elif seconds < 22 * 3600:
            words = f"{round(seconds / 3600)} hours"
        else:
            words = f"{round(seconds / 86400)} days"
        return f"in {words}" if delta >= 0 else f"{words} ago"

    def inline(self, text: str) -> str:
        """Escape and convert one line of Discord markdown outside code blocks."""
        out: list[str] = []
        for i, part in enumerate(re.split(r"(`[^`\n]+`)", text)):
            if i % 2:
                out.append(f'<code class="inline">{emoji(html.escape(part[1:-1]))}</code>')
            else:
                out.append(self._prose(part))
        return "".join(out)

    def _prose(self, text: str) -> str:
        text = html.escape(text, quote=False)
        text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
        text = re.sub(r"__(.+?)__", r"<u>\1</u>", text)
        text = re.sub(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", r"<em>\1</em>", text)
        text = re.sub(r"~~(.+?)~~", r"<s>\1</s>", text)

        def user(match: re.Match[str]) -> str:
            uid = int(match.group(1))
            css = "mention me" if uid == self.viewer else "mention"
            return f'<span class="{css}">@{html.escape(self.names.get(uid, "unknown"))}</span>'

        def channel(match: re.Match[str]) -> str:
            name = self.channels.get(int(match.group(1)), "thread")
            return f'<span class="mention">#{html.escape(name)}</span>'

        def stamp(match: re.Match[str]) -> str:
            return f'<span class="stamp">{self.relative(int(match.group(1)))}</span>'

        text = re.sub(r"&lt;@!?(\d+)&gt;", user, text)
        text = re.sub(r"&lt;#(\d+)&gt;", channel, text)
        text = re.sub(r"&lt;t:(\d+)(?::[tTdDfFR])?&gt;", stamp, text)
        return emoji(text)

    def block(self, text: str) -> str:
        """A whole content / description / field value: code blocks, headings, lines."""
        out: list[str] = []
        for i, part in enumerate(re.split(r"```", text)):
            if i % 2:
                body = re.sub(r"^[a-z]*\n", "", part, count=1).strip("\n")
                out.append(f"<pre>{emoji(html.escape(body))}</pre>")
            elif part:
                out.append(self._lines(part))
        return "".join(out)

    def _lines(self, text: str) -> str:
        out: list[str] = []
        for line in text.split("\n"):
            heading = re.match(r"^(#{1,3}) (.*)$", line)
            if heading:
                level = len(heading.group(1))
                out.append(f'<div class="h{level}">{self.inline(heading.group(2))}</div>')
            elif line.startswith("-# "):
                out.append(f'<div class="sub">{self.inline(line[3:])}</div>')
            elif line.startswith("> "):
                out.append(f'<div class="quote">{self.inline(line[2:])}</div>')
            else:
                out.append(f'<div class="line">{self.inline(line) or "&nbsp;"}</div>')
        return "".join(out)


def emoji(escaped: str) -> str:
    """Wrap emoji so they use the colour emoji font at Discord's emoji size."""

    def wrap(match: re.Match[str]) -> str:
        text = match.group(0)
        if text in TEXT_SYMBOLS:
            return text
        return f'<span class="emoji">{text}</span>'

    return EMOJI_RE.sub(wrap, escaped)


# --------------------------------------------------------------------------- html

CSS = """
* { box-sizing: border-box; }
body { margin: 0; background: #313338; color: #dbdee1; width: 620px;
  font-family: "Noto Sans", "DejaVu Sans", "Noto Sans Symbols2", "Noto Color Emoji", sans-serif;
  font-size: 15px; line-height: 1.375; -webkit-font-smoothing: antialiased; }
.wrap { padding: 14px 0 10px; }
.caption { margin: 10px 16px 4px; color: #949ba4; font-size: 13px; font-weight: 600;
  border-bottom: 1px solid #3f4147; padding-bottom: 4px; }
.msg { position: relative; padding: 4px 16px 6px 72px; min-height: 48px; margin-top: 4px; }
.msg.me { background: rgba(240,177,50,.08); box-shadow: inset 2px 0 0 #f0b232; }
.used { position: relative; margin-bottom: 4px; font-size: 13px; color: #b5bac1;
  display: flex; align-items: center; gap: 4px; }
.used:before { content: ""; position: absolute; left: -38px; top: 8px; width: 30px;
  height: 10px; border-left: 2px solid #4e5058; border-top: 2px solid #4e5058;
  border-top-left-radius: 6px; }
.used .mini { width: 16px; height: 16px; border-radius: 50%; background: #f0b232;
  display: inline-block; }
.used .who { color: #dbdee1; font-weight: 500; }
.used .cmd { color: #00a8fc; }
.avatar { position: absolute; left: 16px; top: 6px; width: 40px; height: 40px;
  border-radius: 50%; background: #5865f2; display: flex; align-items: center;
  justify-content: center; font-size: 22px; }
.with-used .avatar { top: 28px; }
.head { display: flex; align-items: center; gap: 6px; height: 22px; }
.name { color: #f2f3f5; font-weight: 600; font-size: 16px; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; height: 15px;
  line-height: 15px; padding: 0 5px; border-radius: 3px; display: inline-flex;
  align-items: center; gap: 2px; }
.time { color: #949ba4; font-size: 12px; margin-left: 2px; }
.content { margin-top: 1px; }
.line { min-height: 1.375em; white-space: pre-wrap; overflow-wrap: anywhere; }
.h1 { font-size: 24px; font-weight: 700; margin: 8px 0 4px; line-height: 1.3; }
.h2 { font-size: 20px; font-weight: 700; margin: 8px 0 4px; line-height: 1.3; }
.h3 { font-size: 16px; font-weight: 700; margin: 8px 0 4px; }
.sub { font-size: 13px; color: #949ba4; }
.quote { border-left: 4px solid #4e5058; padding-left: 10px; }
strong { font-weight: 700; color: inherit; }
.emoji { font-family: "Noto Color Emoji"; font-size: 1.2em; line-height: 1;
  vertical-align: -0.1em; }
.h2 .emoji, .h1 .emoji { font-size: 1.25em; }
.mention { background: rgba(88,101,242,.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px;
  font-weight: 500; }
.stamp { background: rgba(78,80,88,.48); border-radius: 3px; padding: 0 2px; }
code.inline { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; background: #1e1f22;
  border-radius: 4px; padding: 1px 3px; }
pre { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; line-height: 1.35;
  background: #1e1f22; border: 1px solid #1e1f22; border-radius: 4px; padding: 7px 8px;
  margin: 6px 0 0; white-space: pre; color: #dbdee1; }
pre .emoji { font-size: 1em; vertical-align: 0; }
.embed { display: grid; max-width: 520px; margin-top: 4px; background: #2b2d31;
  border-radius: 4px; border-left: 4px solid #1e1f22; padding: 8px 16px 16px 12px; }
.embed .title { color: #f2f3f5; font-weight: 700; font-size: 16px; margin-top: 8px; }
.embed .desc { font-size: 14px; margin-top: 8px; }
.embed .fields { display: flex; flex-wrap: wrap; gap: 8px 12px; margin-top: 8px; font-size: 14px; }
.embed .field { flex: 1 1 100%; min-width: 0; }
.embed .field.inline { flex: 1 1 30%; }
.embed .fname { color: #f2f3f5; font-weight: 700; margin-bottom: 2px; }
.embed .image { margin-top: 16px; }
.embed .image img { display: block; width: 420px; border-radius: 4px; }
.embed .footer { margin-top: 8px; font-size: 12px; color: #b5bac1; }
.embed.v2 { max-width: 560px; }
.embed.v2 .rows { margin-top: 8px; }
.embed.v2 .sep { border-top: 1px solid #3f4147; margin-top: 12px; }
.attach img { display: block; max-width: 420px; border-radius: 8px; margin-top: 6px; }
.rows { margin-top: 6px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 6px; }
.btn { height: 32px; min-width: 60px; padding: 2px 16px; border-radius: 8px; color: #fff;
  font-size: 14px; font-weight: 500; display: inline-flex; align-items: center;
  justify-content: center; gap: 6px; white-space: nowrap; }
.btn .emoji { font-size: 17px; vertical-align: 0; }
.s1 { background: #5865f2; } .s2 { background: #4e5058; } .s3 { background: #248046; }
.s4 { background: #da373c; } .s5 { background: #4e5058; }
.btn.disabled { opacity: .5; }
.eph { margin-top: 6px; font-size: 12px; color: #949ba4; display: flex; align-items: center;
  gap: 5px; }
.eph a { color: #00a8fc; }
"""

EYE = (
    '<svg width="16" height="16" viewBox="0 0 24 24" fill="#949ba4"><path d="M12 5C5.648 5 1 '
    "12 1 12s4.648 7 11 7 11-7 11-7-4.648-7-11-7Zm0 12a5 5 0 1 1 0-10 5 5 0 0 1 0 10Zm0-8a3 3 0"
    ' 1 0 0 6 3 3 0 0 0 0-6Z"/></svg>'
)
CHECK = (
    '<svg width="10" height="10" viewBox="0 0 16 16"><path fill="#fff" d="M6.1 11.3 2.8 8l-1.1 '
    '1.1 4.4 4.4 8.4-8.4-1.1-1.1z"/></svg>'
)


def german_relative(delta: float) -> str:
    """A Discord timestamp ``<t:…:R>`` as the German client shows it."""
    seconds = abs(delta)
    if seconds < 45:
        words = "wenigen Sekunden"
    elif seconds < 90:
        words = "einer Minute"
    elif seconds < 45 * 60:
        words = f"{round(seconds / 60)} Minuten"
    elif seconds < 90 * 60:
        words = "einer Stunde"
    elif seconds < 22 * 3600:
        words = f"{round(seconds / 3600)} Stunden"
    else:
        words = f"{round(seconds / 86400)} Tagen"
    return f"in {words}" if delta >= 0 else f"vor {words}"


# The Discord client's own words around a message, per client language.
CLIENT = {
    "en": {"today": "Today at", "only": "Only you can see this •", "dismiss": "Dismiss message"},
    "de": {
        "today": "Heute um",
        "only": "Nur du kannst das sehen •",
        "dismiss": "Nachricht verwerfen",
    },
}


def render_screen(screen: Screen, out_dir: Path) -> str:
    parts = []
    for index, shot in enumerate(screen.shots):
        markup = Markup(screen.names, screen.channels, screen.now, shot.viewer, screen.client)
        if shot.caption:
            parts.append(f'<div class="caption">{emoji(html.escape(shot.caption))}</div>')
        parts.append(render_message(shot, markup, out_dir, f"{screen.name}-{index}"))
    return (
        '<!doctype html><html><head><meta charset="utf-8"><style>'
        + CSS
        + '</style></head><body><div class="wrap">'
        + "".join(parts)
        + "</div></body></html>"
    )


def render_message(shot: Shot, markup: Markup, out_dir: Path, stem: str) -> str:
    payload = shot.payload
    files: dict[str, str] = {}
    for i, (filename, data) in enumerate(shot.files.items()):
        local = f"{stem}-{i}-{filename}"
        (out_dir / local).write_bytes(data)
        files[filename] = local
    used_in_embed = set()
    embeds = []
    for embed in payload.get("embeds") or []:
        html_embed, used = render_embed(embed, markup, files)
        embeds.append(html_embed)
        used_in_embed |= used
    components = render_components(payload.get("components") or [])
    if int(payload.get("flags") or 0) & COMPONENTS_V2:  # the message is its components
        components = render_v2(payload.get("components") or [], markup, files, used_in_embed)
    loose = [
        f'<div class="attach"><img src="{local}"></div>'
        for name, local in files.items()
        if name not in used_in_embed
    ]
    content = payload.get("content") or ""
    mentioned = markup.viewer is not None and re.search(rf"<@!?{markup.viewer}>", content)
    when = dt.datetime.fromtimestamp(markup.now, dt.UTC).strftime("%H:%M")
    used_header = ""
    if shot.used:
        who, command = shot.used
        used_header = (
            f'<div class="used"><span class="mini"></span><span class="who">{who}</span>'
            f' used <span class="cmd">{html.escape(command)}</span></div>'
        )
    ephemeral = ""
    client = CLIENT[markup.client]
    if shot.ephemeral:
        ephemeral = (
            f'<div class="eph">{EYE}<span>{client["only"]}</span><a>{client["dismiss"]}</a></div>'
        )
    classes = "msg" + (" me" if mentioned else "") + (" with-used" if shot.used else "")
    return (
        f'<div class="{classes}">{used_header}'
        '<div class="avatar"><span class="emoji">🎲</span></div>'
        '<div class="head"><span class="name">Sequences</span>'
        f'<span class="tag">{CHECK}BOT</span>'
        f'<span class="time">{client["today"]} {when}</span></div>'
        + (f'<div class="content">{markup.block(content)}</div>' if content else "")
        + "".join(embeds)
        + "".join(loose)
        + components
        + ephemeral
        + "</div>"
    )


def render_embed(
    embed: dict[str, Any], markup: Markup, files: dict[str, str]
) -> tuple[str, set[str]]:
    colour = embed.get("color")
    style = f' style="border-left-color: #{colour:06x}"' if colour is not None else ""
    parts = []
    if embed.get("author"):
        parts.append(f'<div class="fname">{markup.inline(embed["author"].get("name", ""))}</div>')
    if embed.get("title"):
        parts.append(f'<div class="title">{markup.inline(embed["title"])}</div>')
    if embed.get("description"):
        parts.append(f'<div class="desc">{markup.block(embed["description"])}</div>')
    fields = embed.get("fields") or []
    if fields:
        items = [
            f'<div class="field{" inline" if f.get("inline") else ""}">'
            f'<div class="fname">{markup.inline(f["name"])}</div>'
            f"<div>{markup.block(f['value'])}</div></div>"
            for f in fields
        ]
        parts.append(f'<div class="fields">{"".join(items)}</div>')
    used: set[str] = set()
    image = (embed.get("image") or {}).get("url", "")
    if image.startswith("attachment://"):
        name = image.removeprefix("attachment://")
        if name in files:
            used.add(name)
            parts.append(f'<div class="image"><img src="{files[name]}"></div>')
    if embed.get("footer"):
        parts.append(f'<div class="footer">{markup.inline(embed["footer"]["text"])}</div>')
    return f'<div class="embed"{style}><div>{"".join(parts)}</div></div>', used


COMPONENTS_V2 = 1 << 15


def render_v2(
    components: Iterable[dict[str, Any]], markup: Markup, files: dict[str, str], used: set[str]
) -> str:
    """A Components V2 message: containers (with their accent bar), text displays, media
    galleries (naming their attachments, added to ``used``), separators and action rows."""
    out = []
    for comp in components:
        kind = comp.get("type")
        if kind == 17:  # container
            colour = comp.get("accent_color")
            style = f' style="border-left-color: #{colour:06x}"' if colour is not None else ""
            inner = render_v2(comp.get("components") or [], markup, files, used)
            out.append(f'<div class="embed v2"{style}><div>{inner}</div></div>')
        elif kind == 10:  # text display
            out.append(f'<div class="desc">{markup.block(comp.get("content") or "")}</div>')
        elif kind == 9:  # section: its texts, then its accessory
            inner = render_v2(comp.get("components") or [], markup, files, used)
            out.append(inner + render_v2([comp["accessory"]], markup, files, used))
        elif kind == 12:  # media gallery
            for item in comp.get("items") or []:
                name = str(item["media"]["url"]).removeprefix("attachment://")
                if name in files:
                    used.add(name)
                    out.append(f'<div class="image"><img src="{files[name]}"></div>')
        elif kind == 14:  # separator
            out.append('<div class="sep"></div>')
        elif kind == 1:
            out.append(render_components([comp]))
        elif kind == 2:
            out.append(render_components([{"components": [comp]}]))
    return "".join(out)


def render_components(rows: Iterable[dict[str, Any]]) -> str:
    html_rows = []
    for row in rows:
        buttons = []
        for item in row.get("components", []):
            if item.get("type") != 2:
                continue
            icon = ""
            if item.get("emoji") and item["emoji"].get("name"):
                icon = f'<span class="emoji">{html.escape(item["emoji"]["name"])}</span>'
            label = emoji(html.escape(item.get("label") or ""))
            disabled = " disabled" if item.get("disabled") else ""
            buttons.append(
                f'<span class="btn s{item.get("style", 2)}{disabled}">{icon}'
                f"{f'<span>{label}</span>' if label else ''}</span>"
            )
        if buttons:
            html_rows.append(f'<div class="row">{"".join(buttons)}</div>')
    return f'<div class="rows">{"".join(html_rows)}</div>' if html_rows else ""


# --------------------------------------------------------------------------- screenshots


# What the pictures need, as one line to paste (README.md, "the screens", says the same).
APT_LINE = "sudo apt-get install -y chromium fonts-noto-core fonts-noto-color-emoji"
FONTS = ("Noto Sans", "Noto Color Emoji")  # the text and the emoji of every picture
BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def chromium() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit(f"Chromium not found; install it and the fonts: {APT_LINE}")


def missing_fonts(families: str) -> list[str]:
    """The fonts of ``FONTS`` that ``fc-list : family`` (its output) does not list."""
    listed = {name.strip() for line in families.splitlines() for name in line.split(",")}
    return [font for font in FONTS if font not in listed]


def check_tools() -> None:
    """Stop with one line before anything is played when Chromium or a font is missing: a
    picture without the emoji font draws empty boxes where 🎲 and 🏆 stand."""
    chromium()
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return  # no fontconfig to ask: Chromium will use what it finds
    found = subprocess.run([fc_list, ":", "family"], capture_output=True, text=True, check=False)
    missing = missing_fonts(found.stdout)
    if missing:
        raise SystemExit(f"font not found: {', '.join(missing)}; install them: {APT_LINE}")


def screenshot(page: Path, png: Path, height: int = 2400) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                chromium(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                f"--force-device-scale-factor={SCALE}",
                f"--user-data-dir={profile}",
                f"--screenshot={png}",
                f"--window-size=620,{height}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )


def trim_and_save(raw: Path, target: Path) -> int:
    """Crop to the content (plus a margin) and write a small PNG; returns its size."""
    image = Image.open(raw).convert("RGB")
    plain = Image.new("RGB", image.size, BACKGROUND)
    box = ImageChops.difference(image, plain).getbbox()
    if box is None:
        raise RuntimeError(f"{raw} is empty")
    margin = 12 * SCALE
    _, top, right, bottom = box
    image = image.crop(
        (
            0,
            max(0, top - margin),
            min(image.width, right + margin),
            min(image.height, bottom + margin),
        )
    )
    data = encode(image)
    if len(data) > MAX_PNG_BYTES:
        data = encode(
            image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        )
    if len(data) > MAX_PNG_BYTES:
        half = image.resize((image.width * 3 // 4, image.height * 3 // 4), Image.Resampling.LANCZOS)
        data = encode(
            half.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        )
    target.write_bytes(data)
    return len(data)


def encode(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


async def german_session(tmp: Path) -> list[Screen]:
    """In German (issue 23): the board a few moves in, and a push-your-luck turn mid-throw.
    Buttons are pressed by their custom_id, the same in every language."""
    s, db = await open_session(tmp, random.Random(21), locale="de")
    try:
        ana, bo = await s.member("Ana"), await s.member("Bo")
        await open_table(s, "board start", ana, [bo])
        by_id = {ana.id: ana, bo.id: bo}
        for _ in range(10):  # five moves each, as the English board
            table = await s.bot.tables.get(1)
            await board_turn(s, by_id[table.seats[table.rules.turn].user_id or 0], 1)
        # The ping of the member to move: the thread's last line of text with a mention.
        texts = [m for m in s.thread_messages() if not m.components and not m.embeds]
        ping = next((m for m in reversed(texts) if "<@" in m.content), None)
        board = [snap(s.turn_message(), viewer=ana.id), *([snap(ping)] if ping else [])]
        screens = [s.screen("board-de", board)]
    finally:
        await s.h.stop()
        await db.close()
    rng = ScriptedRandom([1, 2, 5, 5, 6, 3, 4, 4], seed=7)  # a run of 1-2, pushed to 1-2-3-4
    s, db = await open_session(tmp, rng, locale="de")
    try:
        ana, bo = await s.member("Ana"), await s.member("Bo")
        await open_table(s, "sequences start", ana, [bo], rounds=2)
        table = await s.bot.tables.get(1)
        first = by_id_of(s)[table.seats[table.rules.current].user_id or 0]
        await first.click(s.turn_message(), **needed(s.turn_message(), "throw"))
        await first.click(s.turn_message(), **needed(s.turn_message(), "push"))
        screens.append(s.screen("turn-de", [snap(s.turn_message(), viewer=first.id)]))
        return screens
    finally:
        await s.h.stop()
        await db.close()


def by_id_of(s: Session) -> dict[int, Player]:
    return {p.id: p for p in s.players}


# --------------------------------------------------------------------------- main


async def tournament_session(tmp: Path) -> list[Screen]:
    """A six-player knockout of push-your-luck (issue 25): the sign-up message once round
    one is played, which is the live standings with its bracket picture (two byes)."""
    s, db = await open_session(tmp, random.Random(25))
    try:
        org = await s.h.member("Org", manage_guild=True)
        s.players.append(org)
        names = ("Ana", "Bo", "Cy", "Dmitri", "Eve", "Zoë")
        players = [await s.member(name) for name in names]
        created = await org.slash(
            "tournament create", game="sequences:standard", format="elimination"
        )
        signup = created.message
        for player in players:
            await player.click(signup, "Join")
        await org.click(signup, "Start")
        by_id = {p.id: p for p in players}
        picture = await s.bot.shell.tournaments.picture(1)
        for match in [m for m in picture.matches if m.status == "playing"]:
            table = await s.bot.tables.get(match.game_id)
            loser = by_id[max(match.a_id, match.b_id)]  # the later to join resigns
            turn = s.h.message(table.row.message_id)
            ask = await loser.click(turn, "Resign")
            await loser.click(ask.message, "Resign")
        await s.tick(5)
        shot = snap(s.h.message(signup.id), used=("Org", "/tournament create"))
        return [s.screen("bracket", [shot])]
    finally:
        await s.h.stop()
        await db.close()


async def capture(tmp: Path) -> list[Screen]:
    screens: list[Screen] = []
    sessions = (sequences_session, hearts_due_session, board_session, replay_session)
    for session in (*sessions, table_session, german_session, tournament_session):
        screens += await session(tmp)
    return screens


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="directory for the PNGs (e.g. docs/screens)")
    parser.add_argument("--keep-html", action="store_true", help="keep the HTML pages in OUT")
    parser.add_argument(
        "--only", default="", help="draw only these screens, by name (e.g. board-de,turn-de)"
    )
    args = parser.parse_args(argv)
    only = {name for name in args.only.split(",") if name}
    check_tools()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        tmp = Path(work)
        (tmp / "db").mkdir()
        screens = asyncio.run(capture(tmp / "db"))
        pages = args.out / "html" if args.keep_html else tmp / "html"
        pages.mkdir(exist_ok=True)
        for screen in screens:
            if only and screen.name not in only:
                continue
            page = pages / f"{screen.name}.html"
            page.write_text(render_screen(screen, pages), encoding="utf-8")
            raw = tmp / f"{screen.name}-raw.png"
            screenshot(page, raw)
            size = trim_and_save(raw, args.out / f"{screen.name}.png")
            print(f"{args.out / (screen.name + '.png')}: {size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
