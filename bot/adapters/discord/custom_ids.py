"""Custom ids: what a button or select menu carries, within Discord's 100 characters.

The shared codec (`adapters.common.codec`) behind the prefix `scopa` with `:`
between fields: `scopa:<action>:<game>[:<version>][:<argument>][:<index>]`.
Every custom id fits (the longest, a whole move of seventeen cards, takes 95).
Buttons drawn before the codec was shared spelled actions out
(`scopa:join:12`); they decode to nothing, and `drawn_before` tells them from
forged ids, so a press on one is answered as out of date, changing nothing.

A select menu's chosen value is checked the same way, by `option_choice`,
against the lobby options table (`bot.sessions.options`).
"""

from __future__ import annotations

import re
from enum import StrEnum

from ...sessions import Refused
from ...sessions.options import HOUSE_OPTIONS, parse_any
from ...sessions.tap import Action, Tap
from ..common.codec import Codec, Platform, TooLong

PREFIX = "scopa"
MAX_LENGTH = 100
DISCORD = Platform(prefix=PREFIX, separator=":", limit=MAX_LENGTH)
CODEC = Codec(DISCORD)

Press = Tap
"""One component's meaning: an action on a game, at a version, with an argument."""

__all__ = [
    "CODEC",
    "DISCORD",
    "MAX_LENGTH",
    "MENU_KEYS",
    "PREFIX",
    "Action",
    "Menu",
    "Press",
    "TooLong",
    "decode",
    "drawn_before",
    "encode",
    "option_choice",
    "option_value",
]


class Menu(StrEnum):
    """The lobby's select menus; each chosen value is `key=value`."""

    VARIANT = "variant"
    TARGET = "target"
    TABLE = "table"


MENU_KEYS: dict[Menu, tuple[str, ...]] = {
    Menu.VARIANT: ("variant",),
    Menu.TARGET: ("target", "round_limit"),
    Menu.TABLE: ("players", "teams", "capture_choice", "deck_style", "practice",
                 *HOUSE_OPTIONS),
}
"""The lobby options each select menu sets; their values come from the options table."""

def encode(press: Press) -> str:
    return CODEC.encode(press)


def decode(data: object) -> Press | None:
    """The press a custom id stands for, or None if it is not one we could have made."""
    return CODEC.decode(data)


_SPELLED_OUT = re.compile(rf"{PREFIX}:[a-z]{{2,8}}:[0-9]{{1,9}}(?::[0-9A-Za-z:+_]{{1,80}})?")
"""The custom ids of buttons drawn before the codec was shared (`scopa:join:12`)."""


def drawn_before(data: object) -> bool:
    """Whether a custom id is shaped like a button drawn by an older version."""
    return isinstance(data, str) and len(data) <= MAX_LENGTH and _SPELLED_OUT.fullmatch(data) is not None


def option_value(key: str, value: str) -> str:
    """A menu option's value as the menu sends it back."""
    return f"{key}={value}"


def option_choice(menu: Menu, values: object) -> tuple[str, str] | None:
    """The (key, value) a lobby menu sent, if it is one the menu offers."""
    if not isinstance(values, list) or len(values) != 1 or not isinstance(values[0], str):
        return None
    key, sep, value = values[0].partition("=")
    if not sep or key not in MENU_KEYS[menu]:
        return None
    try:
        return parse_any(key, value)
    except Refused:
        return None
