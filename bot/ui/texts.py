"""The words of the table layer's refusals (issue 21): ``bot.tables`` raises a code and its values,
and this module, registered by the shell's error path, words every one of them."""

from __future__ import annotations

from bot.errors import ErrorText, add_texts
from bot.i18n.speaking import _, number, plural
from bot.render.common import chips
from bot.tables.names import md_name
from bot.tables.teams import TEAM_NAMES


def _host_only(what: str) -> str:
    if what == "remove":
        return _("Only the host can remove seats.")
    if what == "host":
        return _("Only the host can hand over the table.")
    return _("Only the host can change the settings.")


def _held_waiting(waiting: list[int], low: int) -> str:
    mentions = [f"<@{user_id}>" for user_id in waiting]
    if len(mentions) == 1:
        who = mentions[0]
    else:
        who = _("%(first)s and %(last)s", first=", ".join(mentions[:-1]), last=mentions[-1])
    # TRANSLATORS: %(who)s is one mention or several ("@Bo and @Cy"); "Join" is the
    # lobby's button; %(low)s is at least 2.
    return plural(
        "%(who)s has not pressed Join yet, and this game needs at least %(low)s players.",
        "%(who)s have not pressed Join yet, and this game needs at least %(low)s players.",
        len(mentions),
        who=who,
        low=number(low),
    )


def _full(high: int, held: int) -> str:
    if held:
        # TRANSLATORS: %(seats)s is "6 seats", %(count)s how many of them are held.
        return plural(
            "This table is full (%(seats)s, %(count)s held for members asked to join).",
            "This table is full (%(seats)s, %(count)s held for members asked to join).",
            held,
            seats=plural("%(count)s seat", "%(count)s seats", high),
        )
    return _(
        "This table is full (%(seats)s).", seats=plural("%(count)s seat", "%(count)s seats", high)
    )


def _stake_off(server: bool) -> str:
    if server:
        return _("Staked tables are off on this server: start one without a stake.")
    return _("Staked tables are off on this bot: start one without a stake.")


def _whole(what: str) -> str:
    if what == "stake":
        return _("The stake must be a whole number of chips.")
    return _("The amount must be a whole number of chips.")


def _at_least_1(what: str) -> str:
    if what == "stake":
        return _("The stake must be at least 1 chip.")
    return _("The amount must be at least 1 chip.")


def _at_most(what: str, most: int) -> str:
    if what == "stake":
        return _("The stake can be at most %(chips)s.", chips=chips(most))
    return _("The amount can be at most %(chips)s.", chips=chips(most))


