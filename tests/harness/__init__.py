"""Offline test harness: real discord.py interaction dispatch against a fake Discord.

See :mod:`tests.harness.harness` for the entry point (:class:`Harness`).
"""

from .fake import FakeDiscord, RecordedRequest, http_error
from .harness import BotErrorLogged, Harness, MessageRejected, Player, SettleTimeout, Unanswered
from .model import Attachment, Button, HarnessError, Message, Modal, NoResponse, Reply, Select

__all__ = [
    "Attachment",
    "BotErrorLogged",
    "Button",
    "FakeDiscord",
    "Harness",
    "HarnessError",
    "Message",
    "MessageRejected",
    "Modal",
    "NoResponse",
    "Player",
    "RecordedRequest",
    "Reply",
    "Select",
    "SettleTimeout",
    "Unanswered",
    "http_error",
]
