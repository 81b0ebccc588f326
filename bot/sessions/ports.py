"""What the sessions need from a store, and what front-ends may keep in one.

The sessions' whole dependency on persistence, split by purpose; a store (bot/storage:
SQLite, PostgreSQL; the in-memory one of the tests) implements them all as `GameStore`:

- `GameRepository`: games, read as stored and written only through a `UnitOfWork`, one per
  use case (`async with store.unit() as uow: uow.add(change)`), all its changes in one
  transaction: a lobby changed or dealt, a move and everything it changes (`MoveCommit`),
  a deadline (`DeadlineChange`), a match's review (`NewReview`), a deal of the day, a
  cancel; and the few writes that are not a game's: a chat's new id (`ChatMove`), a player's
  erasure (`Erasure`), an achievement (`AchievementGrant`), a secret kept (`KeptSecret`).
  Every change checks in its own statement the status and version of the game it
  expects, so a lost race (two taps at once, maybe in two processes) raises `StaleVersion`
  and writes nothing, and never overwrites. A `NewGame` raises `OpenGameExists` when the
  chat's `thread` (a topic of a forum; '' for the chat itself) has a game in its lobby or
  running (`open_game` gives that game). Besides the unit, a few finders and what a move
  is worked out from: `running_deadlines` soonest first, `moves` in order, the finished
  rounds, the players' ratings.
- `ChatDirectory`: chats and players, made when first seen.
- `Reports`: what was played, read only (results, boards, records, reviews, the deals of the day).
- `PlayerData`: what is kept about one player, read whole (its erasure is a unit's `Erasure`).
- `MessageCoordination`: who does what of several processes. `claim_due` hands a game's
  due work (a warning, a timed-out turn, a computer turn) to one owner at a time until
  it lets go (`release_claim`) or its lease runs out, only of the chats a `Served` takes;
  `hold_message` gives each of a game's messages to one owner at a time in the same way
  (another owner leaves a note, `mark_message`, and the holder draws it again before it
  lets go, `release_message`: `sessions.holds`); `take_send` counts a chat's messages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from .records import (
    AchievementGrant,
    AchievementRow,
    Change,
    ChatRow,
    DailyRow,
    Deadline,
    GameRow,
    LeaderboardLine,
    MovedChat,
    MoveRow,
    PlayedMatch,
    PlayerRow,
    RatingRow,
    RecentMatch,
    ResultRow,
)
from .records import Erasure as Erasure
from .records import SeatToComputer as SeatToComputer

SENDS_KEPT = 300.0
"""Seconds a message counted by `take_send` is kept for other names' calls to drop: longer than
any period a front-end counts over, so a short window never forgets a long one's counts."""


SNOWFLAKE_SHIFT = 22
"""A chat's home (a Discord server id) picks its shard as `(home >> 22) % shard_count`,
Discord's own rule for which gateway shard receives a server's events."""


@dataclass(frozen=True, slots=True)
class Served:
    """The chats one bot process serves, so that it runs only their games' due work: those
    of `platforms`, and of a chat with a home, only the homes on its `shards` (out of
    `shard_count`; None: every shard)."""

    platforms: frozenset[str]
    shard_count: int | None = None
    shards: frozenset[int] = frozenset()

    def takes(self, platform: str, home: str | None) -> bool:
        if platform not in self.platforms:
            return False
        if home is None or self.shard_count is None:
            return True
        try:
            return (int(home) >> SNOWFLAKE_SHIFT) % self.shard_count in self.shards
        except ValueError:
            return True


ERASED_NAME = "—"
"""The name an erased player's row keeps: their results stay, without anyone's name."""
ERASED_NOTE = "erased:"
"""The note an erasure leaves on each of its games (`Erasure.notes_of`)."""
ERASED_KEY = "erased:"
"""How an erased player's (and their private chat's) platform id starts: the row's own id
follows, so the key stays unique and says nothing of the platform's."""


class OpenGameExists(Exception):
    """The chat (its thread) already has a game in its lobby or running."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} is already open in this chat")
        self.game_id = game_id


class DailyClaimed(Exception):
    """The player has claimed that day's deal already (maybe a moment ago, in another process)."""


