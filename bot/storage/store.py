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
import dataclasses
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from ..sessions.ports import Served, StaleVersion, StorageFailed
from .base import UnitStore
from .changes import SQLITE, Plan, plan
from .chat_moves import sqlite_move_chat
from .files import OpenFiles
from .migrations import MIGRATIONS
from .models import (
    Change,
    ChatRow,
    DailyRow,
    Deadline,
    DeadlineKind,
    GameCancel,
    GameRow,
    GameStart,
    LeaderboardLine,
    MoveCommit,
    MoveRow,
    PlayerRow,
    RatingRow,
    RecentMatch,
    ResultRow,
    ReviewSeatRow,
    SeatHandover,
    SeatRow,
    daily_board_sql,
    daily_row,
    dumps,
)
from .rows import (
    chat_row,
    deadline_of,
    game_row,
    leaderboard_row,
    match_player,
    move_row,
    player_row,
    player_stats,
    seat_row,
)

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


_COUNTED = "COALESCE(json_extract(g.options, '$.practice'), 0) = 0"
"""A finished game that counts on leaderboards and in /stats: not a practice match
(`Rules.practice`, stored with the lobby's options only when on)."""
_GAME_COLUMNS = ("id, chat_id, creator_id, variant, options, players, teams, deck_style, status, "
                 "state, version, seed, deadline, deadline_kind, warned, created_at, updated_at, "
                 "finished_at, thread")
_PLAYER_COLUMNS = ("id, platform, user_key, display_name, language, platform_language, can_dm, "
                   "dm_pings, is_computer")


