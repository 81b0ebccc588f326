"""What the sessions need from a store, and what front-ends may keep in one.

`GameStore` is the whole of the sessions' dependency on persistence: the
SQLite store (bot/storage) implements it, and so does any other store. Its
rules, which every implementation keeps:

- `create_game` raises `OpenGameExists` when the chat's `thread` (a topic of a
  forum; '' for the chat itself) has a game in its lobby or running, and seats the
  creator in seat 0 unless `creator_seat` is False; `open_game` gives that game;
- `commit_move` stores a move and everything it changes at once, or raises
  `StaleVersion` and changes nothing (the game is not running at
  `expected_version`);
- `start_game`, `cancel_game` and `set_deadline` change nothing and give False
  when the game is not in the state they expect;
- `running_deadlines` is soonest first; `moves` in order;
- `claim_due` hands a game's due work (a warning, a timed-out turn, a computer
  turn) to one owner at a time: a game another owner holds is left out until that
  owner lets it go (`release_claim`) or its lease runs out, so of several bot
  processes on one database one runs each timer, and a process that died holds
  nothing for longer than its lease; given a `Served`, it hands out only the games
  of the chats that process serves;
- `hold_message` gives each of a game's messages to one owner at a time in the same
  way, so that of several processes one at a time draws it; another owner that
  wants it drawn meanwhile leaves a note (`mark_message`) and the holder draws it
  again before it lets go (`release_message`, `sessions.holds`);
- `claim_daily` gives each player one deal of the day: a second claim of the same day
  changes nothing and gives False;
- `store_review` keeps the first review stored for a match: a second changes nothing and
  gives False, so a review is worked out once however many ask at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from .records import (
    ChatRow,
    DailyRow,
    GameRow,
    LeaderboardRow,
    MatchSummary,
    MoveCommit,
    MoveRow,
    PlayerRow,
    RatingRow,
    ResultRow,
    ReviewSeatRow,
    SeatRow,
)

Deadline = tuple[int, float, str, bool, int]
"""A running game's (id, deadline, kind, warned, version)."""


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


