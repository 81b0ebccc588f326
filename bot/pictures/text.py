"""Fonts and text, with nothing to install by hand.

Words are set in DejaVu Sans where Debian's `fonts-dejavu-core` is installed (it
covers accents and most alphabets); elsewhere in the font that ships inside Pillow,
which has ASCII only: accented letters then lose their accent (è → e) and other
characters the font lacks (an emoji in a player's name) are left out, never drawn
as empty boxes. Card values always use Pillow's font, so cards look the same on
every machine.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import ImageFont

Font = ImageFont.FreeTypeFont

_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_FACES = {False: _DEJAVU / "DejaVuSans.ttf", True: _DEJAVU / "DejaVuSans-Bold.ttf"}


@cache
def builtin_font(size: int) -> Font:
    """Pillow's own scalable font (Pillow 10.1 and later)."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
        raise RuntimeError("Pillow was built without FreeType: pictures need its scalable default font")
    return loaded


@cache
def font(size: int, bold: bool = False) -> Font:
    path = _FACES[bold]
    if path.exists():
        return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
    return builtin_font(size)


def stroke_for(size: int, bold: bool) -> int:
    """How much to thicken text drawn bold when there is no bold face."""
    return 1 if bold and size >= 20 and not _FACES[True].exists() else 0


@cache
def _missing_mask() -> bytes:
    return bytes(font(24).getmask("\uffff"))


@cache
def _drawable(char: str) -> bool:
    if char.isspace() or char.isascii():
        return True
    return bytes(font(24).getmask(char)) != _missing_mask()


_DIRECTION_CONTROLS = frozenset({"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"})
"""Bidirectional classes of the controls that isolate names in text messages (FSI … PDI) or
come with a name: Pillow lays a line out left to right anyway, and a font may draw them as boxes."""


def _shown(char: str) -> str:
    if unicodedata.bidirectional(char) in _DIRECTION_CONTROLS:
        return ""
    if _drawable(char):
        return char
    base = unicodedata.normalize("NFKD", char)[:1]
    return base if base and base != char and _drawable(base) else ""


def printable(text: str) -> str:
    """`text` as the font can draw it, spaces tidied."""
    return " ".join("".join(_shown(ch) for ch in text).split())


@lru_cache(maxsize=4096)
def fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """`text`, cut short with an ellipsis when it is wider than `width` pixels at `size`."""
    text = printable(text)
    face = font(size, bold)
    if face.getlength(text) <= width:
        return text
    ellipsis = "…" if _drawable("…") else "..."
    while text and face.getlength(text + ellipsis) > width:
        text = text[:-1]
    return text.rstrip() + ellipsis
