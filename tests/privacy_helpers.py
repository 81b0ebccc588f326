"""Every text a database holds, read from outside the bot (SQLite or PostgreSQL), to find a
player's name or platform id after they were erased; and the rows of the other players, to
show that an erasure left them as they were."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg

Cell = tuple[str, str, str]
"""(table, column, text)."""


async def texts(database: str | Path) -> list[Cell]:
    """Every non-empty text (and number, as text) of every table."""
    url = str(database)
    if url.startswith("postgresql://"):
        conn = await asyncpg.connect(url)
        try:
            tables = [r[0] for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]
            cells = []
            for table in tables:
                for row in await conn.fetch(f"SELECT * FROM {table}"):
                    cells += [(table, key, str(value)) for key, value in row.items() if value is not None]
            return cells
        finally:
            await conn.close()
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        cells = []
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
            cursor = db.execute(f"SELECT * FROM {table}")
            columns = [d[0] for d in cursor.description]
            for row in cursor.fetchall():
                cells += [(table, c, str(v)) for c, v in zip(columns, row, strict=True) if v is not None]
        return cells


def naming(cells: list[Cell], name: str, *ids: str) -> list[Cell]:
    """The cells that hold `name`, or one of `ids` whole (not inside a longer number or word)."""
    marks = [re.compile(rf"(?<![\w-]){re.escape(i)}(?![\w])") for i in ids]
    return [cell for cell in cells if name in cell[2] or any(m.search(cell[2]) for m in marks)]


async def rows_of(database: str | Path, player_id: int) -> dict[str, list[Any]]:
    """A player's own rows (their row, ratings, results, seats, reviews, deals of the day)."""
    queries = {
        "players": "SELECT * FROM players WHERE id={p}",
        "ratings": "SELECT * FROM ratings WHERE player_id={p} ORDER BY ladder",
        "results": "SELECT * FROM results WHERE player_id={p} ORDER BY game_id",
        "seats": "SELECT game_id, seat, player_id, computer_level FROM seats WHERE player_id={p} "
                 "ORDER BY game_id",
        "review_seats": "SELECT * FROM review_seats WHERE player_id={p} ORDER BY game_id",
        "daily_plays": "SELECT * FROM daily_plays WHERE player_id={p} ORDER BY day",
    }
    url = str(database)
    if url.startswith("postgresql://"):
        conn = await asyncpg.connect(url)
        try:
            return {name: [tuple(r.values()) for r in await conn.fetch(sql.format(p=player_id))]
                    for name, sql in queries.items()}
        finally:
            await conn.close()
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        return {name: [tuple(r) for r in db.execute(sql.format(p=player_id)).fetchall()]
                for name, sql in queries.items()}
