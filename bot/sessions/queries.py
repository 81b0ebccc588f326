"""What front-ends look up, and the only way they read: chats' settings, lobbies, tables, hands,
games, players, leaderboards, stats, reviews, replays and the deal of the day's board. Nothing
here writes (`Sessions.handle` is the way in for that)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import EngineError, Game
from ..engine.rules import Variant, parse_variant
from .daily import Daily, DailyBoard
from .directory import Directory
from .feats import counted, tally
from .games import Games
from .lobby import Lobby
from .ports import GameStore
from .recap import Recap, recap
from .records import LeaderboardLine, RecentMatch
from .refs import ChatRef, UserRef
from .refusals import Reason, Refused
from .replay import Replays, ReplayStep
from .reviews import MatchReview, Reviews
from .views import (
    ChatSettings,
    GameSummary,
    HandView,
    LobbyView,
    PlayerProfile,
    TableView,
    chat_settings,
    hand_view,
)

if TYPE_CHECKING:
    from .owners import Owners
    from .privacy import Privacy, Trace
    from .seasons import SeasonBoard, SeasonHistory, Seasons
    from .tournament_play import Tournaments
    from .tournaments import TournamentView


class Queries:
    def __init__(self, store: GameStore, directory: Directory, games: Games, lobby: Lobby,
                 reviews: Reviews, daily: Daily, replays: Replays, *, owners: Owners, seasons: Seasons,
                 privacy: Privacy, tournaments: Tournaments) -> None:
        self.store = store
        self.directory = directory
        self.games = games
        self._lobby = lobby
        self._reviews = reviews
        self._daily = daily
        self._replays = replays
        self._owners = owners
        self._seasons = seasons
        self._privacy = privacy
        self._tournaments = tournaments

    async def admit(self, user: UserRef) -> None:
        """Raise `Refused(BLOCKED)` if an owner blocked `user` (`Owners.admit`): a front-end
        answers nothing else to them (`Sessions.handle` turns them away too)."""
        await self._owners.admit(user)

    def owners(self) -> frozenset[tuple[str, str]]:
        """The bot's owners, as (platform, user id) pairs."""
        return self._owners.owners

    async def season(self, chat_ref: ChatRef | None, *, last: bool = False,
                     asker: UserRef | None = None) -> SeasonBoard:
        """This month's season (or last month's, `last`) in the chat, or everyone's (None)."""
        return await self._seasons.board(chat_ref, last=last, asker=asker)

    async def seasons_of(self, chat_ref: ChatRef | None, who: UserRef | str) -> SeasonHistory | None:
        """A player's past seasons in the chat, or everyone's (`Seasons.history`)."""
        return await self._seasons.history(chat_ref, who)

    async def my_data(self, user: UserRef) -> bytes | None:
        """What is kept about `user`, as the file /mydata sends; None when nothing is."""
        data = await self._privacy.my_data(user)
        return None if data is None else self._privacy.as_file(data)

    async def traces(self, platform: str) -> list[Trace]:
        """Games whose notes may still name a player erased since (`Privacy.traces`)."""
        return await self._privacy.traces(platform)

    async def tournament(self, chat_ref: ChatRef) -> TournamentView | None:
        """The chat's tournament, as it is now (None if it never had one)."""
        return await self._tournaments.current(chat_ref)

    async def chat(self, ref: ChatRef, language_hint: str | None = None) -> ChatSettings:
        """The chat's settings, as they are now (it is made when first seen)."""
        return chat_settings(await self.directory.chat(ref, language_hint))

    async def player(self, ref: UserRef) -> PlayerProfile:
        """The player as they are now (made when first seen)."""
        return await self.directory.player(ref)

    async def stored_game(self, game_id: int) -> Game | None:
        """The game rebuilt from the database alone (not from memory); None before it starts."""
        return (await self.games.stored_now(await self.games.row(game_id)))[1]

    async def lobby(self, chat_ref: ChatRef) -> LobbyView:
        return await self._lobby.lobby(chat_ref)

    async def lobby_of(self, game_id: int) -> LobbyView:
        return await self._lobby.lobby_of(game_id)

    async def may_manage(self, game_id: int, user: UserRef, is_admin: bool = False) -> bool:
        """Whether `user` may start, cancel or change game `game_id` (its creator, or an admin)."""
        return await self._lobby.may_manage(game_id, user, is_admin)

    async def stored_review(self, game_id: int, seat: int) -> MatchReview | None:
        """Match `game_id`'s review as the player of `seat` sees it, once made (else None)."""
        return await self._reviews.stored(game_id, seat)

    async def last_finished(self, chat_ref: ChatRef) -> int:
        """The id of the chat's latest finished match (for /review); refused if none."""
        return await self._reviews.last_finished(chat_ref)

    async def last_played(self, user: UserRef) -> int:
        """The id of `user`'s latest finished match wherever it was played (for /review in their
        private chat); refused if none."""
        return await self._reviews.last_played(user)

    async def replay_step(self, game_id: int, user: UserRef, step: int) -> ReplayStep:
        """Step `step` (from 0) of finished match `game_id` for `user`, one of its players
        (`replay.Replays.step`)."""
        return await self._replays.step(game_id, user, step)

    def daily_today(self) -> str:
        """Today (UTC) as YYYY-MM-DD: the day whose deal /daily offers now."""
        return self._daily.today().isoformat()

    async def daily_board(self, chat_ref: ChatRef | None) -> DailyBoard:
        """Today's deal of the day board of `chat_ref`'s players (None: everyone's), ranked by
        points margin then fewer moves, with yesterday's winner."""
        return await self._daily.board(chat_ref)

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
