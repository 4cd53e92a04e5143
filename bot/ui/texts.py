"""The words of the table layer's refusals (issue 21): ``bot.tables`` raises a code and its
values (``UserError(code="lobby.full", high=6, held=1)``), and this module, registered
once when the shell's error path is imported (``bot.ui.errors``), says them to the player.
Every refusal of the table service, fair play, the lobby host, replays, teams and the
wallets is worded here, so another language changes this one place."""

from __future__ import annotations

from bot.errors import ErrorText, add_texts
from bot.render.common import chips
from bot.tables.names import md_name
from bot.tables.teams import TEAM_NAMES

_HOST_ACTIONS = {
    "remove": "remove seats",
    "host": "hand over the table",
    "settings": "change the settings",
}
_AMOUNTS = {"amount": "The amount", "stake": "The stake"}


def _full(high: int, held: int) -> str:
    held_text = f", {held} held for members asked to join" if held else ""
    return f"This table is full ({high} seats{held_text})."


def _stake_off(server: bool) -> str:
    where = "on this server" if server else "on this bot"
    return f"Staked tables are off {where}: start one without a stake."


TABLE_TEXTS: dict[str, ErrorText] = {
    # bot.tables.service and bot.tables.model: opening, joining, the lobby, a turn's click
    "table.gone": "That game no longer exists.",
    "table.unknown_game": lambda name: f"Unknown game {name!r}.",
    "table.changed": "That game changed just now; look again and retry.",
    "table.invite_max": lambda high: f"This table seats {high}: invite at most {high - 1}.",
    "table.thread_taken": lambda channel_id, game: (
        f"Start a new game in <#{channel_id}>: this thread belongs to game #{game}."
    ),
    "table.cooldown": "You just opened a table; try again in {wait} s.",
    "table.elsewhere": "That button belongs to a game somewhere else.",
    "table.over": "This game is over.",
    "table.not_running": "This game is not running.",
    "stake.off": _stake_off,
    "stake.range": lambda cap: f"The stake must be between 0 and {cap:,} chips on this server.",
    "cap.channel_lobbies": "This channel has too many open lobbies; join one of them instead.",
    "cap.channel_games": (
        "There are too many games running in this channel; "
        "wait for one to finish or use another channel."
    ),
    "cap.guild_lobbies": "There are too many open lobbies on this server; join one instead.",
    "cap.guild_games": "This server has too many games running; try again later.",
    "lobby.seated": "You're already at this table.",
    "lobby.full": _full,
    "lobby.not_seated": "You're not at this table.",
    "lobby.host_bots": "Only the host can add bot players.",
    "lobby.staked_bots": "Staked games have human seats only.",
    "lobby.bots_max": "A table can have at most {most} bot players.",
    "lobby.bot_level": lambda levels: f"Bot level must be one of: {', '.join(levels)}.",
    "lobby.no_teams": "This game has no teams.",
    "lobby.join_first": "Join the table first.",
    "lobby.alone": "With {seats} players everyone plays alone: no team to switch yet.",
    "lobby.host_cancel": "Only the host or a member with Manage Server can cancel.",
    "lobby.host_start": "Only the host can start the game.",
    "lobby.closed": "That lobby is closed.",
    "lobby.started": "That game has already started.",
    "turn.not_playing": lambda name: (
        f"You're not playing in this game; it's {md_name(name)}'s turn."
    ),
    "turn.not_yours": lambda name: f"It's {md_name(name)}'s turn, not yours.",
    "turn.stale": "That throw is over.",
    # bot.tables.fair_play: ending early and resigning
    "end.over": "That game is already over.",
    "end.host": "Only the host or a member with Manage Server can end this game.",
    "end.asked": "You already asked; the others have until the request runs out.",
    "end.no_request": "There is no request to end this game now.",
    "end.not_playing": "Only the players still in the game decide whether it ends.",
    "end.agreed": "You have already agreed.",
    "resign.not_running": "That game is not running.",
    "resign.not_playing": "You're not playing in this game.",
    "resign.left": "You have already left this game.",
    # bot.tables.lobby_host: the host's panel and watching
    "host.only": lambda what: f"Only the host can {_HOST_ACTIONS[what]}.",
    "host.seat_gone": "That seat is no longer at this table.",
    "host.own_seat": "That's your own seat: press Leave to leave.",
    "host.already": "You're the host already.",
    "host.member_gone": "That member is no longer seated here.",
    "host.same_settings": "Those are the settings already: nothing changed.",
    "host.too_many": "{taken} seats are taken or held; that game seats {high}: remove seats first.",
    "host.stake_off": "Staked tables are off on this server.",
    "host.staked_bots": "Staked games have human seats only: remove the bot players first.",
    "watch.over": "This game is over.",
    "watch.playing": "You're playing at this table: the thread is yours already.",
    "watch.already": "You're watching this game already.",
    "watch.full": "This game has {most} watching, the most it takes.",
    "watch.not": "You're not watching this game.",
    # bot.tables.replays
    "replay.none": "There is no game #{game} in this server.",
    "replay.unfinished": "Game #{game} is not finished: only finished games are replayed.",
    "replay.no_kind": "Game #{game} cannot be replayed: the bot no longer has its game.",
    "replay.incomplete": "Game #{game} cannot be replayed: its log is incomplete.",
    "replay.no_member": "There is no such member here.",
    # bot.tables.teams and bot.tables.turns
    "teams.uneven": "{seats} players can't split into {teams} equal teams.",
    "teams.over": lambda team, members, size: (
        f"Team {TEAM_NAMES[team]} has {members} players but teams are "
        f"{size} each: someone should switch team."
    ),
    "turns.forfeit": "That seat cannot forfeit now.",
    # bot.tables.wallets
    "wallet.whole": lambda what: f"{_AMOUNTS[what]} must be a whole number of chips.",
    "wallet.at_least_1": lambda what: f"{_AMOUNTS[what]} must be at least 1 chip.",
    "wallet.at_most": lambda what, most: f"{_AMOUNTS[what]} can be at most {chips(most)}.",
    "wallet.pay_self": "You cannot pay yourself.",
    "wallet.short_pay": lambda have, amount: (
        f"You have {chips(have)}; you cannot pay {chips(amount)}."
    ),
    "wallet.short_take": lambda have, amount: (
        f"They have {chips(have)}; you cannot take {chips(amount)}."
    ),
    "wallet.short_stake": lambda have, amount: (
        f"You have {chips(have)}; this table's stake is {amount:,}."
    ),
    "wallet.daily_taken": lambda daily, next_due: (
        f"You already took today's {chips(daily)}; the next ones are due <t:{next_due}:R>."
    ),
}

add_texts(TABLE_TEXTS)
