"""Callback data: what a button carries, within Telegram's 64 bytes.

The shared codec (`adapters.common.codec`) with no prefix and `|` between
fields, the form Telegram buttons have always had: buttons posted before an
upgrade keep working.
"""

from __future__ import annotations

from ...sessions.tap import Action, Tap
from ..common.codec import Codec, Platform, TooLong, utf8_size

MAX_BYTES = 64
TELEGRAM = Platform(prefix="", separator="|", limit=MAX_BYTES, size=utf8_size)
CODEC = Codec(TELEGRAM)

__all__ = ["CODEC", "MAX_BYTES", "TELEGRAM", "Action", "Tap", "TooLong", "decode", "encode"]


def encode(tap: Tap) -> str:
    return CODEC.encode(tap)


def decode(data: object) -> Tap | None:
    """The tap a button's data stands for, or None if it is not one we could have made."""
    return CODEC.decode(data)
