"""The JSON log lines (`bot/logs.py`): the fields, what a line is about, secrets masked."""

from __future__ import annotations

import io
import json
import logging

import pytest

from bot.failures import FatalError
from bot.logs import JsonFormatter, log_mode
from bot.redact import mask_secret
from bot.sessions.log_context import about

SECRET = "4242:json-line-Secret-value"


@pytest.fixture
def lines() -> tuple[logging.Logger, io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("bot.test_json_logs")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger, stream


def _read(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_line_says_what_it_is_about(lines: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = lines
    logger.info("plain %d", 1)
    with about(game=12, chat="telegram:-100", event="tap.play"):
        logger.warning("inside")
        with about(game=13):
            logger.error("nested")
    logger.info("named", extra={"event": "owner.notice", "chat": "discord:5"})
    plain, inside, nested, named = _read(stream)
    assert plain["message"] == "plain 1" and plain["level"] == "info"
    assert (plain["game"], plain["chat"], plain["event"]) == (None, None, "bot.test_json_logs")
    assert (inside["game"], inside["chat"], inside["event"]) == (12, "telegram:-100", "tap.play")
    assert (nested["game"], nested["chat"]) == (13, "telegram:-100")
    assert (named["event"], named["chat"], named["game"]) == ("owner.notice", "discord:5", None)
    assert {"time", "process"} <= set(plain)


def test_secrets_are_masked_in_the_message_and_the_traceback(
        lines: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = lines
    mask_secret(SECRET)
    try:
        raise RuntimeError(f"the request to /bot{SECRET}/getMe failed")
    except RuntimeError:
        logger.exception("failed with %s", SECRET)
    text = stream.getvalue()
    assert SECRET not in text
    (line,) = _read(stream)
    assert line["message"] == "failed with <token>"
    assert "RuntimeError: the request to /bot<token>/getMe failed" in str(line["error"])


def test_the_log_mode_is_text_or_json() -> None:
    assert log_mode(None) == "text" == log_mode(" Text ")
    assert log_mode("JSON") == "json"
    with pytest.raises(FatalError) as wrong:
        log_mode("yaml")
    assert wrong.value.exit_code == 2
