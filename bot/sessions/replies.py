"""What the answer to a tap or a command shows: one small record a kind, closed in `Reply`.

Each front-end draws a `Reply` in one function that matches every kind and ends with
`assert_never`, so a kind added here and drawn nowhere fails the strict type check. The
kinds are named after what the asker sees; the same kind means the same on every platform.
The values the sessions compute for the asker (a hint, a review, the deal of the day, a
puzzle, a replay's step) are kinds of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Flag, auto
from typing import TYPE_CHECKING, TypeAlias

from .daily import DailyOffer, DailyStart
from .hints import PracticeHint
from .interaction import HandPrompt
from .puzzles import Puzzle, PuzzleAnswer
from .refusals import Refused
from .replay import ReplayStep
from .reviews import MatchReview, ReviewAsked
from .say import Say
from .views import HandView, TableView

if TYPE_CHECKING:
    from .owners import OwnerAnswer
    from .privacy import Forgotten
    from .tournaments import TournamentView


class Redraw(Flag):
    """What the front-end draws again after settings changed (beyond the settings themselves)."""

    NONE = 0
    GAME = auto()
    """The chat's open game, its table and every hand: the chat's language or pictures changed."""
    MY_HANDS = auto()
    """The asker's hands in every game: their language changed."""


@dataclass(frozen=True, slots=True)
class Done:
    """Nothing to show the asker: what changed shows in the game's own messages."""

    game_id: int | None = None
    """The game the command acted on, where the tap did not name it."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Nothing happened, and why: shown to the asker alone, as an alert where the platform has one."""

    refused: Refused


@dataclass(frozen=True, slots=True)
class Note:
    """Words for the asker; `alert`: they explain why nothing happened (a card that cannot be
    played yet), to be noticed as a refusal is."""

    say: Say
    alert: bool = False


@dataclass(frozen=True, slots=True)
class Played:
    """The asker's tap moved the game: their hand is drawn again as it is now, under `say` if
    any. A play on a hand carries the asker's `hand` and the `table` as the move left them,
    so the front-end draws the hand tapped from the reply, reading nothing again."""

    say: Say | None = None
    hand: HandView | None = None
    table: TableView | None = None


@dataclass(frozen=True, slots=True)
class HandPrompted:
    """Nothing was played: the asker's hand in the tapped game shows `prompt` (the captures of
    a card, the plays to declare fuori with, or plain again); `hand` is that hand as the tap
    found it."""

    prompt: HandPrompt
    hand: HandView | None = None


@dataclass(frozen=True, slots=True)
class HandShown:
    """The asker asked to see their hand."""

    hand: HandView


@dataclass(frozen=True, slots=True)
class HandRedrawn:
    """The asker's private hand message in game `game_id` is drawn again (they left its lobby)."""

    game_id: int


@dataclass(frozen=True, slots=True)
class SeatReady:
    """The asker opened the private chat from lobby `game_id`'s link: their seat is ready and
    their hand is posted there anew."""

    game_id: int


@dataclass(frozen=True, slots=True)
class MenuShown:
    """The lobby's menu `menu` (a lobby option's page) is shown to those who may change the options."""

    menu: str


@dataclass(frozen=True, slots=True)
class OpenPrivate:
    """The bot cannot write to the asker: the way to their private chat, where their seat in
    lobby `game_id` gets ready."""

    game_id: int


@dataclass(frozen=True, slots=True)
class OpenPrivateForDaily:
    """The bot cannot write to the asker: the way to their private chat, where the deal of the
    day is played."""


@dataclass(frozen=True, slots=True)
class ConfirmCancel:
    """Ask the asker to confirm that match `game_id`, under way, is cancelled (it will not count)."""

    game_id: int


@dataclass(frozen=True, slots=True)
class DailyDropped:
    """The deal of the day offered was left undealt: the offer says so."""


@dataclass(frozen=True, slots=True)
class SettingsShown:
    """The settings shown again, as the sessions now keep them (the front-end reads them there),
    in `language`; `saved` when the tap or command changed some, and `redraw` what else shows them."""

    language: str
    saved: bool = True
    redraw: Redraw = Redraw.NONE


@dataclass(frozen=True, slots=True)
class TournamentShown:
    """The chat's tournament as it is now: its sign-up opened or changed, or shown as asked."""

    view: TournamentView


@dataclass(frozen=True, slots=True)
class OwnerAnswered:
    """An owner command's answer: the bot's status, or words for the owner."""

    answer: OwnerAnswer


@dataclass(frozen=True, slots=True)
class Erased:
    """The asker's data erased (`forgotten`: None when nothing was kept): the chats that saw
    them are told by the front-end (`Erasures`)."""

    forgotten: Forgotten | None


Reply: TypeAlias = (Done | Refusal | Note | Played | HandPrompted | HandShown | HandRedrawn | SeatReady
                    | MenuShown | OpenPrivate | OpenPrivateForDaily | ConfirmCancel | DailyDropped
                    | SettingsShown | PracticeHint | MatchReview | ReviewAsked | DailyOffer | DailyStart
                    | Puzzle | PuzzleAnswer | ReplayStep | TournamentShown | OwnerAnswered | Erased)
"""Every kind of answer; a front-end draws it with `match` and ends with `assert_never`."""
