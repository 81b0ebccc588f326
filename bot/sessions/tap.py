"""What a tap (a button, a menu choice, a command) asks for, and what the answer shows.

A front-end decodes what the user sent into a `Tap` (buttons carry them, see
`bot/adapters/common/codec.py`), tells who is asking in an `Asker`, hands both to
`Taps` (`bot/sessions/taps.py`) and draws the `Reply` it gets back (one kind of answer
of those in `bot/sessions/replies.py`): the same three steps on every platform, so that two
platforms cannot follow two rules.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum

from ..engine.moves import CARD_PATTERN, MOVE_PATTERN
from .refs import ChatRef, UserRef
from .replies import Redraw, Reply
from .say import Say

__all__ = ["CARD_PATTERN", "MOVE_PATTERN", "Action", "Asker", "Redraw", "Reply", "Say", "Setting", "Tap"]
"""The patterns are how a tap names a card and a move (the engine's notation), for the codec."""


class Action(StrEnum):
    """What a tap asks for; the value is its code in a button's data."""

    JOIN = "j"
    LEAVE = "l"
    ADD_COMPUTER = "c"
    REMOVE_COMPUTERS = "x"
    START = "s"
    CANCEL = "k"
    CONFIRM_CANCEL = "K"
    MENU = "m"
    OPTION = "o"
    SELECT = "e"
    PLAY = "p"
    CHOOSE = "h"
    CAPTURE = "C"
    BACK = "b"
    WAIT = "w"
    IDLE = "i"
    SHOW_HAND = "H"
    TAKE_BACK = "a"
    REMATCH = "r"
    SETTING = "g"
    FUORI = "f"
    FUORI_CHOOSE = "P"
    DECLARE = "F"
    DECLARE_CAPTURE = "D"
    REVIEW = "R"
    """The review of a finished match, for the player who pressed."""
    HINT = "I"
    """What the computer would play now, for the player whose hand it is (practice matches)."""
    SIT = "S"
    """Sit in a team lobby as the partner of the player in seat `index` (at the lobby's version)."""
    HAND_OVER = "O"
    """The creator or an admin hands the seat to move to the computer (a game with no move clock)."""
    DAILY_DEAL = "y"
    """Deal the deal of the day offered by /daily (`arg`: the day and who asked, `Tap.daily`)."""
    DAILY_DROP = "n"
    """Leave the deal of the day offered by /daily undealt (`arg` as for `DAILY_DEAL`)."""
    PUZZLE = "z"
    """An answer to a /puzzle: the match (`game_id`), the play (`arg`, `round.play`) and the move
    chosen (`index`, its place among the legal moves)."""
    PUZZLE_NEXT = "Z"
    """Show the chat's next puzzle (`index`: its place among the chat's puzzles)."""
    REPLAY = "v"
    """Open the replay of a finished match at its first play, in a message of its own."""
    REPLAY_STEP = "V"
    """Show play `arg` (from 0, `Tap.step`) of a finished match's replay, in the pressed message."""


class Setting(StrEnum):
    """A chat's setting (for its admins) or a player's own; the value is its code in a button."""

    CHAT_LANGUAGE = "cl"
    CHAT_PICTURES = "cp"
    CHAT_TURN_LIMIT = "ct"
    CHAT_VARIANT = "cv"
    MY_LANGUAGE = "ul"
    MY_PINGS = "up"
    MY_RING = "ur"
    """Whether the message that says it is the player's turn rings (Telegram)."""

    @property
    def for_chat(self) -> bool:
        return self.value.startswith("c")


@dataclass(frozen=True, slots=True)
class Tap:
    """One tap's meaning: an action on a game (0 for none), at a version, with an argument (a
    lobby option or a setting as `key=value`, the option's full key) and a capture's index."""

    action: Action
    game_id: int = 0
    version: int | None = None
    arg: str = ""
    index: int | None = None

    @property
    def option(self) -> tuple[str, str]:
        """A lobby option's (key, value), for OPTION."""
        key, _, value = self.arg.partition("=")
        return key, value

    @property
    def daily(self) -> tuple[str, str]:
        """The day (YYYY-MM-DD) and the asker's key of a deal of the day offered, for DAILY_DEAL
        and DAILY_DROP (whose `arg` is `YYYYMMDD.key`); ValueError for anything else."""
        day, dot, key = self.arg.partition(".")
        if not dot or len(day) != 8 or not day.isdigit() or not key:
            raise ValueError(self.arg)
        return f"{day[:4]}-{day[4:6]}-{day[6:]}", key

    @classmethod
    def daily_offer(cls, action: Action, day: str, user_key: str) -> Tap:
        """The tap of a button answering the offer of `day`'s deal (YYYY-MM-DD) to `user_key`."""
        return cls(action, arg=f"{day.replace('-', '')}.{user_key}")

    @property
    def step(self) -> int:
        """The replay's play, for REPLAY_STEP (0 for REPLAY); ValueError for anything else."""
        return int(self.arg) if self.action is Action.REPLAY_STEP else 0

    @property
    def setting(self) -> tuple[Setting, str]:
        """A setting's (which, value), for SETTING; ValueError for an unknown setting."""
        key, _, value = self.arg.partition("=")
        return Setting(key), value


async def _no() -> bool:
    return False


async def _unreachable(game_id: int) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class Asker:
    """Who taps, as the front-end knows them: never taken from the tap itself.

    `chat` is where they tapped (None in a private chat). The front-end only reports
    facts, asked for when a decision needs them: whether the user is one of the
    chat's admins, whether they are outside the chat, whether the bot can write to them
    privately (`reachable`), and `reach`, which sends them their hand in private and
    says whether it arrived (a Telegram user must have opened the private chat first)."""

    user: UserRef
    chat: ChatRef | None = None
    admin: Callable[[], Awaitable[bool]] = _no
    outsider: Callable[[], Awaitable[bool]] = _no
    reachable: bool = True
    reach: Callable[[int], Awaitable[bool]] = _unreachable
    mailed: bool = False
    """What is for them alone and takes a while (a match's review) is delivered to their
    private chat once ready (Telegram), rather than answered to their request (Discord)."""
    home: ChatRef | None = None
    """Their private chat with the bot, when they ask from there (`chat` is then None): where
    they play alone against the computer, its lobby and its match theirs alone."""
