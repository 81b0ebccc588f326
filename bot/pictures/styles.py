"""The regional decks the pictures can draw, and the colours each one prints with."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Style(StrEnum):
    NAPOLETANE = "napoletane"
    PIACENTINE = "piacentine"
    SICILIANE = "siciliane"
    TREVISANE = "trevisane"
    BERGAMASCHE = "bergamasche"
    FRENCH = "french"
    SPANISH = "spanish"


class Blades(StrEnum):
    """How a deck draws swords and batons on the numbered cards."""

    CROSSED = "crossed"
    """Straight swords and knobbly clubs crossing each other (Neapolitan, Sicilian)."""
    APART = "apart"
    """Straight swords and knobbly clubs standing apart (the Spanish deck, and the
    Spanish-suited piacentine)."""
    LATTICE = "lattice"
    """Curved swords and thin knotted batons woven in a lattice (Italian-suited decks)."""


@dataclass(frozen=True, slots=True)
class Palette:
    paper: str
    frame: str
    ink: str
    gold: str
    red: str
    blue: str
    green: str
    brown: str
    skin: str
    index: str
    blades: Blades
    framed: bool
    """Whether the figures stand in a coloured frame."""


PALETTES: dict[Style, Palette] = {
    Style.NAPOLETANE: Palette(
        "#fbf7ec",
        "#c23a2b",
        "#2b2118",
        "#f0b92d",
        "#d1372a",
        "#2f6db5",
        "#3c8f3a",
        "#9a5b2a",
        "#f4c9a0",
        "#1f1a17",
        Blades.CROSSED,
        False,
    ),
    Style.PIACENTINE: Palette(
        "#fdfbf4",
        "#1d4f91",
        "#1b1b1b",
        "#f2c230",
        "#cc2b2b",
        "#2a62b8",
        "#2f8a47",
        "#8a5426",
        "#f2c7a4",
        "#1b1b1b",
        Blades.APART,
        False,
    ),
    Style.SICILIANE: Palette(
        "#fbf4e4",
        "#2d7a4a",
        "#2a1d12",
        "#eaa825",
        "#b8322a",
        "#27559c",
        "#4d8c2f",
        "#7e4a22",
        "#efc39a",
        "#3a2312",
        Blades.CROSSED,
        True,
    ),
    Style.TREVISANE: Palette(
        "#fcf8ee",
        "#b7282e",
        "#241a14",
        "#e8b238",
        "#c02a2f",
        "#2c5aa8",
        "#3f7f45",
        "#8b5a2b",
        "#f3caa5",
        "#7a1c20",
        Blades.LATTICE,
        True,
    ),
    Style.BERGAMASCHE: Palette(
        "#fbf8f0",
        "#3b6e36",
        "#221c16",
        "#f0c24a",
        "#c8392f",
        "#3467b0",
        "#4b8a3c",
        "#80512a",
        "#f1c8a2",
        "#24401f",
        Blades.LATTICE,
        False,
    ),
    Style.FRENCH: Palette(
        "#ffffff",
        "#20242c",
        "#111111",
        "#e3b23c",
        "#d0202a",
        "#1f4e9c",
        "#2f7d46",
        "#6b4423",
        "#f3cfae",
        "#111111",
        Blades.APART,
        True,
    ),
    Style.SPANISH: Palette(
        "#fffdf7",
        "#262626",
        "#1c1a18",
        "#f6c21c",
        "#d8281f",
        "#1e5aa8",
        "#2e8540",
        "#b0702f",
        "#f7d2ae",
        "#1c1a18",
        Blades.APART,
        False,
    ),
}


def parse_style(text: str) -> Style:
    """The style named `text`; raises ValueError naming the styles there are."""
    try:
        return Style(text.strip().lower())
    except ValueError:
        raise ValueError(
            f"no deck style {text!r}: choose one of {', '.join(s.value for s in Style)}"
        ) from None
