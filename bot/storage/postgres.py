"""The same store as `Store`, on a PostgreSQL server (asyncpg), for bots that run in
several processes or already keep their data in PostgreSQL.

Every write is one transaction on a connection of a small pool. A move is checked
against the stored version by its conditional `UPDATE ... WHERE version = $n`: two
processes committing the same version of a game both reach that row, the second
waits for the first to commit and then finds the version moved on, so it stores
nothing and raises StaleVersion. One open game per chat is kept by a unique
partial index, so two processes creating a game in the same chat at once get one
game and one OpenGameExists.

Nothing is cached between calls (several processes may share the database):
`running_deadlines` asks the database each time, by index. Each game's due work
(its timer, its computer turn) is claimed by one process at a time (`claim_due`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

import asyncpg

from ..sessions.ports import Served
from .chat_moves import ChatMoved, postgres_move_chat
from .models import (
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
    daily_board_sql,
    daily_row,
    dumps,
)
from .pg_retry import Connections
from .postgres_migrations import MIGRATIONS
from .rows import (
    chat_row,
    game_row,
    leaderboard_row,
    match_player,
    move_row,
    player_row,
    player_stats,
    seat_row,
)
from .store import STALE_SENDS_PRUNED, Deadline, OpenGameExists, StaleVersion

_T = TypeVar("_T")
_COUNTED = "NOT COALESCE((g.options::json->>'practice')::boolean, false)"
"""A finished game that counts on leaderboards and in /stats: not a practice match
(`Rules.practice`, stored with the lobby's options only when on)."""
_MIGRATION_LOCK = 0x5C0BA
"""Key of the advisory lock under which one process at a time migrates the schema."""
_CLOSE_TIMEOUT = 10.0
"""Seconds `close` waits for connections in use before cutting them."""

_GAME_COLUMNS = ("id", "chat_id", "creator_id", "variant", "options", "players", "teams", "deck_style",
                 "status", "state", "version", "seed", "deadline", "deadline_kind", "warned",
                 "created_at", "updated_at", "finished_at", "thread")
_PLAYER_COLUMNS = ("id", "platform", "user_key", "display_name", "language", "platform_language",
                   "can_dm", "dm_pings", "is_computer")
_PLAYER_SELECT = f"SELECT {', '.join(_PLAYER_COLUMNS)} FROM players"
_GAMES_WITH_SEATS = (
    f"SELECT {', '.join('g.' + c for c in _GAME_COLUMNS)}, s.seat AS s_seat, "
    "s.player_id AS s_player_id, s.computer_level AS s_computer_level, s.ready AS s_ready, "
    "s.timeouts AS s_timeouts, s.autoplay AS s_autoplay, "
    f"{', '.join('p.' + c + ' AS p_' + c for c in _PLAYER_COLUMNS)} "
    "FROM games g LEFT JOIN seats s ON s.game_id=g.id LEFT JOIN players p ON p.id=s.player_id "
    "WHERE {where} ORDER BY g.id, s.seat")
"""Games with their seats in one statement, so one snapshot: a row per seat."""
_PLAIN_MOVE = (
    "WITH moved AS (UPDATE games SET state=COALESCE($1, state), version=version+1, deadline=$2, "
    "deadline_kind=$3, warned=FALSE, updated_at=$4 WHERE id=$5 AND version=$6 AND status='running' "
    "RETURNING id), "
    "flags AS (UPDATE seats SET timeouts=COALESCE($9::integer, timeouts), "
    "autoplay=COALESCE($10::boolean, autoplay) WHERE game_id=$5 AND seat=$7 "
    "AND ($9::integer IS NOT NULL OR $10::boolean IS NOT NULL) AND EXISTS (SELECT 1 FROM moved)) "
    "INSERT INTO moves (game_id, number, seat, move, by_computer, created_at) "
    "SELECT id, $6 + 1, $7, $8, $11, $4 FROM moved")
"""A move that neither ends a round nor the match, as one statement (so one transaction,
and one round trip): the move is stored only if the game's version was the expected one."""

_CLAIM_DUE = (
    "WITH now AS (SELECT $1::float8 AS at, $2::float8 AS warn, $3::text AS owner, $4::float8 AS lease), "
    "due AS (SELECT g.id, g.deadline, g.deadline_kind, g.warned, g.version FROM games g "
    "CROSS JOIN now LEFT JOIN claims c ON c.game_id = g.id "
    "WHERE g.status='running' AND g.deadline_kind IS NOT NULL AND g.deadline <= now.at + now.warn "
    "AND (g.deadline <= now.at OR (g.deadline_kind='turn' AND NOT g.warned "
    "AND g.deadline - now.warn <= now.at)) "
    "AND (c.game_id IS NULL OR c.until <= now.at OR c.owner = now.owner) "
    "AND ($5::text[] IS NULL OR EXISTS (SELECT 1 FROM chats ch WHERE ch.id = g.chat_id "
    "AND ch.platform = ANY($5::text[]) AND CASE WHEN $6::int IS NULL OR ch.home IS NULL "
    "OR ch.home !~ '^[0-9]{1,40}$' THEN TRUE "
    "ELSE mod(div(ch.home::numeric, 4194304), $6::int)::int = ANY($7::int[]) END)) "
    "ORDER BY g.deadline, g.id FOR UPDATE OF g SKIP LOCKED), "
    "held AS (INSERT INTO claims (game_id, owner, until) "
    "SELECT due.id, now.owner, now.at + now.lease FROM due CROSS JOIN now "
    "ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until "
    "WHERE claims.until <= $1 OR claims.owner = $3 RETURNING game_id) "
    "SELECT due.* FROM due JOIN held ON held.game_id = due.id")
"""Due games (a turn not yet warned is due `$2` seconds before its deadline) that no other
owner holds and whose chat is served (`$5`-`$7`: `Served`, NULL for every chat; a home's
shard is `(home >> 22) % count`, here `div(home, 2^22)`), held for owner `$3` until
`$1 + $4`. The upsert checks the holder again: a claim another process committed after
this statement's snapshot is seen there."""


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Connections go back to the pool as they are: the store never changes a session's
    settings, listens or holds session locks, so the reset's round trip is saved. Only a
    transaction left open (its task cancelled mid-way) is rolled back."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


class DatabaseUnavailable(RuntimeError):
    """The PostgreSQL server cannot be reached, or refuses the user or the database."""


class PostgresStore:
    shared = True
    """Several bot processes may share the database."""

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Callable[[], float] = time.time) -> None:
        self._pool: asyncpg.Pool | None = pool
        self._loop = asyncio.get_running_loop()
        self._url = url
        self.address = redacted_url(url)
        """The database's URL with its password hidden, fit for logs."""
        self.clock = clock
        """Stamps rows' times (created, updated, finished): the sessions' clock."""
        self._connections = Connections(lambda: self.pool, self.address)
        """Where requests take their connection (`pg_retry`); its `patience` is the operator's."""

    @classmethod
    async def open(cls, url: str, clock: Callable[[], float] = time.time, *,
                   min_connections: int = 1, max_connections: int = 10) -> PostgresStore:
        try:
            pool = await asyncpg.create_pool(url, min_size=min_connections, max_size=max_connections,
                                             reset=_keep_session)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise DatabaseUnavailable(
                f"cannot open PostgreSQL database {redacted_url(url)}: {reason}") from exc
        store = cls(pool, url, clock)
        try:
            await store._migrate()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close once; closing again, even from another event loop, does nothing."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not self._loop:
            _terminate(pool)
            return
        try:
            await asyncio.wait_for(pool.close(), _CLOSE_TIMEOUT)
        except TimeoutError:
            _terminate(pool)

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("the store is closed")
        return self._pool

    async def _migrate(self) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await conn.fetchval("SELECT version FROM schema_version")
            if current is None:
                await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
                current = 0
            if current > len(MIGRATIONS):
                raise RuntimeError(
                    f"database {self.address} has schema version {current}, newer than this "
                    f"bot ({len(MIGRATIONS)}); upgrade the bot")
            for script in MIGRATIONS[current:]:
                await conn.execute(script)
            await conn.execute("UPDATE schema_version SET version=$1", len(MIGRATIONS))

    # Every request goes through `pg_retry.Connections`: a lost server is tried again.
    async def _plain_move(self, sql: str, *params: Any) -> str:
        return await self._connections.statement(lambda conn: conn.execute(sql, *params), repeatable=False)

    async def _write(self, work: Callable[[asyncpg.Connection], Awaitable[_T]]) -> _T:
        """Run `work` as one transaction: all of it is stored, or none."""
        return await self._connections.transaction(work)

    async def _fetch(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        return await self._connections.statement(lambda conn: conn.fetch(sql, *params), repeatable=True)

    async def _fetchrow(self, sql: str, *params: Any) -> asyncpg.Record | None:
        return await self._connections.statement(lambda conn: conn.fetchrow(sql, *params),
                                                 repeatable=True)

    async def _execute(self, sql: str, *params: Any) -> int:
        """One statement as its own transaction; gives the number of rows it changed."""
        return _changed(await self._plain_move(sql, *params))

    # ---- chats and players -------------------------------------------------

    async def ensure_chat(self, platform: str, chat_key: str, title: str | None = None,
                          language: str | None = None, home: str | None = None) -> ChatRow:
        select = "SELECT * FROM chats WHERE platform=$1 AND chat_key=$2"
        row = await self._fetchrow(select, platform, chat_key)
        if row is None:
            await self._execute(
                "INSERT INTO chats (platform, chat_key, title, language, created_at, home) "
                "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (platform, chat_key) DO NOTHING",
                platform, chat_key, title, language or "it", float(self.clock()), home)
            row = await self._fetchrow(select, platform, chat_key)
        elif (title and row["title"] != title) or (home and row["home"] != home):
            row = await self._fetchrow(
                "UPDATE chats SET title=COALESCE($1, title), home=COALESCE($2, home) WHERE id=$3 "
                "RETURNING *", title or None, home, row["id"])
        assert row is not None
        return chat_row(row)

    async def get_chat(self, chat_id: int) -> ChatRow | None:
        row = await self._fetchrow("SELECT * FROM chats WHERE id=$1", chat_id)
        return chat_row(row) if row else None

    async def move_chat(self, platform: str, old_key: str, new_key: str) -> tuple[ChatRow, int] | None:
        now = float(self.clock())

        async def move() -> ChatMoved | None:
            return await self._write(lambda conn: postgres_move_chat(conn, platform, old_key, new_key, now))

        try:
            moved = await move()
        except asyncpg.UniqueViolationError:
            moved = await move()
        if moved is None:
            return None
        chat = await self.get_chat(moved.chat_id)
        assert chat is not None
        return chat, moved.old_id

    async def update_chat(self, chat_id: int, *, language: str | None = None,
                          turn_limit: int | None = None,
                          defaults: dict[str, Any] | None = None) -> ChatRow:
        await self._execute(
            "UPDATE chats SET language=COALESCE($1, language), turn_limit=COALESCE($2, turn_limit), "
            "defaults=COALESCE($3, defaults) WHERE id=$4",
            language, turn_limit, None if defaults is None else dumps(defaults), chat_id)
        chat = await self.get_chat(chat_id)
        assert chat is not None
        return chat

    async def ensure_player(self, platform: str, user_key: str, display_name: str,
                            platform_language: str | None = None,
                            is_computer: bool = False) -> PlayerRow:
        select = f"{_PLAYER_SELECT} WHERE platform=$1 AND user_key=$2"
        row = await self._fetchrow(select, platform, user_key)
        name = display_name.strip()[:64] or user_key
        if row is None or row["display_name"] != name or (
                platform_language and row["platform_language"] != platform_language):
            row = await self._fetchrow(
                "INSERT INTO players (platform, user_key, display_name, platform_language, "
                "is_computer, created_at) VALUES ($1, $2, $3, $4, $5, $6) "
                "ON CONFLICT (platform, user_key) DO UPDATE SET display_name=excluded.display_name, "
                "platform_language=COALESCE(excluded.platform_language, players.platform_language) "
                f"RETURNING {', '.join(_PLAYER_COLUMNS)}",
                platform, user_key, name, platform_language, is_computer, float(self.clock()))
        assert row is not None
        return player_row(row)

    async def get_player(self, player_id: int) -> PlayerRow | None:
        row = await self._fetchrow(f"{_PLAYER_SELECT} WHERE id=$1", player_id)
        return player_row(row) if row else None

    async def find_player(self, platform: str, user_key: str) -> PlayerRow | None:
        row = await self._fetchrow(f"{_PLAYER_SELECT} WHERE platform=$1 AND user_key=$2",
                                   platform, user_key)
        return player_row(row) if row else None

    async def update_player(self, player_id: int, *, language: str | None = None,
                            can_dm: bool | None = None, dm_pings: bool | None = None) -> None:
        await self._execute(
            "UPDATE players SET language=COALESCE($1, language), can_dm=COALESCE($2, can_dm), "
            "dm_pings=COALESCE($3, dm_pings) WHERE id=$4",
            language, can_dm, dm_pings, player_id)

    # ---- games -------------------------------------------------------------

    async def create_game(self, chat_id: int, creator_id: int, variant: str,
                          options: dict[str, Any], players: int, teams: int, deck_style: str,
                          seed: str, creator_seat: bool = True, thread: str = "") -> GameRow:
        now = float(self.clock())

        async def work(conn: asyncpg.Connection) -> int:
            existing = await conn.fetchval(
                "SELECT id FROM games WHERE chat_id=$1 AND thread=$2 AND status IN ('lobby','running')",
                chat_id, thread)
            if existing is not None:
                raise OpenGameExists(int(existing))
            game_id = int(await conn.fetchval(
                "INSERT INTO games (chat_id, creator_id, variant, options, players, teams, deck_style, "
                "status, seed, created_at, updated_at, thread) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, 'lobby', $8, $9, $9, $10) RETURNING id",
                chat_id, creator_id, variant, dumps(options), players, teams, deck_style, seed, now,
                thread))
            if creator_seat:
                await conn.execute("INSERT INTO seats (game_id, seat, player_id) VALUES ($1, 0, $2)",
                                   game_id, creator_id)
            return game_id

        try:
            game_id = await self._write(work)
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name != "games_one_open_per_thread":
                raise
            other = await self.open_game(chat_id, thread)
            raise OpenGameExists(other.id if other else -1) from exc
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        found = await self._games("g.id=$1", game_id)
        return found[0] if found else None

    async def open_game(self, chat_id: int, thread: str = "") -> GameRow | None:
        found = await self._games("g.chat_id=$1 AND g.thread=$2 AND g.status IN ('lobby','running')",
                                  chat_id, thread)
        return found[0] if found else None

    async def open_games_of_player(self, player_id: int) -> list[GameRow]:
        return await self._games(
            "g.status IN ('lobby','running') AND g.id IN (SELECT game_id FROM seats WHERE player_id=$1)",
            player_id)

    async def _games(self, where: str, *params: Any) -> list[GameRow]:
        """Games with their seats, by id."""
        rows = await self._fetch(_GAMES_WITH_SEATS.format(where=where), *params)
        games: list[GameRow] = []
        seats: list[SeatRow] = []
        for index, row in enumerate(rows):
            if row["s_seat"] is not None:
                seats.append(seat_row(row, "s_"))
            if index + 1 == len(rows) or rows[index + 1]["id"] != row["id"]:
                games.append(game_row(row, tuple(seats)))
                seats = []
        return games

    async def update_lobby(self, game_id: int, *, variant: str | None = None,
                           options: dict[str, Any] | None = None, players: int | None = None,
                           teams: int | None = None, deck_style: str | None = None) -> None:
        await self._execute(
            "UPDATE games SET variant=COALESCE($1, variant), options=COALESCE($2, options), "
            "players=COALESCE($3, players), teams=COALESCE($4, teams), "
            "deck_style=COALESCE($5, deck_style), updated_at=$6 WHERE id=$7 AND status='lobby'",
            variant, None if options is None else dumps(options), players, teams, deck_style,
            float(self.clock()), game_id)

    async def set_seats(self, game_id: int, seats: Iterable[SeatRow]) -> None:
        """Replace the lobby's seats (used by join, leave, add computer)."""
        rows = list(seats)

        async def work(conn: asyncpg.Connection) -> None:
            await _replace_seats(conn, game_id, rows)
            await conn.execute("UPDATE games SET updated_at=$1 WHERE id=$2", float(self.clock()), game_id)

        await self._write(work)

    async def set_seat_flags(self, game_id: int, seat: int, *, timeouts: int | None = None,
                             autoplay: bool | None = None, ready: bool | None = None) -> None:
        await self._execute(
            "UPDATE seats SET timeouts=COALESCE($1, timeouts), autoplay=COALESCE($2, autoplay), "
            "ready=COALESCE($3, ready) WHERE game_id=$4 AND seat=$5",
            timeouts, autoplay, ready, game_id, seat)

    async def start_game(self, game_id: int, state: dict[str, Any], seats: Iterable[SeatRow],
                         deadline: float | None, deadline_kind: str | None) -> bool:
        now = float(self.clock())
        text = dumps(state)
        rows = list(seats)

        async def work(conn: asyncpg.Connection) -> bool:
            status = await conn.execute(
                "UPDATE games SET status='running', state=$1, version=0, deadline=$2, "
                "deadline_kind=$3, warned=FALSE, updated_at=$4 WHERE id=$5 AND status='lobby'",
                text, _float(deadline), deadline_kind, now, game_id)
            if _changed(status) != 1:
                return False
            await _replace_seats(conn, game_id, rows)
            return True

        return await self._write(work)

    async def cancel_game(self, game_id: int, record_line: str | None = None) -> bool:
        """Cancel an open game; a running one keeps its record (with no winner)."""
        async def work(conn: asyncpg.Connection) -> bool:
            now = float(self.clock())
            status = await conn.execute(
                "UPDATE games SET status='cancelled', deadline=NULL, finished_at=$1, updated_at=$1 "
                "WHERE id=$2 AND status IN ('lobby','running')", now, game_id)
            if _changed(status) != 1:
                return False
            if record_line is not None:
                await conn.execute(
                    "INSERT INTO records (game_id, line) VALUES ($1, $2) "
                    "ON CONFLICT (game_id) DO UPDATE SET line=excluded.line", game_id, record_line)
            return True

        return await self._write(work)

    async def commit_move(self, commit: MoveCommit) -> None:
        """Store a move and everything it changes, or raise StaleVersion and change nothing."""
        now = float(self.clock())
        try:
            if commit.rounds or commit.finish is not None or commit.refs:
                await self._write(lambda conn: _commit_move(conn, commit, now))
            elif _changed(await self._plain_move(
                    _PLAIN_MOVE, None if commit.state is None else dumps(commit.state),
                    _float(commit.deadline), commit.deadline_kind, now, commit.game_id,
                    commit.expected_version, commit.seat, commit.move, commit.seat_timeouts,
                    commit.seat_autoplay, bool(commit.by_computer))) != 1:
                raise StaleVersion(
                    f"game {commit.game_id} is no longer at version {commit.expected_version}")
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise StaleVersion(str(exc)) from exc

    async def set_deadline(self, game_id: int, version: int, deadline: float | None,
                           kind: str | None, warned: bool = False) -> bool:
        return await self._execute(
            "UPDATE games SET deadline=$1, deadline_kind=$2, warned=$3 "
            "WHERE id=$4 AND version=$5 AND status='running'",
            _float(deadline), kind, warned, game_id, version) == 1

    async def running_deadlines(self) -> list[Deadline]:
        """(game id, deadline, kind, warned, version) of every running game with a deadline,
        soonest first."""
        rows = await self._fetch(
            "SELECT id, deadline, deadline_kind, warned, version FROM games "
            "WHERE status='running' AND deadline IS NOT NULL AND deadline_kind IS NOT NULL "
            "ORDER BY deadline, id")
        return [(int(r["id"]), float(r["deadline"]), r["deadline_kind"], bool(r["warned"]),
                 int(r["version"])) for r in rows]

    async def claim_due(self, now: float, warn_before: float, owner: str, lease: float,
                        served: Served | None = None) -> list[Deadline]:
        """Due games no other owner holds, held for `owner` until `now + lease`, in one
        statement: `FOR UPDATE SKIP LOCKED` passes over the rows another process is
        claiming or moving at this moment, so two processes never take the same game."""
        platforms = sorted(served.platforms) if served is not None else None
        count = served.shard_count if served is not None else None
        shards = sorted(served.shards) if served is not None else []
        rows = await self._fetch(_CLAIM_DUE, float(now), float(warn_before), owner, float(lease),
                                 platforms, count, shards)
        found = [(int(r["id"]), float(r["deadline"]), r["deadline_kind"], bool(r["warned"]),
                  int(r["version"])) for r in rows]
        return sorted(found, key=lambda due: (due[1], due[0]))

    async def release_claim(self, game_id: int, owner: str) -> None:
        await self._execute("DELETE FROM claims WHERE game_id=$1 AND owner=$2", game_id, owner)

    async def hold_message(self, game_id: int, message: str, owner: str, now: float,
                           lease: float) -> bool:
        return await self._fetchrow(
            "INSERT INTO message_holds (game_id, message, owner, until) "
            "SELECT id, $2::text, $3::text, $4::float8 + $5::float8 FROM games WHERE id = $1 "
            "ON CONFLICT (game_id, message) DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until, "
            "redraw = message_holds.redraw AND message_holds.owner = EXCLUDED.owner "
            "WHERE message_holds.until <= $4::float8 OR message_holds.owner = $3::text "
            "RETURNING game_id",
            game_id, message, owner, float(now), float(lease)) is not None

    async def mark_message(self, game_id: int, message: str, owner: str, now: float) -> float | None:
        row = await self._fetchrow(
            "UPDATE message_holds SET redraw = TRUE WHERE game_id=$1 AND message=$2 AND owner<>$3 "
            "AND until>$4 RETURNING until", game_id, message, owner, float(now))
        return float(row["until"]) if row is not None else None

    async def release_message(self, game_id: int, message: str, owner: str) -> bool:
        """The holder's row is locked first: a mark that comes meanwhile waits, then finds
        the message let go (and its process draws it) or still held, to be drawn again."""
        async def work(conn: asyncpg.Connection) -> bool:
            row = await conn.fetchrow(
                "SELECT redraw FROM message_holds WHERE game_id=$1 AND message=$2 AND owner=$3 "
                "FOR UPDATE", game_id, message, owner)
            if row is not None and row["redraw"]:
                await conn.execute("UPDATE message_holds SET redraw = FALSE WHERE game_id=$1 "
                                   "AND message=$2", game_id, message)
                return False
            if row is not None:
                await conn.execute("DELETE FROM message_holds WHERE game_id=$1 AND message=$2",
                                   game_id, message)
            return True

        return await self._write(work)

    async def take_send(self, chat: str, now: float, limit: int, period: float) -> float:
        """The chat's count is taken under a transaction-scoped advisory lock on its name, so
        processes counting one chat at once take turns."""
        async def work(conn: asyncpg.Connection) -> float:
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", f"send:{chat}")
            await conn.execute("DELETE FROM chat_sends WHERE chat=$1 AND at<=$2", chat,
                               float(now - period))
            await conn.execute(
                "DELETE FROM chat_sends WHERE ctid = ANY(ARRAY(SELECT ctid FROM chat_sends "
                "WHERE at<=$1 LIMIT $2 FOR UPDATE SKIP LOCKED))", float(now - period),
                STALE_SENDS_PRUNED)
            recent = [float(r["at"]) for r in await conn.fetch(
                "SELECT at FROM chat_sends WHERE chat=$1 ORDER BY at", chat)]
            if len(recent) >= limit:
                return max(0.001, recent[len(recent) - limit] + period - now)
            await conn.execute("INSERT INTO chat_sends (chat, at) VALUES ($1, $2)", chat, float(now))
            return 0.0

        return await self._write(work)

    async def moves(self, game_id: int, after: int = 0) -> list[MoveRow]:
        """The game's moves numbered above `after`, in order."""
        rows = await self._fetch(
            "SELECT number, seat, move, by_computer, created_at FROM moves WHERE game_id=$1 "
            "AND number>$2 ORDER BY number", game_id, after)
        return [move_row(r) for r in rows]

    async def round_breakdowns(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self._fetch("SELECT breakdown FROM rounds WHERE game_id=$1 ORDER BY number",
                                 game_id)
        return [json.loads(r["breakdown"]) for r in rows]

    async def round_records(self, game_id: int) -> list[dict[str, Any]]:
        """The finished rounds of a game, as its scopa-record/1 round objects."""
        rows = await self._fetch("SELECT record FROM rounds WHERE game_id=$1 ORDER BY number", game_id)
        return [json.loads(r["record"]) for r in rows]

    # ---- adapter message references ---------------------------------------

    async def get_refs(self, game_id: int) -> dict[str, str]:
        rows = await self._fetch("SELECT key, value FROM ui_refs WHERE game_id=$1", game_id)
        return {r["key"]: r["value"] for r in rows}

    async def refs_with_prefix(self, prefix: str) -> list[tuple[int, str, str]]:
        rows = await self._fetch("SELECT game_id, key, value FROM ui_refs WHERE left(key, $1) = $2 "
                                 "ORDER BY game_id, key", len(prefix), prefix)
        return [(int(r["game_id"]), r["key"], r["value"]) for r in rows]

    async def set_ref(self, game_id: int, key: str, value: str | None) -> None:
        if value is None:
            await self._execute("DELETE FROM ui_refs WHERE game_id=$1 AND key=$2", game_id, key)
        else:
            await self._execute(
                "INSERT INTO ui_refs (game_id, key, value) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id, key) DO UPDATE SET value=excluded.value", game_id, key, value)

    # ---- results, ratings, queries ------------------------------------------

    async def ratings(self, player_ids: Iterable[int], ladder: str) -> dict[int, RatingRow]:
        ids = [int(i) for i in player_ids]
        if not ids:
            return {}
        rows = await self._fetch(
            "SELECT player_id, ladder, mu, sigma, games, wins FROM ratings "
            "WHERE ladder=$1 AND player_id = ANY($2::bigint[])", ladder, ids)
        return {int(r["player_id"]): RatingRow(int(r["player_id"]), r["ladder"], float(r["mu"]),
                                               float(r["sigma"]), int(r["games"]), int(r["wins"]))
                for r in rows}

    async def results(self, game_id: int) -> list[ResultRow]:
        rows = await self._fetch("SELECT * FROM results WHERE game_id=$1 ORDER BY seat", game_id)
        return [ResultRow(int(r["seat"]), r["player_id"], int(r["side"]), int(r["points"]),
                          bool(r["won"]), int(r["scope"]), r["rating_before"], r["rating_after"])
                for r in rows]

    async def leaderboard(self, chat_id: int | None, ladder: str | None = None,
                          limit: int = 10) -> list[LeaderboardRow]:
        """Players ranked by rating (mu - 3 sigma), with games, wins and scope from results."""
        rows = await self._fetch(
            "SELECT p.id AS player_id, p.display_name AS name, COUNT(*) AS games, "
            "SUM(res.won::int) AS wins, SUM(res.scope) AS scope, "
            "(SELECT MAX(r.mu - 3 * r.sigma) FROM ratings r "
            " WHERE r.player_id=p.id AND ($1::text IS NULL OR r.ladder=$1)) AS rating "
            "FROM results res JOIN games g ON g.id=res.game_id JOIN players p ON p.id=res.player_id "
            f"WHERE g.status='finished' AND NOT p.is_computer AND {_COUNTED} "
            "AND ($2::bigint IS NULL OR g.chat_id=$2) "
            "GROUP BY p.id ORDER BY rating DESC NULLS LAST, wins DESC, games DESC LIMIT $3",
            ladder, chat_id, limit)
        return [leaderboard_row(r) for r in rows]

    async def player_stats(self, player_id: int) -> dict[str, Any]:
        row = await self._fetchrow(
            "SELECT COUNT(*) AS games, COALESCE(SUM(res.won::int),0) AS wins, "
            "COALESCE(SUM(res.scope),0) AS scope, COALESCE(SUM(res.points),0) AS points "
            "FROM results res JOIN games g ON g.id=res.game_id "
            f"WHERE res.player_id=$1 AND g.status='finished' AND {_COUNTED}", player_id)
        ratings = await self._fetch(
            "SELECT ladder, mu, sigma, games, wins FROM ratings WHERE player_id=$1", player_id)
        kinds = await self._fetch(
            "SELECT rec.line::json->>'win_kind' AS kind, COUNT(*) AS n FROM results res "
            "JOIN records rec ON rec.game_id=res.game_id JOIN games g ON g.id=res.game_id "
            f"WHERE res.player_id=$1 AND res.won AND g.status='finished' AND {_COUNTED} "
            "AND rec.line::json->>'win_kind' IS NOT NULL GROUP BY 1", player_id)
        reviewed = await self._fetchrow(
            "SELECT COUNT(*) AS n, AVG(accuracy) AS accuracy FROM review_seats WHERE player_id=$1",
            player_id)
        assert row is not None and reviewed is not None
        return player_stats(row, kinds, ratings, reviewed)

    async def recent_matches(self, chat_id: int, limit: int = 5) -> list[MatchSummary]:
        games = await self._fetch(
            "SELECT id, variant, finished_at FROM games WHERE chat_id=$1 AND status='finished' "
            "ORDER BY finished_at DESC LIMIT $2", chat_id, limit)
        if not games:
            return []
        rows = await self._fetch(
            "SELECT res.game_id, COALESCE(p.display_name, 'CPU') AS name, res.points, res.won "
            "FROM results res LEFT JOIN players p ON p.id=res.player_id "
            "WHERE res.game_id = ANY($1::bigint[]) ORDER BY res.game_id, res.seat",
            [int(g["id"]) for g in games])
        players: dict[int, list[tuple[str, int, bool]]] = {int(g["id"]): [] for g in games}
        for r in rows:
            players[int(r["game_id"])].append(match_player(r))
        return [MatchSummary(int(g["id"]), g["variant"], float(g["finished_at"]),
                             tuple(players[int(g["id"])])) for g in games]

    async def records(self) -> list[str]:
        rows = await self._fetch("SELECT line FROM records ORDER BY game_id")
        return [r["line"] for r in rows]

    # ---- match reviews ---------------------------------------------------------

    async def match_record(self, game_id: int) -> str | None:
        row = await self._fetchrow("SELECT line FROM records WHERE game_id=$1", game_id)
        return None if row is None else str(row["line"])

    async def match_review(self, game_id: int) -> str | None:
        row = await self._fetchrow("SELECT review FROM reviews WHERE game_id=$1", game_id)
        return None if row is None else str(row["review"])

    async def store_review(self, game_id: int, review: str, seats: Iterable[ReviewSeatRow]) -> bool:
        rows = [(game_id, s.seat, s.player_id, s.accuracy) for s in seats]

        async def work(conn: asyncpg.Connection) -> bool:
            stored = await conn.execute("INSERT INTO reviews (game_id, review) VALUES ($1, $2) "
                                        "ON CONFLICT (game_id) DO NOTHING", game_id, review)
            if _changed(stored) != 1:
                return False
            await conn.executemany("INSERT INTO review_seats (game_id, seat, player_id, accuracy) "
                                   "VALUES ($1, $2, $3, $4)", rows)
            return True

        return await self._write(work)


    # ---- the deal of the day ----------------------------------------------------

    async def claim_daily(self, day: str, player_id: int, chat_id: int, game_id: int) -> bool:
        return await self._execute("INSERT INTO daily_plays (day, player_id, chat_id, game_id) "
                                   "VALUES ($1, $2, $3, $4) ON CONFLICT (day, player_id) DO NOTHING",
                                   day, player_id, chat_id, game_id) == 1

    async def daily_game(self, day: str, player_id: int) -> int | None:
        row = await self._fetchrow("SELECT game_id FROM daily_plays WHERE day=$1 AND player_id=$2",
                                   day, player_id)
        return None if row is None else int(row["game_id"])

    async def daily_board(self, day: str, chat_id: int | None, limit: int = 10) -> list[DailyRow]:
        if chat_id is None:
            rows = await self._fetch(daily_board_sql(("$1", "", "$2"), False), day, limit)
        else:
            rows = await self._fetch(daily_board_sql(("$1", "$2", "$3"), True), day, chat_id, limit)
        return [daily_row(r) for r in rows]

async def _replace_seats(conn: asyncpg.Connection, game_id: int, seats: Sequence[SeatRow]) -> None:
    await conn.execute("DELETE FROM seats WHERE game_id=$1", game_id)
    if seats:
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, player_id, computer_level, ready, timeouts, autoplay) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [(game_id, s.seat, s.player_id, s.computer_level, bool(s.ready), s.timeouts,
              bool(s.autoplay)) for s in seats])


