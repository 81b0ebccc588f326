"""Getting a game's messages out, for every front-end: which chats this process serves, the
front-ends' notes about their messages, one process at a time drawing a message, and the
announcements (round ends, match ends, reviews) owed until a chat has them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from .directory import Directory
from .events import Event, ReviewOwed
from .games import Games
from .holds import HandedOver, MessageHolds
from .notices import SWEEP_EVERY, Notices
from .ports import FrontEndNotes, GameStore, Served
from .records import GameRow
from .refs import ChatRef
from .reviews import Reviews
from .scheduler import Scheduler

_T = TypeVar("_T")
log = logging.getLogger(__name__)


class MessageRefs:
    """The store as front-ends see it: their notes about a game's messages, and the messages
    counted against a platform's limits."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def get_refs(self, game_id: int) -> dict[str, str]:
        return await self._store.get_refs(game_id)

    async def set_ref(self, game_id: int, key: str, value: str | None) -> None:
        await self._store.set_ref(game_id, key, value)

    async def take_send(self, chat: str, now: float, limit: int, period: float,
                        counted_at: float | None = None) -> float:
        return await self._store.take_send(chat, now, limit, period, counted_at)

    async def settle_send(self, chat: str, counted_at: float, went: float | None) -> None:
        await self._store.settle_send(chat, counted_at, went)


class Delivery:
    def __init__(self, store: GameStore, directory: Directory, games: Games, scheduler: Scheduler,
                 holds: MessageHolds, notices: Notices, reviews: Reviews, *, shared: bool) -> None:
        self._directory = directory
        self._games = games
        self._scheduler = scheduler
        self._holds = holds
        self._notices = notices
        self._reviews = reviews
        self._unreviewed_looked: set[str] = set()
        self.refs: FrontEndNotes = MessageRefs(store)
        """Where front-ends keep their notes about a game's messages."""
        self.shared = shared
        """Whether other bot processes share the database (and so the chats' messages): said
        once, where the sessions are built, for a front-end to build its own delivery by."""

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
        chats = {game_id: await self._chat_of(game_id) for game_id in {event.game_id for event in owed}}
        return [event for event in owed if self.serves(chats[event.game_id])]

    async def _chat_of(self, game_id: int) -> ChatRef:
        row, _ = await self._games.load(game_id)
        return (await self._games.summary(row)).chat

    async def _serves_game(self, row: GameRow, platform: str) -> bool:
        chat = await self._chat_of(row.id)
        return chat.platform == platform and self.serves(chat)

    async def _owed_and_made(self, owed: list[Event]) -> list[Event]:
        """`owed` less the reviews not made yet, which are made (here, unless under way) and
        handed to the front-ends once they are."""
        unmade = set()
        for game_id in {event.game_id for event in owed if isinstance(event, ReviewOwed)}:
            if not await self._reviews.is_made(game_id):
                unmade.add(game_id)
                if self.serves(await self._chat_of(game_id)):
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

    async def review_progress(self, event: ReviewOwed, sent: int) -> None:
        """`sent` of owed review `event`'s messages are delivered: after a restart only the
        rest are posted (a front-end notes each message it posts while announcing it)."""
        await self._notices.progress(event, sent)

    async def owed_review(self, event: ReviewOwed) -> ReviewOwed | None:
        """Owed review `event` as far as it was delivered, or None once it is owed no more."""
        return next((owed for owed in await self._notices.reviews_owed(event.game_id)
                     if owed.seat == event.seat), None)