class StaleVersion(Exception):
    """The game moved on since the caller looked at it."""


class ReviewExists(Exception):
    """The match has a review stored already (`NewReview`): the first one kept stays."""


class StorageFailed(Exception):
    """The database could not be read or written (a failed disk, a full one, a lost server).

    Nothing half-done is kept: the transaction was rolled back. The bot tells the user and
    stops, so that whatever supervises it starts it again once the database is back."""


class StorageAway(Exception):
    """The database cannot be reached just now (restarting, paused, its connection lost), for
    less long than the bot waits for it: the request was not done, or, when `maybe_stored`,
    its last write was lost on its way back and may have been stored. Nothing is half-done;
    the user tries again in a moment, and the bot stays up."""

    def __init__(self, message: str, *, maybe_stored: bool = False) -> None:
        super().__init__(message)
        self.maybe_stored = maybe_stored


class FrontEndNotes(Protocol):
    """Front-ends' own notes about a game (which message shows its table, ...), kept
    with the game so that they survive a restart; a None value forgets the key."""

    async def get_refs(self, game_id: int) -> dict[str, str]: ...

    async def set_ref(self, game_id: int, key: str, value: str | None) -> None: ...

    async def take_send(self, chat: str, now: float, limit: int, period: float,
                        counted_at: float | None = None) -> float:
        """Count one message to `chat` (a front-end's name for it) at `now` if fewer than
        `limit` went in the `period` seconds before: 0.0; otherwise count nothing and give
        the seconds until one more may go. Of all processes, one at a time counts a chat's.
        Counts older than `period` are not kept, a chat's own; of the others, which may be counted
        over shorter periods than theirs (a bot's second beside a group's minute), a few at each
        call once older than `SENDS_KEPT`. `counted_at`: the time the message counts from until
        `settle_send` says when it went (a time to come, for a message not yet sent; default
        `now`)."""
        ...

    async def settle_send(self, chat: str, counted_at: float, went: float | None) -> None:
        """The message counted at `counted_at` went at `went` (it counts from then), or, None,
        never went (it counts no more)."""
        ...


class MessageRefs(FrontEndNotes, Protocol):
    """The notes with what the sessions do with them: every game's notes of a kind, and
    message holds."""

    async def refs_with_prefix(self, prefix: str) -> list[tuple[int, str, str]]:
        """(game id, key, value) of every game's refs whose key starts with `prefix`."""
        ...

    async def hold_message(self, game_id: int, message: str, owner: str, now: float,
                           lease: float) -> bool:
        """Hold game `game_id`'s message `message` (a front-end's name for it) for `owner`
        until `now + lease` (the holder may hold it again, to extend); False while another
        owner holds it and its lease runs, or when there is no such game."""
        ...

    async def mark_message(self, game_id: int, message: str, owner: str, now: float) -> float | None:
        """Another owner holds the message and its lease runs: note that it must be drawn
        again once that owner is done, and give the lease's end; None if no other owner
        holds it now."""
        ...

    async def release_message(self, game_id: int, message: str, owner: str) -> bool:
        """Let go of the message if `owner` holds it; False (the owner keeps it, and the
        note is cleared) when another owner asked for it to be drawn again meanwhile."""
        ...


class MessageCoordination(MessageRefs, Protocol):
    """Who does what of several processes: the front-ends' notes and message holds
    (`MessageRefs`), the send windows, and the claims on due work."""

    async def claim_due(self, now: float, warn_before: float, owner: str, lease: float,
                        served: Served | None = None) -> list[Deadline]:
        """The running games whose deadline has come at `now` (a turn not yet warned: its
        deadline less `warn_before`), that no other owner holds and whose chat `served`
        takes (None: every chat), soonest first; each is held for `owner` until `now + lease`."""
        ...

    async def release_claim(self, game_id: int, owner: str) -> None:
        """Let go of game `game_id` if `owner` holds it."""
        ...


