"""The monthly seasons in SQL, the same on SQLite and PostgreSQL (`ports.SeasonStore`): the rated
results a season is worked out from, and each chat's close of a season (its champion announced)
claimed by one process at a time with a conditional upsert (a second claimer finds it held, or
done, and takes nothing)."""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from ..sessions.ports import SeasonResult, Served
from ..sessions.records import ChatRow
from .changes import Dialect
from .rows import Row, chat_row

_COMPUTER_SEATED = ("EXISTS (SELECT 1 FROM results o LEFT JOIN players op ON op.id = o.player_id "
                    "WHERE o.game_id = g.id AND (o.player_id IS NULL OR op.is_computer = ?))")
_PERSON_SEATED = ("EXISTS (SELECT 1 FROM results o JOIN players op ON op.id = o.player_id "
                  "WHERE o.game_id = g.id AND op.is_computer = ?)")


class SeasonSql:
    """Mixed into `SqlStore`, whose ways of running a statement it uses."""

    dialect: Dialect

    @abstractmethod
    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]: ...

    @abstractmethod
    async def _report(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]: ...

    @abstractmethod
    async def _change(self, sql: str, params: tuple[Any, ...] = ()) -> int: ...

    async def season_results(self, start: float, end: float, chat_id: int | None) -> list[SeasonResult]:
        in_chat = "" if chat_id is None else "AND g.chat_id = ?"
        rows = await self._report(
            "SELECT g.id AS game_id, g.chat_id, g.finished_at, p.id AS player_id, p.display_name AS name, "
            f"res.won, {_COMPUTER_SEATED} AS computer "
            "FROM results res JOIN games g ON g.id = res.game_id JOIN players p ON p.id = res.player_id "
            f"WHERE g.status = 'finished' AND p.is_computer = ? AND {self.dialect.counted} "
            f"AND g.finished_at >= ? AND g.finished_at < ? {in_chat} "
            "ORDER BY g.finished_at, g.id, p.id",
            (True, False, float(start), float(end), *(() if chat_id is None else (chat_id,))))
        return [SeasonResult(int(r["game_id"]), int(r["chat_id"]), float(r["finished_at"]),
                             int(r["player_id"]), str(r["name"]), bool(r["won"]), bool(r["computer"]))
                for r in rows]

    async def claim_season_closes(self, season: str, start: float, end: float, owner: str, now: float,
                                  lease: float, served: Served | None, limit: int = 20) -> list[ChatRow]:
        rows = await self._rows(
            "SELECT c.id, c.platform, c.chat_key, c.title, c.language, c.turn_limit, c.defaults, c.home "
            "FROM chats c WHERE EXISTS (SELECT 1 FROM games g WHERE g.chat_id = c.id "
            "AND g.status = 'finished' AND g.finished_at >= ? AND g.finished_at < ? "
            f"AND {self.dialect.counted} AND {_PERSON_SEATED}) "
            "AND NOT EXISTS (SELECT 1 FROM season_closes s WHERE s.chat_id = c.id AND s.season = ? "
            "AND (s.done = ? OR (s.until > ? AND s.owner <> ?))) ORDER BY c.id LIMIT ?",
            (float(start), float(end), False, season, True, float(now), owner, limit * 4))
        claimed: list[ChatRow] = []
        for r in rows:
            if len(claimed) >= limit:
                break
            chat = chat_row(r)
            if served is not None and not served.takes(chat.platform, chat.home):
                continue
            held = await self._change(
                "INSERT INTO season_closes (chat_id, season, owner, until, done) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (chat_id, season) DO UPDATE SET owner = excluded.owner, until = excluded.until "
                "WHERE season_closes.done = ? AND (season_closes.until <= ? OR season_closes.owner = ?)",
                (chat.id, season, owner, float(now + lease), False, False, float(now), owner))
            if held == 1:
                claimed.append(chat)
        return claimed

    async def season_closed(self, chat_id: int, season: str, owner: str, done: bool) -> None:
        if done:
            await self._change("UPDATE season_closes SET done = ?, until = 0 "
                               "WHERE chat_id = ? AND season = ? AND owner = ?",
                               (True, chat_id, season, owner))
        else:
            await self._change("UPDATE season_closes SET owner = NULL, until = 0 "
                               "WHERE chat_id = ? AND season = ? AND owner = ? AND done = ?",
                               (chat_id, season, owner, False))
