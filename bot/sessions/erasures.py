"""A front-end's share of erasures: the ones asked for from the command line made as they
come, and the plain line each erasure owes the chats of the games it touched, posted once.

The front-end says only how a line reaches one of its chats (`post`) and, if it keeps notes
of its own on a game's messages, how it drops the erased player's (`tidy`); when to look,
what is owed and who posts it are decided here, once for every front-end."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial

from .privacy import Forgotten, Privacy, Told

log = logging.getLogger(__name__)

ASKED_EVERY = 2.0
"""Seconds between two looks for erasures asked for and lines still owed."""

Post = Callable[[Told], Awaitable[bool]]
"""Posts a line to its chat; True once the chat has it (or refuses the bot for good)."""


class ErasureCourier:
    def __init__(self, privacy: Privacy, platform: str, post: Post,
                 tidy: Callable[[], Awaitable[None]] | None = None) -> None:
        self.privacy = privacy
        self.platform = platform
        self.post = post
        self.tidy = tidy
        self._serving: asyncio.Task[None] | None = None
        self._later: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._serving = asyncio.create_task(self._serve(), name=f"{self.platform}-erasures")

    async def stop(self) -> None:
        if self._serving is not None:
            self._serving.cancel()
            await asyncio.gather(self._serving, return_exceptions=True)
            self._serving = None
        for later in list(self._later):
            later.cancel()
        await asyncio.gather(*self._later, return_exceptions=True)

    async def _serve(self) -> None:
        while True:
            try:
                for forgotten in await self.privacy.serve_asked(self.platform):
                    await self.tell_others(forgotten)
                if self.tidy is not None:
                    await self.tidy()
                for told in await self.privacy.owed_told(self.platform):
                    await self.privacy.tell(told, partial(self.post, told))
            except Exception:
                log.warning("an erasure asked for could not be made now; trying again", exc_info=True)
            await asyncio.sleep(ASKED_EVERY)

    async def tell_others(self, forgotten: Forgotten | None) -> None:
        """One plain line in each chat whose game the erased player was in; and the erasure's
        notes looked at again a little later (`Privacy.erase_later`)."""
        if forgotten is None:
            return
        later = asyncio.create_task(self.privacy.erase_later(forgotten))
        self._later.add(later)
        later.add_done_callback(self._later.discard)
        for told in self.privacy.told_of(forgotten):
            await self.privacy.tell(told, partial(self.post, told))
