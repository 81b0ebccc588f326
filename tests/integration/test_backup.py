"""`scopa-bot backup FILE` copies a running bot's database, recent moves included."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main

from ..sessions_helpers import open_sessions, play_one, start_duel


async def test_a_backup_holds_the_moves_still_in_the_log(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    db, copy = tmp_path / "scopa.db", tmp_path / "copy.db"
    sessions = await open_sessions(db)
    game_id = await start_duel(sessions)
    version = await play_one(sessions, game_id)
    assert Path(f"{db}-wal").stat().st_size > 0, "the moves are in the log, not yet in scopa.db"
    assert main(["backup", str(copy), "--db", str(db)]) == 0
    assert "pages copied" in capsys.readouterr().out
    moves = sqlite3.connect(copy).execute("SELECT COUNT(*) FROM moves WHERE game_id=?", (game_id,))
    assert moves.fetchone()[0] == version
    await sessions.close()

    assert main(["backup", str(copy), "--db", str(db)]) == 2
    assert "exists already" in capsys.readouterr().err
    assert main(["backup", str(tmp_path / "b.db"), "--db", str(tmp_path / "none.db")]) == 2
    assert "no database" in capsys.readouterr().err
    assert main(["backup", str(tmp_path / "c.db"), "--db", "postgresql://bot@db/scopa"]) == 2
    assert "pg_dump" in capsys.readouterr().err
