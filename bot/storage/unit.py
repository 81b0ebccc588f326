"""A unit of work (`sessions.ports.UnitOfWork`) for any store: it keeps the changes added
to it and hands them, when its block ends without an exception, to the store's `commit`,
which writes them all in one transaction (or raises and writes none), then keeps what the
changes gave (a game made, a chat moved, the achievements stored, a secret)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..sessions.records import (
    AchievementGrant,
    Change,
    ChatMove,
    DailyDeal,
    KeptSecret,
    MovedChat,
    NewGame,
)

Commit = Callable[[tuple[Change, ...]], Awaitable[Sequence[Any]]]
"""Writes the changes in one transaction; gives what each gave, in order (None for most)."""


class Unit:
    def __init__(self, commit: Commit) -> None:
        self._commit = commit
        self._changes: list[Change] = []
        self.created: int | None = None
        self.moved: MovedChat | None = None
        self.granted: tuple[AchievementGrant, ...] = ()
        self.kept: str | None = None

    async def __aenter__(self) -> Unit:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: Any) -> None:
        changes, self._changes = tuple(self._changes), []
        if kind is None and changes:
            self._gave(changes, await self._commit(changes))

    def add(self, change: Change) -> None:
        self._changes.append(change)

    def _gave(self, changes: tuple[Change, ...], answers: Sequence[Any]) -> None:
        for change, answer in zip(changes, answers, strict=True):
            if isinstance(change, NewGame | DailyDeal) and answer is not None:
                self.created = int(answer)
            elif isinstance(change, ChatMove):
                self.moved = answer
            elif isinstance(change, AchievementGrant) and answer:
                self.granted = (*self.granted, change)
            elif isinstance(change, KeptSecret):
                self.kept = str(answer)