class UnitOfWork(Protocol):
    """One use case's writes, made in one transaction when the `async with` block ends without
    an exception (and none of them when it raises). Each change checks, in the statement that
    writes it, the game's status and version it expects: a change that finds the game moved
    on raises `StaleVersion` from the block's end, and nothing of the unit is written. Reads
    go to the repository: they see what is committed, the unit's checks say it still holds."""

    created: int | None
    """The id of the game a `NewGame` (or a `DailyDeal`) made, once the unit is committed."""
    moved: MovedChat | None
    """What a `ChatMove` did, once the unit is committed; None when it found no chat to move."""
    granted: tuple[AchievementGrant, ...]
    """The `AchievementGrant`s the unit stored (not those the player had already)."""
    kept: str | None
    """The secret a `KeptSecret` gave: the one kept first under its name."""

    async def __aenter__(self) -> UnitOfWork: ...

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: Any) -> None: ...

    def add(self, change: Change) -> None:
        """Write `change` with the others when the unit ends."""
        ...


class GameRepository(Protocol):
    """Games, read as stored and written only with a check of their version or status."""

    def unit(self) -> UnitOfWork:
        """A unit of work for one use case (`async with store.unit() as uow: uow.add(...)`)."""
        ...

    async def get_game(self, game_id: int) -> GameRow | None: ...

    async def open_game(self, chat_id: int, thread: str = "") -> GameRow | None: ...

    async def open_games_of_player(self, player_id: int) -> list[GameRow]: ...

    async def running_deadlines(self) -> list[Deadline]: ...

    async def moves(self, game_id: int, after: int = 0) -> list[MoveRow]: ...

    async def round_records(self, game_id: int) -> list[dict[str, Any]]: ...

    async def ratings(self, player_ids: Iterable[int], ladder: str) -> dict[int, RatingRow]: ...


class ChatDirectory(Protocol):
    """Chats and players: made when first seen, and their settings."""

    async def ensure_chat(self, platform: str, chat_key: str, title: str | None = None,
                          language: str | None = None, home: str | None = None) -> ChatRow:
        """The chat, made if new; a `title` or `home` given replaces the stored one."""
        ...

    async def get_chat(self, chat_id: int) -> ChatRow | None: ...

    async def ensure_player(self, platform: str, user_key: str, display_name: str,
                            platform_language: str | None = None,
                            is_computer: bool = False) -> PlayerRow: ...

    async def get_player(self, player_id: int) -> PlayerRow | None: ...

    async def find_player(self, platform: str, user_key: str) -> PlayerRow | None: ...

    async def update_player(self, player_id: int, *, language: str | None = None,
                            can_dm: bool | None = None, dm_pings: bool | None = None,
                            quiet_turns: bool | None = None) -> None: ...


class Reports(Protocol):
    """What was played, read only: results, leaderboards, stats, records, reviews, boards."""

    async def results(self, game_id: int) -> list[ResultRow]: ...

    async def leaderboard(self, chat_id: int | None, ladder: str | None = None,
                          limit: int = 10) -> list[LeaderboardLine]: ...

    async def player_stats(self, player_id: int) -> dict[str, Any]:
        """Games, wins, scope, points, wins by kind, ratings by ladder, and `accuracy`: the
        mean of the player's accuracy over their reviewed matches (None before one), with
        `reviewed`, how many."""
        ...

    async def recent_matches(self, chat_id: int, limit: int = 5) -> list[RecentMatch]:
        """The chat's latest finished matches, latest first (of two finished at once, the later made)."""
        ...

    async def played_matches(self, player_id: int) -> list[PlayedMatch]:
        """Every finished match `player_id` sat in, with their seat, how it counts (practice and
        deals of the day apart) and its record; in the order they finished."""
        ...

    async def achievements(self, player_ids: Iterable[int]) -> list[AchievementRow]:
        """The achievements of the players `player_ids`, in the order they were earned."""
        ...

    async def records(self) -> list[str]: ...

    async def is_daily(self, game_id: int) -> bool:
        """Whether game `game_id` is someone's deal of the day."""
        ...

    async def match_record(self, game_id: int) -> str | None:
        """The scopa-record/1 line kept when the match ended; None for a game without one."""
        ...

    async def match_review(self, game_id: int) -> str | None:
        """The review stored with the match (scopa-review/1 JSON); None before one is."""
        ...

    async def last_finished_game(self, player_id: int) -> int | None:
        """The latest finished match `player_id` sat in, wherever it was played; None before one."""
        ...

    async def reviewed_matches(self, chat_id: int | None, player_id: int | None, limit: int) -> list[int]:
        """Finished matches with a stored review, the latest finished first, at most `limit`: those
        played in `chat_id` (when given) that `player_id` sat in (when given); never a deal of the
        day, whose cards others may still be about to play."""
        ...

    async def unreviewed_matches(self, since: float, limit: int) -> list[int]:
        """Matches finished at `since` or later with a person seated and no review yet, oldest
        first, at most `limit`: those to review after a restart."""
        ...

    async def daily_game(self, day: str, player_id: int) -> int | None:
        """The game `player_id` plays (or played) the deal of `day` in; None before they claim it."""
        ...

    async def daily_board(self, day: str, chat_id: int | None, limit: int = 10) -> list[DailyRow]:
        """The finished deals of `day`, best first: a larger margin, then fewer moves, then the
        earlier finish. With `chat_id`, only the players of that chat: those who asked for the
        deal there, or sat in one of its games."""
        ...


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """A bot process as it last said it was alive (`OwnerStore.beat`)."""

    process: str
    platforms: str
    """The front-ends it runs, comma-separated (`telegram,discord`)."""
    started_at: float
    seen_at: float
    lag: float
    """The event loop's worst lag in seconds over the beat before."""


