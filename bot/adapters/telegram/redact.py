"""Keep the bot token out of every log line.

python-telegram-bot and httpx put request URLs, which contain the token, into
their DEBUG/INFO records (and into some exception texts). A record factory
rewrites each record before any handler sees it, whoever configured logging.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

MASK = "<token>"

_secrets: set[str] = set()
_lock = threading.Lock()
_installed = False


def redact(text: str) -> str:
    for secret in tuple(_secrets):
        if secret in text:
            text = text.replace(secret, MASK)
    return text


def _install() -> None:
    global _installed
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        if _secrets:
            _scrub(record)
        return record

    logging.setLogRecordFactory(factory)
    _installed = True


def _scrub(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception:
        message = str(record.msg)
    clean = redact(message)
    if clean != message:
        record.msg, record.args = clean, None
    if record.exc_info and not record.exc_text:
        text = logging.Formatter().formatException(record.exc_info)
        if redact(text) != text:
            record.exc_text = redact(text)
    if record.stack_info:
        record.stack_info = redact(record.stack_info)


def mask_secret(secret: str) -> None:
    """From now on, `secret` appears in no log record."""
    with _lock:
        if not _installed:
            _install()
        _secrets.add(secret)

