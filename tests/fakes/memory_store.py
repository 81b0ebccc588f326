"""A `GameStore` in memory, for unit tests of the sessions: as strict as the SQLite
store (the same version checks, the same refusals, values copied in and out as
JSON would copy them), with nothing written to disk."""

from __future__ import annotations

import copy
import dataclasses
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.sessions.ports import SENDS_KEPT, DailyClaimed, OpenGameExists, ReviewExists, Served, StaleVersion
from bot.sessions.records import (
    AchievementGrant,
    AchievementRow,
    Change,
    ChatChange,
    ChatMove,
    ChatRow,
    ChatSeen,
    DailyDeal,
    DailyRow,
    Deadline,
    DeadlineChange,
    DeadlineKind,
    Erasure,
    GameCancel,
    GameNotes,
    GameRow,
    GameStart,
    GameStatus,
    KeptSecret,
    LeaderboardLine,
    LobbyChange,
    MatchKind,
    MoveCommit,
    MovedChat,
    MoveRow,
    NewGame,
    NewReview,
    PlayedMatch,
    PlayerChange,
    PlayerRow,
    PlayerSeen,
    RatingRow,
    RecentMatch,
    ResultRow,
    ReviewSeatRow,
    SeatHandover,
    SeatRow,
)
from bot.storage.base import UnitStore

from .memory_owners import MemoryOwners
from .memory_privacy import MemoryPrivacy
from .memory_seasons import MemorySeasons
from .memory_tournaments import MemoryTournaments

_OPEN = ("lobby", "running")
_LADDERS = ("duel", "ffa", "team")
_UNDONE = ("_games", "_chats", "_records", "_daily", "_achievements", "_ratings", "_reviews", "_players",
           "_sends", "_holds", "_secrets", "_tournament_rows", "_erasures")
"""What a unit's failed check puts back as it was."""


def _copy(value: Any) -> Any:
    """What reading back a JSON column gives: an equal value that shares nothing."""
    return json.loads(json.dumps(value, ensure_ascii=False))


@dataclass(slots=True)
class _Game:
    row: GameRow
    seats: list[SeatRow] = field(default_factory=list)
    """Seats without their players (joined when read, as the SQL store does)."""
    moves: list[MoveRow] = field(default_factory=list)
    rounds: dict[int, tuple[Any, Any]] = field(default_factory=dict)
    results: list[ResultRow] = field(default_factory=list)
    refs: dict[str, str] = field(default_factory=dict)