@dataclass(frozen=True, slots=True)
class NoticeDelivery:
    """An owner's notice owed to one chat, claimed by one process to post it."""

    notice_id: int
    text: str
    chat_id: int
    platform: str
    chat_key: str
    home: str | None
    thread: str


@dataclass(frozen=True, slots=True)
class StoreStatus:
    """What the store says of the bot as a whole, for the owners' /botstatus."""

    running: int
    """Matches in play."""
    lobbies: int
    players_today: int
    """People (not computers) seated in a game changed since the day began."""
    timers_due: int
    """Running games whose timer or computer turn is due and not yet run."""
    notices_owed: int
    """Owner notices not yet posted in a chat."""


class OwnerStore(Protocol):
    """The owners' tools: blocked users, processes' heartbeats, notices to the chats in play."""

    async def block_user(self, platform: str, user_key: str, by: str, now: float) -> bool:
        """Block the user (seen by the bot or not); False if they were blocked already."""
        ...

    async def unblock_user(self, platform: str, user_key: str) -> bool:
        """False if the user was not blocked."""
        ...

    async def is_blocked(self, platform: str, user_key: str) -> bool:
        """Whether the user is blocked: one indexed lookup, asked before each command and tap."""
        ...

    async def beat(self, process: str, platforms: str, started_at: float, now: float, lag: float,
                   forget_before: float) -> None:
        """Note that `process` is alive at `now` with the loop's `lag`; heartbeats last seen before
        `forget_before` are dropped."""
        ...

    async def heartbeats(self) -> list[Heartbeat]:
        """Every process's last heartbeat, the latest first."""
        ...

    async def add_notice(self, text: str, by: str, now: float) -> tuple[int, int]:
        """Keep notice `text` and owe it, once, to every chat with a game in its lobby or in play
        (in the thread of the chat's oldest such game), in one transaction: (its id, how many chats)."""
        ...

    async def claim_notices(self, owner: str, now: float, lease: float, served: Served | None,
                            limit: int = 50) -> list[NoticeDelivery]:
        """Notices owed to chats `served` takes (None: every chat) that no other owner holds; each
        is held for `owner` until `now + lease` (of all processes, one holds it at a time)."""
        ...

    async def notice_done(self, notice_id: int, chat_id: int, owner: str, delivered: bool) -> None:
        """The holder posted the notice (or the chat refused it for good: `delivered` too), so it
        is owed no more; with `delivered` False it is let go, to be tried again."""
        ...

    async def store_status(self, day_start: float, now: float) -> StoreStatus: ...


