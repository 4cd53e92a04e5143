"""The browser tests read pages of a bot on SQLite (both engines' pages are tests/web's)."""

from tests.web.conftest import make_env, web_of

__all__ = ["make_env", "web_of"]
