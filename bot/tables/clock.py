"""The clock every service is given: seconds since the epoch, injected so tests can move time."""

from collections.abc import Callable

Clock = Callable[[], float]
