"""What the sessions keep in a store, as plain values: the rows a `GameStore` reads and
writes (bot/sessions/ports.py). The sessions define them; stores build them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class GameStatus(StrEnum):
    """Where a game is in its life; stored as its value."""

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def open(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.RUNNING)


class DeadlineKind(StrEnum):
    """What happens when a running game's deadline comes: a person's turn runs out (and is
    warned before), a computer (or a seat handed to it) plays, or a person with no clock is
    reminded."""

    TURN = "turn"
    COMPUTER = "computer"
    REMIND = "remind"
    """A turn with no clock (`options.NO_CLOCK`): its player is reminded once, never played for."""
    DAY_OVER = "day_over"
    """A turn in a deal of the day: no clock, no reminder; when its day ends (midnight UTC) the
    deal is closed unfinished (`Play.close_day`)."""


@dataclass(frozen=True, slots=True)
class Deadline:
    """A running game's next due work: when, what, whether the turn was warned, and the
    version of the game it was set at (the work is done only while the game is there)."""

    game_id: int
    at: float
    kind: DeadlineKind
    warned: bool
    version: int


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
    quiet_turns: bool = False
    """The player asked that their turns do not ring (`Setting.MY_RING`)."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    player_id: int | None
    computer_level: str | None
    ready: bool
    timeouts: int
    autoplay: bool
    player: PlayerRow | None = None
    waiting_since: float | None = None
    """When a player the bot cannot reach yet took this seat (not `ready`): the seat is freed
    `lobby.WAITING_SEAT` seconds later, whichever process sees the lobby then."""

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
    status: GameStatus
    state: dict[str, Any] | None
    version: int
    """The moves played once running; in the lobby, the changes made to it (each write to a
    game checks it, so two changes made at once never overwrite each other)."""
    seed: str
    deadline: float | None
    deadline_kind: DeadlineKind | None
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
        return self.status.open


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
class LeaderboardLine:
    """A player on a leaderboard: rating (mu - 3 sigma), games, wins, scope."""

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
class RecentMatch:
    game_id: int
    variant: str
    finished_at: float
    players: tuple[tuple[str, int, bool], ...]
    """(name, points, won) of each seat."""


@dataclass(frozen=True, slots=True)
class MoveCommit:
    """Everything one move changes, written by a unit of work (`ports.UnitOfWork`) only at the
    game's `expected_version` while it runs (else `StaleVersion`, and nothing written).

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
    deadline_kind: DeadlineKind | None
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
    achievements: tuple[tuple[int, str], ...] = ()
    """(player id, code) of each achievement the match earns, kept with the match and its time;
    one a player already has is left as it was."""


class MatchKind(StrEnum):
    """How a finished match counts: on ratings, boards and /stats, or apart from them."""

    COUNTED = "counted"
    PRACTICE = "practice"
    DAILY = "daily"


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A finished match as one of its players played it: their seat, whether their side won,
    and its record (None for a match finished before records were kept)."""

    game_id: int
    seat: int
    variant: str
    kind: MatchKind
    won: bool
    finished_at: float
    record: str | None


@dataclass(frozen=True, slots=True)
class AchievementRow:
    """An achievement a player earned: its code (`feats.Feat`), the match and when."""

    player_id: int
    code: str
    game_id: int
    earned_at: float


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


# ---- changes, each written by a unit of work (`ports.UnitOfWork`) with its check -----------


@dataclass(frozen=True, slots=True)
class NewGame:
    """A lobby to open; refused (`OpenGameExists`) while the chat's thread has an open game."""

    chat_id: int
    creator_id: int
    variant: str
    options: dict[str, Any]
    players: int
    teams: int
    deck_style: str
    seed: str
    thread: str = ""
    seats: tuple[SeatRow, ...] | None = None
    """Its seats (a rematch's); None: the creator in seat 0, ready."""


