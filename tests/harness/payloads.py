"""Builders for the raw gateway/REST payloads Discord would send.

Everything here is plain data (dicts of JSON-compatible values) so it can be unit tested
without a bot. Application-command options are derived from the command's own
``app_commands`` parameters found in the bot's ``CommandTree``: a test that passes an option
the command does not declare, or a value of the wrong type, fails here instead of silently
sending a payload real Discord never would.

Shapes follow the Discord API v10 as read by discord.py 2.7 (``discord/interactions.py``,
``discord/message.py``, ``discord/threads.py``, ``discord/app_commands/namespace.py``).
"""

from __future__ import annotations

import datetime as dt
import enum
import itertools
import re
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

JsonDict = dict[str, Any]

EPHEMERAL = 1 << 6  # MessageFlags.ephemeral
LOADING = 1 << 7  # MessageFlags.loading ("Bot is thinking...")
HAS_THREAD = 1 << 5  # MessageFlags.has_thread

# Interaction types (gateway INTERACTION_CREATE "type").
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Component types.
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = (3, 5, 6, 7, 8)
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17
LABEL = 18

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

_counter = itertools.count(1)


def next_id() -> int:
    """A fresh snowflake: current time plus a process-wide counter (unique, increasing)."""
    base = discord.utils.time_snowflake(dt.datetime.now(dt.UTC))
    return base + next(_counter) % 4096


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


# --------------------------------------------------------------------------- users & members


def user_payload(user: discord.abc.User) -> JsonDict:
    return {
        "id": str(user.id),
        "username": user.name,
        "discriminator": getattr(user, "discriminator", "0") or "0",
        "global_name": getattr(user, "global_name", None),
        "avatar": None,
        "bot": bool(getattr(user, "bot", False)),
    }


def member_payload(member: discord.Member, *, permissions: int | None = None) -> JsonDict:
    """A guild member as Discord sends it (with ``user``). ``permissions`` is set on
    interaction payloads: the member's computed permissions in the channel."""
    data: JsonDict = {
        "user": user_payload(member),
        "roles": [str(r.id) for r in member.roles if not r.is_default()],
        "nick": member.nick,
        "avatar": None,
        "joined_at": (member.joined_at or dt.datetime.now(dt.UTC)).isoformat(),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(role: discord.Role) -> JsonDict:
    return {
        "id": str(role.id),
        "name": role.name,
        "color": role.colour.value,
        "hoist": role.hoist,
        "position": role.position,
        "permissions": str(role.permissions.value),
        "managed": role.managed,
        "mentionable": role.mentionable,
    }


# --------------------------------------------------------------------------- channels


def thread_payload(
    *,
    thread_id: int,
    guild_id: int,
    parent_id: int,
    owner_id: int,
    name: str,
    type: int = 11,
    auto_archive_duration: int = 1440,
    archived: bool = False,
    locked: bool = False,
    invitable: bool = True,
    rate_limit_per_user: int = 0,
) -> JsonDict:
    now = iso_now()
    return {
        "id": str(thread_id),
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "type": type,
        "last_message_id": None,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "rate_limit_per_user": rate_limit_per_user or 0,
        "flags": 0,
        "thread_metadata": {
            "archived": archived,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": now,
            "locked": locked,
            "invitable": invitable,
            "create_timestamp": now,
        },
    }


def channel_payload(channel: Any, *, permissions: int | None = None) -> JsonDict:
    """A guild channel or thread (as in GUILD_CREATE, or an interaction's ``channel``)."""
    if isinstance(channel, discord.Thread):
        data = thread_payload(
            thread_id=channel.id,
            guild_id=channel.guild.id,
            parent_id=channel.parent_id,
            owner_id=channel.owner_id or 0,
            name=channel.name,
            type=channel.type.value,
            auto_archive_duration=channel.auto_archive_duration,
            archived=channel.archived,
            locked=channel.locked,
        )
    else:
        data = {
            "id": str(channel.id),
            "type": channel.type.value,
            "name": getattr(channel, "name", None),
            "position": getattr(channel, "position", 0),
            "permission_overwrites": [
                {
                    "id": str(target.id),
                    "type": 0 if isinstance(target, discord.Role) else 1,
                    "allow": str(ow.pair()[0].value),
                    "deny": str(ow.pair()[1].value),
                }
                for target, ow in getattr(channel, "overwrites", {}).items()
            ],
            "nsfw": False,
            "parent_id": str(channel.category_id)
            if getattr(channel, "category_id", None)
            else None,
        }
        if getattr(channel, "guild", None) is not None:
            data["guild_id"] = str(channel.guild.id)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def guild_create_payload(
    guild: discord.Guild, *, threads: Iterable[JsonDict] = (), owner_id: int | None = None
) -> JsonDict:
    """GUILD_CREATE for ``guild`` (roles, members, channels and active threads), used to
    rebuild the same guild inside a second bot instance."""
    channels = [channel_payload(c) for c in guild.channels if not isinstance(c, discord.Thread)]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "owner_id": str(owner_id if owner_id is not None else guild.owner_id or 0),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role_payload(r) for r in guild.roles],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "member_count": len(guild.members),
        "members": [member_payload(m) for m in guild.members],
        "channels": channels,
        "threads": list(threads),
        "large": False,
        "unavailable": False,
    }


