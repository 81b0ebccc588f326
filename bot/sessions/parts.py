"""The use-case handlers `Sessions` puts together, for code that wants one of them rather
than the facade's one-line delegations (a front-end's tap handler, a test): each works on
the store through the port it needs (`ports`)."""

from __future__ import annotations

from dataclasses import dataclass

from .daily import Daily
from .directory import Directory
from .games import EventBus, Games
from .hints import Hints
from .holds import MessageHolds
from .lobby import Lobby
from .notices import Notices
from .play import Play
from .ports import GameStore
from .queries import Queries
from .reviews import Reviews
from .scheduler import Scheduler
from .settings import Settings


@dataclass(frozen=True, slots=True)
class Parts:
    store: GameStore
    """The store, through its ports (games, chats and players, reports, coordination)."""
    bus: EventBus
    """Where every change's events go, once it is committed."""
    directory: Directory
    games: Games
    lobby: Lobby
    """Opening, seating, options, starting, rematches and cancelling, each one unit of work."""
    play: Play
    scheduler: Scheduler
    queries: Queries
    settings: Settings
    reviews: Reviews
    daily: Daily
    hints: Hints
    holds: MessageHolds
    notices: Notices
