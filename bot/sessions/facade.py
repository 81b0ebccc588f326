"""`Sessions` as front-ends hold it: the one door for writes (`handle`), with what every
command means (`taps`) beside the service's parts.

The command handler (`taps.py`) is built on the service's parts, so it hangs on a subclass
of the service here rather than inside `service.py`: that keeps the sessions' modules
importing each other one way only."""

from __future__ import annotations

from functools import cached_property

from .commands import UNBLOCKED, Command
from .log_context import about
from .refusals import Refused
from .replies import Refusal
from .service import Sessions as Service
from .tap import Asker, Reply, Tap
from .taps import Taps


class Sessions(Service):
    async def handle(self, asker: Asker, command: Command) -> Reply:
        """The one door of every front-end: what `command` (`sessions.commands`: a tap, a
        typed command) does for `asker`, and what they see back; a refusal changed nothing.
        A user an owner blocked is turned away first (`Owners.admit`), whatever they ask but
        what the platform says of them and the erasure of their data (`commands.UNBLOCKED`)."""
        where = asker.chat or asker.home
        if isinstance(command, Tap):
            game, event = command.game_id, f"tap.{command.action.name.lower()}"
        else:
            game, event = None, f"command.{type(command).__name__.lower()}"
        with about(game=game, chat=where and f"{where.platform}:{where.key}", event=event):
            try:
                if not isinstance(command, UNBLOCKED):
                    await self.owners.admit(asker.user)
            except Refused as refused:
                return Refusal(refused)
            return await self.taps.handle(asker, command)

    @cached_property
    def taps(self) -> Taps:
        """What every command means (`taps.Taps`), reached through `handle`."""
        return Taps(self)
