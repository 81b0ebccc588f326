"""What the metrics ask of the database, on SQLite and PostgreSQL: the games in play by
platform and variant (a lobby and a finished match are not in play), and whether it answers."""

from __future__ import annotations

from pathlib import Path

from bot.sessions import ChatRef, Sessions
from bot.storage.backends import open_store
from bot.storage.probes import database_answers, games_in_play

from ..sessions_helpers import CARLA, first_legal, start_duel


async def test_games_in_play_are_counted_on_sqlite(tmp_path: Path) -> None:
    await _counted(str(tmp_path / "probes.db"))


async def test_games_in_play_are_counted_on_postgresql(postgres_url: str) -> None:
    await _counted(postgres_url)


async def _counted(database: str) -> None:
    store = await open_store(database)
    sessions = Sessions(store, computer_pace=0.0, chooser=first_legal)
    try:
        assert await database_answers(store)
        assert await games_in_play(store) == {}
        await start_duel(sessions)
        await start_duel(sessions, ChatRef("other", "g2", "Other"))
        await sessions.lobby.new_game(ChatRef("test", "g3", "Lobby"), CARLA, "escoba")
        assert await games_in_play(store) == {("test", "scopa"): 1, ("other", "scopa"): 1}
    finally:
        await sessions.close()
    assert not await database_answers(store), "a closed store does not answer"