# --------------------------------------------------------------------------- messages


def message_payload(
    *,
    message_id: int,
    channel_id: int,
    guild_id: int | None,
    author: JsonDict,
    content: str | None = "",
    embeds: Sequence[JsonDict] = (),
    components: Sequence[JsonDict] = (),
    attachments: Sequence[JsonDict] = (),
    flags: int = 0,
    type: int = 0,
    webhook_id: int | None = None,
    application_id: int | None = None,
    interaction_metadata: JsonDict | None = None,
) -> JsonDict:
    data: JsonDict = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author,
        "content": content or "",
        "timestamp": discord.utils.snowflake_time(message_id).isoformat(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": list(attachments),
        "embeds": list(embeds),
        "components": list(components),
        "pinned": False,
        "type": type,
        "flags": flags,
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if webhook_id is not None:
        data["webhook_id"] = str(webhook_id)
    if application_id is not None:
        data["application_id"] = str(application_id)
    if interaction_metadata is not None:
        data["interaction_metadata"] = interaction_metadata
    return data


def attachment_payload(
    *, attachment_id: int, channel_id: int, filename: str, size: int, content_type: str | None
) -> JsonDict:
    url = f"https://cdn.discordapp.com/attachments/{channel_id}/{attachment_id}/{filename}"
    data: JsonDict = {
        "id": str(attachment_id),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
    }
    if content_type:
        data["content_type"] = content_type
    return data


# --------------------------------------------------------------------------- components


def walk_components(components: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every component, depth first (action rows, containers, sections, labels included)."""
    for comp in components:
        yield comp
        children = list(comp.get("components", ()))
        if "component" in comp:  # Label (18) wraps one component
            children.append(comp["component"])
        if "accessory" in comp:  # Section (9) accessory
            children.append(comp["accessory"])
        yield from walk_components(children)


def find_component(
    components: Iterable[Mapping[str, Any]],
    *,
    label: str | None = None,
    custom_id: str | None = None,
    types: Sequence[int] = (BUTTON,),
) -> Mapping[str, Any]:
    """The component of one of ``types`` with that ``label`` or ``custom_id``.

    Raises ``LookupError`` listing what the message does have, so a failing test says why.
    """
    if label is None and custom_id is None:
        raise ValueError("give label= or custom_id=")
    candidates = [c for c in walk_components(components) if c.get("type") in types]
    for comp in candidates:
        if custom_id is not None and comp.get("custom_id") != custom_id:
            continue
        if label is not None and comp.get("label") != label and comp.get("placeholder") != label:
            continue
        return comp
    have = [(c.get("label") or c.get("placeholder"), c.get("custom_id")) for c in candidates]
    raise LookupError(
        f"no component with label={label!r} custom_id={custom_id!r} of types {tuple(types)}; "
        f"the message has {have}"
    )


# --------------------------------------------------------------------------- message limits

# What Discord rejects (400, 50035 Invalid Form Body) in a message it is sent: the numbers of
# /work/shared/notes/discord-limits.md and the Discord API reference (v10).
CONTENT_MAX = 2000
UPLOAD_MAX = 8 * 1024 * 1024  # bytes over a message's files (Discord's limit for bots)
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000  # title + description + field names/values + footer + author name
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
BUTTON_LABEL_MAX = 80
CUSTOM_ID_MAX = 100
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100  # an option's label, value and description
SELECT_PLACEHOLDER_MAX = 150
COMPONENTS_V2_MAX = 40  # every component of a components-v2 message, nested ones included
COMPONENTS_V2_FLAG = 1 << 15
COMPONENTS_V2_TEXT_MAX = 4000  # the text displays of a components-v2 message, together
AUTOCOMPLETE_CHOICES_MAX = 25
FILES_MAX = 10  # attachments of one message
CHOICE_TEXT_MAX = 100  # an autocomplete choice's name and (string) value

_EVERYONE = re.compile(r"@(everyone|here)")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def _too_long(where: str, value: Any, limit: int, what: str) -> list[str]:
    n = len(value) if isinstance(value, str) else 0
    if n > limit:
        return [f"{where} is {n:,} characters; {what} holds at most {limit:,}"]
    return []


def embed_length(embed: Mapping[str, Any]) -> int:
    """The characters Discord counts towards the 6,000 of a message's embeds."""
    n = len(embed.get("title") or "") + len(embed.get("description") or "")
    for f in embed.get("fields") or ():
        n += len(f.get("name") or "") + len(f.get("value") or "")
    n += len((embed.get("footer") or {}).get("text") or "")
    n += len((embed.get("author") or {}).get("name") or "")
    return n


def embed_problems(embeds: Sequence[Mapping[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(embeds) > EMBEDS_MAX:
        problems.append(f"{len(embeds)} embeds; a message holds at most {EMBEDS_MAX}")
    for i, e in enumerate(embeds):
        at = f"embeds[{i}]"
        problems += _too_long(f"{at}.title", e.get("title"), EMBED_TITLE_MAX, "a title")
        problems += _too_long(
            f"{at}.description", e.get("description"), EMBED_DESCRIPTION_MAX, "a description"
        )
        footer = (e.get("footer") or {}).get("text")
        problems += _too_long(f"{at}.footer.text", footer, EMBED_FOOTER_MAX, "a footer")
        author = (e.get("author") or {}).get("name")
        problems += _too_long(f"{at}.author.name", author, EMBED_AUTHOR_MAX, "an author name")
        fields = e.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            problems.append(
                f"{at} has {len(fields)} fields; an embed holds at most {EMBED_FIELDS_MAX}"
            )
        for j, f in enumerate(fields):
            name, value = f.get("name"), f.get("value")
            for key, text in (("name", name), ("value", value)):
                # Discord requires both; blank ones are refused too (hence "\u200b" in bots).
                if not str(text or "").strip():
                    problems.append(f"{at}.fields[{j}].{key} is empty; a field needs a {key}")
            problems += _too_long(
                f"{at}.fields[{j}].name", name, EMBED_FIELD_NAME_MAX, "a field name"
            )
            problems += _too_long(
                f"{at}.fields[{j}].value", value, EMBED_FIELD_VALUE_MAX, "a field value"
            )
    total = sum(embed_length(e) for e in embeds)
    if total > EMBED_TOTAL_MAX:
        problems.append(
            f"the embeds total {total:,} characters (title, description, fields, footer, "
            f"author); a message's embeds hold at most {EMBED_TOTAL_MAX:,}"
        )
    return problems


_RANGE = ("min_values", "max_values")


def _item_problems(at: str, comp: Mapping[str, Any]) -> list[str]:
    """Limits of one interactive component (button or select), wherever it sits."""
    problems = _too_long(f"{at}.custom_id", comp.get("custom_id"), CUSTOM_ID_MAX, "a custom_id")
    kind = comp.get("type")
    if kind == BUTTON:
        problems += _too_long(f"{at}.label", comp.get("label"), BUTTON_LABEL_MAX, "a button label")
    elif kind in SELECT_TYPES:
        placeholder = comp.get("placeholder")
        problems += _too_long(
            f"{at}.placeholder", placeholder, SELECT_PLACEHOLDER_MAX, "a placeholder"
        )
        options = comp.get("options") or []
        if len(options) > SELECT_OPTIONS_MAX:
            problems.append(
                f"{at} has {len(options)} options; a select holds at most {SELECT_OPTIONS_MAX}"
            )
        for k, opt in enumerate(options):
            for key in ("label", "value", "description"):
                problems += _too_long(
                    f"{at}.options[{k}].{key}",
                    opt.get(key),
                    SELECT_OPTION_TEXT_MAX,
                    f"an option {key}",
                )
        low, high = (int(v) if (v := comp.get(k)) is not None else 1 for k in _RANGE)
        if high > SELECT_OPTIONS_MAX:
            problems.append(f"{at}.max_values is above {SELECT_OPTIONS_MAX}")
        if low > high:
            problems.append(f"{at}.min_values {low} is above its max_values {high}")
        if kind == STRING_SELECT:
            if not options:
                problems.append(f"{at} has no options; a string select needs at least 1")
            elif low > len(options):
                problems.append(
                    f"{at}.min_values {low} is above its {len(options)} option(s): "
                    "nobody could ever submit it"
                )
    return problems


def duplicate_id_problems(components: Sequence[Mapping[str, Any]]) -> list[str]:
    """custom_ids used twice in one message: Discord refuses the message (and a click
    could not say which of the two was pressed)."""
    seen: dict[str, int] = {}
    for comp in walk_components(components):
        cid = comp.get("custom_id")
        if cid is not None:
            seen[cid] = seen.get(cid, 0) + 1
    return [
        f"custom_id {cid!r} is used by {n} components; each must be unique in a message"
        for cid, n in seen.items()
        if n > 1
    ]


def _row_problems(at: str, row: Mapping[str, Any]) -> list[str]:
    """An action row, at the top of a message or inside a container: 1-5 buttons, or one
    select alone."""
    items = list(row.get("components") or [])
    if not items:
        return [f"{at} is an empty action row"]
    if any(c.get("type") in SELECT_TYPES for c in items) and len(items) > 1:
        return [f"{at}: a select takes a whole action row"]
    if len(items) > ROW_BUTTONS_MAX:
        return [f"{at} has {len(items)} buttons; an action row holds at most {ROW_BUTTONS_MAX}"]
    return []


# Components V2 (Discord's schema, MessageCreateRequest and the *ForMessageRequest types):
# what may sit at the top of a message and inside a container, a section's parts.
V2_TOP_TYPES = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
V2_CONTAINER_TYPES = V2_TOP_TYPES - {CONTAINER}
SECTION_TEXTS = (1, 3)  # text displays in a section
SECTION_ACCESSORIES = {BUTTON, THUMBNAIL}
GALLERY_ITEMS = (1, 10)
ACCENT_MAX = 0xFFFFFF


def v2_problems(components: Sequence[Mapping[str, Any]], at: str = "components") -> list[str]:
    """The layout rules of a components-v2 message, component by component: what may nest
    where, no empty text display, container or action row, 1-3 text displays and an
    accessory in a section, 1-10 media gallery items, accent colours in range."""
    problems: list[str] = []
    allowed = V2_TOP_TYPES if at == "components" else V2_CONTAINER_TYPES
    for i, comp in enumerate(components):
        here, kind = f"{at}[{i}]", comp.get("type")
        if kind not in allowed:
            where = "a message" if at == "components" else "a container"
            problems.append(f"{here}: a component of type {kind} may not sit in {where}")
        if kind == ACTION_ROW:
            problems += _row_problems(here, comp)
        elif kind == TEXT_DISPLAY and not str(comp.get("content") or ""):
            problems.append(f"{here} is an empty text display")
        elif kind == SECTION:
            texts = list(comp.get("components") or [])
            low, high = SECTION_TEXTS
            if not low <= len(texts) <= high or any(t.get("type") != TEXT_DISPLAY for t in texts):
                problems.append(f"{here}: a section holds {low}-{high} text displays only")
            problems += v2_problems([t for t in texts if t.get("type") == TEXT_DISPLAY], here)
            accessory = comp.get("accessory")
            if not accessory or accessory.get("type") not in SECTION_ACCESSORIES:
                problems.append(f"{here}: a section needs a button or thumbnail as accessory")
        elif kind == MEDIA_GALLERY:
            low, high = GALLERY_ITEMS
            if not low <= len(comp.get("items") or []) <= high:
                n = len(comp.get("items") or [])
                problems.append(f"{here}: a media gallery holds {low}-{high} items (has {n})")
        elif kind == CONTAINER:
            inner = list(comp.get("components") or [])
            if not inner:
                problems.append(f"{here} is an empty container")
            colour = comp.get("accent_color")
            if colour is not None and not (isinstance(colour, int) and 0 <= colour <= ACCENT_MAX):
                problems.append(f"{here}: accent colour {colour!r} is outside 0-0xFFFFFF")
            if at == "components":  # a nested one is refused above, by its type
                problems += v2_problems(inner, here)
    return problems


def component_problems(components: Sequence[Mapping[str, Any]], *, flags: int = 0) -> list[str]:
    problems: list[str] = []
    if flags & COMPONENTS_V2_FLAG:
        problems += v2_problems(components)
        every = list(walk_components(components))
        if len(every) > COMPONENTS_V2_MAX:
            problems.append(
                f"{len(every)} components; a components-v2 message holds at most "
                f"{COMPONENTS_V2_MAX}"
            )
        text = sum(len(c.get("content") or "") for c in every if c.get("type") == TEXT_DISPLAY)
        if text > COMPONENTS_V2_TEXT_MAX:
            problems.append(
                f"text displays of {text:,} characters; a components-v2 message holds at "
                f"most {COMPONENTS_V2_TEXT_MAX:,}"
            )
    elif len(components) > ACTION_ROWS_MAX:
        problems.append(f"{len(components)} action rows; a message holds at most {ACTION_ROWS_MAX}")
    for r, top in enumerate(components):
        if top.get("type") == ACTION_ROW and not flags & COMPONENTS_V2_FLAG:
            problems += _row_problems(f"components[{r}]", top)
        for k, comp in enumerate(walk_components([top])):
            if comp.get("type") == BUTTON or comp.get("type") in SELECT_TYPES:
                problems += _item_problems(f"components[{r}]...[{k}]", comp)
    return problems + duplicate_id_problems(components)


def message_problems(body: Mapping[str, Any]) -> list[str]:
    """What Discord would reject in a message body it is sent (create, edit, interaction
    response data, followup): sizes of content, embeds and components. An empty list means
    Discord would accept it."""
    problems = _too_long("content", body.get("content"), CONTENT_MAX, "message content")
    problems += embed_problems(list(body.get("embeds") or []))
    components = list(body.get("components") or [])
    flags = int(body.get("flags") or 0)
    problems += component_problems(components, flags=flags)
    if flags & COMPONENTS_V2_FLAG:
        # Such a message is all components (50035): content, embeds, a poll or stickers
        # are refused, on an edit too (the flag, once set, stays: ``v2_edit``).
        problems += [
            f"{key} on a components-v2 message; it holds components only"
            for key in ("content", "embeds", "poll", "sticker_ids")
            if body.get(key)
        ]
    return problems


def v2_edit(body: Mapping[str, Any], base: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """An edit as Discord checks it: the components-v2 flag of the message it edits stays
    (it cannot be removed), so its content and embeds are refused there too. A message
    without the flag may be edited to gain it."""
    if base is None or not int(base.get("flags") or 0) & COMPONENTS_V2_FLAG:
        return body
    return {**body, "flags": int(body.get("flags") or 0) | COMPONENTS_V2_FLAG}


def file_problems(files: Sequence[tuple[str, bytes]], *, kept: int = 0) -> list[str]:
    """Uploads Discord would reject: more than ``UPLOAD_MAX`` bytes over a message's files,
    or more than ``FILES_MAX`` attachments on the message (``kept``: those an edit keeps)."""
    problems = []
    if len(files) + kept > FILES_MAX:
        problems.append(
            f"{len(files) + kept} files; a message holds at most {FILES_MAX} attachments"
        )
    total = sum(len(data) for _, data in files)
    if total > UPLOAD_MAX:
        names = ", ".join(name for name, _ in files)
        problems.append(
            f"files {names}: {total:,} bytes is over the upload limit of {UPLOAD_MAX:,}"
        )
    return problems


def kept_attachments(body: Mapping[str, Any], base: Mapping[str, Any] | None) -> int:
    """How many of the attachments already on ``base`` an edit with ``body`` keeps (an
    ``attachments`` list names the ones to keep; without it all stay)."""
    old = list((base or {}).get("attachments") or [])
    if "attachments" not in body:
        return len(old)
    keep = {str(a.get("id")) for a in body.get("attachments") or ()}
    return sum(1 for a in old if str(a.get("id")) in keep)


def is_empty_message(
    body: Mapping[str, Any], *, files: int = 0, base: Mapping[str, Any] | None = None
) -> bool:
    """Whether the message would show nothing (Discord's 50006 "Cannot send an empty
    message"): no visible content, embed, component, attachment, sticker or poll. For an
    edit, ``base`` is the message as it is: the fields the edit leaves out stay."""
    merged = {**(base or {}), **body}
    attachments = files + kept_attachments(body, base)
    shown = (
        str(merged.get("content") or "").strip(),
        merged.get("embeds"),
        merged.get("components"),
        merged.get("sticker_ids"),
        merged.get("poll"),
    )
    return not attachments and not any(shown)


def _mention_text(body: Mapping[str, Any]) -> str:
    # Mentions ping from the content (and from components-v2 text displays), never embeds.
    parts = [str(body.get("content") or "")]
    parts += [
        str(c.get("content") or "")
        for c in walk_components(body.get("components") or [])
        if c.get("type") == TEXT_DISPLAY
    ]
    return "\n".join(parts)


def mention_problems(body: Mapping[str, Any], pingable_roles: Collection[int] = ()) -> list[str]:
    """Mentions of @everyone, @here or a role that this body lets Discord ping: without
    ``allowed_mentions`` Discord parses every mention in the content. ``pingable_roles``:
    roles the test allows to be pinged, when the body names them in ``allowed_mentions``."""
    text = _mention_text(body)
    everyone = sorted(set(_EVERYONE.findall(text)))
    roles = sorted(set(_ROLE_MENTION.findall(text)))
    if not everyone and not roles:
        return []
    allowed = body.get("allowed_mentions")
    if allowed is None:
        parse = {"everyone", "roles", "users"}
        allowed_roles: set[str] = set()
        why = "no allowed_mentions is set, so Discord parses every mention"
    else:
        parse = set(allowed.get("parse") or [])
        allowed_roles = {str(r) for r in allowed.get("roles") or []}
        why = f"allowed_mentions is {dict(allowed)}"
    problems = []
    if everyone and "everyone" in parse:
        shown = ", ".join(f"@{e}" for e in everyone)
        problems.append(f"the content would ping {shown}: {why}")
    pinged = [
        r
        for r in roles
        if "roles" in parse or (r in allowed_roles and int(r) not in pingable_roles)
    ]
    if pinged:
        shown = ", ".join(f"<@&{r}>" for r in pinged)
        problems.append(f"the content would ping the role(s) {shown}: {why}")
    return problems


def choices_problems(choices: Sequence[Mapping[str, Any]]) -> list[str]:
    """What Discord rejects in an autocomplete answer."""
    problems: list[str] = []
    if len(choices) > AUTOCOMPLETE_CHOICES_MAX:
        problems.append(
            f"{len(choices)} autocomplete choices; Discord takes at most {AUTOCOMPLETE_CHOICES_MAX}"
        )
    for i, c in enumerate(choices):
        problems += _too_long(f"choices[{i}].name", c.get("name"), CHOICE_TEXT_MAX, "a choice name")
        problems += _too_long(
            f"choices[{i}].value", c.get("value"), CHOICE_TEXT_MAX, "a choice value"
        )
    return problems


# --------------------------------------------------------------------------- interactions


def interaction_payload(
    *,
    type: int,
    application_id: int,
    guild_id: int | None,
    channel: JsonDict,
    member: JsonDict | None = None,
    data: JsonDict | None = None,
    message: JsonDict | None = None,
    app_permissions: int = 0,
    locale: str = "en-US",
    guild_locale: str = "en-US",
    interaction_id: int | None = None,
    token: str | None = None,
    user: JsonDict | None = None,
    context: int = 0,
) -> JsonDict:
    """A complete INTERACTION_CREATE payload (``id``, ``token``, ``version`` and
    ``attachment_size_limit`` are read with ``data[...]`` by discord.py). Outside a server
    (``guild_id`` None: a DM or group DM, ``context`` 1 or 2) Discord sends ``user``, not
    ``member``, and the app is authorized by the user's install (owner key "1")."""
    iid = interaction_id if interaction_id is not None else next_id()
    payload: JsonDict = {
        "id": str(iid),
        "application_id": str(application_id),
        "type": type,
        "token": token or f"token-{iid}",
        "version": 1,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "channel_id": channel["id"],
        "channel": channel,
        "app_permissions": str(app_permissions),
        "locale": locale,
        "entitlements": [],
        "context": context,
    }
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
        payload["guild"] = {"id": str(guild_id), "locale": guild_locale, "features": []}
        payload["guild_locale"] = guild_locale
        payload["member"] = member
        payload["authorizing_integration_owners"] = {"0": str(guild_id)}
    else:
        assert user is not None
        payload["user"] = user
        payload["authorizing_integration_owners"] = {"1": user["id"]}
    if data is not None:
        payload["data"] = data
    if message is not None:
        payload["message"] = message
    return payload


# What a user-installed app may do where it is no member (Discord's app_permissions there):
# embed, attach, mention and use external emojis in its answers; it cannot post on its own.
USER_INSTALL_PERMISSIONS = (1 << 14) | (1 << 15) | (1 << 17) | (1 << 18)


def component_data(
    custom_id: str, *, component_type: int = BUTTON, values: Sequence[object] | None = None
) -> JsonDict:
    data: JsonDict = {"custom_id": custom_id, "component_type": component_type}
    if component_type in SELECT_TYPES:
        data["values"] = [str(v) for v in (values or [])]
    return data


def modal_submit_data(modal: Mapping[str, Any], values: Mapping[str, Any]) -> JsonDict:
    """What Discord sends back when a modal is submitted.

    ``modal`` is the modal as the bot sent it (callback type 9 ``data``); ``values`` maps a
    text input's ``custom_id`` or ``label`` to its value (a list for selects inside labels).
    The structure (action rows or labels) mirrors the modal's own.
    """
    remaining = dict(values)

    def value_for(comp: Mapping[str, Any], label: str | None) -> Any:
        for key in (comp.get("custom_id"), label, comp.get("label")):
            if key is not None and key in remaining:
                return remaining.pop(key)
        return None

    def submitted(comp: Mapping[str, Any], label: str | None) -> JsonDict | None:
        if comp.get("type") == TEXT_INPUT:
            value = value_for(comp, label)
            if value is None:
                if comp.get("required", True):
                    raise ValueError(
                        f"modal field {label or comp.get('label') or comp['custom_id']!r} is "
                        "required (Discord would not let the user submit without it)"
                    )
                value = ""
            return {"type": TEXT_INPUT, "custom_id": comp["custom_id"], "value": str(value)}
        if comp.get("type") in SELECT_TYPES:
            value = value_for(comp, label)
            vals = [] if value is None else value if isinstance(value, list) else [value]
            return {"type": comp["type"], "custom_id": comp["custom_id"], "values": vals}
        return None

    out: list[JsonDict] = []
    for top in modal.get("components", []):
        if top.get("type") == ACTION_ROW:
            inner = [s for c in top.get("components", []) if (s := submitted(c, None))]
            out.append({"type": ACTION_ROW, "components": inner})
        elif top.get("type") == LABEL:
            sub = submitted(top["component"], top.get("label"))
            if sub is not None:
                out.append({"type": LABEL, "component": sub})
    if remaining:
        raise KeyError(f"modal {modal.get('custom_id')!r} has no fields {sorted(remaining)}")
    return {"custom_id": modal["custom_id"], "components": out}


# --------------------------------------------------------------------------- app commands

AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group


def find_command(
    tree: app_commands.CommandTree[Any], path: str, *, guild: discord.abc.Snowflake | None = None
) -> tuple[list[str], app_commands.Command[Any, ..., Any]]:
    """Resolve ``"group sub command"`` in ``tree`` (global commands, then ``guild``'s)."""
    parts = path.split()
    if not parts:
        raise ValueError("empty command path")
    root: AnyCommand | None = tree.get_command(parts[0])
    if root is None and guild is not None:
        root = tree.get_command(parts[0], guild=guild)
    if root is None:
        names = sorted(c.name for c in tree.get_commands())
        raise LookupError(f"no slash command {parts[0]!r} in the tree; it has {names}")
    node: AnyCommand = root
    for part in parts[1:]:
        if not isinstance(node, app_commands.Group):
            raise LookupError(f"{node.qualified_name!r} has no subcommands (asked for {path!r})")
        child = node.get_command(part)
        if child is None:
            names = sorted(c.name for c in node.commands)
            raise LookupError(f"group {node.qualified_name!r} has no {part!r}; it has {names}")
        node = child
    if isinstance(node, app_commands.Group):
        names = sorted(c.name for c in node.commands)
        raise LookupError(f"{path!r} is a group; pick one of {names}")
    return parts, node


class Resolver:
    """Collects ``resolved`` data for user/member/role/channel/attachment options."""

    def __init__(self, guild: discord.Guild | None) -> None:
        self.guild = guild
        self.data: JsonDict = {}

    def _section(self, name: str) -> JsonDict:
        section: JsonDict = self.data.setdefault(name, {})
        return section

    def user(self, value: Any) -> str:
        user = _unwrap(value)
        if isinstance(user, int):
            found = self.guild.get_member(user) if self.guild else None
            if found is None:
                raise LookupError(f"no member with id {user}")
            user = found
        self._section("users")[str(user.id)] = user_payload(user)
        if isinstance(user, discord.Member):
            member = member_payload(user, permissions=user.guild_permissions.value)
            member.pop("user")
            self._section("members")[str(user.id)] = member
        return str(user.id)

    def role(self, value: Any) -> str:
        role = _unwrap(value)
        if isinstance(role, int) and self.guild is not None:
            role = self.guild.get_role(role)
        if not isinstance(role, discord.Role):
            raise TypeError(f"expected a role, got {value!r}")
        self._section("roles")[str(role.id)] = role_payload(role)
        return str(role.id)

    def channel(self, value: Any) -> str:
        channel = _unwrap(value)
        if isinstance(channel, int) and self.guild is not None:
            channel = self.guild.get_channel_or_thread(channel)
        if channel is None or not hasattr(channel, "type"):
            raise TypeError(f"expected a channel, got {value!r}")
        data = channel_payload(channel, permissions=0)
        if self.guild is not None:
            data["permissions"] = str(channel.permissions_for(self.guild.me).value)
        self._section("channels")[str(channel.id)] = data
        return str(channel.id)

    def attachment(self, value: Any) -> str:
        att = _unwrap(value)
        if not isinstance(att, Mapping) or "id" not in att:
            raise TypeError(f"expected an attachment payload dict, got {value!r}")
        self._section("attachments")[str(att["id"])] = dict(att)
        return str(att["id"])


def _unwrap(value: Any) -> Any:
    # Harness objects (a Player) expose the discord object as ``.member``.
    member = getattr(value, "member", None)
    if isinstance(member, discord.Member):
        return member
    return value


def _choice_value(param: app_commands.Parameter, value: Any) -> Any:
    if isinstance(value, app_commands.Choice):
        return value.value
    if isinstance(value, enum.Enum):
        for choice in param.choices:
            if choice.name == value.name:
                return choice.value
        return value.value
    return value


def option_value(
    param: app_commands.Parameter, value: Any, resolver: Resolver, *, validate: bool = True
) -> Any:
    """Convert a Python test value into the wire value for ``param``'s option type."""
    t = param.type
    value = _choice_value(param, value)
    where = f"option {param.display_name!r} of /{param.command.qualified_name}"
    if t is AppCommandOptionType.string:
        if not isinstance(value, str):
            raise TypeError(f"{where} is a string, got {value!r}")
        # For string options discord.py reports min_length/max_length as min/max_value.
        if validate:
            if param.min_value is not None and len(value) < param.min_value:
                raise ValueError(f"{where}: shorter than min_length {param.min_value}")
            if param.max_value is not None and len(value) > param.max_value:
                raise ValueError(f"{where}: longer than max_length {param.max_value}")
    elif t is AppCommandOptionType.integer:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{where} is an integer, got {value!r}")
    elif t is AppCommandOptionType.number:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise TypeError(f"{where} is a number, got {value!r}")
    elif t is AppCommandOptionType.boolean:
        if not isinstance(value, bool):
            raise TypeError(f"{where} is a boolean, got {value!r}")
    elif t is AppCommandOptionType.user:
        return resolver.user(value)
    elif t is AppCommandOptionType.role:
        return resolver.role(value)
    elif t is AppCommandOptionType.mentionable:
        inner = _unwrap(value)
        return resolver.role(inner) if isinstance(inner, discord.Role) else resolver.user(inner)
    elif t is AppCommandOptionType.channel:
        return resolver.channel(value)
    elif t is AppCommandOptionType.attachment:
        return resolver.attachment(value)
    else:  # pragma: no cover - subcommand types never reach here
        raise TypeError(f"{where}: unsupported option type {t}")
    if validate and t in (AppCommandOptionType.integer, AppCommandOptionType.number):
        if param.min_value is not None and value < param.min_value:
            raise ValueError(f"{where}: {value} is below min_value {param.min_value}")
        if param.max_value is not None and value > param.max_value:
            raise ValueError(f"{where}: {value} is above max_value {param.max_value}")
    if validate and param.choices and not param.autocomplete:
        allowed = [c.value for c in param.choices]
        if value not in allowed:
            raise ValueError(f"{where}: {value!r} is not one of the choices {allowed}")
    return value


def command_data(
    tree: app_commands.CommandTree[Any],
    path: str,
    options: Mapping[str, Any],
    *,
    guild: discord.Guild | None = None,
    validate: bool = True,
    focused: str | None = None,
) -> JsonDict:
    """The ``data`` of a chat-input APPLICATION_COMMAND (or AUTOCOMPLETE with ``focused``).

    ``options`` are keyed by the Python parameter name or the Discord (display) name.
    Unknown options, missing required options and values of the wrong type raise; with
    ``validate`` (the default) values outside choices / min / max also raise, as real Discord
    would never send them. Pass ``validate=False`` to test the command's own checks.
    """
    parts, command = find_command(tree, path, guild=guild)
    resolver = Resolver(guild)
    remaining = dict(options)
    wire: list[JsonDict] = []
    for param in command.parameters:
        key = next((k for k in (param.name, param.display_name) if k in remaining), None)
        if key is None:
            # While autocompleting, Discord sends only the options filled in so far.
            if param.required and focused is None:
                raise TypeError(f"/{command.qualified_name} requires option {param.display_name!r}")
            continue
        raw = remaining.pop(key)
        is_focused = focused in (param.name, param.display_name)
        if is_focused:
            opt: JsonDict = {
                "name": param.display_name,
                "type": param.type.value,
                "value": raw if isinstance(raw, str) else str(raw),
                "focused": True,
            }
        else:
            value = option_value(param, raw, resolver, validate=validate and focused is None)
            opt = {"name": param.display_name, "type": param.type.value, "value": value}
        wire.append(opt)
    if remaining:
        names = [p.display_name for p in command.parameters]
        raise TypeError(
            f"/{command.qualified_name} has no option(s) {sorted(remaining)}; it has {names}"
        )
    if focused is not None and not any(o.get("focused") for o in wire):
        raise TypeError(f"focused option {focused!r} must be given a (partial) value")

    # Nest: /a b c -> data{name a, options[{name b, type 2, options[{name c, type 1, ...}]}]}
    nested: list[JsonDict] = wire
    for depth in range(len(parts) - 1, 0, -1):
        kind = 1 if depth == len(parts) - 1 else 2  # SUB_COMMAND, SUB_COMMAND_GROUP
        nested = [{"name": parts[depth], "type": kind, "options": nested}]
    root = tree.get_command(parts[0]) or tree.get_command(parts[0], guild=guild)
    data: JsonDict = {
        "id": str(_command_id(root)),
        "name": parts[0],
        "type": 1,  # CHAT_INPUT
        "options": nested,
    }
    if guild is not None:
        data["guild_id"] = str(guild.id)
    if resolver.data:
        data["resolved"] = resolver.data
    return data


_command_ids: dict[int, int] = {}


def _command_id(command: Any) -> int:
    # A stable fake id per command object (real ids come from syncing, which we never do).
    return _command_ids.setdefault(id(command), next_id())


def context_menu_data(
    tree: app_commands.CommandTree[Any],
    name: str,
    target: Any,
    *,
    guild: discord.Guild | None = None,
    message: JsonDict | None = None,
) -> JsonDict:
    """``data`` of a USER (2) or MESSAGE (3) context-menu command invocation."""
    for kind in (discord.AppCommandType.user, discord.AppCommandType.message):
        cmd = tree.get_command(name, type=kind) or tree.get_command(name, guild=guild, type=kind)
        if cmd is not None:
            break
    else:
        raise LookupError(f"no context menu {name!r}")
    data: JsonDict = {"id": str(_command_id(cmd)), "name": name, "type": kind.value}
    if kind is discord.AppCommandType.user:
        resolver = Resolver(guild)
        data["target_id"] = resolver.user(target)
        data["resolved"] = resolver.data
    else:
        if message is None:
            raise ValueError("a message context menu needs the target message payload")
        data["target_id"] = message["id"]
        data["resolved"] = {"messages": {message["id"]: message}}
    if guild is not None:
        data["guild_id"] = str(guild.id)
    return data
