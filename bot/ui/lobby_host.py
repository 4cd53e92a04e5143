"""The lobby host's private panel (Manage): remove a seat, pass the host role, change the settings,
and the spectators' Watch toggle; its selects are persistent (``lm:<table>:<action>``) and each pick
is checked again by the service."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord

from bot.errors import Forbidden, StaleAction, UserError
from bot.games.base import defer_update, presentation
from bot.games.options import STAKE, Option
from bot.games.terms import bot_level
from bot.i18n.speaking import N_, _, number, pgettext
from bot.render.common import COLOUR, chips
from bot.render.view import LOBBY, custom_id
from bot.tables.lobby_host import seat_key
from bot.tables.model import Table
from bot.tables.names import md_name
from bot.ui.errors import handle_error, reply_private
from bot.ui.publisher import Publisher

log = logging.getLogger(__name__)

PANEL_TITLE = N_("Manage table")  # the panel's title starts so (see on_own_message)


def select_id(table_id: int, action: str) -> str:
    """A panel select's custom_id (``bot.ui.manage.ManageSelect`` answers it)."""
    return f"lm:{table_id}:{action}"


def select(
    table_id: int, action: str, placeholder: str, options: list[discord.SelectOption]
) -> Any:
    return discord.ui.Select(
        custom_id=select_id(table_id, action), placeholder=placeholder, options=options
    )


# --- the panel ---------------------------------------------------------------------------


def panel(table: Table) -> dict[str, Any]:
    """The host's private panel: an embed, the two selects where they have a choice, and
    the Change settings button."""
    embed = discord.Embed(
        title=f"{_(PANEL_TITLE)} #{table.id}",
        description=_(
            "Remove a seat (its stake goes back), hand the table over, or change "
            "its settings. Only you see this."
        ),
        colour=COLOUR,
    )
    view = discord.ui.View(timeout=None)
    host = table.row.host_id
    seats = [
        discord.SelectOption(
            label=(f"{s.name} ({bot_level(s.bot_level or '')})" if s.is_bot else s.name)[:100],
            value=seat_key(table, i),
        )
        for i, s in enumerate(table.seats)
        if s.user_id != host
    ]
    if seats:
        view.add_item(select(table.id, "kick", _("Remove a seat…"), seats))
    members = [
        discord.SelectOption(label=s.name[:100], value=str(s.user_id))
        for s in table.seats
        if s.user_id is not None and s.user_id != host
    ]
    if members:
        view.add_item(select(table.id, "host", _("Make host…"), members))
    view.add_item(
        discord.ui.Button(
            label=pgettext("button", "Change settings"),
            emoji="🛠️",
            style=discord.ButtonStyle.primary,
            custom_id=custom_id(table.id, LOBBY, "settings"),
        )
    )
    return {"embed": embed, "view": view}


def require_host(table: Table, user_id: int, what: str) -> None:
    """The lobby is open and ``user_id`` hosts it; ``what``: "manage" (the panel) or
    "settings"."""
    if table.status != "lobby":
        raise StaleAction(_("That lobby is closed."))
    if user_id != table.row.host_id:
        if what == "manage":
            raise Forbidden(_("Only the host can manage this table."))
        raise Forbidden(_("Only the host can change the settings."))


async def open_panel(interaction: discord.Interaction[Any], table: Table) -> None:
    require_host(table, interaction.user.id, "manage")
    payload = panel(table)
    if interaction.response.is_done():
        await interaction.followup.send(**payload, ephemeral=True)
    else:
        await interaction.response.send_message(**payload, ephemeral=True)


async def on_pick(
    interaction: discord.Interaction[Any],
    publisher: Publisher,
    table_id: int,
    action: str,
    value: str,
) -> None:
    user = interaction.user.id
    if action == "kick":
        change, name = await publisher.lobby_host.remove_seat(table_id, user, value)
        table = change.table
        refunded = table.row.stake and value.startswith("u")
        line = (
            _(
                "Removed %(name)s's seat: their %(chips)s went back.",
                name=md_name(name),
                chips=chips(table.row.stake),
            )
            if refunded
            else _("Removed %(name)s's seat.", name=md_name(name))
        )
        await interaction.response.edit_message(content=line, **panel(table))
    else:
        if not value.isdigit():
            raise StaleAction(_("That member is no longer seated here."))
        change, name = await publisher.lobby_host.make_host(table_id, user, int(value))
        table = change.table
        line = _("%(name)s is the host of table #%(id)s now.", name=md_name(name), id=table.id)
        await interaction.response.edit_message(content=line, embed=None, view=None)
    await publisher.redraw_lobby(table)


# --- the settings -------------------------------------------------------------------------


def _label(option: Option[Any]) -> str:
    """The field's label: the option's own (``Option.label``), else its name as the start
    command shows it to the reader (its translation in the command catalogue), in words."""
    if option.label:
        return _(option.label)[:45]
    name = pgettext("option", option.name).replace("_", " ")
    return (name[:1].upper() + name[1:])[:45]


