"""Every write of a game's tables, and of the chats, players, achievements and secrets, is a
unit of work's (`GameRepository.unit`).

Two checks, one at run time and one over the code:

- On SQLite and on PostgreSQL, every statement the store runs is traced (SQLite's
  `set_trace_callback`; on PostgreSQL, the statements of the driver's connections) while a
  match is played through the sessions as a user plays it: chats and players first seen,
  lobby, moves, a warned turn, a turn that times out, the match's end with its rounds,
  results and ratings, its review; and while a chat takes a new id, a player's settings
  change, the day's secret is kept, a tournament's achievement is granted and a player is
  erased. Each INSERT, UPDATE or DELETE of a traced table must run while a unit is being
  committed (`_commit_changes`, the only thing a unit calls), on SQLite inside its
  transaction (on PostgreSQL a unit of one plain move is one statement, a transaction of its
  own). A write made beside the units is caught: the check is first shown to catch one.
- Over bot/storage's code (both databases), the SQL that writes a traced table is written
  only in the units' plans (`changes`, a chat's move in `chat_moves`, an erasure in
  `erasure`) and the one-statement move of PostgreSQL's unit (`postgres_sql.PLAIN_MOVE`),
  but for the schema's history and the repairs made as the database opens.

Traced tables: the game tables (games, seats, moves, rounds, results, ratings, records,
reviews, review_seats, daily_plays) and chats, players, achievements, secrets. The front-ends'
notes, holds and send counts, the claims, tournaments and owners' tables are written beside
the units (each write one checked statement of its own).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.sessions import Sessions
from bot.sessions.records import AchievementGrant
from bot.storage import SqliteStore
from bot.storage.backends import open_store
from bot.storage.postgres import PostgresStore

from .. import pg
from ..sessions_helpers import (
    ALICE,
    BOB,
    CHAT,
    REVIEW_SEARCHES,
    FakeClock,
    first_legal,
    play_one,
    play_to_end,
    start_duel,
)

GAME_TABLES = frozenset({"games", "seats", "moves", "rounds", "results", "ratings", "records", "reviews",
                         "review_seats", "daily_plays"})
TRACED = GAME_TABLES | {"chats", "players", "achievements", "secrets"}
_WRITE = re.compile(r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.IGNORECASE)
STORAGE = Path(__file__).resolve().parents[2] / "bot" / "storage"
IN_UNITS = {"changes.py", "chat_moves.py", "erasure.py", "postgres_sql.py"}
"""The units' plans, and the statement PostgreSQL writes a unit of one plain move with."""
APART = {
    "repairs.py": "run once as the database is opened, before any game is played",
    "schema.py": "the schema's history",
}


class Traced:
    """The traced tables' writes a store runs, each with whether a unit was committing it."""

    def __init__(self, store: Any) -> None:
        self.writes: list[tuple[str, bool]] = []
        self.committing = False
        inner = store._commit_changes

        async def commit(changes: Any) -> Any:
            self.committing = True
            try:
                return await inner(changes)
            finally:
                self.committing = False

        store._commit_changes = commit

    def saw(self, statement: str, in_transaction: bool = True) -> None:
        for table in _WRITE.findall(statement):
            if table.lower() in TRACED:
                self.writes.append((table.lower(), self.committing and in_transaction))

    def outside(self) -> list[str]:
        return [table for table, in_unit in self.writes if not in_unit]


_SENT = ("execute", "executemany", "fetch", "fetchrow", "fetchval")
"""What the PostgreSQL store sends its statements with."""


