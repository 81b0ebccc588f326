"""No front-end keeps a game fact or a setting of its own: what a game, a chat or a player is
comes from the sessions at each drawing, so another process, or this one after a restart,
draws the same messages (tests/integration/test_shared_settings.py). A front-end keeps only
what is its own: message ids and refs, what it drew, its queues, timers and limits."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ADAPTERS = Path(__file__).resolve().parents[2] / "bot" / "adapters"
CONTAINERS = {"dict", "set", "frozenset", "list", "deque", "Counter", "defaultdict", "OrderedDict",
              "WeakValueDictionary", "WeakKeyDictionary", "Mapping", "MutableMapping"}
"""Where a copy of facts could be kept, per game, chat or player."""
FACT_PACKAGES = {"sessions", "engine"}
"""Whose types are facts: the sessions' views, records and events, the engine's games."""
SETTING_WORDS = {"language", "languages", "lang", "langs", "settings", "dm", "can", "wanted",
                 "reachable", "pictures", "turn", "limit", "defaults", "pings"}
"""Words that, in a container's name, say it keeps a chat's or a player's settings."""


def facts_imported(tree: ast.Module) -> set[str]:
    """The names a module imports from the sessions or the engine."""
    return {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            and FACT_PACKAGES & set((node.module or "").split(".")) for alias in node.names}


def kept(tree: ast.Module) -> list[tuple[int, str, str, bool]]:
    """(line, name, type, whether it is a table written once) of every name a module
    annotates: at module level, in a class, or on an instance. A constant's upper-case name
    says it is a table, not a copy of what the sessions keep."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign):
            target = node.target
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            found.append((node.lineno, name, ast.unparse(node.annotation), name.isupper()))
    return found


def names_in(annotation: str) -> set[str]:
    return {node.id for node in ast.walk(ast.parse(annotation, mode="eval")) if isinstance(node, ast.Name)}


def held_in(annotation: str) -> set[str]:
    """The names of what a container holds: a mapping's values, a collection's items (a table
    keyed by the sessions' actions or settings holds no fact)."""
    node = ast.parse(annotation, mode="eval").body
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and node.slice.elts:
        return names_in(ast.unparse(node.slice.elts[-1]))
    return names_in(annotation)


def unannotated_mappings(tree: ast.Module, annotated: set[str]) -> list[tuple[int, str]]:
    """Empty mappings, to be filled later (a cache's start), assigned to an instance's attribute
    the module never gives a type, which the check above could not read."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        value = node.value
        mapping = (isinstance(value, ast.Dict) and not value.keys) or (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id in {"dict", "defaultdict", "Counter", "OrderedDict"})
        if mapping:
            found += [(node.lineno, ast.unparse(target)) for target in node.targets
                      if isinstance(target, ast.Attribute) and target.attr not in annotated]
    return found


def offences(source: str) -> list[str]:
    tree = ast.parse(source)
    facts = facts_imported(tree)
    said = []
    containers = kept(tree)
    for line, name, annotation, table in containers:
        if not names_in(annotation) & CONTAINERS:
            continue
        if held_in(annotation) & facts:
            said.append(f"{line}: {name}: {annotation} keeps {sorted(held_in(annotation) & facts)}")
        elif not table and set(re.split(r"_+", name.lower())) & SETTING_WORDS:
            said.append(f"{line}: {name}: {annotation} keeps a setting")
    annotated = {name for _, name, _, _ in containers}
    said += [f"{line}: {target} is a mapping without a type"
             for line, target in unannotated_mappings(tree, annotated)]
    return said


def test_no_front_end_keeps_a_game_fact_or_a_setting() -> None:
    found = {str(path.relative_to(ADAPTERS)): said for path in sorted(ADAPTERS.rglob("*.py"))
             if (said := offences(path.read_text()))}
    assert found == {}


def test_the_check_finds_the_copies_front_ends_once_kept() -> None:
    """What the Telegram audience and the Discord presenter kept before the settings were the
    sessions' alone."""
    source = '''
from ...sessions import ChatSettings, Setting, TableView

TABLES: dict[int, TableView] = {}
SETTINGS: dict[Setting, tuple[str, ...]] = {}


class Audience:
    def __init__(self) -> None:
        self._dm: dict[str, bool] = {}
        self._languages: dict[str, str] = {}
        self._chats: dict[int, ChatSettings] = {}
        self._wanted: dict[str, bool] = {}
        self._seen = {}
        self._codes = {action: action.upper() for action in ("join", "play")}
        self._drawn: dict[int, str] = {}
        self._message_ids: dict[int, int] = {}
'''
    assert [said.split(":")[1].strip() for said in offences(source)] == [
        "TABLES", "_dm", "_languages", "_chats", "_wanted", "self._seen is a mapping without a type"]