def _yes_no() -> dict[str, bool]:
    """What a yes-or-no field takes: English always, and the reader's words."""
    words = {"yes": True, "y": True, "on": True, "no": False, "n": False, "off": False}
    words[_("yes").lower()] = True
    words[_("no").lower()] = False
    return words


def _choice_word(name: str) -> str:
    """A choice as the form shows it: its name in the reader's language (the command
    catalogue's), without the explanation in brackets: "rückwärts", "à rebours"."""
    return pgettext("choice", name).split(" (", 1)[0].strip()


def _hint(option: Option[Any]) -> str:
    if isinstance(option.default, bool):
        return _("yes or no")
    if option.choices:
        values = ", ".join(_choice_word(name) for name, __ in option.choices)
        if option.default is None:
            return _("One of: %(values)s, or empty for the default", values=values)
        return _("One of: %(values)s", values=values)
    if option.name == STAKE.name and option.high == 0:
        return _("0: this server has no staked tables")
    if option.low is not None and option.high is not None:
        low, high = number(option.low), number(option.high)
        if option.default is None:
            return _("%(low)s to %(high)s, or empty for the default", low=low, high=high)
        return _("%(low)s to %(high)s", low=low, high=high)
    return ""


def _shown(option: Option[Any], value: Any) -> str:
    if isinstance(option.default, bool):
        return _("yes") if value else _("no")
    for name, choice in option.choices:
        if choice == value:
            return _choice_word(name)
    return "" if value is None else str(value)


def parse_option(option: Option[Any], text: str) -> Any:
    """What the host typed for ``option``, as the start command would take it; a
    ``UserError`` naming the field if it can't be."""
    text = text.strip()
    label = _label(option)
    if isinstance(option.default, bool):
        words = _yes_no()
        if not text:
            return option.default
        if text.lower() not in words:
            raise UserError(_("%(field)s: say yes or no.", field=label))
        return words[text.lower()]
    if option.choices:
        if not text:
            return option.default
        wanted = text.casefold()
        for name, value in option.choices:
            said = (str(value), name, name.split(" (", 1)[0], pgettext("choice", name))
            if wanted in {word.casefold() for word in said} | {_choice_word(name).casefold()}:
                return value
        raise UserError(_("%(field)s: %(hint)s.", field=label, hint=_hint(option)))
    if not text:
        return option.default
    digits = "".join(ch for ch in text if ch not in ",. \u00a0\u202f")  # 1,000 1.000 1 000
    if not digits.isdigit() or not option.allows(int(digits)):
        raise UserError(_("%(field)s: a whole number, %(hint)s.", field=label, hint=_hint(option)))
    return int(digits)


class SettingsModal(discord.ui.Modal):
    """The game's own start options and the stake, filled with the lobby's values (five
    fields at most, as Discord allows)."""

    def __init__(
        self, publisher: Publisher, table: Table, stake_cap: int = STAKE.high or 0
    ) -> None:
        super().__init__(title=_("Settings of table #%(id)s", id=table.id)[:45], timeout=900)
        # The stake as this server allows it: its hint and refusal name this server's cap
        # (at least the table's own stake, so a lowered cap can still be met by lowering).
        stake = replace(STAKE, high=max(stake_cap, table.row.stake))
        self.publisher = publisher
        self.table_id = table.id
        named = presentation(table.game).option_labels  # the game's own words for its fields
        self.options: list[Option[Any]] = [
            *(
                replace(o, label=named[o.name]) if o.name in named and not o.label else o
                for o in table.game.setting_options
            ),
            stake,
        ][:5]
        self.fields: list[discord.ui.TextInput[Any]] = []
        for option in self.options:
            value = table.row.stake if option is stake else table.settings.get(option.name)
            field: discord.ui.TextInput[Any] = discord.ui.TextInput(
                label=_label(option) if option is not stake else _("Stake (chips each)")[:45],
                default=_shown(option, value),
                placeholder=_hint(option)[:100] or None,
                required=False,
                max_length=40,
            )
            self.fields.append(field)
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        values = {
            o.name: parse_option(o, f.value) for o, f in zip(self.options, self.fields, strict=True)
        }
        await on_settings(interaction, self.publisher, self.table_id, values)

    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await handle_error(interaction, error, f"on the settings of game {self.table_id}")


async def ask_settings(
    interaction: discord.Interaction[Any], publisher: Publisher, table: Table
) -> None:
    require_host(table, interaction.user.id, "settings")
    cap = await publisher.lobby_host.stake_cap(table)
    await interaction.response.send_modal(SettingsModal(publisher, table, cap))


