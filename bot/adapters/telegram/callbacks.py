"""Callback data: what a button carries, within Telegram's 64 bytes.

The shared codec (`adapters.common.codec`) with no prefix and `|` between
fields, the form Telegram buttons have always had: buttons posted before an
upgrade keep working.
"""

from __future__ import annotations

from telegram import Message

from ...sessions.tap import Action, Tap
from ..common.codec import Codec, Platform, TooLong, utf8_size

MAX_BYTES = 64
TELEGRAM = Platform(prefix="", separator="|", limit=MAX_BYTES, size=utf8_size)
CODEC = Codec(TELEGRAM)

__all__ = ["CODEC", "MAX_BYTES", "TELEGRAM", "Action", "Tap", "TooLong", "decode", "encode", "shows_button"]


def encode(tap: Tap) -> str:
    return CODEC.encode(tap)


def decode(data: object) -> Tap | None:
    """The tap a button's data stands for, or None if it is not one we could have made."""
    return CODEC.decode(data)


def shows_button(message: Message, data: object) -> bool:
    """Whether `message`, as Telegram reports it, carries a button with `data`: a tap's data
    comes from the client and may be forged; the message's keyboard comes from Telegram."""
    markup = message.reply_markup
    return markup is not None and any(button.callback_data == data
                                      for row in markup.inline_keyboard for button in row)
