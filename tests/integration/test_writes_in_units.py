"""Every write of a game's tables is a unit of work's (`GameRepository.unit`).

Two checks, one at run time and one over the code:

- On SQLite, every statement the store runs is traced (`set_trace_callback`) while a match
  is played through the sessions as a user plays it: lobby, moves, a warned turn, a turn
  that times out, the match's end with its rounds, results and ratings, its review. Each
  INSERT, UPDATE or DELETE of a game table must run inside a transaction while a unit is
  being committed (`_commit_changes`, the only thing a unit calls). A write made beside the
  units is caught: the check is first shown to catch one.
- Over bot/storage's code (both databases), the SQL that writes a game table is written
  only in the units' plans (`changes`) and the one-statement move of PostgreSQL's unit
  (`postgres_sql.PLAIN_MOVE`), but for the few writes that are whole transactions of another
  kind, each named below with why.

Game tables: games, seats, moves, rounds, results, ratings, records, reviews, review_seats
and daily_plays (achievements are a player's: a tournament grants one apart).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.sessions import Sessions
from bot.storage import Store

from ..sessions_helpers import ALICE, BOB, FakeClock, open_sessions, play_one, play_to_end, start_duel

GAME_TABLES = frozenset({"games", "seats", "moves", "rounds", "results", "ratings", "records", "reviews",
                         "review_seats", "daily_plays"})
_WRITE = re.compile(r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.IGNORECASE)
STORAGE = Path(__file__).resolve().parents[2] / "bot" / "storage"
IN_UNITS = {"changes.py", "postgres_sql.py"}
"""The units' plans, and the statement PostgreSQL writes a unit of one plain move with."""
APART = {
    "chat_moves.py": "a chat's new id (a Telegram group become a supergroup) moves all its games at once",
    "erasure.py": "an erasure (`PlayerData.erase_player`) is one transaction of its own: its games' "
                  "changes are unit changes planned by `changes.plan`, its seats handed to the computer "
                  "are checked against each game's version the same way",
    "repairs.py": "run once as the database is opened, before any game is played",
    "schema.py": "the schema's history",
}


class Traced:
    """The game-table writes a SQLite store runs, each with whether a unit was committing it
    inside a transaction."""

    def __init__(self, store: Store) -> None:
        self.writes: list[tuple[str, bool]] = []
        self.committing = False
        self._db = store._db
        inner = store._commit_changes

        async def commit(changes: Any) -> int | None:
            self.committing = True
            try:
                return await inner(changes)
            finally:
                self.committing = False

        store._commit_changes = commit  # type: ignore[method-assign]
        self._db.set_trace_callback(self._saw)

    def _saw(self, statement: str) -> None:
        for table in _WRITE.findall(statement):
            if table.lower() in GAME_TABLES:
                self.writes.append((table.lower(), self.committing and self._db.in_transaction))

    def outside(self) -> list[str]:
        return [table for table, in_unit in self.writes if not in_unit]


async def _traced(tmp_path: Path) -> tuple[Sessions, Store, Traced, FakeClock]:
    clock = FakeClock()
    sessions = await open_sessions(tmp_path / "units.db", clock)
    store = sessions.play.store
    assert isinstance(store, Store)
    return sessions, store, Traced(store), clock


async def test_a_write_beside_the_units_is_caught(tmp_path: Path) -> None:
    sessions, store, traced, _ = await _traced(tmp_path)
    try:
        game_id = await start_duel(sessions)
        assert traced.writes and traced.outside() == []
        await store._change("UPDATE games SET warned=? WHERE id=?", (True, game_id))
        assert traced.outside() == ["games"]
    finally:
        await store.close()


async def test_a_match_played_to_its_review_writes_its_tables_in_units_only(tmp_path: Path) -> None:
    sessions, store, traced, clock = await _traced(tmp_path)
    try:
        game_id = await start_duel(sessions)
        await play_one(sessions, game_id)
        row = await store.get_game(game_id)
        assert row is not None and row.deadline is not None
        clock.advance(row.deadline - clock() - 1)
        assert await sessions.scheduler.run_due() == 1, "the turn is warned"
        assert (await store.get_game(game_id)).warned  # type: ignore[union-attr]
        clock.advance(2)
        assert await sessions.scheduler.run_due() == 1, "the turn times out"
        await play_to_end(sessions, game_id, [ALICE, BOB])
        await sessions.reviews.review(game_id, ALICE)
        assert await store.match_review(game_id) is not None
        written = {table for table, _ in traced.writes}
        assert written >= {"games", "seats", "moves", "rounds", "results", "ratings", "records", "reviews",
                           "review_seats"}
        assert traced.outside() == []
    finally:
        await store.close()


def test_the_storage_code_writes_game_tables_only_in_unit_plans() -> None:
    writers: dict[str, set[str]] = {}
    for module in sorted(STORAGE.glob("*.py")):
        tables = {t.lower() for t in _WRITE.findall(module.read_text()) if t.lower() in GAME_TABLES}
        if tables:
            writers[module.name] = tables
    assert set(writers) - IN_UNITS - set(APART) == set(), writers
    assert {"games", "seats", "moves", "rounds", "results", "ratings", "records", "reviews",
            "review_seats", "daily_plays"} <= writers["changes.py"]
