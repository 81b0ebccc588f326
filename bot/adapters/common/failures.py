"""How a front-end logs a request that failed for the bot's own reasons."""

from __future__ import annotations

import logging

from ...sessions.ports import StorageAway


def log_failure(log: logging.Logger, what: str, error: BaseException) -> None:
    """`what` failed with `error`: the database away for a moment (restarting: the user was
    told to try again and nothing changed) is one line; anything else keeps its traceback."""
    if isinstance(error, StorageAway):
        log.warning("%s: the database is away (%s)", what, error)
    else:
        log.error("%s failed", what, exc_info=error)
