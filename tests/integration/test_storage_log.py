"""The database file keeps up with the games: the write-ahead log is copied into
it in the background, so the log stays short while a busy bot plays on."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.storage import SqliteStore

from ..sessions_helpers import open_sessions, play_one, start_duel


async def test_the_log_stays_short_while_games_run(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    log = Path(f"{path}-wal")
    sessions = await open_sessions(path)
    moves, longest = 0, 0
    game_id = -1
    while moves < 3000:
        if game_id < 0 or (await sessions.queries.table(game_id)).finished:
            game_id = await start_duel(sessions)
        await play_one(sessions, game_id)
        moves += 1
        await asyncio.sleep(0)  # the event loop turns between two taps
        longest = max(longest, log.stat().st_size)
    # about 5 pages of 4 KiB a move: 60 MiB in all, had none been copied
    assert longest < 40 * 2**20, f"the log reached {longest / 2**20:.1f} MiB"
    await sessions.close()
    assert not log.exists() or log.stat().st_size == 0
    with sqlite3.connect(path) as database:
        assert database.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == 3000


def test_a_closed_store_can_be_closed_again_from_another_event_loop(tmp_path: Path) -> None:
    """Commands run each step in its own event loop; a second close, after enough
    moves to have copied the log in the background, must neither fail nor hang."""

    async def play() -> SqliteStore:
        sessions = await open_sessions(tmp_path / "s.db")
        game_id = -1
        for _ in range(300):
            if game_id < 0 or (await sessions.queries.table(game_id)).finished:
                game_id = await start_duel(sessions)
            await play_one(sessions, game_id)
            await asyncio.sleep(0)
        await sessions.close()
        return sessions.store

    store = asyncio.run(play())
    asyncio.run(store.close())
