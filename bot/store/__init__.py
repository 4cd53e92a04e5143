"""SQLite storage: one connection, numbered migrations, repositories holding all SQL."""

from bot.store.db import Database, DatabaseTooNew

__all__ = ["Database", "DatabaseTooNew"]
