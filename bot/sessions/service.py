"""The life of a game in a chat, for every front-end: lobby, seats, turns,
timers, computer players, results and ratings.

Front-ends call these methods with who is asking (`UserRef`) and where
(`ChatRef`), and render the events and views they get back. A request that
is not allowed raises `Refused` and changes nothing. Every change is
committed to the store before any event about it is published.

`Sessions` only puts together the parts that do the work: games (loading,
memory, locks), lobby, play, scheduler (timers and computer turns), queries
and settings; it reaches the store through the `GameStore` port alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ..ai import LEVELS, choose_move
from ..ai.review import DEFAULT_SEARCHES
from ..engine import Game, Move, SeatView
from ..i18n import LANGUAGES
from .alarm import Alarm
from .daily import Daily, DailyBoard, DailyOffer, DailyStart
from .directory import Directory
from .events import Event, ReviewOwed
from .games import EventBus, Games, Listener
from .hints import Hints, PracticeHint
from .holds import HandedOver, MessageHolds
from .lobby import LOBBY_IDLE, Lobby
from .notices import SWEEP_EVERY, Notices
from .parts import Parts
from .play import Play
from .ports import FrontEndNotes, GameStore, Served, StorageFailed
from .privacy import Privacy
from .puzzles import Puzzles
from .queries import Queries
from .recap import Recap
from .records import GameRow, LeaderboardLine, RecentMatch
from .refs import ChatRef, UserRef, language_of
from .replay import Replays, ReplayStep
from .reviews import MatchReview, ReviewAsked, Reviews
from .scheduler import Scheduler
from .settings import Settings
from .thinking import Chooser, ComputerPool, Think, think_in_thread
from .tournament_play import Tournaments
from .views import (
    ChatSettings,
    GameSummary,
    HandView,
    LobbyView,
    PlayerProfile,
    TableView,
    chat_settings,
)

__all__ = [
    "LANGUAGES", "LEVELS", "LOBBY_IDLE", "ChatRef", "Sessions", "UserRef", "default_chooser", "language_of",
]


_T = TypeVar("_T")
log = logging.getLogger(__name__)


def default_chooser(level: str, view: SeatView, seed: str, budget: float | None = None) -> Move:
    return choose_move(level, view, seed, budget)


class _MessageRefs:
    """The store as front-ends see it: their notes, and whether other processes write them."""

    def __init__(self, store: GameStore) -> None:
        self._store = store
        self.shared = bool(getattr(store, "shared", False))

    async def get_refs(self, game_id: int) -> dict[str, str]:
        return await self._store.get_refs(game_id)

    async def set_ref(self, game_id: int, key: str, value: str | None) -> None:
        await self._store.set_ref(game_id, key, value)

    async def take_send(self, chat: str, now: float, limit: int, period: float,
                        counted_at: float | None = None) -> float:
        return await self._store.take_send(chat, now, limit, period, counted_at)

    async def settle_send(self, chat: str, counted_at: float, went: float | None) -> None:
        await self._store.settle_send(chat, counted_at, went)


class Sessions:
    def __init__(self, store: GameStore, *, clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
                 computer_pace: float = 1.2, warn_before: float = 20.0,
                 chooser: Chooser | None = None, think: Think | None = None,
                 timeout_level: str = "medium", max_timeouts: int = 3,
                 pool: ComputerPool | None = None, review_searches: int = DEFAULT_SEARCHES,
                 review_at_end: bool | None = None) -> None:
        """`review_at_end`: review each match with a person in it as it ends (`reviews`); by
        default where the computers have workers (`pool`), so the reviews never hold the loop."""
        self._failures: list[StorageFailed] = []
        self._failed = asyncio.Event()
        store.on_failure(self._storage_failed)
        self._store = store
        self.clock = clock
        self._bus = EventBus()
        self._directory = Directory(store)
        self._games = Games(store, self._directory, max_timeouts)
        self._alarm = Alarm(warn_before)
        self._play = Play(store, self._directory, self._games, self._bus, self._alarm, clock,
                          computer_pace=computer_pace, max_timeouts=max_timeouts)
        self._lobby = Lobby(store, self._directory, self._games, self._play, self._bus, self._alarm,
                            clock)
        self._scheduler = Scheduler(store, self._directory, self._games, self._play, self._bus,
                                    self._alarm, clock, chooser=chooser or default_chooser,
                                    think=think or think_in_thread, timeout_level=timeout_level)
        self._queries = Queries(store, self._directory, self._games)
        self._settings = Settings(store, self._directory)
        self._daily = Daily(store, self._directory, self._games, self._play, self._bus, self._alarm, clock)
        self._hints = Hints(self._directory, self._games, pool)
        self._refs = _MessageRefs(store)
        self._holds = MessageHolds(store, self._scheduler.owner)
        self._notices = Notices(store, self._holds, sleep)
        self._reviews = Reviews(store, self._directory, self._games, self._notices, self._bus, pool,
                                review_searches, clock, pool is not None if review_at_end is None
                                else review_at_end)
        self._bus.subscribe(self._reviews.ended)
        self._unreviewed_looked: set[str] = set()
        self._replays = Replays(store, self._directory, self._games)
        self.puzzles = Puzzles(store, self._directory, self._games, pool)
        """Puzzles from a chat's own finished matches (`sessions.puzzles`)."""
        self.parts = Parts(store, self._bus, self._directory, self._games, self._lobby, self._play,
                           self._scheduler, self._queries, self._settings, self._reviews, self._daily,
                           self._hints, self._holds, self._notices)
        """Its use-case handlers, each on the ports it needs."""
        self.tournaments = Tournaments(store, self._directory, self._lobby, clock)
        """The chats' tournaments (`sessions.tournament_play`)."""
        self._bus.subscribe(self.tournaments.on_event)
        self.privacy = Privacy(store, self._directory, self._games, self._play, self._bus, self._alarm,
                               clock, self._holds)
        """A player's data: shown whole, erased at once (`sessions.privacy`)."""

    # ---- plumbing -------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self._bus.subscribe(listener)

    def _storage_failed(self, error: StorageFailed) -> None:
        self._failures.append(error)
        self._failed.set()

    async def failure(self) -> StorageFailed:
        """Returns when the database has failed: every user's request then fails too, so the
        bot should stop (no change was half made) and be started again once it is back."""
        await self._failed.wait()
        return self._failures[0]

    async def close(self) -> None:
        """Stop the reviews being made (what was asked for stays owed, and is made after the
        next start) and close the store; closing again does nothing."""
        await self._reviews.stop()
        await self.tournaments.stop()
        await self._store.close()

    @property
    def message_refs(self) -> FrontEndNotes:
        """Where front-ends keep their notes about a game's messages."""
        return self._refs

    async def draw_message(self, game_id: int, message: str,
                           drawing: Callable[[bool], Awaitable[_T]]) -> _T | HandedOver:
        """Draw game `game_id`'s message `message` (the front-end's name for it) with
        `drawing`: of several bot processes on one database, one at a time draws it, and a
        process that finds it held leaves it to the holder (`holds`)."""
        return await self._holds.draw(game_id, message, drawing)

    def serve(self, served: Served) -> None:
        """Run only the due work (timers, computer turns) of the chats this process serves:
        a game's events reach the front-ends of the process that runs it."""
        self._scheduler.served = served

    def serves(self, chat: ChatRef) -> bool:
        """Whether this process runs and draws `chat`'s games (every chat until `serve`)."""
        served = self._scheduler.served
        return served is None or served.takes(chat.platform, chat.home)

    async def place_chat(self, chat: ChatRef) -> None:
        """Keep where `chat` lives (its `home`), found out by a front-end outside a tap: a
        chat stored before its home was known is then run by the process that serves it."""
        self._games.chat_changed((await self._directory.chat(chat)).id)

    async def owed_notices(self, platform: str) -> list[Event]:
        """Round breakdowns and match ends committed but not yet posted (the bot stopped in
        between, or the process posting them died), of the chats this process serves: a
        front-end posts them at start through `announce`, and then `keep_announcing`. The first
        look of a platform also queues the reviews of its matches that ended lately unreviewed
        (`Reviews.review_unreviewed`)."""
        if platform not in self._unreviewed_looked:
            self._unreviewed_looked.add(platform)
            await self._reviews.review_unreviewed(lambda row: self._serves_game(row, platform))
        owed = await self._owed_and_made(await self._notices.owed(platform))
        if self._scheduler.served is None:
            return owed
        chats = {game_id: (await self._queries.game(game_id)).chat
                 for game_id in {event.game_id for event in owed}}
        return [event for event in owed if self.serves(chats[event.game_id])]

    async def _serves_game(self, row: GameRow, platform: str) -> bool:
        chat = (await self._queries.game(row.id)).chat
        return chat.platform == platform and self.serves(chat)

    async def _owed_and_made(self, owed: list[Event]) -> list[Event]:
        """`owed` less the reviews not made yet, which are made (here, unless under way) and
        handed to the front-ends once they are."""
        unmade = set()
        for game_id in {event.game_id for event in owed if isinstance(event, ReviewOwed)}:
            if not await self._reviews.is_made(game_id):
                unmade.add(game_id)
                if self.serves((await self._queries.game(game_id)).chat):
                    await self._reviews.make_owed(game_id)
        return [event for event in owed if not (isinstance(event, ReviewOwed) and event.game_id in unmade)]

    async def announce(self, event: Event, post: Callable[[], Awaitable[bool]]) -> bool:
        """Post announcement `event` (a RoundEnded or MatchEnded) through `post`, once of all
        processes: only while it is owed, and by one process at a time. `post` answers True
        once the message is in the chat, or the chat refuses the bot for good; it is then
        owed no more. True if this call posted it (`notices`)."""
        return await self._notices.announce(event, post)

    async def announce_owed(self, platform: str, announce: Callable[[Event], Awaitable[object]]
                            ) -> float:
        """Hand `announce` (the front-end's handler of events, which posts announcements through
        `announce` above) the announcements owed to the chats this process serves on
        `platform` that were owed at the last look too and that this process is not posting:
        their poster died, or the chat refused them for a while. Returns the seconds until
        the next look (`notices.Notices.sweep`)."""
        return await self._notices.sweep(await self.owed_notices(platform), announce)

    async def keep_announcing(self, platform: str, announce: Callable[[Event], Awaitable[object]]
                              ) -> None:
        """`announce_owed` now and then for good: a front-end runs it as a task from its start
        (after posting what is owed then) until it stops. A look that fails is tried again at
        the next; a database that is gone stops the bot anyway (`failure`)."""
        while True:
            try:
                wait = await self.announce_owed(platform, announce)
            except Exception:
                log.warning("could not look for the announcements owed to %s", platform, exc_info=True)
                wait = SWEEP_EVERY
            await asyncio.sleep(wait)

    async def notice_delivered(self, event: Event) -> None:
        """`event` (a RoundEnded or MatchEnded) reached its chat; other events are ignored.
        For a front-end that alone posts to its chats (the terminal); the others `announce`."""
        await self._notices.delivered(event)

    async def chat(self, ref: ChatRef, language_hint: str | None = None) -> ChatSettings:
        return chat_settings(await self._directory.chat(ref, language_hint))

    async def player(self, ref: UserRef) -> PlayerProfile:
        return await self._directory.player(ref)

    def player_language(self, player: PlayerProfile | None, fallback: str = "it") -> str:
        if player is None:
            return fallback
        return player.language or language_of(player.platform_language, fallback)

    async def stored_game(self, game_id: int) -> Game | None:
        """The game rebuilt from the database alone (not from memory); None before it starts."""
        return (await self._games.stored_now(await self._games.row(game_id)))[1]

    # ---- lobby ----------------------------------------------------------------

    async def new_game(self, chat_ref: ChatRef, user: UserRef, variant: str | None = None,
                       options: dict[str, Any] | None = None, *, ready: bool = True) -> LobbyView:
        """Open a lobby with its creator in seat 1; `ready=False` as for `join`.

        `options` may hold rule options and the table's layout (`players`,
        `teams`, `deck_style`); they override the chat's defaults.
        """
        return await self._lobby.new_game(chat_ref, user, variant, options, ready=ready)

    async def lobby(self, chat_ref: ChatRef) -> LobbyView:
        return await self._lobby.lobby(chat_ref)

    async def lobby_of(self, game_id: int) -> LobbyView:
        return await self._lobby.lobby_of(game_id)

    async def may_manage(self, game_id: int, user: UserRef, is_admin: bool = False) -> bool:
        """Whether `user` may start, cancel or change game `game_id` (its creator, or an admin)."""
        return await self._lobby.may_manage(game_id, user, is_admin)

    async def join(self, chat_ref: ChatRef, user: UserRef, *, ready: bool = True,
                   game_id: int | None = None) -> LobbyView:
        return await self._lobby.join(chat_ref, user, ready=ready, game_id=game_id)

    async def confirm_seat(self, game_id: int, user: UserRef) -> LobbyView:
        """Mark the seat `user` took in lobby `game_id` as ready (the bot can now reach them);
        only a seat taken in the chat itself."""
        return await self._lobby.confirm_seat(game_id, user)

    async def leave(self, chat_ref: ChatRef, user: UserRef, *,
                    from_lobby: bool = False) -> LobbyView | TableView:
        """Leave the chat's open game; `from_lobby` leaves only a lobby, never a match."""
        return await self._lobby.leave(chat_ref, user, from_lobby=from_lobby)

    async def add_computer(self, chat_ref: ChatRef, user: UserRef, level: str,
                           is_admin: bool = False) -> LobbyView:
        return await self._lobby.add_computer(chat_ref, user, level, is_admin)

    async def remove_computers(self, chat_ref: ChatRef, user: UserRef,
                               is_admin: bool = False) -> LobbyView:
        return await self._lobby.remove_computers(chat_ref, user, is_admin)

    async def set_option(self, chat_ref: ChatRef, user: UserRef, key: str, value: Any,
                         is_admin: bool = False) -> LobbyView:
        return await self._lobby.set_option(chat_ref, user, key, value, is_admin)

    async def sit_with(self, chat_ref: ChatRef, user: UserRef, seat: int, version: int,
                       game_id: int | None = None) -> LobbyView:
        """In a team lobby at `version`, sit as the partner of the player in `seat`."""
        return await self._lobby.sit_with(chat_ref, user, seat, version, game_id)

    async def start(self, chat_ref: ChatRef, user: UserRef, is_admin: bool = False) -> TableView:
        return await self._lobby.start(chat_ref, user, is_admin)

    async def rematch(self, game_id: int, user: UserRef) -> LobbyView:
        """A new lobby with the same variant, options and seats as a finished game."""
        return await self._lobby.rematch(game_id, user)

    async def cancel(self, chat_ref: ChatRef, user: UserRef, is_admin: bool = False) -> None:
        await self._lobby.cancel(chat_ref, user, is_admin)

    async def abandon(self, chat_ref: ChatRef) -> int | None:
        """Stop the open game of `chat_ref`'s thread (a forum topic), which is gone or closed to
        the bot: cancelled as by /cancel, its record kept. Its id, or None if there was none."""
        return await self._lobby.abandon(chat_ref)

    # ---- play -----------------------------------------------------------------

    async def play(self, game_id: int, user: UserRef, expected_version: int,
                   move: str | Move, fuori: bool = False) -> TableView:
        """Play a move for `user` in game `game_id`, as seen at `expected_version`;
        with `fuori`, declare fuori with it (docs/rules.md)."""
        return await self._play.play(game_id, user, expected_version, move, fuori)

    async def set_autoplay(self, game_id: int, user: UserRef, on: bool) -> None:
        """Hand one's seat to the computer, or take it back."""
        await self._play.set_autoplay(game_id, user, on)

    async def hand_over(self, game_id: int, version: int) -> None:
        """Hand the seat to move at `version` to the computer, in a game with no clock."""
        await self._play.hand_over(game_id, version)

    # ---- timers and computer players --------------------------------------------

    async def next_due(self) -> float | None:
        """When `run_due` next has something to do (None: nothing scheduled)."""
        return await self._scheduler.next_due()

    async def run_due(self) -> int:
        """Warn, time out and play computer seats whose time has come; returns actions taken."""
        return await self._scheduler.run_due()

    async def run_forever(self) -> None:
        """Drive timers and computer players until cancelled."""
        await self._scheduler.run_forever()

    # ---- views and queries ----------------------------------------------------

    async def table(self, game_id: int) -> TableView:
        return await self._queries.table(game_id)

    async def table_since(self, game_id: int, since: int | None) -> tuple[TableView, Recap]:
        """The table, and the plays made after the first `since` of the match (`recap`): what
        a chat that saw the table drawn up to there has not seen drawn."""
        return await self._queries.table_since(game_id, since)

    async def hand(self, game_id: int, user: UserRef) -> HandView:
        return await self._queries.hand(game_id, user)

    async def game_row(self, game_id: int) -> GameSummary:
        """Where game `game_id` is played, its status and its seats."""
        return await self._queries.game(game_id)

    async def open_game_id(self, chat_ref: ChatRef) -> int | None:
        return await self._queries.open_game_id(chat_ref)

    async def games_of(self, user: UserRef) -> list[GameSummary]:
        """The games `user` sits in that are in their lobby or running."""
        return await self._queries.games_of(user)

    async def running_games(self) -> list[GameSummary]:
        """Every game in play, on every platform (see `serves` for the ones this process runs)."""
        return await self._queries.running_games()

    async def find_player(self, platform: str, key: str) -> PlayerProfile | None:
        """The player if they ever used the bot (never creates one)."""
        return await self._queries.find_player(platform, key)

    async def seat_players(self, game_id: int) -> list[tuple[int, PlayerProfile | None]]:
        return await self._queries.seat_players(game_id)

    async def leaderboard(self, chat_ref: ChatRef | None, ladder: str | None = None,
                          limit: int = 10) -> list[LeaderboardLine]:
        return await self._queries.leaderboard(chat_ref, ladder, limit)

    async def stats(self, user: UserRef) -> dict[str, Any]:
        return await self._queries.stats(user)

    async def recent(self, chat_ref: ChatRef, limit: int = 5) -> list[RecentMatch]:
        return await self._queries.recent(chat_ref, limit)

    async def chat_game(self, chat_ref: ChatRef | None) -> str:
        return await self._queries.chat_game(chat_ref)

    # ---- match reviews ------------------------------------------------------------

    async def review(self, game_id: int, user: UserRef) -> MatchReview:
        """The review of finished match `game_id` for `user`, one of its players: the stored
        one, or worked out now in the computer players' workers (`pool`, else a thread) with
        `review_searches` and stored with the match, so it is worked out once. Refused for a
        game not finished, not found, or not played by `user`."""
        return await self._reviews.review(game_id, user)

    async def ask_review(self, game_id: int, user: UserRef, privately: bool) -> ReviewAsked:
        """`user` asks for their review of finished match `game_id` in their private chat
        (`privately`; False when the bot cannot write to them there). Answers at once: the
        review is made in the background if it was not, and what is owed of it (theirs, and
        the chat's accuracy line when it is first made) reaches the front-ends as
        `ReviewOwed` events to post through `announce`, once of all processes and across
        restarts. Nothing is owed again to a player it went to in the last two minutes
        (`reviews.RESEND_AFTER`). Refused as `review` is, and while too many reviews wait."""
        return await self._reviews.ask(game_id, user, privately)

    async def replay_step(self, game_id: int, user: UserRef, step: int) -> ReplayStep:
        """Step `step` (from 0) of finished match `game_id` for `user`, one of its players
        (`replay.Replays.step`)."""
        return await self._replays.step(game_id, user, step)

    async def stored_review(self, game_id: int, seat: int) -> MatchReview | None:
        """Match `game_id`'s review as the player of `seat` sees it, once made (else None)."""
        return await self._reviews.stored(game_id, seat)

    async def review_progress(self, event: ReviewOwed, sent: int) -> None:
        """`sent` of owed review `event`'s messages are delivered: after a restart only the
        rest are posted (a front-end notes each message it posts while announcing it)."""
        await self._notices.progress(event, sent)

    async def owed_review(self, event: ReviewOwed) -> ReviewOwed | None:
        """Owed review `event` as far as it was delivered, or None once it is owed no more."""
        return next((owed for owed in await self._notices.reviews_owed(event.game_id)
                     if owed.seat == event.seat), None)

    async def hint(self, game_id: int, user: UserRef, version: int) -> PracticeHint:
        """The move the computer would play for `user` at `version` of practice match
        `game_id`, and why; worked out from their own view in the computer players' workers."""
        return await self._hints.hint(game_id, user, version)

    async def last_finished(self, chat_ref: ChatRef) -> int:
        """The id of the chat's latest finished match (for /review); refused if none."""
        return await self._reviews.last_finished(chat_ref)

    async def last_played(self, user: UserRef) -> int:
        """The id of `user`'s latest finished match wherever it was played (for /review in their
        private chat); refused if none."""
        return await self._reviews.last_played(user)

    # ---- the deal of the day -----------------------------------------------------

    async def daily(self, asked_in: ChatRef, plays_in: ChatRef, user: UserRef) -> DailyStart:
        """Start `user`'s deal of the day (the same deals for everyone on a UTC day, by the
        sessions' clock; a match to 11 against `hard`) as a game in `plays_in`, where the
        front-end shows it privately; it counts on `asked_in`'s board. Asked again while it is
        being played, the same deal is given back (`DailyStart.resumed`); refused once it is
        over, or while `plays_in` has a match running (a lobby there is cleared)."""
        return await self._daily.start(asked_in, plays_in, user)

    async def daily_offer(self, user: UserRef) -> DailyOffer | DailyStart:
        """What /daily offers `user`: today's deal, dealt once they confirm (`daily`), or their
        deal under way given back; refused once today's is over."""
        return await self._daily.offer(user)

    def daily_today(self) -> str:
        """Today (UTC) as YYYY-MM-DD: the day whose deal /daily offers now."""
        return self._daily.today().isoformat()

    async def daily_board(self, chat_ref: ChatRef | None) -> DailyBoard:
        """Today's deal of the day board of `chat_ref`'s players (None: everyone's), ranked by
        points margin then fewer moves, with yesterday's winner."""
        return await self._daily.board(chat_ref)

    # ---- settings ---------------------------------------------------------------

    async def move_chat(self, chat_ref: ChatRef, new_key: str) -> ChatSettings | None:
        """The chat is now known as `new_key` (a Telegram group upgraded to a supergroup gets a
        new id): its games, the one in play too, its settings and its leaderboard go with it
        (`GameStore.move_chat`). None when there was nothing to move: moved already (told
        twice, or by another process), or never seen."""
        moved = await self._settings.move_chat(chat_ref, new_key)
        if moved is None:
            return None
        settings, old_id, new_id = moved
        for chat_id in {old_id, new_id}:
            self._games.forget_chat(chat_id)
        return settings

    async def set_chat_language(self, chat_ref: ChatRef, language: str) -> ChatSettings:
        return await self._settings.set_chat_language(chat_ref, language)

    async def set_turn_limit(self, chat_ref: ChatRef, seconds: Any) -> ChatSettings:
        return await self._settings.set_turn_limit(chat_ref, seconds)

    async def set_chat_defaults(self, chat_ref: ChatRef, defaults: dict[str, Any]) -> ChatSettings:
        return await self._settings.set_chat_defaults(chat_ref, defaults)

    async def change_chat_defaults(self, chat_ref: ChatRef, changes: dict[str, Any]) -> ChatSettings:
        """Change some of the chat's defaults (a None value removes one) in one write, not
        read, changed and written back: another change made meanwhile holds too."""
        return await self._settings.change_chat_defaults(chat_ref, changes)

    async def set_pictures(self, chat_ref: ChatRef, on: bool) -> ChatSettings:
        return await self._settings.set_pictures(chat_ref, on)

    async def set_player_language(self, user: UserRef, language: str) -> None:
        await self._settings.set_player_language(user, language)

    async def set_can_dm(self, user: UserRef, can_dm: bool) -> None:
        await self._settings.set_can_dm(user, can_dm)

    async def set_dm_pings(self, user: UserRef, on: bool) -> None:
        await self._settings.set_dm_pings(user, on)

    async def set_turn_rings(self, user: UserRef, on: bool) -> None:
        """Whether the message that says it is `user`'s turn rings (on unless they turn it off)."""
        await self._settings.set_turn_rings(user, on)
