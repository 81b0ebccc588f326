"""A round's breakdown, the end of a match and its achievements: posted once of all processes,
in order."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ...i18n import t
from ...sessions import AchievementsEarned, MatchEnded, RoundEnded, Sessions
from .audience import Audience
from .identity import topic_id
from .markup import escape
from .outbox import Content, Outbox

log = logging.getLogger(__name__)


class Announcements:
    def __init__(self, sessions: Sessions, outbox: Outbox, audience: Audience) -> None:
        self.sessions, self.outbox, self.audience = sessions, outbox, audience
        self._announcing: dict[int, asyncio.Task[bool]] = {}
        """Per game, its last announcement under way: the next waits for it (this process's
        order, not a copy of shared state)."""

    def announce(self, event: RoundEnded | MatchEnded | AchievementsEarned, content: Content,
                 first: Callable[[], Awaitable[None]] | None = None) -> asyncio.Task[bool]:
        """Post a round's breakdown or the end of a match, once of all processes
        (`sessions.delivery.announce`), after the game's earlier announcements; `first`, what goes out
        before it while it is owed (the players' private copies, `privately.PrivateCopies`).
        The group's table edits wait for it meanwhile (`Pacer.owe_post`).
        Once the chat refuses the bot (it was removed from the group) it is owed no more:
        trying again at every start would only be refused again."""
        chat_id, earlier = int(event.chat_key), self._announcing.get(event.game_id)
        thread = topic_id(event.thread)

        async def post() -> bool:
            if first is not None:
                try:
                    await first()
                except Exception:
                    log.warning("could not post the private copies of %s of game %d",
                                type(event).__name__, event.game_id, exc_info=True)
            if await self.outbox.post(chat_id, content, game_id=event.game_id, thread=thread) is not None:
                return True
            if thread is not None and (chat_id, thread) in self.outbox.lost_topics:
                return await self._after_lost_topic(event, content)
            if chat_id not in self.outbox.refusing:
                return False
            log.info("chat %s refuses the bot: %s of game %d is dropped", event.chat_key,
                     type(event).__name__, event.game_id)
            return True

        async def announce() -> bool:
            if earlier is not None:
                await asyncio.gather(earlier, return_exceptions=True)
            try:
                return await self.sessions.delivery.announce(event, post)
            except Exception:
                log.warning("could not post %s of game %d", type(event).__name__, event.game_id,
                            exc_info=True)
                return False

        paid = self.outbox.pacer.owe_post(chat_id)
        task = asyncio.create_task(announce(), name=f"telegram-announce-{event.game_id}")
        task.add_done_callback(lambda _: paid())
        self._announcing[event.game_id] = task

        def done(finished: asyncio.Task[bool]) -> None:
            if self._announcing.get(event.game_id) is finished:
                del self._announcing[event.game_id]

        task.add_done_callback(done)
        return task

    async def _after_lost_topic(self, event: RoundEnded | MatchEnded | AchievementsEarned,
                                content: Content) -> bool:
        """An announcement its topic refused: the end of a match is posted in General, where it
        can still be read (without its Rematch button: a rematch would open in the lost topic);
        a round's breakdown is dropped, its game stopped (`Presenter.topic_lost`)."""
        if not isinstance(event, MatchEnded):
            return True
        lang = await self.audience.chat_language(int(event.chat_key))
        moved = Content(escape(t(lang, "telegram.topic.result_here")) + "\n\n" + content.text)
        return await self.outbox.post(int(event.chat_key), moved, game_id=event.game_id) is not None