async def _commit_move(conn: asyncpg.Connection, commit: MoveCommit, now: float) -> None:
    status = await conn.execute(
        "UPDATE games SET state=COALESCE($1, state), version=version+1, deadline=$2, "
        "deadline_kind=$3, warned=FALSE, status=$4, updated_at=$5, finished_at=$6 "
        "WHERE id=$7 AND version=$8 AND status='running'",
        None if commit.state is None else dumps(commit.state), _float(commit.deadline),
        commit.deadline_kind, "finished" if commit.finish else "running", now,
        now if commit.finish else None, commit.game_id, commit.expected_version)
    if _changed(status) != 1:
        raise StaleVersion(f"game {commit.game_id} is no longer at version {commit.expected_version}")
    await conn.execute(
        "INSERT INTO moves (game_id, number, seat, move, by_computer, created_at) "
        "VALUES ($1, $2, $3, $4, $5, $6)",
        commit.game_id, commit.expected_version + 1, commit.seat, commit.move,
        bool(commit.by_computer), now)
    if commit.seat_timeouts is not None or commit.seat_autoplay is not None:
        await conn.execute(
            "UPDATE seats SET timeouts=COALESCE($1, timeouts), autoplay=COALESCE($2, autoplay) "
            "WHERE game_id=$3 AND seat=$4",
            commit.seat_timeouts, commit.seat_autoplay, commit.game_id, commit.seat)
    if commit.refs:
        await conn.executemany(
            "INSERT INTO ui_refs (game_id, key, value) VALUES ($1, $2, $3) "
            "ON CONFLICT (game_id, key) DO UPDATE SET value=excluded.value",
            [(commit.game_id, key, value) for key, value in commit.refs])
    if commit.rounds:
        await conn.executemany(
            "INSERT INTO rounds (game_id, number, breakdown, record) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (game_id, number) DO UPDATE SET breakdown=excluded.breakdown, "
            "record=excluded.record",
            [(commit.game_id, number, dumps(breakdown), dumps(record))
             for number, breakdown, record in commit.rounds])
    if commit.finish is not None:
        finish = commit.finish
        await conn.execute("INSERT INTO records (game_id, line) VALUES ($1, $2)",
                           commit.game_id, finish.record_line)
        if finish.results:
            await conn.executemany(
                "INSERT INTO results (game_id, seat, player_id, side, points, won, scope, "
                "rating_before, rating_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [(commit.game_id, r.seat, r.player_id, r.side, r.points, bool(r.won), r.scope,
                  _float(r.rating_before), _float(r.rating_after)) for r in finish.results])
        if finish.ratings:
            await conn.executemany(
                "INSERT INTO ratings (player_id, ladder, mu, sigma, games, wins) "
                "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (player_id, ladder) DO UPDATE SET "
                "mu=excluded.mu, sigma=excluded.sigma, games=excluded.games, wins=excluded.wins",
                [(r.player_id, r.ladder, float(r.mu), float(r.sigma), r.games, r.wins)
                 for r in finish.ratings])


def _terminate(pool: asyncpg.Pool) -> None:
    """Cut the pool's connections, even when the event loop they were made on is gone."""
    with contextlib.suppress(RuntimeError):
        pool.terminate()


def _changed(status: str) -> int:
    """Rows a command changed, from its status ("UPDATE 1", "INSERT 0 1", "DELETE 0")."""
    count = status.rsplit(" ", 1)[-1]
    return int(count) if count.isdigit() else 0


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)


def redacted_url(url: str) -> str:
    """The URL with its password hidden, fit for messages and logs."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in credentials:
        return url
    return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"


