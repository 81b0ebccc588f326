"""Custom ids: what a button or select menu carries, within Discord's 100 characters.

`scopa:<action>:<game>[:<version>][:<argument>]`, with game ids and versions
below a billion and arguments of at most 64 characters (the engine's longest
move), so every id fits: `scopa:declare:` + 9 + 1 + 9 + 1 + 64 = 98. Buttons that
act on a game in play carry the version they were drawn at, so a press on an old message is
refused by the sessions layer instead of playing the wrong move. Discord hands
the custom id back on every press, from any client: `decode` accepts only what
`encode` can make, field by field, and returns None for anything else. A select
menu's chosen value is checked the same way, by `option_choice`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from ...engine.moves import CARD_PATTERN, MOVE_PATTERN
from ...engine.rules import HOUSE_RULES, ROUND_LIMITS_OFFERED, TARGETS_OFFERED
from ...sessions import LEVELS
from ...sessions.service import DECK_STYLES, PLAYER_RANGE, TEAMS_VALUES

PREFIX = "scopa"
MAX_LENGTH = 100
VARIANTS = ("scopa", "scopone", "scopone_scientifico", "escoba")


class Action(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    COMPUTER = "cpu"
    NO_COMPUTERS = "nocpu"
    START = "start"
    CANCEL = "cancel"
    CONFIRM_CANCEL = "kill"
    OPTION = "opt"
    HAND = "hand"
    TAKE_BACK = "back"
    REMATCH = "rematch"
    PLAY = "play"
    PICK = "pick"
    CARDS = "cards"
    IDLE = "idle"
    FUORI = "fuori"
    FUORI_PICK = "fpick"
    DECLARE = "declare"


class Menu(StrEnum):
    """The lobby's select menus; each chosen value is `key=value`."""

    VARIANT = "variant"
    TARGET = "target"
    TABLE = "table"


_NUMBER = r"(?:0|[1-9][0-9]{0,8})"

# Per action: does it carry a version, and what its argument must look like ("" for none).
_SHAPES: dict[Action, tuple[bool, str]] = {
    Action.JOIN: (False, ""),
    Action.LEAVE: (False, ""),
    Action.COMPUTER: (False, "|".join(LEVELS)),
    Action.NO_COMPUTERS: (False, ""),
    Action.START: (False, ""),
    Action.CANCEL: (False, ""),
    Action.CONFIRM_CANCEL: (False, ""),
    Action.OPTION: (False, "|".join(m.value for m in Menu)),
    Action.HAND: (False, ""),
    Action.TAKE_BACK: (False, ""),
    Action.REMATCH: (False, ""),
    Action.PLAY: (True, MOVE_PATTERN),
    Action.PICK: (True, CARD_PATTERN),
    Action.CARDS: (True, ""),
    Action.IDLE: (True, CARD_PATTERN),
    Action.FUORI: (True, ""),
    Action.FUORI_PICK: (True, CARD_PATTERN),
    Action.DECLARE: (True, MOVE_PATTERN),
}

_PATTERN = re.compile(
    rf"{PREFIX}:(?P<action>[a-z]{{1,8}}):(?P<game>{_NUMBER})"
    rf"(?::(?P<version>{_NUMBER}))?(?::(?P<arg>[0-9A-Za-z:+_]{{1,64}}))?"
)

# The values each lobby menu may send back: menu -> key -> allowed values.
MENU_VALUES: dict[Menu, dict[str, tuple[str, ...]]] = {
    Menu.VARIANT: {"variant": VARIANTS},
    Menu.TARGET: {"target": tuple(str(t) for t in TARGETS_OFFERED),
                  "round_limit": tuple(str(n) for n in ROUND_LIMITS_OFFERED)},
    Menu.TABLE: {
        "players": tuple(str(n) for n in range(min(low for low, _ in PLAYER_RANGE.values()),
                                               max(high for _, high in PLAYER_RANGE.values()) + 1)),
        "teams": tuple(TEAMS_VALUES.values()),
        "capture_choice": ("free", "fewest"),
        "deck_style": DECK_STYLES,
        **{name: ("classic", "sevens") if name == "primiera" else ("on", "off")
           for names in HOUSE_RULES.values() for name in names},
    },
}


@dataclass(frozen=True, slots=True)
class Press:
    """One component's meaning: an action on a game, at a version, with an argument."""

    action: Action
    game_id: int
    version: int | None = None
    arg: str = ""

    def encode(self) -> str:
        parts = [PREFIX, self.action.value, str(self.game_id)]
        versioned, shape = _SHAPES[self.action]
        if versioned:
            if self.version is None:
                raise ValueError(f"{self.action.name} needs a version")
            parts.append(str(self.version))
        if shape:
            parts.append(self.arg)
        data = ":".join(parts)
        if decode(data) != self:
            raise ValueError(f"cannot encode {self!r}")
        return data


def decode(data: object) -> Press | None:
    """The press a custom id stands for, or None if it is not one we could have made."""
    if not isinstance(data, str) or len(data) > MAX_LENGTH:
        return None
    match = _PATTERN.fullmatch(data)
    if match is None:
        return None
    try:
        action = Action(match["action"])
    except ValueError:
        return None
    versioned, shape = _SHAPES[action]
    version, arg = match["version"], match["arg"] or ""
    if versioned != (version is not None) or bool(shape) != bool(arg):
        return None
    if shape and re.fullmatch(shape, arg) is None:
        return None
    return Press(action, int(match["game"]), int(version) if version is not None else None, arg)


def option_value(key: str, value: str) -> str:
    """A menu option's value as the menu sends it back."""
    return f"{key}={value}"


def option_choice(menu: Menu, values: object) -> tuple[str, str] | None:
    """The (key, value) a lobby menu sent, if it is one the menu offers."""
    if not isinstance(values, list) or len(values) != 1 or not isinstance(values[0], str):
        return None
    key, sep, value = values[0].partition("=")
    if not sep or value not in MENU_VALUES[menu].get(key, ()):
        return None
    return key, value
