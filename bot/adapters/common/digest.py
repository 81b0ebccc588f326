"""A short fingerprint of what a message shows, equal in every process for equal content.

Several bot processes keep, with a game's message ids, the fingerprint of what each
message shows, so that a process tells whether what it remembers drawing is still
there. Python's `hash` differs from process to process (strings are hashed with a
random seed, and so is the order of a frozenset), so the fingerprint is taken of a
canonical form: dataclasses by their fields, sets and dicts sorted, enums by name.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
from typing import Any


def _canonical(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,
                *(_canonical(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, enum.Enum):
        return (type(value).__name__, value.name)
    if isinstance(value, frozenset | set):
        return ("set", *sorted((_canonical(item) for item in value), key=repr))
    if isinstance(value, dict):
        return ("dict", *sorted(((_canonical(k), _canonical(v)) for k, v in value.items()), key=repr))
    if isinstance(value, tuple | list):
        return tuple(_canonical(item) for item in value)
    return value


def digest(value: object) -> str:
    """16 hex digits naming `value`'s content."""
    return hashlib.sha256(repr(_canonical(value)).encode()).hexdigest()[:16]
