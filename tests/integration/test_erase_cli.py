"""`scopa-bot erase` with no bot running: after `--wait` it makes the erasure itself and says
what became of each open game; a second run, or a player never seen, finds nothing kept."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.sessions import ChatRef, UserRef

from ..privacy_helpers import naming, texts
from ..sessions_helpers import open_sessions, start_duel

ROOT = Path(__file__).resolve().parents[2]
ANNA = UserRef("telegram", "8800001", "Annazorg")
BRUNO = UserRef("telegram", "8800002", "Bruno")


def _erase(db: Path, user: str, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "erase", "--platform", "telegram", "--user", user,
                           "--db", str(db), "--wait", "0", *more], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


async def test_erase_with_no_bot_running(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    sessions = await open_sessions(db)
    try:
        game_id = await start_duel(sessions, ChatRef("telegram", "-100500", "Amici"), ANNA, BRUNO)
    finally:
        await sessions.close()
    done = _erase(db, "8800001")
    assert done.returncode == 0, done.stderr
    assert "telegram user 8800001: erased" in done.stdout
    assert f"game {game_id}: handed over" in done.stdout
    assert naming(await texts(db), "Annazorg", "8800001") == []
    again = _erase(db, "8800001")
    assert again.stdout.strip() == "telegram user 8800001: nothing is kept about them"
    wrong = subprocess.run([sys.executable, "-m", "bot", "erase", "--platform", "irc", "--user", "1"],
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "invalid choice" in wrong.stderr
