"""Front-ends write through one door (`sessions.handle`) and read through one (`sessions.queries`):
every module of bot/adapters is read (AST) for what it touches of the sessions, so that a new
direct call to a use case (`sessions.lobby.start`, `sessions.privacy.forget`) cannot creep back."""

from __future__ import annotations

import ast
from pathlib import Path

ADAPTERS = Path(__file__).resolve().parents[2] / "bot" / "adapters"

DOORS = frozenset({"handle", "queries", "delivery", "bus", "clock", "close", "failure"})
"""What a front-end may touch of the sessions: the door for writes, the reads, getting messages
out, the events, the time, and stopping."""

STARTED = frozenset({
    ("seasons", "keep_closing"), ("owners", "keep_delivering"), ("tournaments", "look_forever"),
    ("tournaments", "subscribe"), ("scheduler", "run_forever"), ("scheduler", "served"),
})
"""What a front-end starts beside its handlers, asked by no user: the background loops and the
subscription to a tournament's news (with the chats a process serves, which the seasons' loop
is given)."""

HANDED = frozenset({"privacy"})
"""Parts handed whole to a helper of the sessions that a front-end runs in the background: the
erasures asked for from the command line (`sessions.erasures.ErasureCourier`)."""


def _is_sessions(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "sessions") or (
        isinstance(node, ast.Attribute) and node.attr == "sessions")


def reaches(source: str) -> list[tuple[int, str]]:
    """(line, what) for each thing of the sessions `source` touches that is no door."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _is_sessions(node.value) or node.attr in DOORS:
            continue
        parent = parents.get(node)
        then = parent.attr if isinstance(parent, ast.Attribute) and parent.value is node else None
        if (node.attr, then) in STARTED or (then is None and node.attr in HANDED):
            continue
        found.append((node.lineno, node.attr if then is None else f"{node.attr}.{then}"))
    return sorted(found)


def test_every_front_end_writes_through_the_door_and_reads_through_the_queries() -> None:
    modules = sorted(ADAPTERS.rglob("*.py"))
    assert len(modules) > 30
    stray = [f"{path.relative_to(ADAPTERS)}:{line}: sessions.{what}"
             for path in modules for line, what in reaches(path.read_text())]
    assert stray == []


def test_the_check_finds_a_use_case_called_directly() -> None:
    source = """
async def f(self, sessions):
    await self.sessions.lobby.start(chat, user)
    lobby = sessions.lobby
    await sessions.handle(asker, command)
    await self.sessions.queries.table(1)
    task = sessions.scheduler.run_forever()
    courier = Courier(sessions.privacy)
    await sessions.privacy.forget("telegram", "1")
"""
    assert reaches(source) == [(3, "lobby.start"), (4, "lobby"), (9, "privacy.forget")]