@dataclass(frozen=True, slots=True)
class LobbyChange:
    """A lobby as it becomes: each field given replaces the stored one. Written only while the
    game is in its lobby at `expected_version` (the version it moves past)."""

    game_id: int
    expected_version: int
    seats: tuple[SeatRow, ...] | None = None
    variant: str | None = None
    options: dict[str, Any] | None = None
    players: int | None = None
    teams: int | None = None
    deck_style: str | None = None


@dataclass(frozen=True, slots=True)
class GameStart:
    """The lobby at `expected_version` dealt: its first state, its seats and first deadline."""

    game_id: int
    expected_version: int
    state: dict[str, Any]
    seats: tuple[SeatRow, ...]
    deadline: float | None
    deadline_kind: DeadlineKind | None


@dataclass(frozen=True, slots=True)
class GameCancel:
    """Stop an open game, only while it is `expected_status` (and, when given, at
    `expected_version`); a running game keeps its `record_line`; `options`, when given, replace
    the game's (they say who cancelled it)."""

    game_id: int
    expected_status: GameStatus
    expected_version: int | None = None
    record_line: str | None = None
    options: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class SeatHandover:
    """A running game's seat handed to the computer or taken back (its timeouts cleared), with
    the game's new deadline when the seat is the one to play; only at `expected_version`."""

    game_id: int
    expected_version: int
    seat: int
    autoplay: bool
    deadline: float | None = None
    deadline_kind: DeadlineKind | None = None
    new_deadline: bool = False


@dataclass(frozen=True, slots=True)
class ChatChange:
    """A chat's settings changed in one write: each field given replaces the stored one;
    `defaults_patch` is merged into its defaults (a None value removes that key), so two
    changes to different keys made at once both hold."""

    chat_id: int
    language: str | None = None
    turn_limit: int | None = None
    defaults: dict[str, Any] | None = None
    defaults_patch: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """A player's deal of the day, opened already dealt and claimed in the same write: the game
    `game` (its seats and seed) running from `state` with its first deadline, and the claim of
    `game.creator_id` on `day` (YYYY-MM-DD) asked for in chat `asked_in`. Refused, writing
    nothing of the unit, with `OpenGameExists` while the game's thread has an open game and with
    `DailyClaimed` when the player has claimed that day already. A deal of the day never sits in
    a lobby, and no claim is ever kept without its dealt game."""

    game: NewGame
    state: dict[str, Any]
    deadline: float | None
    deadline_kind: DeadlineKind | None
    day: str
    asked_in: int


@dataclass(frozen=True, slots=True)
class GameNotes:
    """Notes of game `game_id` (its `ui_refs`, `GameStore.set_ref`) written together: each key
    set to its value, or dropped for None. Two notes that must never be seen one without the
    other (an owed notice and the mark that it was owed) go in one unit."""

    game_id: int
    notes: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True, slots=True)
class DeadlineChange:
    """A running game's next deadline (None: none), its kind and whether its turn was warned,
    written only while the game is running at `version`."""

    game_id: int
    version: int
    deadline: float | None
    kind: DeadlineKind | None
    warned: bool = False


@dataclass(frozen=True, slots=True)
class NewReview:
    """A finished match's review (scopa-review/1 JSON) and each seat's accuracy in it; refused
    (`ReviewExists`, writing nothing of the unit) when the match has one already: the first
    one kept stays."""

    game_id: int
    review: str
    seats: tuple[ReviewSeatRow, ...]


@dataclass(frozen=True, slots=True)
class SeatToComputer:
    """A running game's seat given to a computer player for good (its player erased), at the
    game's `expected_version`, with the game's new deadline when that seat is the one to play."""

    game_id: int
    expected_version: int
    seat: int
    computer_id: int
    level: str
    deadline: float | None = None
    deadline_kind: DeadlineKind | None = None
    new_deadline: bool = False


