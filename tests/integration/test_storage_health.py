"""A database the bot cannot use stops it at start-up with one plain line, before any user waits."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cli import main
from bot.storage.health import StorageUnavailable, check_sqlite

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534


def _database(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(5000)])
    db.commit()
    db.close()
    return path


def _refusal(check: Callable[[], None]) -> str:
    with pytest.raises(StorageUnavailable) as refused:
        check()
    return str(refused.value)


def test_a_folder_garbage_or_a_cut_file_is_refused_in_one_line(tmp_path: Path) -> None:
    assert "names a folder" in _refusal(lambda: check_sqlite(str(tmp_path)))
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is no database\n" * 400)
    assert "not a usable database" in _refusal(lambda: check_sqlite(str(garbage)))
    cut = _database(tmp_path / "cut.db")
    cut.write_bytes(cut.read_bytes()[: cut.stat().st_size // 2])
    message = _refusal(lambda: check_sqlite(str(cut)))
    assert "damaged" in message or "not a usable database" in message
    assert "\n" not in message


def test_a_new_or_healthy_file_passes_and_the_check_writes_nothing(tmp_path: Path) -> None:
    check_sqlite(str(tmp_path / "new" / "scopa.db"))
    healthy = _database(tmp_path / "ok.db")
    before = healthy.read_bytes()
    check_sqlite(str(healthy))
    assert healthy.read_bytes() == before


def test_a_read_only_database_is_refused(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="scopa-ro-"))
    try:
        folder.chmod(0o755)
        db = _database(folder / "ro.db")
        if os.geteuid() != 0:
            db.chmod(0o444)
            assert "read-only" in _refusal(lambda: check_sqlite(str(db)))
            return
        # Root writes any file: the check runs in a child that has given up root.
        read, write = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(read)
            try:
                os.setgid(NOBODY)
                os.setuid(NOBODY)
                check_sqlite(str(db))
                os.write(write, b"accepted")
            except StorageUnavailable as exc:
                os.write(write, str(exc).encode())
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            message = pipe.read().decode()
        os.waitpid(child, 0)
        assert "read-only" in message, message
    finally:
        for file in folder.iterdir():
            file.unlink()
        folder.rmdir()


def test_the_terminal_game_says_it_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--db", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("scopa-bot: SCOPA_DB names a folder")


def test_the_chat_bot_stops_before_taking_updates(tmp_path: Path) -> None:
    garbage = tmp_path / "scopa.db"
    garbage.write_bytes(b"\x00garbage" * 1000)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    env.update(TELEGRAM_TOKEN="123:abc", TELEGRAM_API_BASE="http://127.0.0.1:9/bot", SCOPA_DB=str(garbage))
    result = subprocess.run([sys.executable, "-m", "bot", "telegram"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"scopa-bot: {garbage} is not a usable database")
