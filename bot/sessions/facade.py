"""`Sessions` as front-ends hold it: the service with its tap handler beside it.

The handler (`taps.py`) is built on the service's public methods, so it hangs on a
subclass of the service here rather than inside `service.py`: that keeps the sessions'
modules importing each other one way only."""

from __future__ import annotations

from functools import cached_property

from .service import Sessions as Service
from .taps import Taps


class Sessions(Service):
    @cached_property
    def taps(self) -> Taps:
        """What every tap and command means: front-ends decode, call it, draw the reply."""
        return Taps(self)
