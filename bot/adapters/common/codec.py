"""What a button carries, for every chat platform: one table of actions and their fields.

A button's data is `[prefix<sep>]<action><sep><game>[<sep><version>][<sep><argument>][<sep><index>]`.
Each platform supplies only its prefix, separator and size limit (`Platform`);
the actions and their one-letter codes (`bot.sessions.tap.Action`) and the
shape of each field are the same everywhere, so a capture choice, a lobby
option or a setting travels the same way on Telegram and on Discord. Buttons
that act on a game in play carry the version they were drawn at, so a press on
an old keyboard is refused by the sessions layer instead of playing the wrong
move.

Nothing a client sends back is trusted: `decode` accepts only what `encode`
can make, field by field (lobby options and settings against
`bot.sessions.options`), and returns None for anything else, never raising.

Every action fits every platform's limit whatever its fields, except a play
named by its whole move (`PLAY`, `DECLARE`): a capture of many cards (the ace
taking a full table) does not fit Telegram's 64 bytes. `encode` then raises
`TooLong`, and the capture is sent by its place among the card's captures
instead (`CAPTURE`, `DECLARE_CAPTURE`), which always fits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum

from ...sessions import Refused
from ...sessions.options import ALL_OPTIONS, LEVELS, parse_any
from ...sessions.tap import CARD_PATTERN, MOVE_PATTERN, Action, Setting, Tap
from ...sessions.taps import SETTING_VALUES

MAX_NUMBER = 999_999_999
"""Game ids and versions: nine digits at most."""
MAX_INDEX = 999
MAX_STEP = 9999
"""A replay's plays, from 0: four digits (a long scopone match has a few hundred)."""
MAX_MOVE = 67
"""The longest move text MOVE_PATTERN allows: `10D:` and sixteen `10X` joined by `+`."""


class Arg(Enum):
    """The kinds of argument an action may carry."""

    NONE = "none"
    LEVEL = "level"
    MENU = "menu"
    SELECT = "select"
    OPTION = "option"
    SETTING = "setting"
    CARD = "card"
    MOVE = "move"
    OFFER = "offer"
    SPOT = "spot"
    STEP = "step"


@dataclass(frozen=True, slots=True)
class Shape:
    versioned: bool = False
    arg: Arg = Arg.NONE
    indexed: bool = False


SHAPES: dict[Action, Shape] = {
    Action.JOIN: Shape(),
    Action.LEAVE: Shape(),
    Action.ADD_COMPUTER: Shape(arg=Arg.LEVEL),
    Action.REMOVE_COMPUTERS: Shape(),
    Action.START: Shape(),
    Action.CANCEL: Shape(),
    Action.CONFIRM_CANCEL: Shape(),
    Action.MENU: Shape(arg=Arg.MENU),
    Action.OPTION: Shape(arg=Arg.OPTION),
    Action.SELECT: Shape(arg=Arg.SELECT),
    Action.PLAY: Shape(True, Arg.MOVE),
    Action.CHOOSE: Shape(True, Arg.CARD),
    Action.CAPTURE: Shape(True, Arg.CARD, indexed=True),
    Action.BACK: Shape(True),
    Action.WAIT: Shape(),
    Action.IDLE: Shape(True, Arg.CARD),
    Action.SHOW_HAND: Shape(),
    Action.TAKE_BACK: Shape(),
    Action.REMATCH: Shape(),
    Action.SETTING: Shape(arg=Arg.SETTING),
    Action.FUORI: Shape(True),
    Action.FUORI_CHOOSE: Shape(True, Arg.CARD),
    Action.DECLARE: Shape(True, Arg.MOVE),
    Action.DECLARE_CAPTURE: Shape(True, Arg.CARD, indexed=True),
    Action.REVIEW: Shape(),
    Action.HINT: Shape(True),
    Action.SIT: Shape(True, indexed=True),
    Action.HAND_OVER: Shape(True),
    Action.DAILY_DEAL: Shape(arg=Arg.OFFER),
    Action.DAILY_DROP: Shape(arg=Arg.OFFER),
    Action.PUZZLE: Shape(arg=Arg.SPOT, indexed=True),
    Action.PUZZLE_NEXT: Shape(indexed=True),
    Action.REPLAY: Shape(),
    Action.REPLAY_STEP: Shape(arg=Arg.STEP),
}
"""Per action: does it carry a version, which argument, and a capture's index."""