class MemoryStore(MemoryOwners, MemoryPrivacy, MemorySeasons, MemoryTournaments, UnitStore):
    shared = False

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.clock = clock
        self.closed = False
        self._chats: dict[int, ChatRow] = {}
        self._players: dict[int, PlayerRow] = {}
        self._games: dict[int, _Game] = {}
        self._records: dict[int, str] = {}
        self._achievements: dict[tuple[int, str], AchievementRow] = {}
        self._reviews: dict[int, tuple[str, tuple[ReviewSeatRow, ...]]] = {}
        self._daily: dict[tuple[str, int], tuple[int, int]] = {}
        """(day, player) -> (chat asked in, game)."""
        self._secrets: dict[str, str] = {}
        self._ratings: dict[tuple[int, str], RatingRow] = {}
        self._claims: dict[int, tuple[str, float]] = {}
        """Game id: who holds its due work, and until when."""
        self._sends: dict[str, list[float]] = {}
        """Per chat, when its last messages went (`take_send`)."""
        self._holds: dict[tuple[int, str], tuple[str, float, bool]] = {}
        """(game id, message): who holds the message, until when, and whether another asked
        for it to be drawn again."""

    async def close(self) -> None:
        self.closed = True

    def _open(self) -> None:
        if self.closed:
            raise RuntimeError("the store is closed")

    # ---- chats and players -------------------------------------------------

    async def ensure_chat(self, platform: str, chat_key: str, title: str | None = None,
                          language: str | None = None, home: str | None = None) -> ChatRow:
        self._open()
        row = self._find_chat(platform, chat_key)
        if row is None or (title and row.title != title) or (home and row.home != home):
            async with self.unit() as uow:
                uow.add(ChatSeen(platform, chat_key, title, language, home))
            row = self._find_chat(platform, chat_key)
        assert row is not None
        return self._chat(row)

    def _find_chat(self, platform: str, chat_key: str) -> ChatRow | None:
        return next((c for c in self._chats.values() if c.platform == platform and c.chat_key == chat_key),
                    None)

    def _chat_seen(self, seen: ChatSeen) -> ChatRow:
        row = self._find_chat(seen.platform, seen.chat_key)
        if row is None:
            row = ChatRow(max(self._chats, default=0) + 1, seen.platform, seen.chat_key, seen.title,
                          seen.language or "it", 90, {}, seen.home)
        else:
            row = dataclasses.replace(row, title=seen.title or row.title, home=seen.home or row.home)
        self._chats[row.id] = row
        return row

    def _chat(self, row: ChatRow) -> ChatRow:
        return dataclasses.replace(row, defaults=_copy(row.defaults))

    async def get_chat(self, chat_id: int) -> ChatRow | None:
        self._open()
        row = self._chats.get(chat_id)
        return self._chat(row) if row else None

    async def ensure_player(self, platform: str, user_key: str, display_name: str,
                            platform_language: str | None = None,
                            is_computer: bool = False) -> PlayerRow:
        self._open()
        name = display_name.strip()[:64] or user_key
        row = self._find(platform, user_key)
        if row is None or row.display_name != name or (
                platform_language and row.platform_language != platform_language):
            async with self.unit() as uow:
                uow.add(PlayerSeen(platform, user_key, name, platform_language, is_computer))
            row = self._find(platform, user_key)
        assert row is not None
        return row

    def _player_seen(self, seen: PlayerSeen) -> None:
        row = self._find(seen.platform, seen.user_key)
        if row is None:
            row = PlayerRow(len(self._players) + 1, seen.platform, seen.user_key, seen.display_name, None,
                            seen.platform_language, False, False, seen.is_computer)
        else:
            row = dataclasses.replace(row, display_name=seen.display_name,
                                      platform_language=row.platform_language
                                      if seen.platform_language is None else seen.platform_language)
        self._players[row.id] = row

    def _find(self, platform: str, user_key: str) -> PlayerRow | None:
        return next((p for p in self._players.values()
                     if p.platform == platform and p.user_key == user_key), None)

    async def get_player(self, player_id: int) -> PlayerRow | None:
        self._open()
        return self._players.get(player_id)

    async def find_player(self, platform: str, user_key: str) -> PlayerRow | None:
        self._open()
        return self._find(platform, user_key)

    # ---- games -------------------------------------------------------------

    async def _commit_changes(self, changes: tuple[Change, ...]) -> list[Any]:
        """All of them or none: the store as it was is put back when a check fails (a unit of
        one move, deadline or review checks everything before its first change)."""
        self._open()
        if len(changes) == 1 and isinstance(changes[0], MoveCommit | DeadlineChange | NewReview | ChatSeen
                                            | PlayerSeen | PlayerChange):
            return [self._apply(changes[0])]
        kept = copy.deepcopy({name: getattr(self, name) for name in _UNDONE if hasattr(self, name)})
        try:
            return [self._apply(change) for change in changes]
        except BaseException:
            for name, value in kept.items():
                setattr(self, name, value)
            raise

    def _apply(self, change: Change) -> Any:
        """Write `change`; what it gives (`storage.unit.Unit`)."""
        now = self.clock()
        if isinstance(change, ChatMove):
            return self._chat_move(change, now)
        if isinstance(change, Erasure):
            self._erase(change)
            return None
        if isinstance(change, AchievementGrant):
            return self._grant(change)
        if isinstance(change, KeptSecret):
            return self._secrets.setdefault(change.name, change.made)
        if isinstance(change, ChatSeen):
            return self._chat_seen(change)
        if isinstance(change, PlayerSeen):
            return self._player_seen(change)
        if isinstance(change, PlayerChange):
            player = self._players.get(change.player_id)
            given = {"language": change.language, "can_dm": change.can_dm, "dm_pings": change.dm_pings,
                     "quiet_turns": change.quiet_turns}
            if player is not None:
                self._players[player.id] = dataclasses.replace(
                    player, **{name: value for name, value in given.items() if value is not None})
            return None
        if isinstance(change, MoveCommit):
            self._move(change, now)
            return None
        if isinstance(change, NewReview):
            self._review(change)
            return None
        if isinstance(change, ChatChange):
            row = self._chats[change.chat_id]
            defaults = _copy(change.defaults if change.defaults is not None else row.defaults)
            for key, value in (change.defaults_patch or {}).items():
                if value is None:
                    defaults.pop(key, None)
                else:
                    defaults[key] = _copy(value)
            self._chats[row.id] = dataclasses.replace(
                row, language=change.language or row.language,
                turn_limit=row.turn_limit if change.turn_limit is None else change.turn_limit,
                defaults=defaults)
            return None
        if isinstance(change, NewGame):
            return self._new_game(change, now)
        if isinstance(change, DailyDeal):
            return self._daily_deal(change, now)
        if isinstance(change, GameNotes):
            refs = self._games[change.game_id].refs
            for key, value in change.notes:
                if value is None:
                    refs.pop(key, None)
                else:
                    refs[key] = value
            return None
        game = self._games.get(change.game_id)
        status = GameStatus.RUNNING if isinstance(change, SeatHandover | DeadlineChange) else (
            change.expected_status if isinstance(change, GameCancel) else GameStatus.LOBBY)
        version = change.version if isinstance(change, DeadlineChange) else change.expected_version
        if game is None or game.row.status != status or version not in (None, game.row.version):
            raise StaleVersion(f"game {change.game_id} is no longer {status} at version {version}")
        if isinstance(change, LobbyChange):
            fields = {name: getattr(change, name) for name in ("variant", "players", "teams", "deck_style")
                      if getattr(change, name) is not None}
            if change.options is not None:
                fields["options"] = _copy(change.options)
            self._change(game, **fields, version=game.row.version + 1, updated_at=now)
            if change.seats is not None:
                game.seats = self._checked_seats(change.seats)
        elif isinstance(change, GameStart):
            game.seats = self._checked_seats(change.seats)
            self._change(game, status=GameStatus.RUNNING, state=_copy(change.state), version=0,
                         deadline=change.deadline, deadline_kind=change.deadline_kind, warned=False,
                         updated_at=now)
        elif isinstance(change, DeadlineChange):
            self._change(game, deadline=change.deadline, deadline_kind=change.kind, warned=change.warned)
        elif isinstance(change, GameCancel):
            self._change(game, status=GameStatus.CANCELLED, deadline=None, finished_at=now, updated_at=now)
            if change.options is not None:
                self._change(game, options=_copy(change.options))
            if change.record_line is not None:
                self._records[change.game_id] = change.record_line
        else:
            if change.new_deadline:
                self._change(game, deadline=change.deadline, deadline_kind=change.deadline_kind,
                             warned=False)
            game.seats = [dataclasses.replace(s, autoplay=change.autoplay, timeouts=0)
                          if s.seat == change.seat else s for s in game.seats]
        return None

    def _chat_move(self, move: ChatMove, now: float) -> MovedChat | None:
        keys = {c.chat_key: c for c in self._chats.values() if c.platform == move.platform}
        old, new = keys.get(move.old_key), keys.get(move.new_key)
        if old is None:
            return None
        if new is None:
            self._chats[old.id] = dataclasses.replace(old, chat_key=move.new_key)
            return MovedChat(old.id, old.id)
        both = [g for g in self._games.values()
                if g.row.chat_id in (old.id, new.id) and g.row.status in _OPEN]
        both.sort(key=lambda g: (g.row.status != "running", g.row.chat_id != old.id, g.row.id))
        threads: set[str] = set()
        cancelled = []
        for game in both:
            if game.row.thread in threads:
                self._change(game, status=GameStatus.CANCELLED, deadline=None, finished_at=now,
                             updated_at=now)
                cancelled.append(game.row.id)
            threads.add(game.row.thread)
        for game in self._games.values():
            if game.row.chat_id == old.id:
                self._change(game, chat_id=new.id)
        for key, (asked_in, game_id) in list(self._daily.items()):
            if asked_in == old.id:
                self._daily[key] = (new.id, game_id)
        self._chats[new.id] = dataclasses.replace(
            new, language=old.language, turn_limit=old.turn_limit, defaults=_copy(old.defaults),
            title=new.title or old.title, home=new.home or old.home)
        del self._chats[old.id]
        return MovedChat(new.id, old.id, tuple(cancelled))

    def _new_game(self, new: NewGame, now: float) -> int:
        if new.chat_id not in self._chats or new.creator_id not in self._players:
            raise KeyError("no such chat or player")
        existing = self._open_game(new.chat_id, new.thread)
        if existing is not None:
            raise OpenGameExists(existing.row.id)
        game_id = len(self._games) + 1
        row = GameRow(game_id, new.chat_id, new.creator_id, new.variant, _copy(new.options), new.players,
                      new.teams, new.deck_style, GameStatus.LOBBY, None, 0, new.seed, None, None, False,
                      now, now, None, thread=new.thread)
        game = self._games[game_id] = _Game(row)
        game.seats = self._checked_seats(new.seats if new.seats is not None
                                         else (SeatRow(0, new.creator_id, None, True, 0, False),))
        return game_id

    def _daily_deal(self, deal: DailyDeal, now: float) -> int:
        game_id = self._new_game(deal.game, now)
        self._change(self._games[game_id], status=GameStatus.RUNNING, state=_copy(deal.state), version=0,
                     deadline=deal.deadline, deadline_kind=deal.deadline_kind, warned=False)
        if deal.asked_in not in self._chats:
            raise KeyError("no such chat")
        if (deal.day, deal.game.creator_id) in self._daily:
            raise DailyClaimed(f"the deal of {deal.day} is claimed already")
        self._daily[(deal.day, deal.game.creator_id)] = (deal.asked_in, game_id)
        return game_id

    def _open_game(self, chat_id: int, thread: str) -> _Game | None:
        return next((g for g in self._games.values() if g.row.chat_id == chat_id
                     and g.row.thread == thread and g.row.status in _OPEN), None)

    def _row(self, game: _Game) -> GameRow:
        row = game.row
        seats = tuple(dataclasses.replace(s, player=self._players.get(s.player_id)
                                          if s.player_id is not None else None)
                      for s in sorted(game.seats, key=lambda s: s.seat))
        return dataclasses.replace(row, options=_copy(row.options),
                                   state=_copy(row.state) if row.state is not None else None,
                                   seats=seats)

    async def get_game(self, game_id: int) -> GameRow | None:
        self._open()
        game = self._games.get(game_id)
        return self._row(game) if game else None

    async def open_game(self, chat_id: int, thread: str = "") -> GameRow | None:
        self._open()
        game = self._open_game(chat_id, thread)
        return self._row(game) if game else None

    async def open_games_of_player(self, player_id: int) -> list[GameRow]:
        self._open()
        return [self._row(g) for g in sorted(self._games.values(), key=lambda g: g.row.id)
                if g.row.status in _OPEN and any(s.player_id == player_id for s in g.seats)]

    def _change(self, game: _Game, **changes: Any) -> None:
        game.row = dataclasses.replace(game.row, **changes)

    def _checked_seats(self, seats: Iterable[SeatRow]) -> list[SeatRow]:
        rows = [dataclasses.replace(s, player=None) for s in seats]
        numbers = [s.seat for s in rows]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"two players in one seat: {numbers}")
        if any(s.player_id is not None and s.player_id not in self._players for s in rows):
            raise KeyError("no such player")
        return rows

    def _move(self, commit: MoveCommit, now: float) -> None:
        """All of it or nothing: every check comes before the first change."""
        game = self._games.get(commit.game_id)
        if game is None or game.row.status != "running" or game.row.version != commit.expected_version:
            raise StaleVersion(f"game {commit.game_id} is no longer at version {commit.expected_version}")
        number = commit.expected_version + 1
        if any(m.number == number for m in game.moves):
            raise StaleVersion(f"game {commit.game_id} already has move {number}")
        finish = commit.finish
        if finish is not None:
            if commit.game_id in self._records or game.results:
                raise StaleVersion(f"game {commit.game_id} already has its results")
            if any(r.ladder not in _LADDERS or r.player_id not in self._players for r in finish.ratings):
                raise StaleVersion("a rating of an unknown ladder or player")
        state = _copy(commit.state) if commit.state is not None else game.row.state
        rounds = {n: (_copy(b), _copy(r)) for n, b, r in commit.rounds}
        self._change(game, state=state, version=number, deadline=commit.deadline,
                     deadline_kind=commit.deadline_kind, warned=False,
                     status=GameStatus.FINISHED if finish else GameStatus.RUNNING, updated_at=now,
                     finished_at=now if finish else None)
        game.moves.append(MoveRow(number, commit.seat, commit.move, commit.by_computer, now))
        if commit.seat_timeouts is not None or commit.seat_autoplay is not None:
            game.seats = [dataclasses.replace(
                s, timeouts=s.timeouts if commit.seat_timeouts is None else commit.seat_timeouts,
                autoplay=s.autoplay if commit.seat_autoplay is None else commit.seat_autoplay)
                if s.seat == commit.seat else s for s in game.seats]
        game.rounds.update(rounds)
        game.refs.update(dict(commit.refs))
        if finish is not None:
            self._records[commit.game_id] = finish.record_line
            game.results = sorted(finish.results, key=lambda r: r.seat)
            for player_id, code in finish.achievements:
                self._achievements.setdefault((player_id, code),
                                              AchievementRow(player_id, code, commit.game_id, now))
            for rating in finish.ratings:
                self._ratings[(rating.player_id, rating.ladder)] = rating

    async def running_deadlines(self) -> list[Deadline]:
        self._open()
        found = [Deadline(g.row.id, float(g.row.deadline), g.row.deadline_kind, g.row.warned, g.row.version)
                 for g in self._games.values()
                 if g.row.status == "running" and g.row.deadline is not None and g.row.deadline_kind]
        return sorted(found, key=lambda entry: entry.at)

    async def claim_due(self, now: float, warn_before: float, owner: str, lease: float,
                        served: Served | None = None) -> list[Deadline]:
        self._open()
        claimed = []
        for entry in await self.running_deadlines():
            game_id, deadline = entry.game_id, entry.at
            due = deadline <= now or (entry.kind == DeadlineKind.TURN and not entry.warned
                                      and deadline - warn_before <= now)
            if served is not None:
                chat = self._chats[self._games[game_id].row.chat_id]
                due = due and served.takes(chat.platform, chat.home)
            holder, until = self._claims.get(game_id, (owner, now))
            if due and (holder == owner or until <= now):
                self._claims[game_id] = (owner, now + lease)
                claimed.append(entry)
        return claimed

    async def release_claim(self, game_id: int, owner: str) -> None:
        self._open()
        if self._claims.get(game_id, (None, 0.0))[0] == owner:
            del self._claims[game_id]

    async def hold_message(self, game_id: int, message: str, owner: str, now: float,
                           lease: float) -> bool:
        self._open()
        holder, until, redraw = self._holds.get((game_id, message), (owner, now, False))
        if game_id not in self._games or (holder != owner and until > now):
            return False
        self._holds[(game_id, message)] = (owner, now + lease, redraw and holder == owner)
        return True

    async def mark_message(self, game_id: int, message: str, owner: str, now: float) -> float | None:
        self._open()
        held = self._holds.get((game_id, message))
        if held is None or held[0] == owner or held[1] <= now:
            return None
        self._holds[(game_id, message)] = (held[0], held[1], True)
        return held[1]

    async def release_message(self, game_id: int, message: str, owner: str) -> bool:
        self._open()
        held = self._holds.get((game_id, message))
        if held is None or held[0] != owner:
            return True
        if held[2]:
            self._holds[(game_id, message)] = (owner, held[1], False)
            return False
        del self._holds[(game_id, message)]
        return True

    async def take_send(self, chat: str, now: float, limit: int, period: float,
                        counted_at: float | None = None) -> float:
        self._open()
        stale = now - max(period, SENDS_KEPT)
        for other in [c for c, ats in self._sends.items() if c != chat and (not ats or ats[-1] <= stale)]:
            del self._sends[other]
        recent = [at for at in self._sends.get(chat, []) if at > now - period]
        if len(recent) >= limit:
            self._sends[chat] = recent
            return max(0.001, recent[len(recent) - limit] + period - now)
        self._sends[chat] = sorted([*recent, now if counted_at is None else counted_at])
        return 0.0

    async def settle_send(self, chat: str, counted_at: float, went: float | None) -> None:
        self._open()
        sends = self._sends.get(chat, [])
        if counted_at in sends:
            sends.remove(counted_at)
            if went is not None:
                sends.append(went)
                sends.sort()

    async def moves(self, game_id: int, after: int = 0) -> list[MoveRow]:
        self._open()
        game = self._games.get(game_id)
        return [m for m in game.moves if m.number > after] if game else []

    async def round_records(self, game_id: int) -> list[dict[str, Any]]:
        self._open()
        game = self._games.get(game_id)
        return [_copy(game.rounds[n][1]) for n in sorted(game.rounds)] if game else []

    # ---- front-ends' message references ----------------------------------

    async def get_refs(self, game_id: int) -> dict[str, str]:
        self._open()
        game = self._games.get(game_id)
        return dict(game.refs) if game else {}

    async def refs_with_prefix(self, prefix: str) -> list[tuple[int, str, str]]:
        self._open()
        return [(game_id, key, value) for game_id in sorted(self._games)
                for key, value in sorted(self._games[game_id].refs.items()) if key.startswith(prefix)]

    async def set_ref(self, game_id: int, key: str, value: str | None) -> None:
        self._open()
        refs = self._games[game_id].refs
        if value is None:
            refs.pop(key, None)
        else:
            refs[key] = value

    # ---- results, ratings, queries ------------------------------------------

    async def ratings(self, player_ids: Iterable[int], ladder: str) -> dict[int, RatingRow]:
        self._open()
        return {pid: self._ratings[(pid, ladder)] for pid in player_ids if (pid, ladder) in self._ratings}

    async def results(self, game_id: int) -> list[ResultRow]:
        self._open()
        game = self._games.get(game_id)
        return list(game.results) if game else []

    def _finished(self, chat_id: int | None = None) -> list[_Game]:
        return [g for g in self._games.values() if g.row.status == "finished"
                and (chat_id is None or g.row.chat_id == chat_id)]

    def _counted(self, chat_id: int | None = None) -> list[_Game]:
        """Finished games that count on leaderboards and in stats: practice matches and deals
        of the day do not."""
        daily = self._daily_games()
        return [g for g in self._finished(chat_id)
                if not g.row.options.get("practice") and g.row.id not in daily]

    def _daily_games(self) -> set[int]:
        return {game for _, game in self._daily.values()}

    async def leaderboard(self, chat_id: int | None, ladder: str | None = None,
                          limit: int = 10) -> list[LeaderboardLine]:
        self._open()
        totals: dict[int, list[int]] = {}
        for game in self._counted(chat_id):
            for result in game.results:
                player = self._players.get(result.player_id) if result.player_id else None
                if player is None or player.is_computer:
                    continue
                games, wins, scope = totals.setdefault(player.id, [0, 0, 0])
                totals[player.id] = [games + 1, wins + int(result.won), scope + result.scope]
        lines = []
        for player_id, (games, wins, scope) in totals.items():
            ratings = [r.mu - 3 * r.sigma for (pid, name), r in self._ratings.items()
                       if pid == player_id and (ladder is None or name == ladder)]
            lines.append(LeaderboardLine(player_id, self._players[player_id].display_name,
                                        max(ratings) if ratings else 0.0, games, wins, scope))
        lines.sort(key=lambda r: (r.rating, r.wins, r.games), reverse=True)
        return lines[:limit]

    async def player_stats(self, player_id: int) -> dict[str, Any]:
        self._open()
        mine = [r for g in self._counted() for r in g.results if r.player_id == player_id]
        kinds: dict[str, int] = {}
        for game in self._counted():
            kind = json.loads(self._records.get(game.row.id, "{}")).get("win_kind")
            if kind and any(r.player_id == player_id and r.won for r in game.results):
                kinds[kind] = kinds.get(kind, 0) + 1
        accuracies = [s.accuracy for _, seats in self._reviews.values() for s in seats
                      if s.player_id == player_id]
        played = [g.row for g in self._finished() if any(r.player_id == player_id for r in g.results)]
        dailies = sum(row.id in self._daily_games() for row in played)
        return {
            "dailies": dailies, "practice": len(played) - dailies - len(mine),
            "reviewed": len(accuracies),
            "accuracy": sum(accuracies) / len(accuracies) if accuracies else None,
            "games": len(mine), "wins": sum(r.won for r in mine), "scope": sum(r.scope for r in mine),
            "points": sum(r.points for r in mine), "win_kinds": kinds,
            "ratings": {r.ladder: {"rating": r.mu - 3 * r.sigma, "mu": r.mu, "sigma": r.sigma,
                                   "games": r.games, "wins": r.wins}
                        for (pid, _), r in self._ratings.items() if pid == player_id},
        }

    async def played_matches(self, player_id: int) -> list[PlayedMatch]:
        self._open()
        daily = self._daily_games()
        out = []
        for game in sorted(self._finished(), key=lambda g: (g.row.finished_at or 0.0, g.row.id)):
            kind = (MatchKind.DAILY if game.row.id in daily else
                    MatchKind.PRACTICE if game.row.options.get("practice") else MatchKind.COUNTED)
            out.extend(PlayedMatch(game.row.id, r.seat, game.row.variant, kind, r.won,
                                   game.row.finished_at or 0.0, self._records.get(game.row.id))
                       for r in game.results if r.player_id == player_id)
        return out

    async def achievements(self, player_ids: Iterable[int]) -> list[AchievementRow]:
        self._open()
        ids = set(player_ids)
        return sorted((row for row in self._achievements.values() if row.player_id in ids),
                      key=lambda row: (row.earned_at, row.player_id, row.code))

    async def recent_matches(self, chat_id: int, limit: int = 5) -> list[RecentMatch]:
        self._open()
        games = sorted(self._finished(chat_id), key=lambda g: (g.row.finished_at or 0.0, g.row.id),
                       reverse=True)
        out = []
        for game in games[:limit]:
            players = tuple((self._players[r.player_id].display_name if r.player_id else "CPU",
                             r.points, r.won) for r in game.results)
            out.append(RecentMatch(game.row.id, game.row.variant, float(game.row.finished_at or 0.0),
                                    players))
        return out

    async def records(self) -> list[str]:
        self._open()
        return [self._records[game_id] for game_id in sorted(self._records)]

    async def match_record(self, game_id: int) -> str | None:
        self._open()
        return self._records.get(game_id)

    async def match_review(self, game_id: int) -> str | None:
        self._open()
        found = self._reviews.get(game_id)
        return None if found is None else found[0]

    async def last_finished_game(self, player_id: int) -> int | None:
        self._open()
        mine = [g.row for g in self._finished() if any(s.player_id == player_id for s in g.seats)]
        latest = max(mine, key=lambda row: (row.finished_at or 0.0, row.id), default=None)
        return None if latest is None else latest.id

    async def reviewed_matches(self, chat_id: int | None, player_id: int | None, limit: int) -> list[int]:
        self._open()
        daily = self._daily_games()
        found = [g.row for g in self._finished() if g.row.id in self._reviews and g.row.id not in daily
                 and (chat_id is None or g.row.chat_id == chat_id)
                 and (player_id is None or any(s.player_id == player_id for s in g.seats))]
        found.sort(key=lambda row: (row.finished_at or 0.0, row.id), reverse=True)
        return [row.id for row in found[:limit]]

    async def unreviewed_matches(self, since: float, limit: int) -> list[int]:
        self._open()
        due = [g.row for g in self._finished() if (g.row.finished_at or 0.0) >= since
               and g.row.id not in self._reviews
               and any(s.player_id in self._players and not self._players[s.player_id].is_computer
                       for s in g.seats)]
        return [row.id for row in sorted(due, key=lambda row: (row.finished_at or 0.0, row.id))][:limit]

    def _review(self, review: NewReview) -> None:
        """Strict as the databases: the game must exist, and so must each seat's player."""
        stored = tuple(review.seats)
        if review.game_id not in self._games:
            raise StaleVersion(f"no game {review.game_id}")
        if any(s.player_id is not None and s.player_id not in self._players for s in stored):
            raise StaleVersion("a review seat of an unknown player")
        if len({s.seat for s in stored}) != len(stored):
            raise StaleVersion("a seat reviewed twice")
        if review.game_id in self._reviews:
            raise ReviewExists(f"game {review.game_id} has a review already")
        self._reviews[review.game_id] = (review.review, stored)

    async def is_daily(self, game_id: int) -> bool:
        self._open()
        return game_id in self._daily_games()

    async def daily_game(self, day: str, player_id: int) -> int | None:
        self._open()
        found = self._daily.get((day, player_id))
        return None if found is None else found[1]

    async def daily_board(self, day: str, chat_id: int | None, limit: int = 10) -> list[DailyRow]:
        self._open()
        members = {s.player_id for g in self._games.values() if g.row.chat_id == chat_id for s in g.seats}
        out = []
        for (played_day, player_id), (asked_in, game_id) in self._daily.items():
            game = self._games.get(game_id)
            if played_day != day or game is None or game.row.status != "finished":
                continue
            if chat_id is not None and asked_in != chat_id and player_id not in members:
                continue
            mine = next(r for r in game.results if r.player_id == player_id)
            theirs = next(r for r in game.results if r.seat != mine.seat)
            moves = sum(1 for m in game.moves if m.seat == mine.seat)
            out.append(DailyRow(player_id, self._players[player_id].display_name,
                                mine.points - theirs.points, moves, float(game.row.finished_at or 0.0)))
        out.sort(key=lambda r: (-r.margin, r.moves, r.finished_at, r.player_id))
        return out[:limit]
