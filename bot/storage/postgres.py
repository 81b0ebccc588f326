"""The same store as `SqliteStore`, on a PostgreSQL server (asyncpg), for bots that run in
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
import time
from collections.abc import Callable, Sequence
from typing import Any

import asyncpg

from ..sessions.ports import SENDS_KEPT, OpenGameExists, Served, StaleVersion
from ..sessions.records import (
    Change,
    ChatMove,
    DailyDeal,
    Deadline,
    DeadlineKind,
    GameRow,
    MoveCommit,
    NewGame,
    SeatRow,
)
from .changes import POSTGRES, Plan, numbered
from .pg_retry import Connections
from .postgres_sql import CLAIM_DUE, GAMES_WITH_SEATS, PLAIN_MOVE
from .repairs import repairs
from .rows import deadline_of, dumps, game_row, seat_row
from .schema import POSTGRES_MIGRATIONS as MIGRATIONS
from .sql_store import SqlStore
from .sqlite_store import STALE_SENDS_PRUNED

_MIGRATION_LOCK = 0x5C0BA
"""Key of the advisory lock under which one process at a time migrates the schema."""
_CLOSE_TIMEOUT = 10.0
"""Seconds `close` waits for connections in use before cutting them."""


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Connections go back to the pool as they are: the store never changes a session's
    settings, listens or holds session locks, so the reset's round trip is saved. Only a
    transaction left open (its task cancelled mid-way) is rolled back."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


class DatabaseUnavailable(RuntimeError):
    """The PostgreSQL server cannot be reached, or refuses the user or the database."""



class PostgresStore(SqlStore):
    shared = True
    """Several bot processes may share the database."""
    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self._pool: asyncpg.Pool | None = pool
        self._loop = asyncio.get_running_loop()
        self._url = url
        self.address = redacted_url(url)
        """The database's URL with its password hidden, fit for logs."""
        self.clock = clock
        """Stamps rows' times (created, updated, finished): the sessions' clock."""
        self._connections = Connections(lambda: self.pool, self.address, failed=self._failed)
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
            for sql, params in repairs(float(self.clock())):
                await conn.execute(numbered(sql), *params)

    # ---- how statements run: every request goes through `pg_retry.Connections`, so a lost
    # server is tried again (only what is safe to run again)

    async def _row(self, sql: str, params: tuple[Any, ...] = ()) -> asyncpg.Record | None:
        return await self._connections.statement(lambda conn: conn.fetchrow(numbered(sql), *params),
                                                 repeatable=True)

    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[asyncpg.Record]:
        return await self._connections.statement(lambda conn: conn.fetch(numbered(sql), *params),
                                                 repeatable=True)

    async def _change(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        return _changed(await self._connections.statement(
            lambda conn: conn.execute(numbered(sql), *params), repeatable=False))

    async def _transact(self, plans: Sequence[Plan]) -> list[Any]:
        async def work(conn: asyncpg.Connection) -> list[Any]:
            return [await _run(conn, steps) for steps in plans]

        return await self._connections.transaction(work)

    async def _commit_changes(self, changes: tuple[Change, ...]) -> Sequence[Any]:
        """The unit's changes in one transaction. A unit of one move that neither ends a round
        nor the match (most units) is one statement, `PLAIN_MOVE` (one round trip). A chat's
        move that finds the new key's row made meanwhile is tried again, to merge the two."""
        try:
            if len(changes) == 1 and isinstance(changes[0], MoveCommit) and _plain(changes[0]):
                await self._plain_move(changes[0])
                return [None]
            try:
                return await super()._commit_changes(changes)
            except asyncpg.UniqueViolationError:
                if not any(isinstance(change, ChatMove) for change in changes):
                    raise
                return await super()._commit_changes(changes)
        except asyncpg.UniqueViolationError as exc:
            new = next((c.game if isinstance(c, DailyDeal) else c for c in changes
                        if isinstance(c, NewGame | DailyDeal)), None)
            if new is not None and exc.constraint_name == "games_one_open_per_thread":
                other = await self.open_game(new.chat_id, new.thread)
                raise OpenGameExists(other.id if other else -1) from exc
            if not any(isinstance(change, MoveCommit) for change in changes):
                raise
            raise StaleVersion(str(exc)) from exc
        except asyncpg.IntegrityConstraintViolationError as exc:
            if not any(isinstance(change, MoveCommit) for change in changes):
                raise
            raise StaleVersion(str(exc)) from exc

    async def _plain_move(self, commit: MoveCommit) -> None:
        if await self._change(PLAIN_MOVE, (
                None if commit.state is None else dumps(commit.state), _float(commit.deadline),
                _kind(commit.deadline_kind), float(self.clock()), commit.game_id, commit.expected_version,
                commit.seat, commit.move, commit.seat_timeouts, commit.seat_autoplay,
                bool(commit.by_computer))) != 1:
            raise StaleVersion(f"game {commit.game_id} is no longer at version {commit.expected_version}")

    # ---- chats and games ---------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRow | None:
        found = await self._games("g.id=?", game_id)
        return found[0] if found else None

    async def open_game(self, chat_id: int, thread: str = "") -> GameRow | None:
        found = await self._games("g.chat_id=? AND g.thread=? AND g.status IN ('lobby','running')",
                                  chat_id, thread)
        return found[0] if found else None

    async def open_games_of_player(self, player_id: int) -> list[GameRow]:
        return await self._games(
            "g.status IN ('lobby','running') AND g.id IN (SELECT game_id FROM seats WHERE player_id=?)",
            player_id)

    async def _games(self, where: str, *params: Any) -> list[GameRow]:
        """Games with their seats, by id, read in one statement (so one snapshot)."""
        rows = await self._rows(GAMES_WITH_SEATS.format(where=where), params)
        games: list[GameRow] = []
        seats: list[SeatRow] = []
        for index, row in enumerate(rows):
            if row["s_seat"] is not None:
                seats.append(seat_row(row, "s_"))
            if index + 1 == len(rows) or rows[index + 1]["id"] != row["id"]:
                games.append(game_row(row, tuple(seats)))
                seats = []
        return games

    # ---- deadlines and claims ----------------------------------------------------

    async def running_deadlines(self) -> list[Deadline]:
        """Every running game's deadline, soonest first, asked each time (by index)."""
        rows = await self._rows("SELECT id, deadline, deadline_kind, warned, version FROM games "
                                "WHERE status='running' AND deadline IS NOT NULL "
                                "AND deadline_kind IS NOT NULL ORDER BY deadline, id")
        return [deadline_of(r) for r in rows]

    async def claim_due(self, now: float, warn_before: float, owner: str, lease: float,
                        served: Served | None = None) -> list[Deadline]:
        """Due games no other owner holds, held for `owner` until `now + lease`, in one
        statement: `FOR UPDATE SKIP LOCKED` passes over the rows another process is
        claiming or moving at this moment, so two processes never take the same game."""
        platforms = sorted(served.platforms) if served is not None else None
        count = served.shard_count if served is not None else None
        shards = sorted(served.shards) if served is not None else []
        rows = await self._connections.statement(
            lambda conn: conn.fetch(CLAIM_DUE, float(now), float(warn_before), owner, float(lease),
                                    platforms, count, shards), repeatable=True)
        return sorted((deadline_of(r) for r in rows), key=lambda due: (due.at, due.game_id))

    # ---- message holds and send counts ---------------------------------------------

    async def hold_message(self, game_id: int, message: str, owner: str, now: float,
                           lease: float) -> bool:
        return await self._row(
            "INSERT INTO message_holds (game_id, message, owner, until) "
            "SELECT id, ?::text, ?::text, ?::float8 + ?::float8 FROM games WHERE id = ? "
            "ON CONFLICT (game_id, message) DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until, "
            "redraw = message_holds.redraw AND message_holds.owner = EXCLUDED.owner "
            "WHERE message_holds.until <= ?::float8 OR message_holds.owner = ?::text RETURNING game_id",
            (message, owner, float(now), float(lease), game_id, float(now), owner)) is not None

    async def take_send(self, chat: str, now: float, limit: int, period: float,
                        counted_at: float | None = None) -> float:
        """The chat's count is taken under a transaction-scoped advisory lock on its name, so
        processes counting one chat at once take turns."""
        async def work(conn: asyncpg.Connection) -> float:
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", f"send:{chat}")
            await conn.execute("DELETE FROM chat_sends WHERE chat=$1 AND at<=$2", chat, float(now - period))
            await conn.execute(
                "DELETE FROM chat_sends WHERE ctid = ANY(ARRAY(SELECT ctid FROM chat_sends "
                "WHERE at<=$1 LIMIT $2 FOR UPDATE SKIP LOCKED))", float(now - max(period, SENDS_KEPT)),
                STALE_SENDS_PRUNED)
            recent = [float(r["at"]) for r in await conn.fetch(
                "SELECT at FROM chat_sends WHERE chat=$1 ORDER BY at", chat)]
            if len(recent) >= limit:
                return max(0.001, recent[len(recent) - limit] + period - now)
            await conn.execute("INSERT INTO chat_sends (chat, at) VALUES ($1, $2)", chat,
                               float(now if counted_at is None else counted_at))
            return 0.0

        return await self._connections.transaction(work)

    async def settle_send(self, chat: str, counted_at: float, went: float | None) -> None:
        async def work(conn: asyncpg.Connection) -> None:
            one = "ctid = (SELECT ctid FROM chat_sends WHERE chat=$1 AND at=$2 LIMIT 1)"
            if went is None:
                await conn.execute(f"DELETE FROM chat_sends WHERE {one}", chat, float(counted_at))
            else:
                await conn.execute(f"UPDATE chat_sends SET at=$3 WHERE {one}", chat, float(counted_at),
                                   float(went))

        await self._connections.transaction(work)


async def _run(conn: asyncpg.Connection, steps: Plan) -> Any:
    """Execute a plan's steps (`changes`) on `conn`; gives what the plan returns."""
    answer: Any = None
    try:
        while True:
            step = steps.send(answer)
            if step.many is not None:
                if step.many:
                    await conn.executemany(numbered(step.sql), step.many)
                answer = None
            elif step.returns:
                answer = await conn.fetchrow(numbered(step.sql), *step.params)
            elif step.every:
                answer = await conn.fetch(numbered(step.sql), *step.params)
            else:
                answer = _changed(await conn.execute(numbered(step.sql), *step.params))
    except StopIteration as done:
        return done.value


def _terminate(pool: asyncpg.Pool) -> None:
    """Cut the pool's connections, even when the event loop they were made on is gone."""
    with contextlib.suppress(RuntimeError):
        pool.terminate()


def _changed(status: str) -> int:
    """Rows a command changed, from its status ("UPDATE 1", "INSERT 0 1", "DELETE 0")."""
    count = status.rsplit(" ", 1)[-1]
    return int(count) if count.isdigit() else 0


def _plain(commit: MoveCommit) -> bool:
    """A move `PLAIN_MOVE` writes: it ends neither a round nor the match, and owes no notes."""
    return not commit.rounds and commit.finish is None and not commit.refs


def _kind(kind: DeadlineKind | None) -> str | None:
    return None if kind is None else str(kind)


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)


def redacted_url(url: str) -> str:
    """The URL with its password hidden, fit for messages and logs."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in credentials:
        return url
    return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"