TABLE_TEXTS: dict[str, ErrorText] = {
    # bot.tables.service and bot.tables.model: opening, joining, the lobby, a turn's click
    "table.gone": lambda: _("That game no longer exists."),
    "table.unknown_game": lambda name: _("Unknown game %(name)s.", name=repr(name)),
    "table.changed": lambda: _("That game changed just now; look again and retry."),
    "table.invite_max": lambda high: plural(
        "This table seats %(count)s: invite at most %(most)s.",
        "This table seats %(count)s: invite at most %(most)s.",
        high,
        most=number(high - 1),
    ),
    "table.thread_taken": lambda channel_id, game: _(
        "Start a new game in <#%(channel)s>: this thread belongs to game #%(game)s.",
        channel=channel_id,
        game=game,
    ),
    "table.cooldown": lambda wait: _(
        "You just opened a table; try again in %(wait)s s.", wait=number(wait)
    ),
    "table.elsewhere": lambda: _("That button belongs to a game somewhere else."),
    "table.not_this_message": lambda: _("That button doesn't belong to this message."),
    "table.over": lambda: _("This game is over."),
    "table.not_running": lambda: _("This game is not running."),
    "stake.off": _stake_off,
    "stake.range": lambda cap: plural(
        "The stake must be between 0 and %(count)s chip on this server.",
        "The stake must be between 0 and %(count)s chips on this server.",
        cap,
    ),
    "cap.channel_lobbies": lambda: _(
        "This channel has too many open lobbies; join one of them instead."
    ),
    "cap.channel_games": lambda: _(
        "There are too many games running in this channel; "
        "wait for one to finish or use another channel."
    ),
    "cap.guild_lobbies": lambda: _(
        "There are too many open lobbies on this server; join one instead."
    ),
    "cap.guild_games": lambda: _("This server has too many games running; try again later."),
    "lobby.seated": lambda: _("You're already at this table."),
    "lobby.full": _full,
    "lobby.held_waiting": _held_waiting,
    "lobby.not_seated": lambda: _("You're not at this table."),
    "lobby.host_bots": lambda: _("Only the host can add bot players."),
    "lobby.staked_bots": lambda: _("Staked games have human seats only."),
    "lobby.bots_max": lambda most: plural(
        "A table can have at most %(count)s bot player.",
        "A table can have at most %(count)s bot players.",
        most,
    ),
    "lobby.bot_level": lambda levels: _(
        "Bot level must be one of: %(levels)s.", levels=", ".join(levels)
    ),
    "lobby.no_teams": lambda: _("This game has no teams."),
    "lobby.join_first": lambda: _("Join the table first."),
    "lobby.alone": lambda seats: plural(
        "With %(count)s player everyone plays alone: no team to switch yet.",
        "With %(count)s players everyone plays alone: no team to switch yet.",
        seats,
    ),
    "lobby.host_cancel": lambda: _("Only the host or a member with Manage Server can cancel."),
    "lobby.host_start": lambda: _("Only the host can start the game."),
    "lobby.closed": lambda: _("That lobby is closed."),
    "lobby.started": lambda: _("That game has already started."),
    "turn.not_playing": lambda name: _(
        "You're not playing in this game; it's %(name)s's turn.", name=md_name(name)
    ),
    "turn.not_yours": lambda name: _("It's %(name)s's turn, not yours.", name=md_name(name)),
    "turn.stale": lambda: _("That throw is over."),
    # bot.tables.fair_play: ending early and resigning
    "end.over": lambda: _("That game is already over."),
    "end.host": lambda: _("Only the host or a member with Manage Server can end this game."),
    "end.asked": lambda: _("You already asked; the others have until the request runs out."),
    "end.no_request": lambda: _("There is no request to end this game now."),
    "end.not_playing": lambda: _("Only the players still in the game decide whether it ends."),
    "end.agreed": lambda: _("You have already agreed."),
    "resign.not_running": lambda: _("That game is not running."),
    "resign.not_playing": lambda: _("You're not playing in this game."),
    "resign.left": lambda: _("You have already left this game."),
    # bot.tables.lobby_host: the host's panel and watching
    "host.only": _host_only,
    "host.seat_gone": lambda: _("That seat is no longer at this table."),
    # TRANSLATORS: "Leave" is the lobby's button of that name.
    "host.own_seat": lambda: _("That's your own seat: press Leave to leave."),
    "host.already": lambda: _("You're the host already."),
    "host.member_gone": lambda: _("That member is no longer seated here."),
    "host.same_settings": lambda: _("Those are the settings already: nothing changed."),
    "host.too_many": lambda taken, high: plural(
        "%(taken)s seats are taken or held; that game seats %(count)s: remove seats first.",
        "%(taken)s seats are taken or held; that game seats %(count)s: remove seats first.",
        high,
        taken=number(taken),
    ),
    "host.stake_off": lambda: _("Staked tables are off on this server."),
    "stake.everywhere": lambda: _(
        "A table across servers has no stake: chips belong to a server, and it belongs to none."
    ),
    "host.staked_bots": lambda: _(
        "Staked games have human seats only: remove the bot players first."
    ),
    "watch.over": lambda: _("This game is over."),
    "watch.playing": lambda: _("You're playing at this table: the thread is yours already."),
    "watch.already": lambda: _("You're watching this game already."),
    "watch.full": lambda most: plural(
        "This game has %(count)s watching, the most it takes.",
        "This game has %(count)s watching, the most it takes.",
        most,
    ),
    "watch.not": lambda: _("You're not watching this game."),
    # bot.tables.replays
    "replay.none": lambda game: _("There is no game #%(game)s in this server.", game=game),
    "replay.unfinished": lambda game: _(
        "Game #%(game)s is not finished: only finished games are replayed.", game=game
    ),
    "replay.no_kind": lambda game: _(
        "Game #%(game)s cannot be replayed: the bot no longer has its game.", game=game
    ),
    "replay.incomplete": lambda game: _(
        "Game #%(game)s cannot be replayed: its log is incomplete.", game=game
    ),
    "replay.no_member": lambda: _("There is no such member here."),
    # bot.tables.teams and bot.tables.turns
    "teams.uneven": lambda seats, teams: plural(
        "%(seats)s players can't split into %(count)s equal teams.",
        "%(seats)s players can't split into %(count)s equal teams.",
        teams,
        seats=number(seats),
    ),
    "teams.over": lambda team, members, size: plural(
        "Team %(team)s has %(members)s players but teams are %(count)s each: "
        "someone should switch team.",
        "Team %(team)s has %(members)s players but teams are %(count)s each: "
        "someone should switch team.",
        size,
        team=TEAM_NAMES[team],
        members=number(members),
    ),
    "turns.forfeit": lambda: _("That seat cannot forfeit now."),
    # bot.tables.wallets
    "wallet.whole": _whole,
    "wallet.at_least_1": _at_least_1,
    "wallet.at_most": _at_most,
    "wallet.pay_self": lambda: _("You cannot pay yourself."),
    "wallet.short_pay": lambda have, amount: _(
        "You have %(have)s; you cannot pay %(amount)s.", have=chips(have), amount=chips(amount)
    ),
    "wallet.short_take": lambda have, amount: _(
        "They have %(have)s; you cannot take %(amount)s.", have=chips(have), amount=chips(amount)
    ),
    "wallet.short_stake": lambda have, amount: _(
        "You have %(have)s; this table's stake is %(stake)s.",
        have=chips(have),
        stake=number(amount),
    ),
    "wallet.daily_taken": lambda daily, next_due: _(
        "You already took today's %(chips)s; the next ones are due <t:%(when)s:R>.",
        chips=chips(daily),
        when=next_due,
    ),
}

add_texts(TABLE_TEXTS)