MENUS = ("main", "options", "variant", "players", "target", "rounds", "teams", "capture", "deck",
         "turn", "house", "practice")
"""The lobby's menus a button opens (Telegram shows one at a time)."""

SELECTS = ("variant", "target", "table")
"""The lobby's select menus (Discord shows them all at once); each chosen value is `key=value`."""

_HOUSE_CODES = {"ace_takes_all": "a", "re_bello": "b", "napola": "N", "asso_bello": "A",
                "sevens_point": "7", "primiera": "p", "must_capture": "m", "three_kings_redeal": "k",
                "low_table_redeal": "L", "fuori": "f", "federal": "F"}
OPTION_CODES: dict[str, str] = {"variant": "v", "players": "n", "target": "t", "round_limit": "r",
                                "teams": "T", "capture_choice": "c", "deck_style": "d",
                                "turn_limit": "l", "practice": "P", **_HOUSE_CODES}
"""Each lobby option's short name in a button (`bot.sessions.options.ALL_OPTIONS` has them all)."""
_OPTION_KEYS = {code: key for key, code in OPTION_CODES.items()}

SETTINGS: dict[Setting, tuple[str, ...]] = SETTING_VALUES
"""Chat settings (`c…`, for admins) and a player's own (`u…`): short name -> values."""


def _choice(table: Mapping[str, tuple[str, ...]] | Mapping[Setting, tuple[str, ...]]) -> str:
    return "|".join(rf"{re.escape(key)}=(?:{'|'.join(map(re.escape, values))})"
                    for key, values in table.items())


_ARG_PATTERNS: dict[Arg, str] = {
    Arg.LEVEL: "|".join(LEVELS),
    Arg.MENU: "|".join(MENUS),
    Arg.SELECT: "|".join(SELECTS),
    Arg.OPTION: _choice({OPTION_CODES[key]: option.values for key, option in ALL_OPTIONS.items()}),
    Arg.SETTING: _choice(SETTINGS),
    Arg.CARD: CARD_PATTERN,
    Arg.MOVE: MOVE_PATTERN,
    Arg.OFFER: r"[0-9]{8}\.[1-9][0-9]{0,19}",
    Arg.SPOT: r"(?:0|[1-9][0-9]?)\.(?:0|[1-9][0-9]?)",
    Arg.STEP: rf"(?:0|[1-9][0-9]{{0,{len(str(MAX_STEP)) - 1}}})",
}
"""An offer (the deal of the day's buttons) carries its day and whom it was offered to:
`YYYYMMDD.key`, the key a user's (digits, on Telegram and Discord alike). A spot (a puzzle's
play) is `round.play`, both from 0 as in the match's record."""
_ARG_LONGEST: dict[Arg, int] = {
    Arg.NONE: 0,
    Arg.LEVEL: max(map(len, LEVELS)),
    Arg.MENU: max(map(len, MENUS)),
    Arg.SELECT: max(map(len, SELECTS)),
    Arg.OPTION: max(len(code) + 1 + len(value) for key, code in OPTION_CODES.items()
                    for value in ALL_OPTIONS[key].values),
    Arg.SETTING: max(len(key.value) + 1 + len(value) for key, values in SETTINGS.items() for value in values),
    Arg.CARD: 3,
    Arg.MOVE: MAX_MOVE,
    Arg.OFFER: 8 + 1 + 20,
    Arg.SPOT: 5,
    Arg.STEP: len(str(MAX_STEP)),
}
_NUMBER = r"(?:0|[1-9][0-9]{0,8})"
_INDEX = r"(?:0|[1-9][0-9]{0,2})"


class TooLong(ValueError):
    """The button's data would not fit the platform's limit."""


