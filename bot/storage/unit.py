"""A unit of work (`sessions.ports.UnitOfWork`) for any store: it keeps the changes added
to it and hands them, when its block ends without an exception, to the store's `commit`,
which writes them all in one transaction (or raises and writes none)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..sessions.records import (
    Change,
)

Commit = Callable[[tuple[Change, ...]], Awaitable[int | None]]
"""Writes the changes in one transaction; gives the id of the game a `NewGame` made."""


class Unit:
    def __init__(self, commit: Commit) -> None:
        self._commit = commit
        self._changes: list[Change] = []
        self.created: int | None = None

    async def __aenter__(self) -> Unit:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: Any) -> None:
        changes, self._changes = tuple(self._changes), []
        if kind is None and changes:
            self.created = await self._commit(changes)

    def add(self, change: Change) -> None:
        self._changes.append(change)
