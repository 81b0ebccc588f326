"""Which form of the hot engine modules is imported: compiled (mypyc) or the `.py` sources.

`pip install` compiles cards, captures, scoring and game next to their sources
(see setup.py). The sources are imported instead, with one warning line, when
a compiled module is older than its source (edited since the last install) or
when none was built; SCOPA_PURE_ENGINE=1 chooses the sources without a warning.
`bot.engine` imports this module first, so the choice is made once, before any of
the four is imported.
"""

from __future__ import annotations

import os
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from importlib.util import spec_from_file_location

MODULES = ("cards", "captures", "scoring", "game")
_PACKAGE = __name__.rpartition(".")[0]
_HERE = os.path.dirname(os.path.abspath(__file__))
_SAME_INSTALL = 5.0
"""Seconds by which a source may be newer than its compiled module and still match it: a
wheel install writes both in one go, in no set order."""


def _built(name: str) -> str | None:
    for suffix in EXTENSION_SUFFIXES:
        path = os.path.join(_HERE, name + suffix)
        if os.path.exists(path):
            return path
    return None


def _why_sources() -> str | None:
    """Why the compiled modules cannot be used, or None when they can."""
    built = [_built(name) for name in MODULES]
    if not any(built):
        return "it was not compiled at install time (mypyc or a C compiler missing?)"
    for name, path in zip(MODULES, built, strict=True):
        if path is None:
            return f"{name} was not compiled"
        if os.path.getmtime(os.path.join(_HERE, name + ".py")) > os.path.getmtime(path) + _SAME_INSTALL:
            return f"{name}.py changed after it was compiled"
    return None


class _SourceFinder:
    """Finds the engine's hot modules as `.py` files, ahead of their compiled forms."""

    @staticmethod
    def find_spec(fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != _PACKAGE or name not in MODULES:
            return None
        return spec_from_file_location(fullname, os.path.join(_HERE, name + ".py"))


def choose() -> None:
    if os.environ.get("SCOPA_PURE_ENGINE"):
        reason = None
    else:
        reason = _why_sources()
        if reason is None:
            return
    if _SourceFinder not in sys.meta_path:
        sys.meta_path.insert(0, _SourceFinder)  # type: ignore[arg-type]
    if reason is not None:
        warnings.warn(f"scopa-bot: the engine runs interpreted (about 2x slower): {reason}; "
                      "reinstall with `pip install -e .` to compile it, or set SCOPA_PURE_ENGINE=1",
                      RuntimeWarning, stacklevel=2)


def compiled() -> bool:
    """Whether the engine's hot modules in use are the compiled ones."""
    module = sys.modules.get(f"{_PACKAGE}.game")
    return module is not None and not (module.__file__ or "").endswith(".py")


choose()