@dataclass(frozen=True, slots=True)
class Platform:
    """How one chat platform frames button data: a prefix (may be empty), a separator, and
    the most the data may hold, measured by `size`."""

    prefix: str
    separator: str
    limit: int
    size: Callable[[str], int] = len

    @property
    def head(self) -> str:
        """What every button's data begins with."""
        return self.prefix + self.separator if self.prefix else ""

    def worst(self, action: Action) -> int:
        """The longest data `action` may make on this platform."""
        shape = SHAPES[action]
        sep, number = len(self.separator), len(str(MAX_NUMBER))
        return (len(self.head) + len(action.value) + sep + number
                + (sep + number if shape.versioned else 0)
                + (sep + _ARG_LONGEST[shape.arg] if shape.arg is not Arg.NONE else 0)
                + (sep + len(str(MAX_INDEX)) if shape.indexed else 0))


class Codec:
    """Encodes and decodes taps for one platform."""

    def __init__(self, platform: Platform) -> None:
        self.platform = platform
        sep = re.escape(platform.separator)
        head = re.escape(platform.head)
        self._patterns = {
            action: re.compile(
                rf"{head}{re.escape(action.value)}{sep}(?P<game>{_NUMBER})"
                + (rf"{sep}(?P<version>{_NUMBER})" if shape.versioned else "")
                + (rf"{sep}(?P<arg>{_ARG_PATTERNS[shape.arg]})" if shape.arg is not Arg.NONE else "")
                + (rf"{sep}(?P<index>{_INDEX})" if shape.indexed else ""))
            for action, shape in SHAPES.items()
        }
        self._action_at = len(platform.head)

    def encode(self, tap: Tap) -> str:
        """The data for `tap`; ValueError if it is not one `decode` would accept,
        TooLong if it does not fit (only a whole move may not)."""
        shape = SHAPES[tap.action]
        if shape.versioned != (tap.version is not None) or shape.indexed != (tap.index is not None):
            raise ValueError(f"{tap.action.name} takes a version: {shape.versioned}, "
                             f"an index: {shape.indexed}")
        parts = [self.platform.head + tap.action.value, str(tap.game_id)]
        if tap.version is not None:
            parts.append(str(tap.version))
        if shape.arg is Arg.OPTION:
            key, value = tap.option
            parts.append(f"{OPTION_CODES.get(key, '?')}={value}")
        elif shape.arg is not Arg.NONE:
            parts.append(tap.arg)
        if tap.index is not None:
            parts.append(str(tap.index))
        data = self.platform.separator.join(parts)
        if self.platform.size(data) > self.platform.limit:
            raise TooLong(f"{tap!r} does not fit in {self.platform.limit}")
        if self.decode(data) != tap:
            raise ValueError(f"cannot encode {tap!r}")
        return data

    def decode(self, data: object) -> Tap | None:
        """The tap `data` stands for, or None if it is not one `encode` could have made."""
        if not isinstance(data, str) or not data or len(data) > self.platform.limit:
            return None
        if self.platform.size(data) > self.platform.limit:
            return None
        try:
            action = Action(data[self._action_at])
        except (ValueError, IndexError):
            return None
        if data[:self._action_at] != self.platform.head:
            return None
        match = self._patterns[action].fullmatch(data)
        return None if match is None else self.from_match(action, match)

    def pattern(self, action: Action) -> re.Pattern[str]:
        """What the data of `action`'s buttons look like, and nothing else (fields in named groups)."""
        return self._patterns[action]

    def from_match(self, action: Action, match: re.Match[str]) -> Tap | None:
        """The tap of a full match of `pattern(action)`, its fields typed; None for a lobby
        option the options table does not allow."""
        found = match.groupdict()
        arg = found.get("arg") or ""
        if SHAPES[action].arg is Arg.OPTION:
            code, _, value = arg.partition("=")
            try:
                key, value = parse_any(_OPTION_KEYS[code], value)
            except (KeyError, Refused):
                return None
            arg = f"{key}={value}"
        version, index = found.get("version"), found.get("index")
        return Tap(action, int(match["game"]), int(version) if version is not None else None, arg,
                   int(index) if index is not None else None)


def utf8_size(data: str) -> int:
    return len(data.encode("utf-8"))
