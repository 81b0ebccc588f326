"""What every use case that changes a game works on, given once (`UseCase`) instead of as the
same six arguments to each: the store, the chats and players, the games in memory, the event
bus, the timer loop's alarm and the clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .alarm import Alarm
from .directory import Directory
from .games import EventBus, Games
from .ports import GameStore


@dataclass(frozen=True, slots=True)
class Context:
    store: GameStore
    directory: Directory
    games: Games
    bus: EventBus
    """Where every change's events go, once it is committed."""
    alarm: Alarm
    """Told of every deadline set, so that the timer loop wakes for it."""
    clock: Callable[[], float]


class UseCase:
    """A handler of use cases on a `Context`: its parts as attributes of its own."""

    def __init__(self, context: Context) -> None:
        self.store = context.store
        self.directory = context.directory
        self.games = context.games
        self.bus = context.bus
        self.alarm = context.alarm
        self.clock = context.clock
