"""The sessions' modules depend on each other one way only: no two of them import each other,
directly or through others. Every import statement counts, wherever it is (at the top, inside
a function, under `if TYPE_CHECKING:`); the package's `__init__`, which gathers what the
front-ends use, is left out."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.sessions

PACKAGE = "bot.sessions"
SESSIONS = Path(bot.sessions.__file__).parent


def imported(path: Path) -> set[str]:
    """The absolute names of what a source file imports, modules and the names in them."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                base = ".".join(PACKAGE.split(".")[:3 - node.level])
                source = f"{base}.{node.module}" if node.module else base
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names)
    return found


def graph() -> dict[str, set[str]]:
    modules = {f"{PACKAGE}.{path.stem}": path for path in SESSIONS.glob("*.py") if path.stem != "__init__"}
    return {name: {other for other in modules if other != name and other in imported(path)}
            for name, path in modules.items()}


def cycle_from(edges: dict[str, set[str]], start: str) -> list[str] | None:
    """A path of imports that leads from `start` back to it, if there is one."""
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for other in sorted(edges[node]):
            if other == start:
                return [*path, start]
            if other not in seen:
                seen.add(other)
                stack.append((other, [*path, other]))
    return None


def test_the_sessions_modules_import_each_other_one_way_only() -> None:
    edges = graph()
    assert len(edges) > 20, "the sessions' modules are all read"
    found = [cycle for name in sorted(edges) if (cycle := cycle_from(edges, name))]
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)


def test_a_cycle_is_found() -> None:
    assert cycle_from({"a": {"b"}, "b": {"c"}, "c": {"a"}}, "a") == ["a", "b", "c", "a"]
    assert cycle_from({"a": {"b"}, "b": set()}, "a") is None
