"""The chats' tournaments in SQL, the same on SQLite and PostgreSQL (`ports.TournamentStore`):
one row each, its state one JSON text written over the version it was read at; a partial
unique index keeps one open tournament per chat, of all processes."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from ..sessions.ports import TournamentRow
from .changes import Plan, single
from .rows import Row

_OPEN = ("signup", "running")
_COLUMNS = "id, chat_id, status, version, state"


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(int(row["id"]), int(row["chat_id"]), str(row["status"]), int(row["version"]),
                         str(row["state"]))


class TournamentSql:
    """Mixed into `SqlStore`, whose ways of running a statement it uses."""

    @abstractmethod
    async def _row(self, sql: str, params: tuple[Any, ...] = ()) -> Row | None: ...

    @abstractmethod
    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]: ...

    @abstractmethod
    async def _change(self, sql: str, params: tuple[Any, ...] = ()) -> int: ...

    @abstractmethod
    async def _transact(self, plans: Sequence[Plan]) -> list[Any]: ...

    async def open_tournament(self, chat_id: int, state: str, now: float) -> int | None:
        row = (await self._transact([single(
            "INSERT INTO tournaments (chat_id, status, version, state, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
            (chat_id, "signup", 0, state, float(now), float(now)), returns=True)]))[0]
        return None if row is None else int(row["id"])

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self._row(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else _tournament(row)

    async def chat_tournament(self, chat_id: int) -> TournamentRow | None:
        row = await self._row(f"SELECT {_COLUMNS} FROM tournaments WHERE chat_id = ? AND status IN (?, ?)",
                              (chat_id, *_OPEN))
        return None if row is None else _tournament(row)

    async def running_tournaments(self) -> list[TournamentRow]:
        rows = await self._rows(f"SELECT {_COLUMNS} FROM tournaments WHERE status = ? ORDER BY id",
                                ("running",))
        return [_tournament(r) for r in rows]

    async def save_tournament(self, tournament_id: int, version: int, status: str, state: str,
                              now: float) -> bool:
        changed = await self._change(
            "UPDATE tournaments SET status = ?, state = ?, version = version + 1, updated_at = ? "
            "WHERE id = ? AND version = ?",
            (status, state, float(now), tournament_id, version))
        return changed == 1
