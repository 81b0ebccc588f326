"""The SQLite file or its log deleted or replaced under the running bot: the next write is
refused before any move is accepted that the database could not keep, and the bot stops."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest

from bot.render.words import failure_text
from bot.sessions import ChatRef, Sessions
from bot.sessions.ports import StorageFailed

from ..sessions_helpers import CARLA, open_sessions, play_one, start_duel


async def _three_moves_in(path: Path) -> tuple[Sessions, int, int]:
    sessions = await open_sessions(path)
    game_id = await start_duel(sessions)
    version = 0
    for _ in range(3):
        version = await play_one(sessions, game_id)
    return sessions, game_id, version


async def _refused(sessions: Sessions, game_id: int) -> StorageFailed:
    with pytest.raises(StorageFailed) as refused:
        await play_one(sessions, game_id)
    failed = await asyncio.wait_for(sessions.failure(), 1)
    assert failed is refused.value, "the bot is told to stop"
    assert "Your game is safe" in failure_text(refused.value, "en")
    return refused.value


async def test_a_deleted_database_file_refuses_the_next_move(tmp_path: Path) -> None:
    path = tmp_path / "scopa.db"
    sessions, game_id, _ = await _three_moves_in(path)
    path.unlink()
    refused = await _refused(sessions, game_id)
    assert str(refused) == f"the database file {path} was deleted while the bot was running"
    with pytest.raises(StorageFailed):
        await sessions.lobby.new_game(ChatRef("test", "group-2", "Others"), CARLA, "scopa")
    await sessions.close()


async def test_a_database_file_replaced_by_a_copy_refuses_the_next_move(tmp_path: Path) -> None:
    path = tmp_path / "scopa.db"
    sessions, game_id, version = await _three_moves_in(path)
    copy = tmp_path / "copy.db"
    shutil.copy(path, copy)
    os.replace(copy, path)
    refused = await _refused(sessions, game_id)
    assert "was replaced while the bot was running" in str(refused)
    assert (await sessions.queries.table(game_id)).version == version, "nothing was accepted"
    await sessions.close()


async def test_a_deleted_log_refuses_the_next_move_and_the_moves_before_it_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "scopa.db"
    sessions, game_id, version = await _three_moves_in(path)
    Path(f"{path}-wal").unlink()
    refused = await _refused(sessions, game_id)
    assert str(refused) == f"the database's log {path}-wal was deleted while the bot was running"
    await sessions.close()

    restarted = await open_sessions(path)
    table = await restarted.queries.table(game_id)
    assert table.version == version, "every move accepted before is there, the refused one is not"
    assert await play_one(restarted, game_id) == version + 1, "and the match goes on"
    await restarted.close()


async def test_a_log_started_afresh_by_the_bot_itself_is_no_fault(tmp_path: Path) -> None:
    path = tmp_path / "scopa.db"
    sessions, game_id, version = await _three_moves_in(path)
    for _ in range(2):
        await sessions.close()
        sessions = await open_sessions(path)
        version = await play_one(sessions, game_id)
    assert (await sessions.queries.table(game_id)).version == version
    await sessions.close()


async def test_once_the_folder_is_settled_a_write_costs_one_stat_and_a_deletion_is_still_seen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "scopa.db"
    sessions, game_id, _ = await _three_moves_in(path)
    long_ago = os.stat(tmp_path).st_mtime_ns - 60 * 10**9
    os.utime(tmp_path, ns=(long_ago, long_ago))
    await play_one(sessions, game_id)
    stats: list[str] = []
    real_stat = os.stat

    def counted(target: object, *args: object, **kwargs: object) -> os.stat_result:
        stats.append(str(target))
        return real_stat(target, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", counted)
    await play_one(sessions, game_id)
    assert stats == [str(tmp_path)], "the folder alone"
    monkeypatch.setattr(os, "stat", real_stat)
    Path(f"{path}-wal").unlink()
    await _refused(sessions, game_id)
    await sessions.close()
