"""What the sessions keep in a store, as plain values: the rows a `GameStore` reads and
writes (bot/sessions/ports.py). The sessions define them; stores build them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ChatRow:
    id: int
    platform: str
    chat_key: str
    title: str | None
    language: str
    turn_limit: int
    defaults: dict[str, Any]
    home: str | None = None
    """What the platform groups the chat under, where it splits its chats over processes
    (a Discord channel's server); None elsewhere."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: int
    platform: str
    user_key: str
    display_name: str
    language: str | None
    platform_language: str | None
    can_dm: bool
    dm_pings: bool
    is_computer: bool


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    player_id: int | None
    computer_level: str | None
    ready: bool
    timeouts: int
    autoplay: bool
    player: PlayerRow | None = None

    @property
    def is_computer(self) -> bool:
        return self.player_id is None or self.player is None or self.player.is_computer


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    chat_id: int
    creator_id: int
    variant: str
    options: dict[str, Any]
    players: int
    teams: int
    """How many teams the players form; 0 when every player is on their own."""
    deck_style: str
    status: str
    state: dict[str, Any] | None
    version: int
    seed: str
    deadline: float | None
    deadline_kind: str | None
    warned: bool
    created_at: float
    updated_at: float
    finished_at: float | None
    seats: tuple[SeatRow, ...] = field(default=())
    thread: str = ""
    """The part of the chat the game is played in (a Telegram forum's topic); '' for the chat
    itself. A chat holds one open game in each."""

    @property
    def open(self) -> bool:
        return self.status in ("lobby", "running")


@dataclass(frozen=True, slots=True)
class MoveRow:
    number: int
    seat: int
    move: str
    by_computer: bool
    created_at: float


@dataclass(frozen=True, slots=True)
class ResultRow:
    seat: int
    player_id: int | None
    side: int
    points: int
    won: bool
    scope: int
    rating_before: float | None = None
    rating_after: float | None = None


@dataclass(frozen=True, slots=True)
class RatingRow:
    player_id: int
    ladder: str
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    player_id: int
    display_name: str
    rating: float
    games: int
    wins: int
    scope: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class MatchSummary:
    game_id: int
    variant: str
    finished_at: float
    players: tuple[tuple[str, int, bool], ...]


@dataclass(frozen=True, slots=True)
class MoveCommit:
    """Everything one move changes, written in one transaction.

    `state`, when given, is a new snapshot of the game without its finished
    rounds (taken when the match ends); None keeps the stored snapshot, from
    which the game is rebuilt by playing the moves stored after it. `rounds`
    are finished rounds to store, each as (number, breakdown, round record).
    """

    game_id: int
    expected_version: int
    state: dict[str, Any] | None
    seat: int
    move: str
    by_computer: bool
    deadline: float | None
    deadline_kind: str | None
    seat_timeouts: int | None = None
    seat_autoplay: bool | None = None
    rounds: tuple[tuple[int, dict[str, Any], dict[str, Any]], ...] = ()
    finish: MatchFinish | None = None
    refs: tuple[tuple[str, str], ...] = ()
    """Message refs written with the move (`MessageRefs`): what the move owes the chat."""


@dataclass(frozen=True, slots=True)
class MatchFinish:
    record_line: str
    results: tuple[ResultRow, ...]
    ratings: tuple[RatingRow, ...]


@dataclass(frozen=True, slots=True)
class ReviewSeatRow:
    """A seat's accuracy in a stored match review (`player_id` None for a computer)."""

    seat: int
    player_id: int | None
    accuracy: float


@dataclass(frozen=True, slots=True)
class DailyRow:
    """One player's finished deal of the day: their points less the computer's, and how many
    plays their seat made."""

    player_id: int
    display_name: str
    margin: int
    moves: int
    finished_at: float
