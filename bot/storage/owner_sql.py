"""The owners' tools in SQL, the same on SQLite and PostgreSQL (`ports.OwnerStore`): blocked
users, the processes' heartbeats, and notices owed to the chats in play, each claimed by one
process at a time with a conditional update (a second claimer finds it held and takes nothing)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from ..sessions.ports import Heartbeat, NoticeDelivery, Served, StoreStatus
from .changes import Plan, Step
from .rows import Row

OPEN = "('lobby', 'running')"


class OwnerSql:
    """Mixed into `SqlStore`, whose ways of running a statement it uses."""

    @abstractmethod
    async def _row(self, sql: str, params: tuple[Any, ...] = ()) -> Row | None: ...

    @abstractmethod
    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]: ...

    @abstractmethod
    async def _change(self, sql: str, params: tuple[Any, ...] = ()) -> int: ...

    @abstractmethod
    async def _transact(self, plans: Sequence[Plan]) -> list[Any]: ...

    async def block_user(self, platform: str, user_key: str, by: str, now: float) -> bool:
        return await self._change(
            "INSERT INTO blocked_users (platform, user_key, blocked_by, blocked_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (platform, user_key) DO NOTHING", (platform, user_key, by, float(now))) == 1

    async def unblock_user(self, platform: str, user_key: str) -> bool:
        return await self._change("DELETE FROM blocked_users WHERE platform=? AND user_key=?",
                                  (platform, user_key)) == 1

    async def is_blocked(self, platform: str, user_key: str) -> bool:
        return await self._row("SELECT 1 FROM blocked_users WHERE platform=? AND user_key=?",
                               (platform, user_key)) is not None

    async def beat(self, process: str, platforms: str, started_at: float, now: float, lag: float,
                   forget_before: float) -> None:
        await self._transact([_beat(process, platforms, float(started_at), float(now), float(lag),
                                    float(forget_before))])

    async def heartbeats(self) -> list[Heartbeat]:
        rows = await self._rows("SELECT process, platforms, started_at, seen_at, lag FROM heartbeats "
                                "ORDER BY seen_at DESC, process")
        return [Heartbeat(str(r["process"]), str(r["platforms"]), float(r["started_at"]),
                          float(r["seen_at"]), float(r["lag"])) for r in rows]

    async def add_notice(self, text: str, by: str, now: float) -> tuple[int, int]:
        made = (await self._transact([_notice(text, by, float(now))]))[0]
        return int(made[0]), int(made[1])

    async def claim_notices(self, owner: str, now: float, lease: float, served: Served | None,
                            limit: int = 50) -> list[NoticeDelivery]:
        rows = await self._rows(
            "SELECT d.notice_id, n.text, d.chat_id, c.platform, c.chat_key, c.home, d.thread "
            "FROM notice_deliveries d JOIN owner_notices n ON n.id = d.notice_id "
            "JOIN chats c ON c.id = d.chat_id "
            "WHERE d.delivered = ? AND (d.until <= ? OR d.owner = ?) ORDER BY d.notice_id, d.chat_id LIMIT ?",
            (False, float(now), owner, limit * 4))
        claimed: list[NoticeDelivery] = []
        for r in rows:
            if len(claimed) >= limit:
                break
            if served is not None and not served.takes(str(r["platform"]), r["home"]):
                continue
            held = await self._change(
                "UPDATE notice_deliveries SET owner=?, until=? WHERE notice_id=? AND chat_id=? "
                "AND delivered = ? AND (until <= ? OR owner = ?)",
                (owner, float(now + lease), int(r["notice_id"]), int(r["chat_id"]), False, float(now), owner))
            if held == 1:
                home = None if r["home"] is None else str(r["home"])
                claimed.append(NoticeDelivery(int(r["notice_id"]), str(r["text"]), int(r["chat_id"]),
                                              str(r["platform"]), str(r["chat_key"]), home, str(r["thread"])))
        return claimed

    async def notice_done(self, notice_id: int, chat_id: int, owner: str, delivered: bool) -> None:
        if delivered:
            await self._change("UPDATE notice_deliveries SET delivered=?, until=0 "
                               "WHERE notice_id=? AND chat_id=? AND owner=?",
                               (True, notice_id, chat_id, owner))
        else:
            await self._change("UPDATE notice_deliveries SET owner=NULL, until=0 "
                               "WHERE notice_id=? AND chat_id=? AND owner=? AND delivered = ?",
                               (notice_id, chat_id, owner, False))

    async def store_status(self, day_start: float, now: float) -> StoreStatus:
        row = await self._row(
            "SELECT "
            "(SELECT COUNT(*) FROM games WHERE status='running') AS running, "
            "(SELECT COUNT(*) FROM games WHERE status='lobby') AS lobbies, "
            "(SELECT COUNT(DISTINCT s.player_id) FROM seats s JOIN games g ON g.id = s.game_id "
            " JOIN players p ON p.id = s.player_id WHERE g.updated_at >= ? AND p.is_computer = ?)"
            " AS players, "
            "(SELECT COUNT(*) FROM games WHERE status='running' AND deadline_kind IS NOT NULL "
            " AND deadline <= ?) AS due, "
            "(SELECT COUNT(*) FROM notice_deliveries WHERE delivered = ?) AS notices",
            (float(day_start), False, float(now), False))
        assert row is not None
        return StoreStatus(int(row["running"]), int(row["lobbies"]), int(row["players"]), int(row["due"]),
                           int(row["notices"]))


def _beat(process: str, platforms: str, started_at: float, now: float, lag: float,
          forget_before: float) -> Plan:
    yield Step("INSERT INTO heartbeats (process, platforms, started_at, seen_at, lag) VALUES (?, ?, ?, ?, ?) "
               "ON CONFLICT (process) DO UPDATE SET platforms=excluded.platforms, seen_at=excluded.seen_at, "
               "lag=excluded.lag", (process, platforms, started_at, now, lag))
    yield Step("DELETE FROM heartbeats WHERE seen_at < ?", (forget_before,))


def _notice(text: str, by: str, now: float) -> Plan:
    row = yield Step("INSERT INTO owner_notices (text, sent_by, created_at) VALUES (?, ?, ?) RETURNING id",
                     (text, by, now), returns=True)
    notice_id = int(row[0])
    chats = yield Step(
        "INSERT INTO notice_deliveries (notice_id, chat_id, thread) "
        "SELECT CAST(? AS BIGINT), g.chat_id, MIN(g.thread) FROM games g "
        f"WHERE g.status IN {OPEN} GROUP BY g.chat_id",
        (notice_id,))
    return notice_id, int(chats or 0)