class OpenGameExists(Exception):
    """The chat (its thread) already has a game in its lobby or running."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} is already open in this chat")
        self.game_id = game_id


class StaleVersion(Exception):
    """The game moved on since the caller looked at it."""


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


class MessageRefs(Protocol):
    """Front-ends' own notes about a game (which message shows its table, ...), kept
    with the game so that they survive a restart; a None value forgets the key."""

    shared: bool
    """Other processes may change the games and their notes (several bots on one
    database): what is kept of them in memory must be checked against the store."""

    async def get_refs(self, game_id: int) -> dict[str, str]: ...

    async def set_ref(self, game_id: int, key: str, value: str | None) -> None: ...

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

    async def take_send(self, chat: str, now: float, limit: int, period: float) -> float:
        """Count one message to `chat` (a front-end's name for it) at `now` if fewer than
        `limit` went in the `period` seconds before: 0.0; otherwise count nothing and give
        the seconds until one more may go. Of all processes, one at a time counts a chat's.
        Counts older than `period` are not kept, a chat's own nor, a few at each call, any other's."""
        ...


class GameStore(MessageRefs, Protocol):
    async def close(self) -> None: ...

    # ---- chats and players
    async def ensure_chat(self, platform: str, chat_key: str, title: str | None = None,
                          language: str | None = None, home: str | None = None) -> ChatRow:
        """The chat, made if new; a `title` or `home` given replaces the stored one."""
        ...

    async def get_chat(self, chat_id: int) -> ChatRow | None: ...

    async def move_chat(self, platform: str, old_key: str, new_key: str) -> tuple[ChatRow, int] | None:
        """The chat `old_key` is now `new_key` (a Telegram group upgraded to a supergroup): its
        games, the one in play too, its settings and its leaderboard go with it, in one
        transaction. If a chat `new_key` exists already, the two become that one: the old
        chat's games join it, the old chat's settings replace its own, and of two open games
        the running one (both alike: the old chat's) stays open, the other is cancelled.
        Gives the chat as it now is and the id the old chat had (the same unless merged);
        None when no chat is `old_key` (moved already, or never seen)."""
        ...

    async def update_chat(self, chat_id: int, *, language: str | None = None,
                          turn_limit: int | None = None,
                          defaults: dict[str, Any] | None = None) -> ChatRow: ...

    async def ensure_player(self, platform: str, user_key: str, display_name: str,
                            platform_language: str | None = None,
                            is_computer: bool = False) -> PlayerRow: ...

    async def get_player(self, player_id: int) -> PlayerRow | None: ...

    async def find_player(self, platform: str, user_key: str) -> PlayerRow | None: ...

    async def update_player(self, player_id: int, *, language: str | None = None,
                            can_dm: bool | None = None, dm_pings: bool | None = None) -> None: ...

    # ---- games
    async def create_game(self, chat_id: int, creator_id: int, variant: str,
                          options: dict[str, Any], players: int, teams: int, deck_style: str,
                          seed: str, creator_seat: bool = True, thread: str = "") -> GameRow: ...

    async def get_game(self, game_id: int) -> GameRow | None: ...

    async def open_game(self, chat_id: int, thread: str = "") -> GameRow | None: ...

    async def open_games_of_player(self, player_id: int) -> list[GameRow]: ...

    async def update_lobby(self, game_id: int, *, variant: str | None = None,
                           options: dict[str, Any] | None = None, players: int | None = None,
                           teams: int | None = None, deck_style: str | None = None) -> None: ...

    async def set_seats(self, game_id: int, seats: Iterable[SeatRow]) -> None: ...

    async def set_seat_flags(self, game_id: int, seat: int, *, timeouts: int | None = None,
                             autoplay: bool | None = None, ready: bool | None = None) -> None: ...

    async def start_game(self, game_id: int, state: dict[str, Any], seats: Iterable[SeatRow],
                         deadline: float | None, deadline_kind: str | None) -> bool: ...

    async def cancel_game(self, game_id: int, record_line: str | None = None) -> bool: ...

    async def commit_move(self, commit: MoveCommit) -> None: ...

    async def set_deadline(self, game_id: int, version: int, deadline: float | None,
                           kind: str | None, warned: bool = False) -> bool: ...

    async def running_deadlines(self) -> list[Deadline]: ...

    async def claim_due(self, now: float, warn_before: float, owner: str, lease: float,
                        served: Served | None = None) -> list[Deadline]:
        """The running games whose deadline has come at `now` (a turn not yet warned: its
        deadline less `warn_before`), that no other owner holds and whose chat `served`
        takes (None: every chat), soonest first; each is held for `owner` until `now + lease`."""
        ...

    async def release_claim(self, game_id: int, owner: str) -> None:
        """Let go of game `game_id` if `owner` holds it."""
        ...

    async def moves(self, game_id: int, after: int = 0) -> list[MoveRow]: ...

    async def round_breakdowns(self, game_id: int) -> list[dict[str, Any]]: ...

    async def round_records(self, game_id: int) -> list[dict[str, Any]]: ...

    # ---- results, ratings, queries
    async def ratings(self, player_ids: Iterable[int], ladder: str) -> dict[int, RatingRow]: ...

    async def results(self, game_id: int) -> list[ResultRow]: ...

    async def leaderboard(self, chat_id: int | None, ladder: str | None = None,
                          limit: int = 10) -> list[LeaderboardRow]: ...

    async def player_stats(self, player_id: int) -> dict[str, Any]:
        """Games, wins, scope, points, wins by kind, ratings by ladder, and `accuracy`: the
        mean of the player's accuracy over their reviewed matches (None before one), with
        `reviewed`, how many."""
        ...

    async def recent_matches(self, chat_id: int, limit: int = 5) -> list[MatchSummary]: ...

    async def records(self) -> list[str]: ...

    # ---- match reviews
    async def match_record(self, game_id: int) -> str | None:
        """The scopa-record/1 line kept when the match ended; None for a game without one."""
        ...

    async def match_review(self, game_id: int) -> str | None:
        """The review stored with the match (scopa-review/1 JSON); None before one is."""
        ...

    async def store_review(self, game_id: int, review: str, seats: Iterable[ReviewSeatRow]) -> bool:
        """Store the match's review and each seat's accuracy in it, in one transaction;
        False (and nothing changes) when the match has a review already."""
        ...

    # ---- the deal of the day
    async def claim_daily(self, day: str, player_id: int, chat_id: int, game_id: int) -> bool:
        """Note that `player_id` plays the deal of `day` (YYYY-MM-DD) as game `game_id`, asked
        in chat `chat_id`; False (and nothing changes) when they have claimed that day already."""
        ...

    async def daily_game(self, day: str, player_id: int) -> int | None:
        """The game `player_id` plays (or played) the deal of `day` in; None before they claim it."""
        ...

    async def daily_board(self, day: str, chat_id: int | None, limit: int = 10) -> list[DailyRow]:
        """The finished deals of `day`, best first: a larger margin, then fewer moves, then the
        earlier finish. With `chat_id`, only the players of that chat: those who asked for the
        deal there, or sat in one of its games."""
        ...
