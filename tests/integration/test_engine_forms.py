"""The compiled engine and its `.py` sources play exactly the same matches.

There is one import path: Python takes a compiled module ahead of its source. The sources
alone are run from a copy of them that has no compiled modules beside it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import bot.engine

ROOT = Path(__file__).resolve().parents[2]

MATCHES = [
    ["--variant", "scopa", "--players", "2", "--games", "12"],
    ["--variant", "scopa", "--players", "4", "--teams", "--games", "4", "--rule", "ace_takes_all=on"],
    ["--variant", "scopone", "--players", "4", "--games", "3", "--rule", "napola=on"],
    ["--variant", "escoba", "--players", "3", "--games", "4", "--rule", "primiera=sevens"],
]
PLAY = ("import sys, bot.engine, bot.cli; print(bot.engine.COMPILED, bot.engine.__file__); "
        "sys.exit(bot.cli.main(sys.argv[1:]))")


def _sources(tmp_path: Path) -> Path:
    """A copy of the package's sources, without a compiled module."""
    copy = tmp_path / "sources"
    shutil.copytree(ROOT / "bot", copy / "bot", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    return copy


def _run(args: list[str], path: Path | None, tmp_path: Path, name: str) -> tuple[str, str]:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    records = tmp_path / f"records-{name}.jsonl"
    result = subprocess.run(
        [sys.executable, "-c", PLAY, "simulate", "--seed", "5", *args, "--records", str(records)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=True)
    return result.stdout.splitlines()[0], records.read_text(encoding="utf-8")


@pytest.mark.skipif(not bot.engine.COMPILED, reason="the engine was not compiled in this install")
@pytest.mark.parametrize("args", MATCHES, ids=lambda args: "-".join(args[1:4:2]))
def test_compiled_and_interpreted_engines_write_the_same_records(args: list[str], tmp_path: Path) -> None:
    sources = _sources(tmp_path)
    pure_form, pure_records = _run(args, sources, tmp_path, "pure")
    form, records = _run(args, None, tmp_path, "compiled")
    assert pure_form.startswith("False ") and str(sources) in pure_form, "the copy runs its sources"
    assert form.startswith("True "), "the install runs its compiled modules"
    assert records == pure_records and records.count("\n") >= 3
