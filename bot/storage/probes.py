"""What the metrics and the readiness check ask of the database, on either store."""

from __future__ import annotations

from .postgres import PostgresStore
from .sql_store import SqlStore
from .sqlite_store import SqliteStore

PING_WITHIN = 2.0
"""Seconds the database has to answer the readiness check."""


async def database_answers(store: SqlStore) -> bool:
    """Whether the database answers a query now: asked once, never retried or waited for (a
    PostgreSQL server away is an answer too), and never taken as the database failing."""
    try:
        if isinstance(store, PostgresStore):
            async with store.pool.acquire(timeout=PING_WITHIN) as conn:
                await conn.fetchval("SELECT 1", timeout=PING_WITHIN)
        elif isinstance(store, SqliteStore):
            store._db.execute("SELECT 1").fetchone()
    except Exception:
        return False
    return True


async def games_in_play(store: SqlStore) -> dict[tuple[str, str], int]:
    """Matches in play by (platform, variant), in the whole database."""
    rows = await store._report(
        "SELECT c.platform AS platform, g.variant AS variant, COUNT(*) AS n FROM games g "
        "JOIN chats c ON c.id = g.chat_id WHERE g.status = 'running' GROUP BY c.platform, g.variant")
    return {(str(r["platform"]), str(r["variant"])): int(r["n"]) for r in rows}
