"""Read-only views over the fake Discord's messages, for assertions."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from . import payloads as P

if TYPE_CHECKING:
    from .fake import Event, InteractionRecord, StoredMessage
    from .harness import Harness

JsonDict = dict[str, Any]


class HarnessError(AssertionError):
    """The test asked for something the fake Discord (or a real user) could not do."""


class NoResponse(HarnessError):
    """The interaction produced no message (the user would see "This interaction failed"
    if it was not acknowledged at all)."""


@dataclass(frozen=True)
class Button:
    label: str | None
    custom_id: str | None
    style: discord.ButtonStyle
    disabled: bool
    emoji: str | None
    url: str | None
    row: int

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], row: int) -> Button:
        emoji = data.get("emoji")
        return cls(
            label=data.get("label"),
            custom_id=data.get("custom_id"),
            style=discord.ButtonStyle(data.get("style", 1)),
            disabled=bool(data.get("disabled", False)),
            emoji=(emoji.get("name") if isinstance(emoji, dict) else emoji),
            url=data.get("url"),
            row=row,
        )


@dataclass(frozen=True)
class Select:
    custom_id: str
    type: int
    placeholder: str | None
    options: list[JsonDict]
    min_values: int
    max_values: int
    disabled: bool

    @property
    def values(self) -> list[str]:
        return [o["value"] for o in self.options]


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    content_type: str | None
    url: str

    @property
    def size(self) -> int:
        return len(self.data)


def embed_text(embeds: list[JsonDict]) -> str:
    """Title, description, fields (name: value), footer and author of each embed, one per
    line, for substring assertions."""
    lines: list[str] = []
    for e in embeds:
        if e.get("author", {}).get("name"):
            lines.append(e["author"]["name"])
        if e.get("title"):
            lines.append(e["title"])
        if e.get("description"):
            lines.append(e["description"])
        for f in e.get("fields", []):
            lines.append(f"{f.get('name', '')}: {f.get('value', '')}")
        if e.get("footer", {}).get("text"):
            lines.append(e["footer"]["text"])
    return "\n".join(lines)


def _rows(components: list[JsonDict]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    row = 0
    for top in components:
        if top.get("type") == P.ACTION_ROW:
            for c in top.get("components", []):
                yield row, c
            row += 1
        else:
            for c in P.walk_components([top]):
                yield row, c
            row += 1


class Message:
    """A live view of one stored message (reflects later edits)."""

    def __init__(self, harness: Harness, stored: StoredMessage) -> None:
        self._h = harness
        self._m = stored

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        gone = " deleted" if self.deleted else ""
        return f"<Message {self.id}{flags}{gone} in {self.channel_id}: {self.text[:60]!r}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    @property
    def id(self) -> int:
        return self._m.id

    @property
    def channel_id(self) -> int:
        return self._m.channel_id

    @property
    def channel(self) -> Any:
        """The discord.py channel (or thread) object, from the current bot."""
        found = self._h.bot.get_channel(self.channel_id)
        for guild in self._h.guilds:
            found = found or guild.get_thread(self.channel_id)
        return found

    @property
    def payload(self) -> JsonDict:
        """The raw message as Discord would serve it now."""
        return self._m.payload

    @property
    def content(self) -> str:
        return str(self._m.payload.get("content") or "")

    @property
    def embeds(self) -> list[JsonDict]:
        return list(self._m.payload.get("embeds") or [])

    @property
    def components(self) -> list[JsonDict]:
        return list(self._m.payload.get("components") or [])

    @property
    def flags(self) -> int:
        return self._m.flags

    @property
    def ephemeral(self) -> bool:
        return self._m.ephemeral

    @property
    def loading(self) -> bool:
        """Still "Bot is thinking..." (deferred, never completed)."""
        return bool(self._m.flags & P.LOADING)

    @property
    def visible_to(self) -> int | None:
        """The member id an ephemeral message is visible to (None: everyone)."""
        return self._m.visible_to

    @property
    def author_id(self) -> int:
        return self._m.author_id

    @property
    def deleted(self) -> bool:
        return self._m.deleted

    @property
    def edited(self) -> bool:
        return bool(self._m.history)

    @property
    def history(self) -> list[JsonDict]:
        """Previous versions, oldest first (the current one is :attr:`payload`)."""
        return list(self._m.history)

    @property
    def attachments(self) -> list[Attachment]:
        return [
            Attachment(f.filename, f.data, f.content_type, f.url) for f in self._m.files.values()
        ]

    files = attachments

    @property
    def buttons(self) -> list[Button]:
        return [Button.from_dict(c, r) for r, c in _rows(self.components) if c.get("type") == 2]

    @property
    def selects(self) -> list[Select]:
        return [
            Select(
                custom_id=c["custom_id"],
                type=c["type"],
                placeholder=c.get("placeholder"),
                options=list(c.get("options", [])),
                min_values=c.get("min_values", 1),
                max_values=c.get("max_values", 1),
                disabled=bool(c.get("disabled", False)),
            )
            for _, c in _rows(self.components)
            if c.get("type") in P.SELECT_TYPES
        ]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> Button:
        comp = P.find_component(self.components, label=label, custom_id=custom_id)
        return next(
            b
            for b in self.buttons
            if b.custom_id == comp.get("custom_id") and b.label == comp.get("label")
        )

    @property
    def labels(self) -> list[str | None]:
        return [b.label for b in self.buttons]

    def embed_text(self) -> str:
        return embed_text(self.embeds)

    @property
    def text(self) -> str:
        """Content, components-v2 text displays and embed text, newline separated."""
        parts = [self.content]
        parts += [
            c.get("content", "") for c in P.walk_components(self.components) if c.get("type") == 10
        ]
        parts.append(self.embed_text())
        return "\n".join(p for p in parts if p)

    @property
    def thread(self) -> discord.Thread | None:
        """The thread started from this message, if any."""
        for guild in self._h.guilds:
            found = guild.get_thread(self.id)
            if found is not None:
                return found
        return None

    def visible_for(self, member: Any) -> bool:
        return self.visible_to is None or self.visible_to == getattr(member, "id", member)


@dataclass(frozen=True)
class Modal:
    custom_id: str
    title: str
    raw: JsonDict

    @property
    def fields(self) -> list[JsonDict]:
        """The inputs (text inputs and selects), with the label of their Label if any."""
        out = []
        for top in self.raw.get("components", []):
            if top.get("type") == P.LABEL:
                out.append(dict(top["component"], label=top.get("label")))
            else:
                out += [c for c in top.get("components", []) if "custom_id" in c]
        return out

    @property
    def labels(self) -> list[str | None]:
        return [f.get("label") for f in self.fields]


class Reply:
    """What the bot answered to one interaction.

    ``message`` is the message the response created or updated: the original response for
    callback types 4 (message), 5 (deferred, once completed) and 7 (update); for type 6
    (deferred update) the original message if it was edited, else the last followup.
    """

    def __init__(self, harness: Harness, record: InteractionRecord, start: int) -> None:
        self._h = harness
        self._rec = record
        self._start = start
        self._end: int | None = None

    def _close(self, end: int) -> None:
        self._end = end

    @property
    def events(self) -> list[Event]:
        """What happened while this interaction was handled: events caused by it (or by
        nothing attributable, e.g. a bot-wide background loop) in its time window."""
        window = self._h.fake.events[self._start : self._end]
        return [e for e in window if e.token in (None, self._rec.token)]

    def __repr__(self) -> str:
        kind = self.response_type
        return f"<Reply type={kind} created={len(self.created)} edited={len(self.edited)}>"

    @property
    def response_type(self) -> int | None:
        """Interaction callback type: 4, 5, 6, 7, 8 or 9; None if never acknowledged."""
        return self._rec.response_type

    @property
    def answered_at(self) -> float | None:
        """``time.perf_counter()`` when the fake Discord served the interaction's callback
        (the moment the user sees the click answered); None if it never was."""
        return self._rec.answered_at

    @property
    def answer_seconds(self) -> float | None:
        """How long the bot took to answer, in its own time (``harness.BotClock``: the loop's
        clock less the time a loaded machine kept it off the CPU), from the interaction's
        delivery to its callback; Discord's deadline is 3 s. None if never answered."""
        rec = self._rec
        if rec.answered_clock is None or rec.delivered_clock is None:
            return None
        return rec.answered_clock - rec.delivered_clock

    @property
    def acknowledged(self) -> bool:
        return self._rec.response_type is not None

    @property
    def failed(self) -> bool:
        """True if the user would see "This interaction failed" (never acknowledged)."""
        return not self.acknowledged

    @property
    def deferred(self) -> bool:
        return self._rec.response_type in (5, 6)

    def _msgs(self, kind: str) -> list[Message]:
        seen: dict[int, Message] = {}
        for e in self.events:
            if e.kind == kind and e.id is not None and e.id in self._h.fake.messages:
                seen.setdefault(e.id, Message(self._h, self._h.fake.messages[e.id]))
        return list(seen.values())

    @property
    def created(self) -> list[Message]:
        """Every message created while this interaction was handled (any route)."""
        return self._msgs("create")

    @property
    def edited(self) -> list[Message]:
        return self._msgs("edit")

    @property
    def deleted(self) -> list[Message]:
        return self._msgs("delete")

    @property
    def sent(self) -> list[Message]:
        """Messages posted outside the interaction response (``channel.send`` etc.)."""
        own = {self._rec.original_id, *self._rec.followup_ids}
        return [m for m in self.created if m.id not in own]

    @property
    def original(self) -> Message | None:
        oid = self._rec.original_id
        return Message(self._h, self._h.fake.messages[oid]) if oid is not None else None

    @property
    def followups(self) -> list[Message]:
        return [Message(self._h, self._h.fake.messages[i]) for i in self._rec.followup_ids]

    @property
    def modal(self) -> Modal | None:
        data = self._rec.modal
        if data is None:
            return None
        return Modal(data["custom_id"], data.get("title", ""), data)

    @property
    def choices(self) -> list[JsonDict] | None:
        """Autocomplete choices ({name, value}) if this was an autocomplete interaction."""
        return self._rec.choices

    @property
    def message_or_none(self) -> Message | None:
        kind = self._rec.response_type
        original = self.original
        if kind in (4, 5, 7):
            return original
        if (
            kind == 6
            and original is not None
            and any(e.kind == "edit" and e.id == original.id for e in self.events)
        ):
            return original
        followups = [m for m in self.followups if m.id != self._rec.original_id]
        return followups[-1] if followups else None

    @property
    def message(self) -> Message:
        msg = self.message_or_none
        if msg is None:
            if not self.acknowledged:
                why = "was never acknowledged (the user sees 'This interaction failed')"
            elif self.modal is not None:
                why = f"answered with a modal {self.modal.title!r}"
            else:
                why = f"was acknowledged with type {self.response_type} but produced no message"
            extra = f"; other messages created: {self.created}" if self.created else ""
            raise NoResponse(f"the interaction {why}{extra}")
        return msg

    # Shortcuts to the reply message.
    @property
    def content(self) -> str:
        return self.message.content

    @property
    def embeds(self) -> list[JsonDict]:
        return self.message.embeds

    @property
    def components(self) -> list[JsonDict]:
        return self.message.components

    @property
    def buttons(self) -> list[Button]:
        return self.message.buttons

    @property
    def ephemeral(self) -> bool:
        return self.message.ephemeral

    @property
    def files(self) -> list[Attachment]:
        return self.message.attachments

    @property
    def text(self) -> str:
        return self.message.text

    def embed_text(self) -> str:
        return self.message.embed_text()
