"""Dependencies point one way (docs/architecture): every import in bot/, at any
level of a module (inside functions too), is checked against the layers' rules."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "bot"

FRONT_ENDS = ("bot.adapters.telegram", "bot.adapters.discord", "bot.adapters.terminal")
STORAGE_MAY_USE = ("bot.sessions.ports", "bot.sessions.records", "bot.metrics")
"""What the storage takes from the sessions: the port it implements and the rows it speaks; and
the metrics, to time its calls."""


def _under(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _known_modules() -> set[str]:
    return {module_name(path) for path in ROOT.rglob("*.py")}


def imports(name: str, source: str, is_package: bool, known: set[str]) -> Iterator[tuple[int, str]]:
    """(line, module) for every module of `bot` that the module `name` imports."""
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                child = f"{base}.{alias.name}"
                yield node.lineno, child if child in known else base


def broken_rule(importer: str, imported: str) -> str | None:
    """Why `importer` may not import `imported`; None if it may."""
    if not _under(imported, "bot"):
        return None
    if _under(importer, "bot.engine") and not _under(imported, "bot.engine"):
        return "the engine imports nothing of the bot outside itself"
    if _under(importer, "bot.ai") and not _under(imported, "bot.engine", "bot.ai"):
        return "the computer players build on the engine alone"
    if _under(importer, "bot.sessions") and _under(imported, "bot.adapters", "bot.render", "bot.storage",
                                                   "bot.app", "bot.cli"):
        return "the sessions know no front-end and reach storage only through their port"
    if _under(importer, "bot.adapters", "bot.render") and _under(imported, "bot.storage"):
        return "front-ends never touch the storage"
    if _under(importer, "bot.adapters") and _under(imported, "bot.engine") and imported != "bot.engine":
        return "front-ends take only the engine's public names (`bot.engine`), never its modules"
    for front_end in FRONT_ENDS:
        if _under(importer, front_end) and _under(imported, *FRONT_ENDS) and \
                not _under(imported, front_end):
            return "front-ends never import each other"
    if _under(importer, "bot.storage") and not _under(imported, "bot.storage", *STORAGE_MAY_USE):
        return "the storage takes from the sessions their port and its rows alone"
    if _under(importer, "bot.metrics") and not _under(imported, "bot.metrics"):
        return "the metrics import nothing of the bot: every layer may count, none is counted on"
    return None


@dataclass(frozen=True)
class Crossing:
    module: str
    line: int
    imported: str
    rule: str


def crossings(name: str, source: str, is_package: bool = False,
              known: set[str] | None = None) -> list[Crossing]:
    found = []
    for line, imported in imports(name, source, is_package, known or _known_modules()):
        rule = broken_rule(name, imported)
        if rule is not None:
            found.append(Crossing(name, line, imported, rule))
    return found


def test_every_module_keeps_to_its_layer() -> None:
    known = _known_modules()
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        found += crossings(module_name(path), path.read_text(encoding="utf-8"),
                           path.name == "__init__.py", known)
    assert not found, "\n".join(f"{c.module}:{c.line} imports {c.imported}: {c.rule}" for c in found)


def test_every_layer_is_found() -> None:
    known = _known_modules()
    for package in ("bot.engine", "bot.ai", "bot.sessions", "bot.storage", *FRONT_ENDS, "bot.render",
                    "bot.metrics"):
        assert any(_under(name, package) for name in known), package


@pytest.mark.parametrize(("name", "source"), [
    ("bot.engine.extra", "def f():\n    from ..storage import SqliteStore\n"),
    ("bot.engine.extra", "import bot.sessions\n"),
    ("bot.engine.extra", "from .. import metrics\n"),
    ("bot.ai.extra", "from ..metrics import move\n"),
    ("bot.metrics.extra", "from ..sessions import Sessions\n"),
    ("bot.ai.extra", "from ..render.words import card_label\n"),
    ("bot.sessions.extra", "class A:\n    def f(self):\n        import bot.storage.store\n"),
    ("bot.sessions.extra", "from ..adapters.telegram import markup\n"),
    ("bot.sessions.extra", "from .. import render\n"),
    ("bot.render.words", "from ..storage import LeaderboardRow\n"),
    ("bot.adapters.telegram.extra", "from ...storage import SqliteStore\n"),
    ("bot.adapters.telegram.extra", "from ..discord import embeds\n"),
    ("bot.adapters.discord.extra", "import bot.adapters.telegram.markup\n"),
    ("bot.adapters.terminal", "from .discord.embeds import text_embed\n"),
    ("bot.storage.extra", "from ..sessions.service import Sessions\n"),
    ("bot.storage.extra", "from ..sessions import views\n"),
    ("bot.adapters.common.extra", "from ...engine.moves import CARD_PATTERN\n"),
    ("bot.adapters.discord.extra", "def f():\n    from ...engine import rules\n"),
])
def test_a_crossing_is_caught(name: str, source: str) -> None:
    assert len(crossings(name, source)) == 1


@pytest.mark.parametrize(("name", "source"), [
    ("bot.engine.extra", "from .cards import Card\nimport json\n"),
    ("bot.ai.extra", "from ..engine import Game\nfrom . import sim\n"),
    ("bot.sessions.extra", "from ..ai import LEVELS\nfrom .ports import GameStore\n"),
    ("bot.storage.extra", "from ..sessions.ports import StaleVersion\nfrom ..sessions import records\n"),
    ("bot.adapters.telegram.extra",
     "from ...sessions import Sessions\nfrom ...render.words import card_label\n"),
    ("bot.adapters.discord.extra", "from .embeds import text_embed\nfrom ..telegram_like import x\n"),
    ("bot.adapters.terminal.extra", "from ...engine import Move, Variant\n"),
])
def test_what_a_layer_may_import_passes(name: str, source: str) -> None:
    assert crossings(name, source) == []


MANAGING = ("creator_id", "may_manage")
"""Who may start, cancel or change a game is decided in `bot.sessions.taps`: a front-end only
reports whether a user is one of the chat's admins (an `Asker`), and never looks at a game's
creator, asks `may_manage` or passes `is_admin=` to the sessions itself."""


def deciders(source: str) -> list[tuple[int, str]]:
    """(line, name) of every use of who-may-manage logic in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in MANAGING:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.keyword) and node.arg == "is_admin":
            found.append((node.value.lineno, "is_admin="))
    return found


def test_front_ends_leave_who_may_manage_to_the_sessions() -> None:
    found = [f"{path.relative_to(ROOT.parent)}:{line} uses {name}"
             for path in sorted((ROOT / "adapters").rglob("*.py"))
             for line, name in deciders(path.read_text(encoding="utf-8"))]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("source", [
    "if lobby.creator_id != player.id:\n    pass\n",
    "async def f(s):\n    await s.queries.may_manage(1, user)\n",
    "async def f(s):\n    await s.sessions.lobby.start(chat, user, is_admin=True)\n",
])
def test_a_front_end_deciding_who_may_manage_is_caught(source: str) -> None:
    assert len(deciders(source)) == 1
