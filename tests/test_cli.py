"""The scopa-bot command as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_simulate_is_deterministic_and_writes_valid_records(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--variant", "scopa", "--players", "4", "--teams", "--games", "5",
            "--seed", "42", "--rule", "napola=on"]
    assert main([*args, "--records", str(tmp_path / "a.jsonl")]) == 0
    first = capsys.readouterr().out
    assert main([*args, "--records", str(tmp_path / "b.jsonl")]) == 0
    assert capsys.readouterr().out == first
    a = (tmp_path / "a.jsonl").read_text()
    assert a == (tmp_path / "b.jsonl").read_text()
    records = [json.loads(line) for line in a.splitlines()]
    assert len(records) == 5
    assert all(r["format"] == "scopa-record/1" and r["teams"] == [[0, 2], [1, 3]] for r in records)
    assert all(r["rules"]["napola"] is True and r["winner"] in (0, 1) for r in records)
    assert "scope per round" in first and "napola" in first


def test_simulate_rejects_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rule", "target=lots", "--games", "1"]) == 2
    assert "target" in capsys.readouterr().err
    assert main(["simulate", "--variant", "briscola", "--games", "1"]) == 2
    for command in (["simulate", "--games", "1"], ["arena", "--a", "easy", "--b", "easy", "--deals", "1"]):
        assert main([*command, "--rule", "napola"]) == 2
        assert "key=value, not 'napola'" in capsys.readouterr().err


def test_play_refuses_options_that_make_no_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "p.db")
    assert main(["play", "--db", db, "--lang", "en", "--rule", "colour=red"]) == 2
    assert "unknown rule option 'colour'" in capsys.readouterr().err
    assert main(["play", "--db", db, "--lang", "en", "--variant", "scopone", "--players", "2"]) == 2
    assert "4 players" in capsys.readouterr().err
    assert main(["play", "--db", db, "--rule", "napola"]) == 2


def test_run_without_tokens_explains_how_to_get_one(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("TELEGRAM_TOKEN", "DISCORD_TOKEN")}
    env["SCOPA_DB"] = str(tmp_path / "x.db")
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=ROOT, env=env, input="",
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "BotFather" in result.stdout and "DISCORD_TOKEN" in result.stdout


def test_export_prints_stored_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from .sessions_helpers import ALICE, BOB, CHAT, open_sessions, play_to_end

    async def play() -> None:
        sessions = await open_sessions(tmp_path / "e.db")
        await sessions.new_game(CHAT, ALICE)
        await sessions.join(CHAT, BOB)
        table = await sessions.start(CHAT, ALICE)
        await play_to_end(sessions, table.game_id, [ALICE, BOB])
        await sessions.close()

    asyncio.run(play())
    assert main(["export", "--db", str(tmp_path / "e.db")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["format"] == "scopa-record/1"
    assert main(["export", "--db", str(tmp_path / "missing.db")]) == 2
