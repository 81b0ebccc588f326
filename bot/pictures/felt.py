"""What every picture stands on: a green felt table in a dark wooden frame, so that it
looks the same on light and dark chat themes."""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw

from ..engine import Card
from .cards import card_image
from .styles import Style
from .text import font, printable, stroke_for

WOOD = "#3a2718"
FELT = "#1d6a3c"
LIGHT = "#f4efe2"
MUTED = "#b9d3bf"
GOLD = "#f2c447"
PANEL = "#154f2d"
MARGIN = 10


@lru_cache(maxsize=32)
def _felt(width: int, height: int) -> Image.Image:
    image = Image.new("RGB", (width, height), WOOD)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (MARGIN, MARGIN, width - MARGIN - 1, height - MARGIN - 1), radius=22, fill="#175a33"
    )
    draw.rounded_rectangle(
        (MARGIN + 5, MARGIN + 5, width - MARGIN - 6, height - MARGIN - 6), radius=18, fill=FELT
    )
    return image


def felt(width: int, height: int) -> Image.Image:
    """A fresh copy of the felt, drawn once per size."""
    return _felt(width, height).copy()


@lru_cache(maxsize=120)
def dimmed(card: Card, style: Style, width: int) -> Image.Image:
    """A card that cannot be played now: darkened and greyed."""
    face = card_image(card, style, width)
    grey = face.convert("LA").convert("RGBA")
    blended = Image.blend(face, grey, 0.7)
    shade = Image.new("RGBA", face.size, (20, 40, 28, 90))
    out = Image.alpha_composite(blended, shade)
    out.putalpha(face.getchannel("A"))
    return out


@cache
def glow(width: int, height: int, color: str = GOLD, spread: int = 6) -> Image.Image:
    """A rounded outline to set around a card that is highlighted."""
    image = Image.new("RGBA", (width + 2 * spread, height + 2 * spread), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, image.width - 1, image.height - 1),
        radius=spread + width // 12,
        outline=color,
        width=spread - 1,
    )
    return image


def write(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: str,
    anchor: str = "la",
    bold: bool = False,
) -> None:
    """`text` as the font can draw it (see text.printable), placed by `anchor` as Pillow does."""
    mask, dx, dy = _text_mask(text, size, bold, anchor)
    if mask is not None:
        draw.bitmap((round(xy[0]) + dx, round(xy[1]) + dy), mask, fill=fill)


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image | None, int, int]:
    """The text drawn once as a mask, and where its corner lies from the anchor point: the
    same words come back on every table (labels, names), and drawing text is the slow part."""
    shown = printable(text)
    face = font(size, bold)
    stroke = stroke_for(size, bold)
    box = face.getbbox(shown, anchor=anchor, stroke_width=stroke) if shown else (0, 0, 0, 0)
    if box[2] <= box[0] or box[3] <= box[1]:
        return None, 0, 0
    mask = Image.new("L", (int(box[2] - box[0]), int(box[3] - box[1])), 0)
    ImageDraw.Draw(mask).text(
        (-box[0], -box[1]), shown, font=face, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255
    )
    return mask, int(box[0]), int(box[1])
