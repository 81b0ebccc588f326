"""The monthly seasons (`ports.SeasonStore`) of the in-memory store, as strict as the SQL one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.sessions.ports import SeasonResult, Served
from bot.sessions.records import ChatRow, PlayerRow


@dataclass(slots=True)
class _Close:
    owner: str | None = None
    until: float = 0.0
    done: bool = False


class MemorySeasons:
    """Mixed into `MemoryStore`, whose chats, players and counted games it reads."""

    _chats: dict[int, ChatRow]
    _players: dict[int, PlayerRow]

    def _counted(self, chat_id: int | None = None) -> list[Any]: ...

    def _season_closes(self) -> dict[tuple[int, str], _Close]:
        if not hasattr(self, "_closes"):
            self._closes: dict[tuple[int, str], _Close] = {}
        return self._closes

    def _person(self, player_id: int | None) -> PlayerRow | None:
        player = self._players.get(player_id) if player_id is not None else None
        return None if player is None or player.is_computer else player

    async def season_results(self, start: float, end: float, chat_id: int | None) -> list[SeasonResult]:
        out: list[SeasonResult] = []
        games = [g for g in self._counted(chat_id) if start <= float(g.row.finished_at or 0.0) < end]
        for game in sorted(games, key=lambda g: (g.row.finished_at, g.row.id)):
            computer = any(self._person(r.player_id) is None for r in game.results)
            people = [(r, p) for r in game.results if (p := self._person(r.player_id)) is not None]
            for result, player in sorted(people, key=lambda rp: rp[1].id):
                out.append(SeasonResult(game.row.id, game.row.chat_id, float(game.row.finished_at), player.id,
                                        player.display_name, result.won, computer))
        return out

    async def claim_season_closes(self, season: str, start: float, end: float, owner: str, now: float,
                                  lease: float, served: Served | None, limit: int = 20) -> list[ChatRow]:
        closes = self._season_closes()
        chats = sorted({g.row.chat_id for g in self._counted()
                        if start <= float(g.row.finished_at or 0.0) < end
                        and any(self._person(r.player_id) for r in g.results)})
        claimed: list[ChatRow] = []
        for chat_id in chats:
            chat = self._chats[chat_id]
            close = closes.setdefault((chat_id, season), _Close())
            if len(claimed) >= limit or close.done or (close.until > now and close.owner != owner):
                continue
            if served is not None and not served.takes(chat.platform, chat.home):
                continue
            close.owner, close.until = owner, now + lease
            claimed.append(chat)
        return claimed

    async def season_closed(self, chat_id: int, season: str, owner: str, done: bool) -> None:
        close = self._season_closes().get((chat_id, season))
        if close is None or close.owner != owner:
            return
        if done:
            close.done, close.until = True, 0.0
        elif not close.done:
            close.owner, close.until = None, 0.0
