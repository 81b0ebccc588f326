"""A tap is answered in time, however slow the database is just then.

Telegram refuses the answer to a button press after 15 seconds, and the user's button
spins until then. While the database restarts or stalls, the sessions give up and say so
after a few seconds (`StorageAway`); should the work still take longer (a stalled database
that answered some requests of the tap, and stalled again, or a machine overloaded), it is
cancelled at `ANSWER_BY` and the user is told it is taking long and to look again in a
moment. A cancelled move is either not stored or stored whole: the sessions then read the
game back from the database. Nothing slow by nature runs inside a tap: a review is made in
the background and delivered when ready.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from ...i18n import t
from ...sessions import language_of

log = logging.getLogger(__name__)

_T = TypeVar("_T")

ANSWER_BY = 10.0
"""Seconds after which a tap's work is given up and the tap answered anyway."""


async def in_time(work: Awaitable[_T], late: Callable[[], _T], within: float = ANSWER_BY) -> _T:
    """`work`'s result, or `late()` once `within` seconds have passed (`work` cancelled)."""
    try:
        async with asyncio.timeout(within):
            return await work
    except TimeoutError:
        log.warning("a tap took over %.0f s; answered that it is slow", within)
        return late()


def slow_text(language_code: str | None) -> str:
    """The answer to a tap given up on, in the language of the user's app: the work took too
    long, so whether it was done is for them to look at (a move is stored whole or not at
    all). Only an error from the database itself says the database is away
    (`render.words.failure_text`)."""
    return t(language_of(language_code), "error.slow")
