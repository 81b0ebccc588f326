"""Callback data: what a button carries, within Telegram's 64 bytes.

Every button names its action and its game; buttons that act on a game in
play also carry the version they were drawn at, so a tap on an old keyboard is
refused by the sessions layer instead of playing the wrong move. Nothing a
client sends back is trusted: `decode` accepts only what `encode` can make,
field by field, and returns None for anything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from ...engine.moves import CARD_PATTERN, MOVE_PATTERN
from ...engine.rules import ROUND_LIMITS_OFFERED, TARGETS_OFFERED
from ...sessions.service import TEAMS_VALUES

MAX_BYTES = 64
SEPARATOR = "|"


class Action(StrEnum):
    JOIN = "j"
    LEAVE = "l"
    ADD_COMPUTER = "c"
    REMOVE_COMPUTERS = "x"
    START = "s"
    CANCEL = "k"
    MENU = "m"
    OPTION = "o"
    PLAY = "p"
    CHOOSE = "h"
    BACK = "b"
    WAIT = "w"
    SHOW_HAND = "H"
    TAKE_BACK = "a"
    REMATCH = "r"
    SETTING = "g"
    FUORI = "f"
    DECLARE = "F"



DECLARING = "fuori"
"""What a player is choosing among while they pick the play to declare fuori with; otherwise
it is the card whose captures they pick from (no card has this code)."""

MENUS = ("main", "options", "variant", "players", "target", "rounds", "teams", "capture", "deck",
         "turn", "house")
LEVELS = ("easy", "medium", "hard")

# The house rules (engine.rules.HOUSE_RULES), each switched on or off by its own button.
HOUSE: dict[str, tuple[str, tuple[str, ...]]] = {
    "a": ("ace_takes_all", ("on", "off")),
    "b": ("re_bello", ("on", "off")),
    "N": ("napola", ("on", "off")),
    "A": ("asso_bello", ("on", "off")),
    "7": ("sevens_point", ("on", "off")),
    "p": ("primiera", ("classic", "sevens")),
    "m": ("must_capture", ("on", "off")),
    "k": ("three_kings_redeal", ("on", "off")),
    "L": ("low_table_redeal", ("on", "off")),
    "f": ("fuori", ("on", "off")),
    "F": ("federal", ("on", "off")),
}

# Lobby options a button may set: short key -> (sessions key, allowed values).
OPTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "v": ("variant", ("scopa", "scopone", "scopone_scientifico", "escoba")),
    "n": ("players", ("2", "3", "4", "5", "6")),
    "t": ("target", tuple(str(t) for t in TARGETS_OFFERED)),
    "r": ("round_limit", tuple(str(n) for n in ROUND_LIMITS_OFFERED)),
    "T": ("teams", tuple(TEAMS_VALUES.values())),
    "c": ("capture_choice", ("free", "fewest")),
    "d": ("deck_style", ("napoletane", "piacentine", "siciliane", "french")),
    "l": ("turn_limit", ("30", "60", "90", "120", "300")),
    **HOUSE,
}
HOUSE_SHORT = {key: short for short, (key, _) in HOUSE.items()}

# Chat and player settings: short key -> allowed values.
SETTINGS: dict[str, tuple[str, ...]] = {
    "cl": ("it", "en"),
    "ct": ("30", "60", "90", "120", "300"),
    "cv": ("scopa", "scopone", "scopone_scientifico", "escoba"),
    "ul": ("it", "en"),
}


def _choice(table: dict[str, tuple[str, ...]]) -> str:
    return "|".join(rf"{re.escape(key)}=(?:{'|'.join(map(re.escape, values))})"
                    for key, values in table.items())


_OPTION_ARG = _choice({key: values for key, (_, values) in OPTIONS.items()})
_SETTING_ARG = _choice(SETTINGS)

# Per action: does it carry a version, and what its argument must look like ("" for none).
_SHAPES: dict[Action, tuple[bool, str]] = {
    Action.JOIN: (False, ""),
    Action.LEAVE: (False, ""),
    Action.ADD_COMPUTER: (False, "|".join(LEVELS)),
    Action.REMOVE_COMPUTERS: (False, ""),
    Action.START: (False, ""),
    Action.CANCEL: (False, ""),
    Action.MENU: (False, "|".join(MENUS)),
    Action.OPTION: (False, _OPTION_ARG),
    Action.PLAY: (True, MOVE_PATTERN),
    Action.CHOOSE: (True, CARD_PATTERN),
    Action.BACK: (True, ""),
    Action.WAIT: (False, ""),
    Action.SHOW_HAND: (False, ""),
    Action.TAKE_BACK: (False, ""),
    Action.REMATCH: (False, ""),
    Action.SETTING: (False, _SETTING_ARG),
    Action.FUORI: (True, ""),
    Action.DECLARE: (True, MOVE_PATTERN),
}

_NUMBER = r"(?:0|[1-9][0-9]{0,11})"
_PATTERNS: dict[Action, re.Pattern[str]] = {
    action: re.compile(
        rf"{re.escape(action.value)}\|(?P<game>{_NUMBER})"
        + (rf"\|(?P<version>{_NUMBER})" if versioned else "")
        + (rf"\|(?P<arg>{arg})" if arg else "")
    )
    for action, (versioned, arg) in _SHAPES.items()
}


@dataclass(frozen=True, slots=True)
class Tap:
    """One button's meaning: an action on a game (0 for none), at a version, with an argument."""

    action: Action
    game_id: int = 0
    version: int | None = None
    arg: str = ""

    def encode(self) -> str:
        versioned, shape = _SHAPES[self.action]
        parts = [self.action.value, str(self.game_id)]
        if versioned:
            if self.version is None:
                raise ValueError(f"{self.action.name} needs a version")
            parts.append(str(self.version))
        if shape:
            parts.append(self.arg)
        data = SEPARATOR.join(parts)
        if decode(data) != self:
            raise ValueError(f"cannot encode {self!r}")
        return data


def decode(data: object) -> Tap | None:
    """The tap a button's data stands for, or None if it is not one we could have made."""
    if not isinstance(data, str) or not data or len(data.encode("utf-8")) > MAX_BYTES:
        return None
    try:
        action = Action(data[0])
    except ValueError:
        return None
    match = _PATTERNS[action].fullmatch(data)
    if match is None:
        return None
    version = match.groupdict().get("version")
    return Tap(action, int(match["game"]), int(version) if version is not None else None,
               match.groupdict().get("arg") or "")
