"""What a log line is about (its game, its chat, the event), for logs a machine reads: set
around a piece of work (`about`), read by the log formatter (`bot/logs.py`). A log call may
also name them itself, `log.info(..., extra={"game": 12, "event": "owner.notice"})`."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

FIELDS = ("game", "chat", "event")

_about: ContextVar[dict[str, object] | None] = ContextVar("scopa_log_about", default=None)


@contextlib.contextmanager
def about(**fields: object) -> Iterator[None]:
    """Log lines written inside (and in tasks started inside) carry `fields` (game, chat, event)."""
    kept = {key: value for key, value in fields.items() if value is not None}
    token = _about.set({**(_about.get() or {}), **kept})
    try:
        yield
    finally:
        _about.reset(token)


def current() -> dict[str, object]:
    return dict(_about.get() or {})
