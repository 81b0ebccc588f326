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


SEARCH = """
import random, sys, bot.ai.hard
from bot.ai import choose_move
from bot.engine import Game
print(bot.ai.hard.__file__)
for variant, players in (("scopa", 2), ("scopone", 4), ("escoba", 3)):
    game = Game.new(variant, players, teams=variant == "scopone", seed="forms")
    for turn in range(12):
        view = game.view(game.to_play)
        if turn % 3 == 0 and len(view.legal_moves) > 1:
            player = bot.ai.hard.HardPlayer(view, random.Random(turn), iterations=2)
            values = player.values() or {}
            print(variant, turn, player.nodes, sorted((m.code, repr(v)) for m, v in values.items()))
        game.apply(choose_move("medium", view, turn))
"""


@pytest.mark.skipif(not bot.engine.COMPILED, reason="the engine was not compiled in this install")
def test_compiled_and_interpreted_searches_value_every_move_alike(tmp_path: Path) -> None:
    """`hard`'s search is compiled with the engine: both forms search the same positions and
    give every move the same value."""
    sources = _sources(tmp_path)
    outputs = []
    for path in (sources, None):
        env = dict(os.environ)
        if path is not None:
            env["PYTHONPATH"] = str(path)
        result = subprocess.run([sys.executable, "-c", SEARCH], cwd=tmp_path, env=env,
                                capture_output=True, text=True, timeout=120, check=True)
        where, _, values = result.stdout.partition("\n")
        outputs.append((where, values))
    (pure_where, pure_values), (where, values) = outputs
    assert pure_where.endswith("hard.py") and not where.endswith("hard.py")
    assert values == pure_values and values.count("\n") >= 6
