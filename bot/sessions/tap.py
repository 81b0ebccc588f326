"""What a tap (a button, a menu choice, a command) asks for, and what the answer shows.

A front-end decodes what the user sent into a `Tap` (buttons carry them, see
`bot/adapters/common/codec.py`), tells who is asking in an `Asker`, hands both to
`Taps` (`bot/sessions/taps.py`) and draws the `Reply` it gets back: the same
three steps on every platform, so that two platforms cannot follow two rules.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import Flag, StrEnum, auto
from typing import TYPE_CHECKING

from ..engine.moves import CARD_PATTERN, MOVE_PATTERN
from .interaction import HandPrompt
from .refs import ChatRef, UserRef
from .refusals import Refused
from .views import HandView

if TYPE_CHECKING:
    from .daily import DailyOffer, DailyStart
    from .hints import PracticeHint
    from .puzzles import Puzzle, PuzzleAnswer
    from .replay import ReplayStep
    from .reviews import MatchReview, ReviewAsked

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


@dataclass(frozen=True, slots=True)
class Say:
    """Words for the asker: a catalogue key and its arguments."""

    key: str
    params: dict[str, object] = field(default_factory=dict)


class Redraw(Flag):
    """What the front-end draws again after the tap (beyond what the game's events redraw)."""

    NONE = 0
    GAME = auto()
    """The chat's open game, its table and every hand: the chat's language or pictures changed."""
    MY_HANDS = auto()
    """The asker's hands in every game: their language changed."""
    MY_HAND = auto()
    """The asker's private hand message in the tapped game (they left its lobby)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """What a tap's answer shows; how is the front-end's business."""

    say: Say | None = None
    alert: bool = False
    """The words explain why nothing happened (a refusal, a card that cannot be played)."""
    refused: Refused | None = None
    hand: HandPrompt | None = None
    """The asker's hand in the tapped game, to show as this prompt (None: the tap did not touch it)."""
    moved: bool = False
    """The game moved: every hand is drawn again through the game's events."""
    shown: HandView | None = None
    """The asker asked to see their hand."""
    menu: str | None = None
    """The lobby menu to show the players who may change the options."""
    redraw: Redraw = Redraw.NONE
    open_private: int | None = None
    """The bot cannot write to the asker: show the way to their private chat (for this game)."""
    open_private_daily: bool = False
    """The bot cannot write to the asker: show the way to their private chat, where the deal of
    the day is played."""
    confirm: Action | None = None
    """Ask the asker to confirm with a button of this action."""
    settings: bool = False
    """Show the settings again, in `language`."""
    language: str | None = None
    """The language the answer is in, when the tap changed it."""
    changed: tuple[tuple[Setting, str], ...] = ()
    """The settings saved, for the front-end's own copies of them."""
    game_id: int | None = None
    """The game the command acted on, where the tap did not name it."""
    result: (PracticeHint | MatchReview | ReviewAsked | DailyOffer | DailyStart | Puzzle | PuzzleAnswer
             | ReplayStep | None) = None
    """A value to show: the computer's advice on a practice hand, a player's review of a match,
    the deal of the day offered (to confirm with `DAILY_DEAL`) or begun, a puzzle or the answer
    to one (for the tapper alone), a step of a match's replay."""

    @classmethod
    def refusal(cls, refused: Refused) -> Reply:
        return cls(refused=refused, alert=True)
