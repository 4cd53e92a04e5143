"""``/play report``'s Discord side (issue 36): which table the member means (the thread
they are in, or the ``table`` option), the private answer, and the words of its refusals.
The rules are ``bot.tables.reports``'; the reason is never posted, only stored and logged."""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import UserError, add_texts
from bot.i18n.speaking import _, number
from bot.tables.reports import REASON_MAX, TableReports

__all__ = ["REASON_MAX", "report_table"]
from bot.ui.shell import shell_of

add_texts(
    {
        "report.where": lambda: _(
            "Use this in the table's thread, or say which table with the table option."
        ),
        "report.empty": lambda: _("Say what happened at the table in the reason."),
        "report.long": lambda limit: _(
            "A reason is %(count)s characters at most.", count=number(limit)
        ),
        "report.unknown": lambda table: _("There is no table #%(table)s.", table=table),
        "report.not_seated": lambda table: _(
            "Only a member seated at table #%(table)s can report it.", table=table
        ),
        "report.too_late": lambda table, hours: _(
            "Table #%(table)s ended more than %(hours)s hours ago: it can no longer be reported.",
            table=table,
            hours=number(hours),
        ),
        "report.twice": lambda table: _("You have already reported table #%(table)s.", table=table),
    }
)


async def report_table(
    interaction: discord.Interaction[Any], reason: str, table_id: int | None
) -> None:
    """Report the table (``table_id``, else the one whose thread this is) for the member
    who asked, and answer them privately."""
    shell = shell_of(interaction)
    reports = TableReports(shell.tables.kernel)
    assert interaction.guild_id is not None and interaction.channel_id is not None
    if table_id is None:
        table_id = await reports.table_here(interaction.channel_id)
        if table_id is None:
            raise UserError(code="report.where")
    await reports.report(
        table_id, user_id=interaction.user.id, guild_id=interaction.guild_id,
        channel_id=interaction.channel_id, reason=reason,
    )  # fmt: skip
    await interaction.response.send_message(
        _("Reported; the bot's operator will look at it."), ephemeral=True
    )
