"""The chats' tournaments (`ports.TournamentStore`) of the in-memory store, as strict as the SQL one."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.sessions.ports import TournamentRow
from bot.sessions.records import AchievementGrant, AchievementRow, ChatRow

_OPEN = ("signup", "running")


class MemoryTournaments:
    """Mixed into `MemoryStore`, whose chats it checks."""

    _chats: dict[int, ChatRow]
    _games: dict[int, Any]
    _players: dict[int, Any]
    _achievements: dict[tuple[int, str], AchievementRow]

    def _tournaments(self) -> dict[int, TournamentRow]:
        if not hasattr(self, "_tournament_rows"):
            self._tournament_rows: dict[int, TournamentRow] = {}
        return self._tournament_rows

    async def open_tournament(self, chat_id: int, state: str, now: float) -> int | None:
        if chat_id not in self._chats:
            raise AssertionError(f"no chat {chat_id}")
        rows = self._tournaments()
        if any(r.chat_id == chat_id and r.status in _OPEN for r in rows.values()):
            return None
        new_id = len(rows) + 1
        rows[new_id] = TournamentRow(new_id, chat_id, "signup", 0, state)
        return new_id

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        return self._tournaments().get(tournament_id)

    async def chat_tournament(self, chat_id: int) -> TournamentRow | None:
        return next((r for r in self._tournaments().values()
                     if r.chat_id == chat_id and r.status in _OPEN), None)

    async def running_tournaments(self) -> list[TournamentRow]:
        return [r for _, r in sorted(self._tournaments().items()) if r.status == "running"]

    async def save_tournament(self, tournament_id: int, version: int, status: str, state: str,
                              now: float) -> bool:
        rows = self._tournaments()
        row = rows.get(tournament_id)
        if row is None or row.version != version:
            return False
        rows[tournament_id] = replace(row, status=status, state=state, version=version + 1)
        return True

    def _grant(self, grant: AchievementGrant) -> bool:
        """A unit's `AchievementGrant`: whether it stored the achievement."""
        if grant.player_id not in self._players or grant.game_id not in self._games:
            raise AssertionError(f"no player {grant.player_id} or no game {grant.game_id}")
        if (grant.player_id, grant.code) in self._achievements:
            return False
        self._achievements[(grant.player_id, grant.code)] = AchievementRow(
            grant.player_id, grant.code, grant.game_id, grant.at)
        return True
