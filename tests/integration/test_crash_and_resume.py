"""A process killed between moves loses nothing: the game resumes from SQLite."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.engine import Game, dump_game

from ..sessions_helpers import ALICE, BOB, CHAT, open_sessions, play_to_end

ROOT = Path(__file__).resolve().parents[2]


async def test_kill_9_mid_match_then_resume(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    sessions = await open_sessions(db)
    await sessions.lobby.new_game(CHAT, ALICE, "scopa")
    await sessions.lobby.join(CHAT, BOB)
    game_id = (await sessions.lobby.start(CHAT, ALICE)).game_id
    await sessions.close()

    child = subprocess.Popen([sys.executable, "-m", "tests.crash_player", str(db)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    last = 0
    for line in child.stdout:
        last = int(line.split()[1])
        if last >= 25:
            break
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL

    resumed = await open_sessions(db)
    row = await resumed.store.get_game(game_id)
    assert row is not None and row.status == "running"
    moves = await resumed.store.moves(game_id)
    assert [m.number for m in moves] == list(range(1, row.version + 1))
    assert row.version >= last
    replay = Game.new(row.variant, row.players, teams=row.teams > 0, sides=row.teams or None,
                      rules=row.options, seed=row.seed)
    for move in moves:
        replay.apply(replay.parse_move(move.move), seat=move.seat)
    stored = await resumed.queries.stored_game(game_id)
    assert stored is not None and dump_game(replay) == dump_game(stored)
    await play_to_end(resumed, game_id, [ALICE, BOB])
    final = await resumed.queries.table(game_id)
    assert final.winner is not None
    assert len(await resumed.store.moves(game_id)) == final.version
    await resumed.close()
