"""The compiled engine and its `.py` sources play exactly the same matches."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

MATCHES = [
    ["--variant", "scopa", "--players", "2", "--games", "12"],
    ["--variant", "scopa", "--players", "4", "--teams", "--games", "4", "--rule", "ace_takes_all=on"],
    ["--variant", "scopone", "--players", "4", "--games", "3", "--rule", "napola=on"],
    ["--variant", "escoba", "--players", "3", "--games", "4", "--rule", "primiera=sevens"],
]


def _run(args: list[str], pure: bool, tmp_path: Path) -> tuple[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "SCOPA_PURE_ENGINE"}
    if pure:
        env["SCOPA_PURE_ENGINE"] = "1"
    records = tmp_path / f"records-{pure}.jsonl"
    result = subprocess.run(
        [sys.executable, "-c", "import sys, bot.engine, bot.cli; print(bot.engine.COMPILED); "
         "sys.exit(bot.cli.main(sys.argv[1:]))", "simulate", "--seed", "5", *args,
         "--records", str(records)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True)
    return result.stdout.splitlines()[0], records.read_text(encoding="utf-8")


@pytest.mark.parametrize("args", MATCHES, ids=lambda args: "-".join(args[1:4:2]))
def test_compiled_and_interpreted_engines_write_the_same_records(args: list[str], tmp_path: Path) -> None:
    pure_form, pure_records = _run(args, True, tmp_path)
    form, records = _run(args, False, tmp_path)
    assert pure_form == "False", "SCOPA_PURE_ENGINE=1 runs the sources"
    assert records == pure_records and records.count("\n") >= 3
    assert form in ("True", "False")
