"""The only code that speaks SQL: one SQLite file in WAL mode.

Game flow (every write, and the small lookups of chats, players and games)
runs on a connection of the event loop's own thread, each write as one
`BEGIN IMMEDIATE` transaction: a move is checked against the stored version,
stored and logged in one transaction, or not at all. In WAL mode with
`synchronous=NORMAL` a commit only appends to the log (no fsync), so it takes
tens of microseconds, less than handing it to another thread would; and a
move never waits in a queue behind other games' database work, which is what
made the slowest moves slow. Everything that may take long runs on a second,
read-only connection in aiosqlite's thread: reports (leaderboards, stats,
exports) and the checkpoints that copy the log into the database file and
fsync it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .. import metrics
from ..sessions.ports import SENDS_KEPT, Served, StaleVersion, StorageFailed
from ..sessions.records import (
    Change,
    ChatMove,
    DailyDeal,
    Deadline,
    DeadlineChange,
    DeadlineKind,
    Erasure,
    GameCancel,
    GameRow,
    GameStart,
    MoveCommit,
    MovedChat,
    SeatHandover,
    SeatRow,
)
from .changes import (
    MOVE_GAME,
    MOVE_ROW,
    SQLITE,
    Plan,
    is_plain,
    move_game_params,
    move_row_params,
    moved_on,
)
from .files import OpenFiles
from .repairs import repairs
from .rows import Row, deadline_of, game_row, seat_row
from .schema import SQLITE_MIGRATIONS as MIGRATIONS
from .sql_store import GAME_COLUMNS, PLAYER_COLUMNS, SqlStore

log = logging.getLogger(__name__)
_T = TypeVar("_T")
STALE_SENDS_PRUNED = 20
"""Each count of a chat's message (`take_send`) also forgets this many counts of any chat
that are older than the window: a chat that fell quiet keeps none for long."""
_CHECKPOINT_EVERY = 200
"""Commits between two background checkpoints (a move writes two to five pages)."""
_RESTART_LOG_AT = 8_000
"""Log pages (4 KiB each, so 32 MiB) past which the log is started afresh after a
checkpoint: each time costs the event loop some milliseconds."""
_CHECKPOINT_BACKSTOP = 16_000
"""Log pages at which the writing connection checkpoints by itself (64 MiB), should
background checkpoints ever fall behind (a long report holding the reports' thread)."""


class SqliteStore(SqlStore):
    """The `GameStore` (bot/sessions/ports.py) on SQLite."""

    shared = False
    """One process writes an SQLite file: what the sessions keep in memory stays true."""
    dialect = SQLITE

    def __init__(self, db: sqlite3.Connection, reports: aiosqlite.Connection | None,
                 path: str, clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self._db = db
        self._reports = reports
        self.path = path
        self.clock = clock
        """Stamps rows' times (created, updated, finished): the sessions' clock."""
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._deadlines: dict[int, Deadline] | None = None
        """Running games' deadlines, read from the database once and then kept up to date
        by every write that changes one: the timer loop asks each time it wakes."""
        self._files: OpenFiles | None = None
        """The file and log opened, checked before each commit (`files`)."""

    @classmethod
    async def open(cls, path: str | Path, clock: Callable[[], float] = time.time) -> SqliteStore:
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=5000")
        db.execute("PRAGMA foreign_keys=ON")
        reports = None
        if path != ":memory:":
            db.execute(f"PRAGMA wal_autocheckpoint={_CHECKPOINT_BACKSTOP}")
            db.execute(f"PRAGMA journal_size_limit={_RESTART_LOG_AT * 4096}")
            reports = await aiosqlite.connect(path, isolation_level=None)
            reports.row_factory = sqlite3.Row
            await reports.execute("PRAGMA busy_timeout=5000")
            await reports.execute("PRAGMA query_only=1")
        store = cls(db, reports, path, clock)
        try:
            store._migrate()
        except BaseException:
            await store.close()
            raise
        if path != ":memory:":
            store._files = OpenFiles.of(path)
        return store

    async def close(self) -> None:
        """Close once; closing again, even from another event loop, does nothing."""
        checkpoint, self._checkpoint = self._checkpoint, None
        reports, self._reports = self._reports, None
        if checkpoint is not None:
            await asyncio.gather(checkpoint, return_exceptions=True)
        if reports is not None:
            await reports.close()
        self._db.close()

    def _migrate(self) -> None:
        current = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if current > len(MIGRATIONS):
            raise RuntimeError(
                f"database {self.path} has schema version {current}, newer than this bot "
                f"({len(MIGRATIONS)}); upgrade the bot"
            )
        for version in range(current, len(MIGRATIONS)):
            def work(conn: sqlite3.Connection, version: int = version) -> None:
                for statement in MIGRATIONS[version].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version={version + 1}")

            self._write(work)
        now = float(self.clock())
        self._write(lambda conn: [conn.execute(sql, params) for sql, params in repairs(now)])

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        began = metrics.now()
        try:
            row = self._db.execute(sql, params).fetchone()
        except sqlite3.DatabaseError as exc:
            metrics.database("statement", began, failed=True)
            raise self._failed(StorageFailed(f"reading {self.path} failed: {exc}")) from exc
        metrics.database("statement", began)
        return row  # type: ignore[no-any-return]

    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        began = metrics.now()
        try:
            rows = self._db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            metrics.database("statement", began, failed=True)
            raise self._failed(StorageFailed(f"reading {self.path} failed: {exc}")) from exc
        metrics.database("statement", began)
        return rows

    async def _report(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        """A query that may read much of the database, kept off the event loop's thread."""
        if self._reports is None:
            return self._all(sql, params)
        began = metrics.now()
        try:
            rows: list[Row] = list(await self._reports.execute_fetchall(sql, params))
        except BaseException:
            metrics.database("report", began, failed=True)
            raise
        metrics.database("report", began)
        return rows

    def _write(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run `work` as one transaction, at once: nothing else runs on this thread meanwhile,
        so no lock is needed and no write waits behind another."""
        conn = self._db
        began = metrics.now()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = work(conn)
                if self._files is not None:
                    self._files.check()
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:
            metrics.database("transaction", began)
            raise
        except StorageFailed as exc:
            metrics.database("transaction", began, failed=True)
            raise self._failed(exc) from exc.__cause__
        except sqlite3.DatabaseError as exc:
            metrics.database("transaction", began, failed=True)
            raise self._failed(StorageFailed(f"writing {self.path} failed: {exc}")) from exc
        metrics.database("transaction", began)
        self._commits += 1
        if self._commits >= _CHECKPOINT_EVERY and self._reports is not None and (
                self._checkpoint is None or self._checkpoint.done()):
            self._commits = 0
            self._checkpoint = asyncio.get_running_loop().create_task(self._copy_log())
        return result

    def _write_one(self, sql: str, params: tuple[Any, ...]) -> int:
        """One statement as its own transaction; gives the number of rows it changed."""
        return self._write(lambda conn: conn.execute(sql, params).rowcount)

    async def _copy_log(self) -> None:
        """Copy the log's committed pages into the database file and fsync it; once the log
        is long, let the next write start it afresh.

        The copy runs in the reports' thread: a PASSIVE checkpoint never blocks the
        writing connection. But moves keep committing meanwhile, and SQLite starts
        the log afresh only when every page in it was copied, so once in a while the
        last pages are copied here, on the writing connection's thread, where no write
        can come in between: a few pages and two fsyncs, some milliseconds."""
        assert self._reports is not None
        try:
            async with self._reports.execute("PRAGMA wal_checkpoint(PASSIVE)") as cursor:
                _, pages, _ = await cursor.fetchone() or (0, 0, 0)
            if pages >= _RESTART_LOG_AT:
                self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            log.exception("checkpoint of %s failed; the next one tries again", self.path)

    # ---- how statements run -------------------------------------------------

    async def _row(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        return self._one(sql, params)

    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        return self._all(sql, params)

    async def _change(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        return self._write_one(sql, params)

    async def _transact(self, plans: Sequence[Plan]) -> list[Any]:
        return self._write(lambda conn: [_run(conn, steps) for steps in plans])

    async def _commit_changes(self, changes: tuple[Change, ...]) -> Sequence[Any]:
        """The unit's changes in one transaction; a unit of one plain move (most units) is
        written by its two statements alone, without a plan's steps (`_plain_move`)."""
        if len(changes) == 1 and isinstance(changes[0], MoveCommit) and is_plain(changes[0]):
            commit = changes[0]
            now = float(self.clock())
            try:
                self._write(lambda conn: _plain_move(conn, commit, now))
            except sqlite3.IntegrityError as exc:
                raise StaleVersion(str(exc)) from exc
            self._note_deadline(commit.game_id, commit.deadline, commit.deadline_kind, False,
                                commit.expected_version + 1)
            return [None]
        try:
            answers = await super()._commit_changes(changes)
        except sqlite3.IntegrityError as exc:
            if not any(isinstance(change, MoveCommit) for change in changes):
                raise
            raise StaleVersion(str(exc)) from exc
        for change, answer in zip(changes, answers, strict=True):
            self._noted(change, answer)
        return answers

    def _noted(self, change: Change, answer: Any) -> None:
        """Keep the deadlines in memory as the committed `change` left them (`answer`: what
        it gave)."""
        if isinstance(change, MoveCommit):
            self._note_deadline(change.game_id, None if change.finish else change.deadline,
                                change.deadline_kind, False, change.expected_version + 1)
        elif isinstance(change, DeadlineChange):
            self._note_deadline(change.game_id, change.deadline, change.kind, change.warned, change.version)
        elif isinstance(change, GameStart):
            self._note_deadline(change.game_id, change.deadline, change.deadline_kind, False, 0)
        elif isinstance(change, GameCancel):
            self._note_deadline(change.game_id, None, None, False, 0)
        elif isinstance(change, DailyDeal) and answer is not None:
            self._note_deadline(int(answer), change.deadline, change.deadline_kind, False, 0)
        elif isinstance(change, SeatHandover) and change.new_deadline:
            self._note_deadline(change.game_id, change.deadline, change.deadline_kind, False,
                                change.expected_version)
        elif isinstance(change, Erasure):
            for game in change.games:
                self._noted(game, None)
            for seat in change.seats:
                if seat.new_deadline:
                    self._note_deadline(seat.game_id, seat.deadline, seat.deadline_kind, False,
                                        seat.expected_version)
        elif isinstance(change, ChatMove) and isinstance(answer, MovedChat):
            for game_id in answer.cancelled:
                self._note_deadline(game_id, None, None, False, 0)

    # ---- chats and games ---------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRow | None:
        found = self._games(f"SELECT {_GAMES} FROM games g WHERE g.id=?", (game_id,))
        return found[0] if found else None

    async def open_game(self, chat_id: int, thread: str = "") -> GameRow | None:
        found = self._games(f"SELECT {_GAMES} FROM games g "
                            "WHERE g.chat_id=? AND g.thread=? AND g.status IN ('lobby','running')",
                            (chat_id, thread))
        return found[0] if found else None

    async def open_games_of_player(self, player_id: int) -> list[GameRow]:
        return self._games(
            f"SELECT {_GAMES} FROM games g JOIN seats s ON s.game_id=g.id "
            "WHERE s.player_id=? AND g.status IN ('lobby','running') ORDER BY g.id", (player_id,))

    def _games(self, sql: str, params: tuple[Any, ...]) -> list[GameRow]:
        """Games with their seats."""
        return [game_row(row, _seat_rows(self._db, int(row["id"]))) for row in self._all(sql, params)]

    # ---- deadlines and claims ----------------------------------------------------

    async def running_deadlines(self) -> list[Deadline]:
        """Every running game's deadline, soonest first."""
        if self._deadlines is None:
            rows = self._all("SELECT id, deadline, deadline_kind, warned, version FROM games "
                             "WHERE status='running' AND deadline IS NOT NULL")
            self._deadlines = {int(r["id"]): deadline_of(r) for r in rows}
        return sorted(self._deadlines.values(), key=lambda entry: entry.at)

    def _note_deadline(self, game_id: int, deadline: float | None, kind: DeadlineKind | None,
                       warned: bool, version: int) -> None:
        """Keep the deadlines read by `running_deadlines` as a committed write left them."""
        if self._deadlines is None:
            return
        if deadline is None or kind is None:
            self._deadlines.pop(game_id, None)
        else:
            self._deadlines[game_id] = Deadline(game_id, float(deadline), DeadlineKind(kind), warned, version)

    async def claim_due(self, now: float, warn_before: float, owner: str, lease: float,
                        served: Served | None = None) -> list[Deadline]:
        """Due games no other owner holds, held for `owner` until `now + lease`. The
        deadlines kept in memory say which games may be due, so a loop that finds nothing
        due writes nothing; each candidate is claimed by a conditional upsert, in one
        transaction, so another store on the same file never takes the same game."""
        due = [entry for entry in await self.running_deadlines()
               if entry.at <= now or (entry.kind == DeadlineKind.TURN and not entry.warned and warn_before
                                      and entry.at - warn_before <= now)]
        if due and served is not None:
            ids = ",".join(str(entry.game_id) for entry in due)
            takes = {int(r["id"]) for r in self._all(
                f"SELECT g.id, c.platform, c.home FROM games g JOIN chats c ON c.id = g.chat_id "
                f"WHERE g.id IN ({ids})") if served.takes(r["platform"], r["home"])}
            due = [entry for entry in due if entry.game_id in takes]

        def work(conn: sqlite3.Connection) -> list[Deadline]:
            return [entry for entry in due if conn.execute(
                "INSERT INTO claims (game_id, owner, until) SELECT id, ?, ? FROM games "
                "WHERE id=? AND version=? AND status='running' "
                "ON CONFLICT (game_id) DO UPDATE SET owner=excluded.owner, until=excluded.until "
                "WHERE claims.until <= ? OR claims.owner = ?",
                (owner, now + lease, entry.game_id, entry.version, now, owner)).rowcount]

        return self._write(work) if due else []

    # ---- message holds and send counts ---------------------------------------------

    async def hold_message(self, game_id: int, message: str, owner: str, now: float,
                           lease: float) -> bool:
        return self._write_one(
            "INSERT INTO message_holds (game_id, message, owner, until) "
            "SELECT id, ?, ?, ? FROM games WHERE id=? "
            "ON CONFLICT (game_id, message) DO UPDATE SET owner=excluded.owner, until=excluded.until, "
            "redraw = CASE WHEN message_holds.owner = excluded.owner THEN message_holds.redraw ELSE 0 END "
            "WHERE message_holds.until <= ? OR message_holds.owner = ?",
            (message, owner, now + lease, game_id, now, owner)) == 1

    async def take_send(self, chat: str, now: float, limit: int, period: float,
                        counted_at: float | None = None) -> float:
        def work(conn: sqlite3.Connection) -> float:
            conn.execute("DELETE FROM chat_sends WHERE chat=? AND at<=?", (chat, now - period))
            conn.execute("DELETE FROM chat_sends WHERE rowid IN (SELECT rowid FROM chat_sends "
                         "WHERE at<=? LIMIT ?)", (now - max(period, SENDS_KEPT), STALE_SENDS_PRUNED))
            recent = [float(r[0]) for r in conn.execute(
                "SELECT at FROM chat_sends WHERE chat=? ORDER BY at", (chat,))]
            if len(recent) >= limit:
                return max(0.001, recent[len(recent) - limit] + period - now)
            conn.execute("INSERT INTO chat_sends (chat, at) VALUES (?, ?)",
                         (chat, now if counted_at is None else counted_at))
            return 0.0

        return self._write(work)

    async def settle_send(self, chat: str, counted_at: float, went: float | None) -> None:
        def work(conn: sqlite3.Connection) -> None:
            one = "rowid = (SELECT rowid FROM chat_sends WHERE chat=? AND at=? LIMIT 1)"
            if went is None:
                conn.execute(f"DELETE FROM chat_sends WHERE {one}", (chat, counted_at))
            else:
                conn.execute(f"UPDATE chat_sends SET at=? WHERE {one}", (went, chat, counted_at))

        self._write(work)


_GAMES = ", ".join(f"g.{column}" for column in GAME_COLUMNS)
_SEAT_QUERY = (
    "SELECT s.seat, s.player_id, s.computer_level, s.ready, s.timeouts, s.autoplay, s.waiting_since, "
    f"{', '.join(f'p.{c} AS p_{c}' for c in PLAYER_COLUMNS)} "
    "FROM seats s LEFT JOIN players p ON p.id=s.player_id WHERE s.game_id=? ORDER BY s.seat")


def _seat_rows(conn: sqlite3.Connection, game_id: int) -> tuple[SeatRow, ...]:
    return tuple(seat_row(row) for row in conn.execute(_SEAT_QUERY, (game_id,)).fetchall())


def _plain_move(conn: sqlite3.Connection, commit: MoveCommit, now: float) -> None:
    """A plain move (`is_plain`) written without a plan's steps: most moves are, and it saves
    them the plan's cost (about 5% of a move through the sessions)."""
    if conn.execute(MOVE_GAME, move_game_params(commit, now)).rowcount != 1:
        raise moved_on(commit)
    conn.execute(MOVE_ROW, move_row_params(commit, now))


def _run(conn: sqlite3.Connection, steps: Plan) -> Any:
    """Execute a plan's steps (`changes`) on `conn`; gives what the plan returns."""
    answer: Any = None
    try:
        while True:
            step = steps.send(answer)
            if step.many is not None:
                conn.executemany(step.sql, step.many)
                answer = None
            elif step.returns or step.every:
                rows = conn.execute(step.sql, step.params).fetchall()
                answer = rows if step.every else rows[0] if rows else None
            else:
                answer = conn.execute(step.sql, step.params).rowcount
    except StopIteration as done:
        return done.value