class Store(UnitStore):
    """The `GameStore` (bot/sessions/ports.py) on SQLite."""

    shared = False
    """One process writes an SQLite file: what the sessions keep in memory stays true."""

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
    async def open(cls, path: str | Path, clock: Callable[[], float] = time.time) -> Store:
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

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        try:
            return self._db.execute(sql, params).fetchone()  # type: ignore[no-any-return]
        except sqlite3.DatabaseError as exc:
            raise self._failed(StorageFailed(f"reading {self.path} failed: {exc}")) from exc

    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise self._failed(StorageFailed(f"reading {self.path} failed: {exc}")) from exc

    async def _report(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """A query that may read much of the database, kept off the event loop's thread."""
        if self._reports is None:
            return self._all(sql, params)
        return list(await self._reports.execute_fetchall(sql, params))

    def _write(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run `work` as one transaction, at once: nothing else runs on this thread meanwhile,
        so no lock is needed and no write waits behind another."""
        conn = self._db
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
            raise
        except StorageFailed as exc:
            raise self._failed(exc) from exc.__cause__
        except sqlite3.DatabaseError as exc:
            raise self._failed(StorageFailed(f"writing {self.path} failed: {exc}")) from exc
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

    # ---- chats and players -------------------------------------------------

    async def ensure_chat(self, platform: str, chat_key: str, title: str | None = None,
                          language: str | None = None, home: str | None = None) -> ChatRow:
        row = self._one("SELECT * FROM chats WHERE platform=? AND chat_key=?",
                        (platform, chat_key))
        if row is None:
            self._write_one(
                "INSERT OR IGNORE INTO chats (platform, chat_key, title, language, created_at, home) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (platform, chat_key, title, language or "it", self.clock(), home))
            row = self._one("SELECT * FROM chats WHERE platform=? AND chat_key=?",
                            (platform, chat_key))
        elif (title and row["title"] != title) or (home and row["home"] != home):
            self._write_one("UPDATE chats SET title=COALESCE(?, title), home=COALESCE(?, home) "
                            "WHERE id=?", (title or None, home, row["id"]))
            chat = chat_row(row)
            return dataclasses.replace(chat, title=title or chat.title, home=home or chat.home)
        assert row is not None
        return chat_row(row)

    async def get_chat(self, chat_id: int) -> ChatRow | None:
        row = self._one("SELECT * FROM chats WHERE id=?", (chat_id,))
        return chat_row(row) if row else None

    async def move_chat(self, platform: str, old_key: str, new_key: str) -> tuple[ChatRow, int] | None:
        now = self.clock()
        moved = self._write(lambda conn: sqlite_move_chat(conn, platform, old_key, new_key, now))
        if moved is None:
            return None
        for game_id in moved.cancelled:
            self._note_deadline(game_id, None, None, False, 0)
        chat = await self.get_chat(moved.chat_id)
        assert chat is not None
        return chat, moved.old_id

    async def ensure_player(self, platform: str, user_key: str, display_name: str,
                            platform_language: str | None = None,
                            is_computer: bool = False) -> PlayerRow:
        row = self._one(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE platform=? AND user_key=?",
                        (platform, user_key))
        name = display_name.strip()[:64] or user_key
        if row is None or row["display_name"] != name or (
                platform_language and row["platform_language"] != platform_language):
            self._write_one(
                "INSERT INTO players (platform, user_key, display_name, platform_language, "
                "is_computer, created_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (platform, user_key) DO UPDATE SET display_name=excluded.display_name, "
                "platform_language=COALESCE(excluded.platform_language, platform_language)",
                (platform, user_key, name, platform_language, int(is_computer), self.clock()))
            row = self._one(
                f"SELECT {_PLAYER_COLUMNS} FROM players WHERE platform=? AND user_key=?",
                (platform, user_key))
        assert row is not None
        return player_row(row)

    async def get_player(self, player_id: int) -> PlayerRow | None:
        row = self._one(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE id=?", (player_id,))
        return player_row(row) if row else None

    async def find_player(self, platform: str, user_key: str) -> PlayerRow | None:
        row = self._one(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE platform=? AND user_key=?",
                        (platform, user_key))
        return player_row(row) if row else None

    async def update_player(self, player_id: int, *, language: str | None = None,
                            can_dm: bool | None = None, dm_pings: bool | None = None) -> None:
        def work(conn: sqlite3.Connection) -> None:
            if language is not None:
                conn.execute("UPDATE players SET language=? WHERE id=?", (language, player_id))
            if can_dm is not None:
                conn.execute("UPDATE players SET can_dm=? WHERE id=?", (int(can_dm), player_id))
            if dm_pings is not None:
                conn.execute("UPDATE players SET dm_pings=? WHERE id=?", (int(dm_pings), player_id))

        self._write(work)

    # ---- games -------------------------------------------------------------

    async def _commit_changes(self, changes: tuple[Change, ...]) -> int | None:
        now = self.clock()

        def work(conn: sqlite3.Connection) -> int | None:
            created = None
            for change in changes:
                made = _run(conn, plan(change, now, SQLITE))
                created = made if isinstance(made, int) else created
            return created

        created = self._write(work)
        for change in changes:
            if isinstance(change, GameStart):
                self._note_deadline(change.game_id, change.deadline, change.deadline_kind, False, 0)
            elif isinstance(change, GameCancel):
                self._note_deadline(change.game_id, None, None, False, 0)
            elif isinstance(change, SeatHandover) and change.new_deadline:
                self._note_deadline(change.game_id, change.deadline, change.deadline_kind, False,
                                    change.expected_version)
        return created

    async def get_game(self, game_id: int) -> GameRow | None:
        found = self._games(f"SELECT {_GAME_COLUMNS} FROM games WHERE id=?", (game_id,))
        return found[0] if found else None

    async def open_game(self, chat_id: int, thread: str = "") -> GameRow | None:
        found = self._games(
            f"SELECT {_GAME_COLUMNS} FROM games "
            "WHERE chat_id=? AND thread=? AND status IN ('lobby','running')", (chat_id, thread))
        return found[0] if found else None

    async def open_games_of_player(self, player_id: int) -> list[GameRow]:
        return self._games(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))} FROM games g "
            "JOIN seats s ON s.game_id=g.id WHERE s.player_id=? AND g.status IN ('lobby','running') "
            "ORDER BY g.id", (player_id,))

    def _games(self, sql: str, params: tuple[Any, ...]) -> list[GameRow]:
        """Games with their seats."""
        return [game_row(row, _seat_rows(self._db, int(row["id"])))
                for row in self._all(sql, params)]

    async def commit_move(self, commit: MoveCommit) -> None:
        """Store a move and everything it changes, or raise StaleVersion and change nothing."""
        now = self.clock()
        try:
            self._write(lambda conn: _commit_move(conn, commit, now))
        except sqlite3.IntegrityError as exc:
            raise StaleVersion(str(exc)) from exc
        self._note_deadline(commit.game_id, None if commit.finish else commit.deadline,
                            commit.deadline_kind, False, commit.expected_version + 1)

    async def set_deadline(self, game_id: int, version: int, deadline: float | None,
                           kind: DeadlineKind | None, warned: bool = False) -> bool:
        changed = self._write_one(
            "UPDATE games SET deadline=?, deadline_kind=?, warned=? "
            "WHERE id=? AND version=? AND status='running'",
            (deadline, None if kind is None else str(kind), int(warned), game_id, version)) == 1
        if changed:
            self._note_deadline(game_id, deadline, kind, warned, version)
        return changed

    async def running_deadlines(self) -> list[Deadline]:
        """(game id, deadline, kind, warned, version) of every running game with a deadline,
        soonest first."""
        if self._deadlines is None:
            rows = self._all(
                "SELECT id, deadline, deadline_kind, warned, version FROM games "
                "WHERE status='running' AND deadline IS NOT NULL")
            self._deadlines = {int(r["id"]): deadline_of(r) for r in rows}
        return sorted(self._deadlines.values(), key=lambda entry: entry.at)

    async def claim_due(self, now: float, warn_before: float, owner: str, lease: float,
                        served: Served | None = None) -> list[Deadline]:
        """Due games no other owner holds, held for `owner` until `now + lease`. The
        deadlines kept in memory say which games may be due, so a loop that finds nothing
        due writes nothing; each candidate is claimed by a conditional upsert, in one
        transaction, so another store on the same file never takes the same game."""
        due = [entry for entry in await self.running_deadlines()
               if entry.at <= now or (entry.kind == DeadlineKind.TURN and not entry.warned and warn_before
                                      and entry.at - warn_before <= now)]
        if not due:
            return []
        if served is not None:
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

    async def release_claim(self, game_id: int, owner: str) -> None:
        self._write_one("DELETE FROM claims WHERE game_id=? AND owner=?", (game_id, owner))

    async def hold_message(self, game_id: int, message: str, owner: str, now: float,
                           lease: float) -> bool:
        return self._write_one(
            "INSERT INTO message_holds (game_id, message, owner, until) "
            "SELECT id, ?, ?, ? FROM games WHERE id=? "
            "ON CONFLICT (game_id, message) DO UPDATE SET owner=excluded.owner, until=excluded.until, "
            "redraw = CASE WHEN message_holds.owner = excluded.owner THEN message_holds.redraw ELSE 0 END "
            "WHERE message_holds.until <= ? OR message_holds.owner = ?",
            (message, owner, now + lease, game_id, now, owner)) == 1

    async def mark_message(self, game_id: int, message: str, owner: str, now: float) -> float | None:
        def work(conn: sqlite3.Connection) -> float | None:
            row = conn.execute(
                "UPDATE message_holds SET redraw=1 WHERE game_id=? AND message=? AND owner<>? "
                "AND until>? RETURNING until", (game_id, message, owner, now)).fetchone()
            return float(row[0]) if row else None

        return self._write(work)

    async def release_message(self, game_id: int, message: str, owner: str) -> bool:
        def work(conn: sqlite3.Connection) -> bool:
            if conn.execute("UPDATE message_holds SET redraw=0 WHERE game_id=? AND message=? "
                            "AND owner=? AND redraw", (game_id, message, owner)).rowcount:
                return False
            conn.execute("DELETE FROM message_holds WHERE game_id=? AND message=? AND owner=?",
                         (game_id, message, owner))
            return True

        return self._write(work)

    async def take_send(self, chat: str, now: float, limit: int, period: float) -> float:
        def work(conn: sqlite3.Connection) -> float:
            conn.execute("DELETE FROM chat_sends WHERE chat=? AND at<=?", (chat, now - period))
            conn.execute("DELETE FROM chat_sends WHERE rowid IN (SELECT rowid FROM chat_sends "
                         "WHERE at<=? LIMIT ?)", (now - period, STALE_SENDS_PRUNED))
            recent = [float(r[0]) for r in conn.execute(
                "SELECT at FROM chat_sends WHERE chat=? ORDER BY at", (chat,))]
            if len(recent) >= limit:
                return max(0.001, recent[len(recent) - limit] + period - now)
            conn.execute("INSERT INTO chat_sends (chat, at) VALUES (?, ?)", (chat, now))
            return 0.0

        return self._write(work)

    def _note_deadline(self, game_id: int, deadline: float | None, kind: DeadlineKind | None,
                       warned: bool, version: int) -> None:
        """Keep the deadlines read by `running_deadlines` as a committed write left them."""
        if self._deadlines is None:
            return
        if deadline is None or kind is None:
            self._deadlines.pop(game_id, None)
        else:
            self._deadlines[game_id] = Deadline(game_id, float(deadline), DeadlineKind(kind), warned, version)

    async def moves(self, game_id: int, after: int = 0) -> list[MoveRow]:
        """The game's moves numbered above `after`, in order."""
        rows = self._all(
            "SELECT number, seat, move, by_computer, created_at FROM moves WHERE game_id=? "
            "AND number>? ORDER BY number", (game_id, after))
        return [move_row(r) for r in rows]

    async def round_breakdowns(self, game_id: int) -> list[dict[str, Any]]:
        rows = self._all("SELECT breakdown FROM rounds WHERE game_id=? ORDER BY number",
                         (game_id,))
        return [json.loads(r["breakdown"]) for r in rows]

    async def round_records(self, game_id: int) -> list[dict[str, Any]]:
        """The finished rounds of a game, as its scopa-record/1 round objects."""
        rows = self._all("SELECT record FROM rounds WHERE game_id=? ORDER BY number",
                         (game_id,))
        return [json.loads(r["record"]) for r in rows]

    # ---- adapter message references ---------------------------------------

    async def get_refs(self, game_id: int) -> dict[str, str]:
        rows = self._all("SELECT key, value FROM ui_refs WHERE game_id=?", (game_id,))
        return {r["key"]: r["value"] for r in rows}

    async def refs_with_prefix(self, prefix: str) -> list[tuple[int, str, str]]:
        rows = self._all("SELECT game_id, key, value FROM ui_refs WHERE substr(key, 1, ?) = ? "
                         "ORDER BY game_id, key", (len(prefix), prefix))
        return [(int(r["game_id"]), r["key"], r["value"]) for r in rows]

    async def set_ref(self, game_id: int, key: str, value: str | None) -> None:
        if value is None:
            self._write_one("DELETE FROM ui_refs WHERE game_id=? AND key=?", (game_id, key))
        else:
            self._write_one(
                "INSERT INTO ui_refs (game_id, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id, key) DO UPDATE SET value=excluded.value", (game_id, key, value))

    # ---- results, ratings, queries ------------------------------------------

    async def ratings(self, player_ids: Iterable[int], ladder: str) -> dict[int, RatingRow]:
        ids = list(player_ids)
        if not ids:
            return {}
        rows = self._all(
            f"SELECT player_id, ladder, mu, sigma, games, wins FROM ratings WHERE ladder=? AND "
            f"player_id IN ({','.join('?' * len(ids))})", (ladder, *ids))
        return {int(r["player_id"]): RatingRow(int(r["player_id"]), r["ladder"], float(r["mu"]),
                                               float(r["sigma"]), int(r["games"]), int(r["wins"]))
                for r in rows}

    async def results(self, game_id: int) -> list[ResultRow]:
        rows = self._all("SELECT * FROM results WHERE game_id=? ORDER BY seat", (game_id,))
        return [ResultRow(int(r["seat"]), r["player_id"], int(r["side"]), int(r["points"]),
                          bool(r["won"]), int(r["scope"]), r["rating_before"], r["rating_after"])
                for r in rows]

    async def leaderboard(self, chat_id: int | None, ladder: str | None = None,
                          limit: int = 10) -> list[LeaderboardLine]:
        """Players ranked by rating (mu - 3 sigma), with games, wins and scope from results."""
        where = ["g.status='finished'", "p.is_computer=0", _COUNTED]
        params: list[Any] = []
        if chat_id is not None:
            where.append("g.chat_id=?")
            params.append(chat_id)
        ladder_filter = ""
        if ladder is not None:
            ladder_filter = "AND r.ladder=?"
        rows = await self._report(
            "SELECT p.id AS player_id, p.display_name AS name, COUNT(*) AS games, "
            "SUM(res.won) AS wins, SUM(res.scope) AS scope, "
            f"(SELECT MAX(r.mu - 3 * r.sigma) FROM ratings r WHERE r.player_id=p.id {ladder_filter}) "
            "AS rating FROM results res JOIN games g ON g.id=res.game_id "
            "JOIN players p ON p.id=res.player_id "
            f"WHERE {' AND '.join(where)} GROUP BY p.id "
            "ORDER BY rating DESC, wins DESC, games DESC LIMIT ?",
            ((ladder,) if ladder else ()) + tuple(params) + (limit,))
        return [leaderboard_row(r) for r in rows]

    async def player_stats(self, player_id: int) -> dict[str, Any]:
        rows = await self._report(
            "SELECT COUNT(*) AS games, COALESCE(SUM(res.won),0) AS wins, "
            "COALESCE(SUM(res.scope),0) AS scope, COALESCE(SUM(res.points),0) AS points "
            "FROM results res JOIN games g ON g.id=res.game_id "
            f"WHERE res.player_id=? AND g.status='finished' AND {_COUNTED}", (player_id,))
        ratings = await self._report(
            "SELECT ladder, mu, sigma, games, wins FROM ratings WHERE player_id=?", (player_id,))
        kinds = await self._report(
            "SELECT json_extract(rec.line, '$.win_kind') AS kind, COUNT(*) AS n FROM results res "
            "JOIN records rec ON rec.game_id=res.game_id JOIN games g ON g.id=res.game_id "
            f"WHERE res.player_id=? AND res.won AND g.status='finished' AND {_COUNTED} "
            "AND json_extract(rec.line, '$.win_kind') IS NOT NULL GROUP BY kind", (player_id,))
        reviewed = await self._report(
            "SELECT COUNT(*) AS n, AVG(accuracy) AS accuracy FROM review_seats WHERE player_id=?",
            (player_id,))
        return player_stats(rows[0], kinds, ratings, reviewed[0])

    async def recent_matches(self, chat_id: int, limit: int = 5) -> list[RecentMatch]:
        games = await self._report(
            "SELECT id, variant, finished_at FROM games WHERE chat_id=? AND status='finished' "
            "ORDER BY finished_at DESC LIMIT ?", (chat_id, limit))
        out = []
        for game in games:
            rows = await self._report(
                "SELECT COALESCE(p.display_name, 'CPU') AS name, res.points, res.won FROM results res "
                "LEFT JOIN players p ON p.id=res.player_id WHERE res.game_id=? ORDER BY res.seat",
                (game["id"],))
            out.append(RecentMatch(int(game["id"]), game["variant"], float(game["finished_at"]),
                                    tuple(match_player(r) for r in rows)))
        return out

    async def records(self) -> list[str]:
        rows = await self._report("SELECT line FROM records ORDER BY game_id")
        return [r["line"] for r in rows]

    # ---- match reviews ---------------------------------------------------------

    async def match_record(self, game_id: int) -> str | None:
        row = self._one("SELECT line FROM records WHERE game_id=?", (game_id,))
        return None if row is None else str(row["line"])

    async def match_review(self, game_id: int) -> str | None:
        row = self._one("SELECT review FROM reviews WHERE game_id=?", (game_id,))
        return None if row is None else str(row["review"])

    async def store_review(self, game_id: int, review: str, seats: Iterable[ReviewSeatRow]) -> bool:
        rows = [(game_id, s.seat, s.player_id, s.accuracy) for s in seats]

        def work(conn: sqlite3.Connection) -> bool:
            if conn.execute("INSERT INTO reviews (game_id, review) VALUES (?, ?) "
                            "ON CONFLICT (game_id) DO NOTHING", (game_id, review)).rowcount != 1:
                return False
            conn.executemany("INSERT INTO review_seats (game_id, seat, player_id, accuracy) "
                             "VALUES (?, ?, ?, ?)", rows)
            return True

        return self._write(work)


    # ---- the deal of the day ----------------------------------------------------

    async def claim_daily(self, day: str, player_id: int, chat_id: int, game_id: int) -> bool:
        return self._write_one("INSERT INTO daily_plays (day, player_id, chat_id, game_id) "
                               "VALUES (?, ?, ?, ?) ON CONFLICT (day, player_id) DO NOTHING",
                               (day, player_id, chat_id, game_id)) == 1

    async def daily_game(self, day: str, player_id: int) -> int | None:
        row = self._one("SELECT game_id FROM daily_plays WHERE day=? AND player_id=?", (day, player_id))
        return None if row is None else int(row["game_id"])

    async def daily_board(self, day: str, chat_id: int | None, limit: int = 10) -> list[DailyRow]:
        if chat_id is None:
            rows = await self._report(daily_board_sql(("?", "?", "?"), False), (day, limit))
        else:
            rows = await self._report(daily_board_sql(("?", "?", "?"), True), (day, chat_id, chat_id, limit))
        return [daily_row(r) for r in rows]

_SEAT_QUERY = (
    "SELECT s.seat, s.player_id, s.computer_level, s.ready, s.timeouts, s.autoplay, "
    f"{', '.join('p.' + c.strip() + ' AS p_' + c.strip() for c in _PLAYER_COLUMNS.split(','))} "
    "FROM seats s LEFT JOIN players p ON p.id=s.player_id WHERE s.game_id=? ORDER BY s.seat")


def _seat_rows(conn: sqlite3.Connection, game_id: int) -> tuple[SeatRow, ...]:
    return tuple(seat_row(row) for row in conn.execute(_SEAT_QUERY, (game_id,)).fetchall())


def _run(conn: sqlite3.Connection, steps: Plan) -> Any:
    """Execute a plan's steps (`changes`) on `conn`; gives what the plan returns."""
    answer: Any = None
    try:
        while True:
            step = steps.send(answer)
            if step.many is not None:
                conn.executemany(step.sql, step.many)
                answer = None
            elif step.returns:
                answer = conn.execute(step.sql, step.params).fetchone()
            else:
                answer = conn.execute(step.sql, step.params).rowcount
    except StopIteration as done:
        return done.value


def _commit_move(conn: sqlite3.Connection, commit: MoveCommit, now: float) -> None:
    status = "finished" if commit.finish else "running"
    cursor = conn.execute(
        "UPDATE games SET state=COALESCE(?, state), version=version+1, deadline=?, "
        "deadline_kind=?, warned=0, status=?, updated_at=?, finished_at=? "
        "WHERE id=? AND version=? AND status='running'",
        (None if commit.state is None else dumps(commit.state), commit.deadline,
         commit.deadline_kind, status, now, now if commit.finish else None, commit.game_id,
         commit.expected_version))
    if cursor.rowcount != 1:
        raise StaleVersion(f"game {commit.game_id} is no longer at version {commit.expected_version}")
    conn.execute(
        "INSERT INTO moves (game_id, number, seat, move, by_computer, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (commit.game_id, commit.expected_version + 1, commit.seat, commit.move,
         int(commit.by_computer), now))
    if commit.seat_timeouts is not None or commit.seat_autoplay is not None:
        conn.execute(
            "UPDATE seats SET timeouts=COALESCE(?, timeouts), autoplay=COALESCE(?, autoplay) "
            "WHERE game_id=? AND seat=?",
            (commit.seat_timeouts,
             None if commit.seat_autoplay is None else int(commit.seat_autoplay),
             commit.game_id, commit.seat))
    if commit.refs:
        conn.executemany(
            "INSERT INTO ui_refs (game_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id, key) DO UPDATE SET value=excluded.value",
            [(commit.game_id, key, value) for key, value in commit.refs])
    if commit.rounds:
        conn.executemany("INSERT OR REPLACE INTO rounds (game_id, number, breakdown, record) "
                         "VALUES (?, ?, ?, ?)",
                         [(commit.game_id, number, dumps(breakdown), dumps(record))
                          for number, breakdown, record in commit.rounds])
    if commit.finish is not None:
        finish = commit.finish
        conn.execute("INSERT INTO records (game_id, line) VALUES (?, ?)",
                     (commit.game_id, finish.record_line))
        conn.executemany(
            "INSERT INTO results (game_id, seat, player_id, side, points, won, scope, "
            "rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(commit.game_id, r.seat, r.player_id, r.side, r.points, int(r.won), r.scope,
              r.rating_before, r.rating_after) for r in finish.results])
        conn.executemany(
            "INSERT INTO ratings (player_id, ladder, mu, sigma, games, wins) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (player_id, ladder) DO UPDATE SET "
            "mu=excluded.mu, sigma=excluded.sigma, games=excluded.games, wins=excluded.wins",
            [(r.player_id, r.ladder, r.mu, r.sigma, r.games, r.wins) for r in finish.ratings])


