"""The one error path: every error a user can cause is a ``UserError``.

Anything raised as a ``UserError`` (or a subclass) is shown to the user who caused it as a
short private reply; every other exception is logged with context and answered with an
apology. Pure module: the rules core imports it.
"""


class UserError(Exception):
    """An error caused by what a user did; ``str(error)`` is shown to them privately."""


class IllegalAction(UserError):
    """A game action the rules do not allow in the current state."""


class StaleAction(UserError):
    """A click on a button from a turn, throw or game that has moved on."""


class NotYourTurn(UserError):
    """A turn button pressed by someone other than the seat to move."""


class Forbidden(UserError):
    """The user lacks the role or permission the action needs."""


class DatabaseUnavailable(Exception):
    """The database server could not be reached, or dropped the connection, for longer than
    an operation waits (a restart, a failover, a proxy's idle timeout). The operation did not
    go through, or (its COMMIT's answer lost) went through whole: never half of it, so
    trying again is safe. Not a ``UserError``: the user is asked to try again, and the
    operator sees one warning line."""