@dataclass(frozen=True, slots=True)
class SeasonResult:
    """A person's result in a rated match (neither practice nor a deal of the day), for the
    monthly seasons (`sessions.seasons`)."""

    game_id: int
    chat_id: int
    finished_at: float
    player_id: int
    name: str
    won: bool
    computer: bool
    """A computer held a seat in the match."""


class SeasonStore(Protocol):
    """The monthly seasons: the rated results they are worked out from, and the claims that
    have each chat's champion announced once of all processes."""

    async def season_results(self, start: float, end: float, chat_id: int | None) -> list[SeasonResult]:
        """Every person's result in the rated matches finished from `start` to before `end`,
        played in `chat_id` (None: anywhere), in the order they finished."""
        ...

    async def claim_season_closes(self, season: str, start: float, end: float, owner: str, now: float,
                                  lease: float, served: Served | None, limit: int = 20) -> list[ChatRow]:
        """The chats `served` takes (None: every chat) with a person's rated match finished from
        `start` to before `end` whose season `season` (YYYY-MM) is not closed yet and that no other
        owner holds; each is held for `owner` until `now + lease` (of all processes, one at a time)."""
        ...

    async def season_closed(self, chat_id: int, season: str, owner: str, done: bool) -> None:
        """The holder announced the chat's champion of `season` (or had nothing to announce):
        `done`, closed for good; otherwise let go, to be tried again."""
        ...


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament as stored: its whole state one JSON text (`sessions.tournaments`), written
    only over the `version` it was read at, so that of two processes advancing it one wins."""

    id: int
    chat_id: int
    status: str
    version: int
    state: str


class TournamentStore(Protocol):
    """The chats' tournaments: at most one open (signing up or running) per chat."""

    async def open_tournament(self, chat_id: int, state: str, now: float) -> int | None:
        """A new tournament in sign-up, its id; None when the chat has one open already."""
        ...

    async def tournament(self, tournament_id: int) -> TournamentRow | None: ...

    async def chat_tournament(self, chat_id: int) -> TournamentRow | None:
        """The chat's open tournament (signing up or running), if any."""
        ...

    async def running_tournaments(self) -> list[TournamentRow]:
        """Every running tournament, for the steps a stopped process owes them."""
        ...

    async def save_tournament(self, tournament_id: int, version: int, status: str, state: str,
                              now: float) -> bool:
        """Write the tournament as version `version + 1`, if it is still at `version`."""
        ...


class PlayerData(Protocol):
    """What is kept about one player, to show them and to erase."""

    async def private_chats(self, player_id: int) -> list[ChatRow]:
        """The player's private chats with the bot: those keyed by their platform id (a Telegram
        private chat), and the chats without a home (a Discord DM) where they sat in a game or
        that bear their name."""
        ...

    async def player_data(self, player_id: int) -> dict[str, Any]:
        """Everything kept about the player, as plain JSON values: `profile` (their row, settings
        included), `ratings`, `results`, `games` (each game they sat in, with their seat),
        `moves` (those of their seats), `reviews` (their accuracy in each reviewed match) and
        `daily` (the days they played the deal of the day)."""
        ...

    async def ask_erasure(self, platform: str, user_key: str, now: float) -> None:
        """Note that the player `user_key` of `platform` is to be erased (`scopa-bot erase`), for
        a running bot to do; asked again, the first time is kept."""
        ...

    async def erasures_asked(self, platform: str) -> list[str]:
        """The user keys of `platform` whose erasure is asked for and not yet made."""
        ...

    async def drop_erasure(self, platform: str, user_key: str) -> None:
        """The erasure asked for is done (or found nothing to erase)."""
        ...


class GameStore(GameRepository, ChatDirectory, Reports, MessageCoordination, OwnerStore,
                PlayerData, SeasonStore, TournamentStore, Protocol):
    """A whole store: every port above, on one database."""

    shared: bool
    """Other processes may change the games, the chats, the players and the notes (several
    bots on one database): the sessions read them from the store rather than keep them."""

    def on_failure(self, note: Callable[[StorageFailed], None]) -> None:
        """Call `note` with each `StorageFailed` the store raises (the sessions stop the bot)."""
        ...

    async def close(self) -> None: ...
