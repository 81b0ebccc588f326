"""A player's data (`ports.PlayerData`) of the in-memory store, as the SQL stores keep it."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from bot.sessions.ports import ERASED_KEY, ERASED_NAME, ERASED_NOTE, Erasure, StaleVersion, TournamentRow
from bot.sessions.records import AchievementRow, ChatRow, GameStatus, PlayerRow, RatingRow, ReviewSeatRow
from bot.storage.erasure import DIRECT_MESSAGES, names_in, scrubbed, without_player


class MemoryPrivacy:
    """Mixed into `MemoryStore`, whose rows it reads and writes."""

    _chats: dict[int, ChatRow]
    _players: dict[int, PlayerRow]
    _games: dict[int, Any]
    _records: dict[int, str]
    _daily: dict[tuple[str, int], tuple[int, int]]
    _ratings: dict[tuple[int, str], RatingRow]
    _reviews: dict[int, tuple[str, tuple[ReviewSeatRow, ...]]]
    _achievements: dict[tuple[int, str], AchievementRow]
    _sends: dict[str, list[float]]
    _holds: dict[tuple[int, str], tuple[str, float, bool]]
    _tournament_rows: dict[int, TournamentRow]
    clock: Any

    def _open(self) -> None: ...

    def _apply(self, change: Any) -> Any: ...

    def _sat(self, player_id: int) -> list[int]:
        return sorted(game_id for game_id, game in self._games.items()
                      if any(s.player_id == player_id for s in game.seats)
                      or any(r.player_id == player_id for r in game.results))

    async def private_chats(self, player_id: int) -> list[ChatRow]:
        self._open()
        player = self._players.get(player_id)
        if player is None:
            return []
        sat = {self._games[g].row.chat_id for g in self._sat(player_id)}
        return [chat for chat in sorted(self._chats.values(), key=lambda c: c.id)
                if chat.platform == player.platform and (chat.chat_key == player.user_key or (
                    chat.home is None and chat.platform == DIRECT_MESSAGES
                    and (chat.title == player.display_name or chat.id in sat)))]

    async def player_data(self, player_id: int) -> dict[str, Any]:
        self._open()
        player = self._players.get(player_id)
        sat = self._sat(player_id)
        seats = {g: s.seat for g in sat for s in self._games[g].seats if s.player_id == player_id}
        return {
            "profile": None if player is None else {
                "id": player.id, "platform": player.platform, "user_key": player.user_key,
                "display_name": player.display_name, "language": player.language,
                "platform_language": player.platform_language, "can_dm": player.can_dm,
                "dm_pings": player.dm_pings, "quiet_turns": player.quiet_turns, "created_at": 0.0},
            "ratings": [{"ladder": r.ladder, "mu": r.mu, "sigma": r.sigma, "games": r.games, "wins": r.wins}
                        for (pid, _), r in sorted(self._ratings.items()) if pid == player_id],
            "games": [{"game": g, "variant": self._games[g].row.variant,
                       "status": str(self._games[g].row.status), "seat": seats[g]}
                      for g in sat if g in seats],
            "results": [{"game": g, "seat": r.seat, "side": r.side, "points": r.points, "won": r.won,
                         "scope": r.scope, "rating_before": r.rating_before, "rating_after": r.rating_after}
                        for g in sat for r in self._games[g].results if r.player_id == player_id],
            "moves": [{"game": g, "number": m.number, "seat": m.seat, "move": m.move,
                       "by_computer": m.by_computer, "created_at": m.created_at}
                      for g in sat if g in seats for m in self._games[g].moves if m.seat == seats[g]],
            "reviews": [{"game": g, "seat": s.seat, "accuracy": s.accuracy}
                        for g, (_, rows) in sorted(self._reviews.items()) for s in rows
                        if s.player_id == player_id],
            "daily": [{"day": day, "game": game} for (day, pid), (_, game) in sorted(self._daily.items())
                      if pid == player_id],
            "achievements": [{"code": a.code, "game": a.game_id, "earned_at": a.earned_at}
                             for a in sorted(self._achievements.values(), key=lambda a: (a.earned_at, a.code))
                             if a.player_id == player_id],
            "tournaments": [] if player is None else [
                {"tournament": t.id, "chat": self._chats[t.chat_id].title, "status": t.status,
                 "state": t.state}
                for _, t in sorted(self._tournaments().items())
                if self._chats[t.chat_id].platform == player.platform
                and json.dumps(player.user_key) in t.state],
        }

    def _asked(self) -> dict[tuple[str, str], float]:
        if not hasattr(self, "_erasures"):
            self._erasures: dict[tuple[str, str], float] = {}
        return self._erasures

    async def ask_erasure(self, platform: str, user_key: str, now: float) -> None:
        self._open()
        self._asked().setdefault((platform, user_key), now)

    async def erasures_asked(self, platform: str) -> list[str]:
        self._open()
        asked = sorted(self._asked().items(), key=lambda item: item[1])
        return [key for (p, key), _ in asked if p == platform]

    async def drop_erasure(self, platform: str, user_key: str) -> None:
        self._open()
        self._asked().pop((platform, user_key), None)

    def _erase(self, erasure: Erasure) -> None:
        """A unit's `Erasure` (the unit puts the store back as it was when a check fails)."""
        sat = set(self._sat(erasure.player_id))
        """Read before the games change, as the SQL stores read the notes first."""
        for change in erasure.games:
            self._apply(change)
        for seat in erasure.seats:
            game = self._games.get(seat.game_id)
            if game is None or game.row.status != GameStatus.RUNNING or (
                    game.row.version != seat.expected_version):
                raise StaleVersion(f"game {seat.game_id} moved on")
            if seat.new_deadline:
                game.row = dataclasses.replace(game.row, deadline=seat.deadline,
                                               deadline_kind=seat.deadline_kind, warned=False)
            game.seats = [dataclasses.replace(s, player_id=seat.computer_id, computer_level=seat.level,
                                              autoplay=False, timeouts=0, ready=True)
                          if s.seat == seat.seat else s for s in game.seats]
        pid = erasure.player_id
        self._players[pid] = dataclasses.replace(
            self._players[pid], user_key=f"{ERASED_KEY}{pid}", display_name=ERASED_NAME, language=None,
            platform_language=None, can_dm=False, dm_pings=False, quiet_turns=False)
        for chat_id in erasure.chats:
            self._chats[chat_id] = dataclasses.replace(self._chats[chat_id],
                                                       chat_key=f"{ERASED_KEY}{chat_id}", title=None)
        private = {g for g, game in self._games.items() if game.row.chat_id in erasure.chats}
        for game_id in (private | sat | set(erasure.notes_of)) & set(self._games):
            game = self._games[game_id]
            for key, value in list(game.refs.items()):
                if game_id in private or names_in(key, erasure.marks):
                    del game.refs[key]
                else:
                    game.refs[key] = scrubbed(value, erasure.marks, erasure.names)
            for held in [h for h in self._holds if h[0] == game_id and (
                    game_id in private or names_in(h[1], erasure.marks))]:
                del self._holds[held]
        for chat in [c for c in self._sends if names_in(c, erasure.marks)]:
            del self._sends[chat]
        for tournament_id, row in list(self._tournaments().items()):
            clean = without_player(row.state, pid, erasure.marks, erasure.names)
            if clean != row.state:
                self._tournaments()[tournament_id] = dataclasses.replace(row, state=clean,
                                                                         version=row.version + 1)
        if erasure.asked is not None:
            self._asked().pop(erasure.asked, None)
        for game_id, key, value in erasure.told:
            self._games[game_id].refs[key] = value
        for game_id in erasure.notes_of:
            if game_id in self._games:
                self._games[game_id].refs[f"{ERASED_NOTE}{pid}"] = repr(float(erasure.at))
