"""Drawing in a card's own units: shapes are polygons placed, scaled and turned by a `Pen`.

Every shape of a card is given in small local coordinates and mapped to pixels
through an affine transform, so a sword can be drawn once and laid at any angle.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from PIL import ImageDraw

Point = tuple[float, float]
Color = str | tuple[int, int, int] | tuple[int, int, int, int]


class Pen:
    """Draws on `draw`; local point (x, y) lands at origin + scale * rotate(x, y)."""

    __slots__ = ("cos", "draw", "ox", "oy", "scale", "sin")

    def __init__(
        self, draw: ImageDraw.ImageDraw, scale: float, ox: float = 0.0, oy: float = 0.0, angle: float = 0.0
    ) -> None:
        self.draw = draw
        self.scale = scale
        self.ox = ox
        self.oy = oy
        self.cos = math.cos(math.radians(angle))
        self.sin = math.sin(math.radians(angle))

    def at(self, x: float, y: float, size: float = 1.0, angle: float = 0.0) -> Pen:
        """A pen whose origin is local (x, y), `size` times larger, turned `angle` degrees clockwise."""
        px, py = self.pt(x, y)
        pen = Pen(self.draw, self.scale * size, px, py)
        pen.cos = self.cos * math.cos(math.radians(angle)) - self.sin * math.sin(math.radians(angle))
        pen.sin = self.sin * math.cos(math.radians(angle)) + self.cos * math.sin(math.radians(angle))
        return pen

    def pt(self, x: float, y: float) -> Point:
        s = self.scale
        return (self.ox + s * (x * self.cos - y * self.sin), self.oy + s * (x * self.sin + y * self.cos))

    def px(self, width: float) -> int:
        return max(1, round(width * self.scale))

    def poly(
        self, points: Iterable[Point], fill: Color | None, outline: Color | None = None, width: float = 0.0
    ) -> None:
        pts = [self.pt(x, y) for x, y in points]
        self.draw.polygon(pts, fill=fill)
        if outline is not None and width > 0:
            self.draw.line([*pts, pts[0], pts[1]], fill=outline, width=self.px(width), joint="curve")

    def ellipse(
        self,
        x: float,
        y: float,
        rx: float,
        ry: float,
        fill: Color | None,
        outline: Color | None = None,
        width: float = 0.0,
        steps: int = 36,
    ) -> None:
        self.poly(ellipse_points(x, y, rx, ry, steps), fill, outline, width)

    def circle(
        self,
        x: float,
        y: float,
        r: float,
        fill: Color | None,
        outline: Color | None = None,
        width: float = 0.0,
    ) -> None:
        self.ellipse(x, y, r, r, fill, outline, width)

    def line(self, points: Sequence[Point], fill: Color, width: float) -> None:
        self.draw.line([self.pt(x, y) for x, y in points], fill=fill, width=self.px(width), joint="curve")

    def rect(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: Color | None,
        outline: Color | None = None,
        width: float = 0.0,
    ) -> None:
        self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], fill, outline, width)


def ellipse_points(
    x: float, y: float, rx: float, ry: float, steps: int = 36, start: float = 0.0, end: float = 360.0
) -> list[Point]:
    full = end - start >= 360
    count = steps if full else steps + 1
    return [
        (
            x + rx * math.cos(math.radians(start + (end - start) * i / steps)),
            y + ry * math.sin(math.radians(start + (end - start) * i / steps)),
        )
        for i in range(count)
    ]


def mirrored(half: Sequence[Point]) -> list[Point]:
    """A shape symmetric about x = 0 from its right half, listed top to bottom."""
    return [*half, *[(-x, y) for x, y in reversed(half)]]
