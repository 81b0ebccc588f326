"""How the process writes its log: lines for a person (the default), or with `SCOPA_LOG=json`
one JSON object a line for a machine: time (UTC, ISO 8601), level, process, game, chat,
event, message (and `error`, a traceback, when there is one). Secrets are masked in both as
everywhere (`redact`): the record's words and traceback, and the line written."""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
from datetime import UTC, datetime

from .failures import FatalError
from .redact import RedactingStream, redact
from .sessions.log_context import FIELDS, current

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MODES = ("text", "json")


def process_name() -> str:
    """This process as its log lines name it: host and process id."""
    return f"{socket.gethostname()}/{os.getpid()}"


class JsonFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__()
        self.process = process_name()

    def format(self, record: logging.LogRecord) -> str:
        about = current()
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "process": self.process,
        }
        for field in FIELDS:
            line[field] = getattr(record, field, None) if hasattr(record, field) else about.get(field)
        if line["event"] is None:
            line["event"] = record.name
        line["message"] = redact(record.getMessage())
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["error"] = redact(record.exc_text)
        if record.stack_info:
            line["stack"] = redact(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def log_mode(text: str | None) -> str:
    """`SCOPA_LOG`'s value: `text` (also unset) or `json`; anything else is a `FatalError`."""
    mode = (text or "text").strip().lower() or "text"
    if mode not in MODES:
        raise FatalError(f"SCOPA_LOG must be text or json, not {(text or '')[:40]!r}", exit_code=2)
    return mode


def configure_logging(mode: str = "text", level: int = logging.INFO) -> None:
    """Send the root logger's lines to standard error in `mode` (`log_mode`)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    stream = sys.stderr if isinstance(sys.stderr, RedactingStream) else RedactingStream(sys.stderr)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter() if mode == "json" else logging.Formatter(TEXT_FORMAT))
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(logging.WARNING)
