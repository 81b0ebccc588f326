"""Builds the rules engine's hot modules, and `hard`'s search with what it calls on every
position, as C extensions with mypyc (one group: their calls to one another stay native).

The same `.py` files stay importable as they are: when mypyc or a C compiler
is missing, or compiling fails, the package is installed without extensions
and the engine runs interpreted. Python imports a compiled module ahead of its
source, so there is one import path either way (`bot.engine.COMPILED` says which
form runs); scripts/run refuses an install that could not compile the engine on a
machine with a C compiler. Set SCOPA_PURE_ENGINE=1 to skip compiling on purpose.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = ["bot/engine/cards.py", "bot/engine/captures.py", "bot/engine/scoring.py", "bot/engine/deck.py",
            "bot/engine/outcome.py", "bot/engine/position.py", "bot/engine/game.py",
            "bot/engine/playout.py", "bot/engine/log.py", "bot/engine/record.py", "bot/engine/shared.py",
            "bot/ai/evaluate.py", "bot/ai/knowledge.py", "bot/ai/reading.py", "bot/ai/rollout.py",
            "bot/ai/hard.py"]


def warn(reason: str) -> None:
    reason = reason.splitlines()[0] if reason else "unknown error"
    if len(reason) > 160:
        reason = reason[:157] + "..."
    print(f"WARNING: scopa-bot engine not compiled ({reason}); using the pure-Python engine",
          file=sys.stderr)


class OptionalBuildExt(build_ext):
    """build_ext that falls back to no extensions instead of failing the install."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            warn(f"{type(exc).__name__}: {exc}")


def extensions() -> list:  # type: ignore[type-arg]
    if os.environ.get("SCOPA_PURE_ENGINE"):
        warn("SCOPA_PURE_ENGINE is set")
        return []
    try:
        from mypyc.build import mypycify

        return mypycify(COMPILED, opt_level="3", group_name="bot.engine._hot")
    except BaseException as exc:  # mypyc exits through SystemExit on type errors
        warn(f"mypyc: {type(exc).__name__}: {exc}")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
