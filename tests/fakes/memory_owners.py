"""The owners' tools (`ports.OwnerStore`) of the in-memory store, as strict as the SQL one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.sessions.ports import Heartbeat, NoticeDelivery, Served, StoreStatus
from bot.sessions.records import ChatRow, GameRow, PlayerRow

OPEN = ("lobby", "running")


@dataclass(slots=True)
class _Delivery:
    thread: str
    owner: str | None = None
    until: float = 0.0
    delivered: bool = False


@dataclass(slots=True)
class _Owned:
    blocked: dict[tuple[str, str], str] = field(default_factory=dict)
    beats: dict[str, Heartbeat] = field(default_factory=dict)
    notices: dict[int, str] = field(default_factory=dict)
    deliveries: dict[tuple[int, int], _Delivery] = field(default_factory=dict)


class MemoryOwners:
    """Mixed into `MemoryStore`, whose chats, players and games it reads."""

    _chats: dict[int, ChatRow]
    _players: dict[int, PlayerRow]
    _games: dict[int, Any]
    _owned: _Owned

    def _own(self) -> _Owned:
        if not hasattr(self, "_owned"):
            self._owned = _Owned()
        return self._owned

    async def block_user(self, platform: str, user_key: str, by: str, now: float) -> bool:
        blocked = self._own().blocked
        if (platform, user_key) in blocked:
            return False
        blocked[(platform, user_key)] = by
        return True

    async def unblock_user(self, platform: str, user_key: str) -> bool:
        return self._own().blocked.pop((platform, user_key), None) is not None

    async def is_blocked(self, platform: str, user_key: str) -> bool:
        return (platform, user_key) in self._own().blocked

    async def beat(self, process: str, platforms: str, started_at: float, now: float, lag: float,
                   forget_before: float) -> None:
        beats = self._own().beats
        kept = beats.get(process)
        beats[process] = Heartbeat(process, platforms, kept.started_at if kept else started_at, now, lag)
        for name in [name for name, beat in beats.items() if beat.seen_at < forget_before]:
            del beats[name]

    async def heartbeats(self) -> list[Heartbeat]:
        return sorted(self._own().beats.values(), key=lambda b: (-b.seen_at, b.process))

    async def add_notice(self, text: str, by: str, now: float) -> tuple[int, int]:
        owned = self._own()
        notice_id = max(owned.notices, default=0) + 1
        owned.notices[notice_id] = text
        threads: dict[int, str] = {}
        for game in self._games.values():
            row: GameRow = game.row
            if row.status in OPEN:
                threads[row.chat_id] = min(threads.get(row.chat_id, row.thread), row.thread)
        for chat_id, thread in threads.items():
            owned.deliveries[(notice_id, chat_id)] = _Delivery(thread)
        return notice_id, len(threads)

    async def claim_notices(self, owner: str, now: float, lease: float, served: Served | None,
                            limit: int = 50) -> list[NoticeDelivery]:
        owned = self._own()
        claimed = []
        for (notice_id, chat_id), owed in sorted(owned.deliveries.items()):
            chat = self._chats[chat_id]
            if len(claimed) >= limit or owed.delivered or (owed.until > now and owed.owner != owner):
                continue
            if served is not None and not served.takes(chat.platform, chat.home):
                continue
            owed.owner, owed.until = owner, now + lease
            claimed.append(NoticeDelivery(notice_id, owned.notices[notice_id], chat_id, chat.platform,
                                          chat.chat_key, chat.home, owed.thread))
        return claimed

    async def notice_done(self, notice_id: int, chat_id: int, owner: str, delivered: bool) -> None:
        owed = self._own().deliveries.get((notice_id, chat_id))
        if owed is None or owed.owner != owner or owed.delivered:
            return
        if delivered:
            owed.delivered, owed.until = True, 0.0
        else:
            owed.owner, owed.until = None, 0.0

    async def store_status(self, day_start: float, now: float) -> StoreStatus:
        rows: list[GameRow] = [game.row for game in self._games.values()]
        players = {seat.player_id for game in self._games.values() if game.row.updated_at >= day_start
                   for seat in game.seats
                   if seat.player_id is not None and not self._players[seat.player_id].is_computer}
        return StoreStatus(
            sum(row.status == "running" for row in rows), sum(row.status == "lobby" for row in rows),
            len(players),
            sum(row.status == "running" and row.deadline_kind is not None and row.deadline is not None
                and row.deadline <= now for row in rows),
            sum(not owed.delivered for owed in self._own().deliveries.values()))
