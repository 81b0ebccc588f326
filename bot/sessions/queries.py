"""What front-ends look up: tables, hands, games, players, leaderboards, stats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import EngineError
from ..engine.rules import Variant, parse_variant
from .directory import Directory
from .feats import counted, tally
from .games import Games
from .ports import GameStore
from .recap import Recap, recap
from .records import LeaderboardLine, RecentMatch
from .refs import ChatRef, UserRef
from .refusals import Reason, Refused
from .views import (
    GameSummary,
    HandView,
    PlayerProfile,
    TableView,
    hand_view,
)

EVERYONE_WORDS = frozenset({"global", "globale", "all", "tutti", "todos"})
"""What after /leaderboard (or /daily board) asks for everyone's board instead of the chat's,
in any of the catalogue's languages."""


def asks_for_everyone(words: Sequence[str]) -> bool:
    """Whether a board command's first word asks for everyone's board."""
    return bool(words) and words[0].lower() in EVERYONE_WORDS


class Queries:
    def __init__(self, store: GameStore, directory: Directory, games: Games) -> None:
        self.store = store
        self.directory = directory
        self.games = games

    async def table(self, game_id: int) -> TableView:
        row, game = await self.games.load(game_id)
        if game is None:
            raise Refused(Reason.NOT_IN_LOBBY)
        return self.games.table(row, game)

    async def table_since(self, game_id: int, since: int | None) -> tuple[TableView, Recap]:
        row, game = await self.games.load(game_id)
        if game is None:
            raise Refused(Reason.NOT_IN_LOBBY)
        return self.games.table(row, game), recap(row, game, since)

    async def hand(self, game_id: int, user: UserRef) -> HandView:
        player = await self.directory.known_player(user.platform, user.key)
        row, game = await self.games.load(game_id)
        seat = next((s for s in row.seats if player and s.player_id == player.id), None)
        if seat is None:
            raise Refused(Reason.NOT_IN_GAME)
        if game is None:
            raise Refused(Reason.NOT_IN_LOBBY)
        return hand_view(row, game, seat.seat, self.games.max_timeouts, self.games.daily_known(row))

    async def game(self, game_id: int) -> GameSummary:
        row, _ = await self.games.load(game_id)
        return await self.games.summary(row)

    async def open_game_id(self, chat_ref: ChatRef) -> int | None:
        chat = await self.directory.chat(chat_ref)
        row = await self.store.open_game(chat.id, chat_ref.place)
        return row.id if row else None

    async def games_of(self, user: UserRef) -> list[GameSummary]:
        player = await self.directory.known_player(user.platform, user.key)
        rows = await self.store.open_games_of_player(player.id) if player else []
        return [await self.games.summary(row) for row in rows]

    async def running_games(self) -> list[GameSummary]:
        """Every game in play, soonest deadline first."""
        return [await self.game(entry.game_id) for entry in await self.store.running_deadlines()]

    async def find_player(self, platform: str, key: str) -> PlayerProfile | None:
        return await self.directory.known_player(platform, key)

    async def seat_players(self, game_id: int) -> list[tuple[int, PlayerProfile | None]]:
        row, _ = await self.games.load(game_id)
        return [(s.seat, s.player if s.player and not s.is_computer else None)
                for s in row.seats]

    async def leaderboard(self, chat_ref: ChatRef | None, ladder: str | None = None,
                          limit: int = 10) -> list[LeaderboardLine]:
        chat_id = (await self.directory.chat(chat_ref)).id if chat_ref else None
        return await self.store.leaderboard(chat_id, ladder, limit)

    async def stats(self, user: UserRef) -> dict[str, Any]:
        """The store's figures (`Reports.player_stats`) and those read from the player's records
        (`feats.tally`): the most scope in a match, settebello and primiera, the best winning
        streak, wins and losses by variant, practice and deals of the day won; and the
        achievements, as (code, when last earned, how many times: `feats.counted`)."""
        player = await self.directory.player(user)
        stats = await self.store.player_stats(player.id)
        figures = tally(await self.store.played_matches(player.id))
        earned = counted(await self.store.achievements([player.id]))
        stats.update(
            scope_record=figures.scope_record, settebello=figures.settebello, primiera=figures.primiera,
            best_streak=figures.best_streak, by_variant=dict(figures.by_variant),
            practice_won=figures.practice[1], dailies_won=figures.dailies[1],
            achievements=earned)
        return stats

    async def chat_game(self, chat_ref: ChatRef | None) -> str:
        """The game a chat plays, which names the sweeps of its leaderboard and stats: that of
        its latest finished match, else the one its /newgame opens; scopa outside a chat."""
        if chat_ref is None:
            return Variant.SCOPA.value
        chat = await self.directory.chat(chat_ref)
        latest = await self.store.recent_matches(chat.id, 1)
        if latest:
            return latest[0].variant
        try:
            return parse_variant(str(chat.defaults.get("variant", Variant.SCOPA.value))).value
        except EngineError:
            return Variant.SCOPA.value

    async def recent(self, chat_ref: ChatRef, limit: int = 5) -> list[RecentMatch]:
        chat = await self.directory.chat(chat_ref)
        return await self.store.recent_matches(chat.id, limit)
