"""The engine's modules depend on each other one way only, and on nothing else of `bot`.

Every import statement counts, wherever it is: at the top, inside a function, or
under `if TYPE_CHECKING:`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import bot.engine

PACKAGE = "bot.engine"
ENGINE = Path(bot.engine.__file__).parent


def module_name(path: Path) -> str:
    return PACKAGE if path.name == "__init__.py" else f"{PACKAGE}.{path.stem}"


def imported_names(path: Path) -> set[str]:
    """The absolute names of the modules (or packages) a source file imports, at any level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = PACKAGE.split(".")
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            found.add(source)
            for alias in node.names:
                found.add(f"{source}.{alias.name}")
    return found


def engine_graph() -> dict[str, set[str]]:
    modules = {module_name(path): path for path in ENGINE.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        imported = imported_names(path)
        graph[name] = {other for other in modules if other in imported and other != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import one another (strongly connected, more than one)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_no_engine_module_imports_a_module_that_imports_it_back() -> None:
    graph = engine_graph()
    assert "bot.engine.view" in graph["bot.engine.game"], "the graph is read"
    assert cycles(graph) == []


def test_imports_count_at_any_level(tmp_path: Path) -> None:
    path = tmp_path / "fuori.py"
    path.write_text("from typing import TYPE_CHECKING\n"
                    "if TYPE_CHECKING:\n    from .game import Game\n"
                    "def later():\n    from .state import load_game\n    import bot.sessions\n",
                    encoding="utf-8")
    assert {"bot.engine.game", "bot.engine.state", "bot.sessions"} <= imported_names(path)
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_engine_imports_nothing_else_of_bot() -> None:
    outside = {
        f"{path.name}: {name}"
        for path in ENGINE.glob("*.py")
        for name in imported_names(path)
        if name.partition(".")[0] == "bot" and not (name == PACKAGE or name.startswith(PACKAGE + "."))
    }
    assert outside == set()
