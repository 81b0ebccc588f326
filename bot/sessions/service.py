"""The life of a game in a chat, for every front-end: lobby, seats, turns,
timers, computer players, results and ratings.

`Sessions` only puts together the parts that do the work, each a public attribute: games
(loading, memory, locks), lobby, play, scheduler (timers and computer turns), settings,
reviews, the deal of the day, queries (every read) and delivery (getting messages out);
they reach the store through the `GameStore` port alone. A request that is not allowed
raises `Refused` and changes nothing; every change is committed to the store before any
event about it is published. Front-ends go through `facade.Sessions.handle` for writes and
`queries` for reads.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from ..ai import LEVELS, choose_move
from ..ai.review import DEFAULT_SEARCHES
from ..engine import Move, SeatView
from ..i18n import LANGUAGES
from .alarm import Alarm
from .context import Context
from .daily import Daily
from .delivery import Delivery
from .directory import Directory, ReadingDirectory
from .games import EventBus, Games, SharedGames
from .hints import Hints
from .holds import MessageHolds, Unheld
from .lobby import LOBBY_IDLE, Lobby
from .notices import Notices
from .owners import Owners
from .play import Play
from .ports import GameStore, StorageFailed
from .privacy import Privacy
from .puzzles import Puzzles
from .queries import Queries
from .refs import ChatRef, UserRef, language_of
from .replay import Replays
from .reviews import Reviews
from .scheduler import Scheduler
from .seasons import Seasons
from .settings import Settings
from .thinking import Chooser, ComputerPool, Think, think_in_thread
from .tournament_play import Tournaments

__all__ = [
    "LANGUAGES", "LEVELS", "LOBBY_IDLE", "ChatRef", "Sessions", "UserRef", "default_chooser", "language_of",
]


def default_chooser(level: str, view: SeatView, seed: str, budget: float | None = None) -> Move:
    return choose_move(level, view, seed, budget)


class Sessions:
    """The sessions put together: each use case's handler, the reads (`queries`), the
    delivery of messages (`delivery`). Front-ends write through `handle` (`facade`), read
    through `queries`; tests and tools may call a handler directly."""

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
        self.store = store
        """The store, through its ports: for tests and tools, never a front-end."""
        self.clock = clock
        self.bus = EventBus()
        """Where every change's events go once it is committed: front-ends `subscribe`."""
        # Whether other bot processes share the store is decided here, once: with them, the
        # parts that differ read the store where a process alone keeps what it read.
        shared = bool(getattr(store, "shared", False))
        self.directory = ReadingDirectory(store) if shared else Directory(store)
        self.games = (SharedGames if shared else Games)(store, self.directory, max_timeouts)
        context = Context(store, self.directory, self.games, self.bus, Alarm(warn_before), clock)
        self.play = Play(context, computer_pace=computer_pace, max_timeouts=max_timeouts)
        """Moves, handing a seat to the computer and taking it back."""
        self.lobby = Lobby(context, self.play)
        """Opening, seating, options, starting, rematches and cancelling, each one unit of work."""
        self.scheduler = Scheduler(context, self.play, chooser=chooser or default_chooser,
                                   think=think or think_in_thread, timeout_level=timeout_level)
        """Timers and computer turns (`run_forever`)."""
        self.settings = Settings(store, self.directory, self.games)
        self.daily = Daily(context, self.play)
        self.hints = Hints(self.directory, self.games, pool)
        self.holds = (MessageHolds if shared else Unheld)(store, self.scheduler.owner)
        self.notices = Notices(store, self.holds, sleep)
        self.reviews = Reviews(store, self.directory, self.games, self.notices, self.bus, pool,
                               review_searches, clock, pool is not None if review_at_end is None
                               else review_at_end)
        self.bus.subscribe(self.reviews.ended)
        self.replays = Replays(store, self.directory, self.games)
        self.delivery = Delivery(store, self.directory, self.games, self.scheduler, self.holds,
                                 self.notices, self.reviews, shared=shared)
        """Getting messages out: served chats, message notes and holds, owed announcements."""
        self.puzzles = Puzzles(store, self.directory, self.games, pool)
        """Puzzles from a chat's own finished matches (`sessions.puzzles`)."""
        self.tournaments = Tournaments(store, self.directory, self.lobby, clock)
        """The chats' tournaments (`sessions.tournament_play`)."""
        self.bus.subscribe(self.tournaments.on_event)
        self.privacy = Privacy(context, self.play, self.holds)
        """A player's data: shown whole, erased at once (`sessions.privacy`)."""
        self.owners = Owners(store, clock, self.notices.owed, lambda: self.scheduler.served,
                             process=self.scheduler.owner)
        """The owners' commands, blocked users, this process's heartbeat and the notices."""
        self.seasons = Seasons(store, self.directory, clock, self.scheduler.owner)
        """The monthly seasons: the boards, a player's past seasons, the champions announced."""
        self.queries = Queries(store, self.directory, self.games, self.lobby, self.reviews, self.daily,
                               self.replays, owners=self.owners, seasons=self.seasons,
                               privacy=self.privacy, tournaments=self.tournaments)
        """Every read a front-end makes (`sessions.queries`)."""

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
        await self.reviews.stop()
        await self.tournaments.stop()
        await self.store.close()