async def on_settings(
    interaction: discord.Interaction[Any],
    publisher: Publisher,
    table_id: int,
    values: dict[str, Any],
) -> None:
    table = await publisher.tables.get(table_id)
    require_host(table, interaction.user.id, "settings")
    stake = int(values.pop(STAKE.name, table.row.stake) or 0)
    current = {k: v for k, v in table.settings.items() if k != "turn_timeout"}
    settings = table.game.settings_from(current, values)
    old_stake = table.row.stake
    change, asked = await publisher.lobby_host.change_settings(
        table_id, interaction.user.id, settings, stake
    )
    table = change.table
    described = presentation(table.game).describe_settings(table.settings)
    stake = table.row.stake
    if stake:
        answer = _(
            "Table #%(id)s now plays **%(settings)s** · stake %(chips)s.",
            id=table.id,
            settings=described,
            chips=chips(stake),
        )
    else:
        answer = _("Table #%(id)s now plays **%(settings)s**.", id=table.id, settings=described)
    await reply_private(interaction, answer)
    await publisher.redraw_lobby(table)
    # Everyone seated, and those whose seat is held, hears of it once, in the channel:
    # a public line, in the server's words (the answer above was the host's own).
    async with publisher.languages.public(table):
        described = presentation(table.game).describe_settings(table.settings)
        seated = [s.user_id for s in table.seats if s.user_id and s.user_id != interaction.user.id]
        if stake:
            line = _(
                "⚙️ The host changed table #%(id)s: **%(settings)s** · stake %(chips)s.",
                id=table.id,
                settings=described,
                chips=chips(stake),
            )
        else:
            line = _(
                "⚙️ The host changed table #%(id)s: **%(settings)s**.",
                id=table.id,
                settings=described,
            )
        if asked and old_stake:
            line += " " + _("Stakes of %(chips)s went back.", chips=chips(old_stake))
        if table.held:
            # TRANSLATORS: "Join" is the lobby's button of that name.
            line += " " + (
                _("Seats held: press Join to play for %(chips)s.", chips=chips(stake))
                if stake
                else _("Seats held: press Join to play.")
            )
    pinged = list(dict.fromkeys([*seated, *(s.user_id for s in table.held if s.user_id)]))
    if pinged:
        mentions = " ".join(f"<@{u}>" for u in pinged)
        try:
            await interaction.followup.send(
                f"{mentions} {line}"[:2000],
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in pinged]
                ),
            )
        except discord.HTTPException as exc:
            log.info("game %s: settings notice not posted (%s)", table.id, exc.status)


# --- spectators ---------------------------------------------------------------------------


async def on_watch(
    interaction: discord.Interaction[Any], publisher: Publisher, table: Table, action: str
) -> None:
    """Watch, pressed on the lobby or on the table message: a toggle, so a member who
    watches stops (``unwatch``: the Stop watching button of messages drawn before)."""
    user = interaction.user
    watching = action == "watch" and user.id not in table.watchers
    if watching and table.seat_of(user.id) is not None:
        raise UserError(_("You're playing at this table: the thread is yours already."))
    thread = None
    if table.status == "running":
        if table.row.thread_id is None:
            raise UserError(_("This game runs in the channel itself: follow it here."))
        # Adding to (or taking out of) the thread is a call to Discord before the answer,
        # which a rate limit may hold up: acknowledge the click first.
        await defer_update(interaction)
        thread = publisher.client.get_channel(table.row.thread_id)
        if watching and isinstance(thread, discord.Thread):
            try:
                await thread.add_user(user)
            except discord.HTTPException as exc:
                log.info("game %s: watcher not added to the thread (%s)", table.id, exc.status)
                raise UserError(
                    _(
                        "I couldn't add you to the game's thread; open <#%(thread)s> instead.",
                        thread=thread.id,
                    )
                ) from None
    change = await publisher.lobby_host.watch(table.id, user.id, watching)
    table = change.table
    left_in = False
    if not watching and isinstance(thread, discord.Thread):
        try:
            await thread.remove_user(user)
        except discord.HTTPException as exc:
            log.info("game %s: watcher not taken out (%s)", table.id, exc.status)
            left_in = True
    if table.status == "lobby":
        await publisher.show_lobby(table, interaction)
        line = (
            # TRANSLATORS: Watch is the button of that name.
            _(
                "👀 You're watching table #%(id)s: you join its thread when the game starts. "
                "Press Watch again to stop.",
                id=table.id,
            )
            if watching
            else _("You stopped watching table #%(id)s.", id=table.id)
        )
    else:
        await publisher.publish(change, interaction)
        if watching:
            # TRANSLATORS: Watch is the button of that name.
            line = _(
                "👀 You're watching game #%(id)s in <#%(thread)s>. Press Watch again to stop.",
                id=table.id,
                thread=table.row.thread_id,
            )
        elif left_in:
            line = _(
                "You stopped watching game #%(id)s. Leave the thread from its menu.", id=table.id
            )
        else:
            line = _("You stopped watching game #%(id)s.", id=table.id)
    await reply_private(interaction, line)


async def add_watchers(client: discord.Client, table: Table) -> None:
    """A game just started: its watchers join the thread it opened."""
    if not table.watchers or table.row.thread_id is None:
        return
    thread = client.get_channel(table.row.thread_id)
    if not isinstance(thread, discord.Thread):
        return
    for user_id in table.watchers:
        try:
            await thread.add_user(discord.Object(user_id))
        except discord.HTTPException as exc:
            log.info("game %s: watcher %s not added (%s)", table.id, user_id, exc.status)
