"""Keep the bot tokens out of everything the process writes.

Chat libraries put request URLs, which hold the Telegram token, into log
records and exception texts (`InvalidToken: The token `…` was rejected`, an
error page that repeats the request path, a malformed URL). Once a secret is
masked, three paths are scrubbed: every log record, whoever configured logging
(a record factory); standard output and standard error, which carry
tracebacks printed by Python itself (a wrapping stream); and the one-line
failures the command prints (`redact`).
"""

from __future__ import annotations

import io
import logging
import sys
import threading
from typing import Any, TextIO
from urllib.parse import quote

MASK = "<token>"

_secrets: set[str] = set()
_lock = threading.Lock()
_installed = False


def redact(text: str) -> str:
    for secret in tuple(_secrets):
        if secret in text:
            text = text.replace(secret, MASK)
    return text


def mask_secret(secret: str) -> None:
    """From now on, `secret` (and its URL-encoded form) appears in no output of this process."""
    if not secret:
        return
    with _lock:
        if not _installed:
            _install()
        _secrets.update({secret, quote(secret, safe=""), quote(secret)})


class RedactingStream(io.TextIOBase):
    """A text stream that writes through to `target` with every secret masked."""

    def __init__(self, target: TextIO) -> None:
        self.target = target

    def write(self, text: str) -> int:
        self.target.write(redact(text))
        return len(text)

    def flush(self) -> None:
        self.target.flush()

    def isatty(self) -> bool:
        return self.target.isatty()

    def fileno(self) -> int:
        return self.target.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.target.encoding

    def __getattr__(self, name: str) -> Any:
        return getattr(self.target, name)


def _install() -> None:
    global _installed
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        if _secrets:
            _scrub(record)
        return record

    logging.setLogRecordFactory(factory)
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, RedactingStream):
            setattr(sys, name, RedactingStream(stream))
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler) and not isinstance(handler.stream, RedactingStream):
            handler.setStream(RedactingStream(handler.stream))
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
