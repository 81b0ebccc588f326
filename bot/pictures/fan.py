"""A row of cards that keeps every card's value readable: side by side while they fit, else
overlapping like a hand held in a fan, each card still showing its corner (value and suit)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

from ..engine import Card
from .cards import card_image
from .felt import dimmed
from .styles import Style

CORNER_SHOWN = 0.3
"""How much of a covered card stays in sight, as a part of its width: its corner index (value
and suit) takes the left 21%."""


@dataclass(frozen=True, slots=True)
class Row:
    left: float
    step: float
    """From one card's left edge to the next one's: less than a card's width when they overlap."""
    width: int

    def xs(self, count: int) -> list[float]:
        return [self.left + i * self.step for i in range(count)]


def row(count: int, width: int, gap: int, x0: float, room: float, centred: bool = True) -> Row:
    """Cards `width` wide laid from `x0` within `room` pixels (centred when they fit side by side
    and `centred`), overlapping when they do not fit."""
    whole = count * width + max(0, count - 1) * gap
    if whole <= room or count <= 1:
        return Row(x0 + (room - whole) / 2 if centred else x0, width + gap, width)
    return Row(x0, (room - width) / (count - 1), width)


def lay(
    image: Image.Image,
    cards: Sequence[Card],
    style: Style,
    laid: Row,
    top: int,
    faded: Callable[[Card], bool] = lambda card: False,
) -> None:
    for x, card in zip(laid.xs(len(cards)), cards, strict=True):
        face = dimmed(card, style, laid.width) if faded(card) else card_image(card, style, laid.width)
        image.paste(face, (round(x), top), face)
