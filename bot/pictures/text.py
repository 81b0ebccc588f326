"""Fonts and text: the scalable font that ships inside Pillow, so nothing is installed by hand.

The font covers Latin scripts; a character it lacks (an emoji in a player's name) is
left out instead of showing as an empty box.
"""

from __future__ import annotations

from functools import cache

from PIL import ImageFont

Font = ImageFont.FreeTypeFont


@cache
def font(size: int) -> Font:
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
        raise RuntimeError("Pillow was built without FreeType: pictures need its scalable default font")
    return loaded


@cache
def _missing_mask() -> bytes:
    return bytes(font(24).getmask("\uffff"))


@cache
def _drawable(char: str) -> bool:
    if char.isspace() or char.isascii():
        return True
    return bytes(font(24).getmask(char)) != _missing_mask()


def printable(text: str) -> str:
    """`text` without the characters the font cannot draw, spaces tidied."""
    kept = "".join(ch for ch in text if _drawable(ch))
    return " ".join(kept.split())


def fit(text: str, size: int, width: int) -> str:
    """`text`, cut short with an ellipsis when it is wider than `width` pixels at `size`."""
    text = printable(text)
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"