@dataclass(frozen=True, slots=True)
class Erasure:
    """What erasing one player writes, all in one transaction or none of it: the changes to
    their open games (`games`: a lobby seat freed or the lobby closed, a match of theirs alone
    cancelled; `seats`: a match with others handed to the computer), each checking its game's
    version; their row's platform id, name and settings replaced (`ports.ERASED_KEY`, `ports.ERASED_NAME`);
    their private chats' (`chats`) ids and titles; and, in the front-ends' notes of every game
    they sat in or that their private chats held, what `marks` (platform ids: theirs, their
    private chats') and `names` (as they were shown) identify: a note keyed by a mark is
    dropped, a note's text loses them; the message counts and holds named by a mark go too."""

    player_id: int
    marks: tuple[str, ...]
    names: tuple[str, ...]
    chats: tuple[int, ...] = ()
    games: tuple[Change, ...] = ()
    seats: tuple[SeatToComputer, ...] = ()
    asked: tuple[str, str] | None = None
    """(platform, user key) of the erasure asked for from the command line that this one makes."""
    notes_of: tuple[int, ...] = ()
    """Games whose notes are looked at besides those the player sat in (a match whose seat
    is the computer's now); each gets the note `ports.ERASED_NOTE` + the player's row id, valued
    `at`, for the front-ends to look at the game's notes again for a while
    (`Privacy.traces`): a drawing under way may note the player once more."""
    at: float = 0.0
    told: tuple[tuple[int, str, str], ...] = ()
    """(game, key, value) notes owed to the chats of the erasure's games: the line that tells
    them, posted once by whichever process (`Privacy.tell`), even after a kill."""


@dataclass(frozen=True, slots=True)
class ChatMove:
    """The chat `old_key` of `platform` is now `new_key` (a Telegram group upgraded to a
    supergroup): its games, the one in play too, its settings and its leaderboard go with it.
    If a chat `new_key` exists already, the two become that one: the old chat's games join it,
    the old chat's settings replace its own, and of two open games in one thread the running
    one (both alike: the old chat's) stays open, the other is cancelled. The unit gives
    `MovedChat` (`UnitOfWork.moved`), or None when no chat is `old_key` (moved already, or
    never seen): then it writes nothing."""

    platform: str
    old_key: str
    new_key: str


@dataclass(frozen=True, slots=True)
class MovedChat:
    """What a `ChatMove` did."""

    chat_id: int
    """The row now under the new key."""
    old_id: int
    """The row the old key had (the same, unless the two were merged)."""
    cancelled: tuple[int, ...] = ()
    """Open games cancelled by the merge."""


@dataclass(frozen=True, slots=True)
class AchievementGrant:
    """Achievement `code` kept for the player, earned in game `game_id` at `at`, unless they have
    it already (of two processes granting it, one stores it): the unit names it in
    `UnitOfWork.granted` when it stored it."""

    player_id: int
    code: str
    game_id: int
    at: float


@dataclass(frozen=True, slots=True)
class KeptSecret:
    """The secret `made` kept under `name` with the data, unless one was kept first: the unit gives
    the one kept (`UnitOfWork.kept`), so every process on the database, and every restart, gets
    the same. Never logged or shown."""

    name: str
    made: str


@dataclass(frozen=True, slots=True)
class ChatSeen:
    """A chat seen: made if new (in `language`, else Italian); a `title` or `home` given
    replaces the stored one."""

    platform: str
    chat_key: str
    title: str | None = None
    language: str | None = None
    home: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerSeen:
    """A player seen: made if new; their shown name, and their platform's language when given,
    replace the stored ones."""

    platform: str
    user_key: str
    display_name: str
    platform_language: str | None = None
    is_computer: bool = False


@dataclass(frozen=True, slots=True)
class PlayerChange:
    """A player's settings: each given replaces the stored one."""

    player_id: int
    language: str | None = None
    can_dm: bool | None = None
    dm_pings: bool | None = None
    quiet_turns: bool | None = None


Change = (NewGame | LobbyChange | GameStart | GameCancel | SeatHandover | ChatChange | DailyDeal | GameNotes
          | MoveCommit | DeadlineChange | NewReview | ChatMove | Erasure | AchievementGrant | KeptSecret
          | ChatSeen | PlayerSeen | PlayerChange)
