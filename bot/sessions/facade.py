"""`Sessions` as front-ends hold it: the service with its tap handler and the owners' tools
beside it.

The handler (`taps.py`) is built on the service's public methods, so it hangs on a
subclass of the service here rather than inside `service.py`: that keeps the sessions'
modules importing each other one way only."""

from __future__ import annotations

from functools import cached_property

from .commands import Command
from .owners import GatedTaps, Owners
from .refs import UserRef
from .seasons import Seasons
from .service import Sessions as Service
from .tap import Asker, Reply
from .taps import Taps


class Sessions(Service):
    async def handle(self, asker: Asker, command: Command) -> Reply:
        """The one door of every front-end: what `command` (`sessions.commands`: a tap, a
        typed command) does for `asker`, and what they see back; a refusal changed nothing."""
        return await self.taps.handle(asker, command)

    @cached_property
    def taps(self) -> Taps:
        """What every tap and command means: front-ends decode, call it, draw the reply. A
        blocked user's taps are refused first (`owners`)."""
        return GatedTaps(self, self.owners)

    @cached_property
    def owners(self) -> Owners:
        """The owners' commands, blocked users, this process's heartbeat and the notices."""
        return Owners(self, self.parts.store, self.clock, process=self.parts.scheduler.owner)

    @cached_property
    def seasons(self) -> Seasons:
        """The monthly seasons: the boards, a player's past seasons, the champions announced."""
        return Seasons(self.parts.store, self.parts.directory, self.clock, self.parts.scheduler.owner)

    async def admit(self, user: UserRef) -> None:
        """Refuse (`Refused`, `Reason.BLOCKED`) a user an owner blocked: a front-end asks this
        before any command it takes, so that nothing a blocked user asks is done."""
        await self.owners.admit(user)