def _trace_postgresql(traced: Traced, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _SENT:
        def sent(inner: Callable[..., Any]) -> Callable[..., Any]:
            def send(conn: asyncpg.Connection, query: str, *args: Any, **kwargs: Any) -> Any:
                traced.saw(query)
                return inner(conn, query, *args, **kwargs)

            return send

        monkeypatch.setattr(asyncpg.Connection, name, sent(getattr(asyncpg.Connection, name)))


@pytest.fixture(params=["sqlite", "postgresql"])
async def traced(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                 ) -> AsyncIterator[tuple[Sessions, Any, Traced, FakeClock]]:
    clock = FakeClock()
    cluster = url = None
    if request.param == "sqlite":
        store: Any = await SqliteStore.open(tmp_path / "units.db", clock)
    else:
        cluster = pg.shared_cluster()
        url = await cluster.create_database()
        store = await open_store(url, clock)
        assert isinstance(store, PostgresStore)
    seen = Traced(store)
    if isinstance(store, SqliteStore):
        db = store._db
        db.set_trace_callback(lambda statement: seen.saw(statement, db.in_transaction))
    else:
        _trace_postgresql(seen, monkeypatch)
    sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal,
                        review_searches=REVIEW_SEARCHES)
    try:
        yield sessions, store, seen, clock
    finally:
        await store.close()
        if cluster is not None and url is not None:
            await cluster.drop_database(url)


async def test_a_write_beside_the_units_is_caught(traced: tuple[Sessions, Any, Traced, FakeClock]) -> None:
    sessions, store, seen, _ = traced
    game_id = await start_duel(sessions)
    assert seen.writes and seen.outside() == []
    await store._change("UPDATE games SET warned=? WHERE id=?", (True, game_id))
    await store._change("UPDATE players SET can_dm=? WHERE platform=?", (True, ALICE.platform))
    assert seen.outside() == ["games", "players"]


async def test_a_match_played_to_its_review_writes_its_tables_in_units_only(
        traced: tuple[Sessions, Any, Traced, FakeClock]) -> None:
    sessions, store, seen, clock = traced
    game_id = await start_duel(sessions)
    await play_one(sessions, game_id)
    row = await store.get_game(game_id)
    assert row is not None and row.deadline is not None
    clock.advance(row.deadline - clock() - 1)
    assert await sessions.scheduler.run_due() == 1, "the turn is warned"
    assert (await store.get_game(game_id)).warned
    clock.advance(2)
    assert await sessions.scheduler.run_due() == 1, "the turn times out"
    await play_to_end(sessions, game_id, [ALICE, BOB])
    await sessions.reviews.review(game_id, ALICE)
    assert await store.match_review(game_id) is not None
    written = {table for table, _ in seen.writes}
    assert written >= {"chats", "players", "games", "seats", "moves", "rounds", "results", "ratings",
                       "records", "reviews", "review_seats"}
    assert seen.outside() == []


async def test_a_chat_moved_a_secret_kept_an_achievement_granted_and_an_erasure_write_in_units_only(
        traced: tuple[Sessions, Any, Traced, FakeClock]) -> None:
    sessions, store, seen, clock = traced
    game_id = await start_duel(sessions)
    seen.writes.clear()
    await sessions.settings.set_player_language(ALICE, "en")
    await sessions.daily.seed(sessions.daily.today())
    alice = await store.find_player(ALICE.platform, ALICE.key)
    async with store.unit() as uow:
        uow.add(AchievementGrant(alice.id, "tournament_won:1", game_id, clock()))
    assert uow.granted
    other = await store.ensure_chat(CHAT.platform, "group-new", "Friends (new)")
    moved = await sessions.settings.move_chat(CHAT, other.chat_key)
    assert moved is not None and (await store.open_game(other.id)).id == game_id
    assert await sessions.privacy.forget(BOB.platform, BOB.key) is not None
    assert (await store.get_game(game_id)).seats[1].player.is_computer, "Bob's seat is the computer's"
    written = {table for table, _ in seen.writes}
    assert written >= {"chats", "players", "games", "seats", "achievements", "secrets"}
    assert seen.outside() == []


def test_the_storage_code_writes_game_tables_only_in_unit_plans() -> None:
    writers: dict[str, set[str]] = {}
    for module in sorted(STORAGE.glob("*.py")):
        tables = {t.lower() for t in _WRITE.findall(module.read_text()) if t.lower() in TRACED}
        if tables:
            writers[module.name] = tables
    assert set(writers) - IN_UNITS - set(APART) == set(), writers
    assert GAME_TABLES | {"chats", "players", "achievements", "secrets"} <= writers["changes.py"]
