"""What an operator reads in the log when a request failed: a database away for a moment is
one line; a fault of the bot keeps its traceback."""

from __future__ import annotations

import logging

import pytest

from bot.adapters.common.failures import log_failure
from bot.sessions.ports import StorageAway


def test_a_database_away_is_one_line_and_a_bug_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("bot.test")
    with caplog.at_level(logging.WARNING, logger="bot.test"):
        log_failure(log, "a tap", StorageAway("PostgreSQL at db:5432 cannot be reached"))
        try:
            raise KeyError("seat")
        except KeyError as exc:
            log_failure(log, "a tap", exc)
    away, bug = caplog.records
    assert away.levelno == logging.WARNING and away.exc_info is None
    assert "database is away" in away.getMessage() and "db:5432" in away.getMessage()
    assert bug.levelno == logging.ERROR and bug.exc_info is not None and bug.getMessage() == "a tap failed"
