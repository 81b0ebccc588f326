"""A finished match's review on Telegram: the asker's privately, one line in the group.

A player's review is a message of every seat's accuracy and their three costliest moves
with why; where the match's group shows pictures, each of those moves follows as a photo
of the position (the table, the hand, the move played and the better one) under its line.

The sessions make the review (in the background: a tap is answered at once) and keep what
is owed of it until it is posted (`ReviewOwed`): the asker's messages, and the group's
accuracy line once, when the review is first made. This words and posts them, each message
noted as it goes out, so a restart in the middle posts only the rest."""

from __future__ import annotations

import asyncio
import logging

from ...i18n import t
from ...pictures import review_scene
from ...render.review import accuracy_line, costly_line, personal_review_text
from ...sessions import MatchReview, ReviewOwed, Sessions
from .audience import Audience
from .identity import PLATFORM, topic_id
from .markup import escape
from .outbox import Content, Outbox, Picture
from .replay import replay_button

log = logging.getLogger(__name__)


def costly_pictures(found: MatchReview, seat: int, lang: str) -> list[Content]:
    """Each of the seat's costliest moves as a photo under its line (the line alone where a
    photo cannot go)."""
    game, review = found.game, found.review
    out = []
    for play in review.costliest(seat):
        line = escape(costly_line(review, play, lang, game.deck_style))
        scene = review_scene(game.deck_style, review, play)
        out.append(Content(line, (), Picture(scene, lang, line)))
    return out


def private_review_html(found: MatchReview, seat: int, lang: str) -> str:
    """A player's own review: the accuracy of every seat, and their costliest moves with why."""
    chat = found.game.chat.title or "—"
    return (f"<b>{escape(t(lang, 'review.for', chat=chat))}</b>\n"
            + escape(personal_review_text(found.review, found.names, seat, lang, found.game.deck_style)))


class ReviewPoster:
    def __init__(self, sessions: Sessions, outbox: Outbox, audience: Audience) -> None:
        self.sessions = sessions
        self.presenter = audience
        self.outbox = outbox
        self._posting: dict[tuple[int, int | None], asyncio.Task[None]] = {}

    def post_owed(self, event: ReviewOwed) -> None:
        """Post what `event` owes, once of all processes (`sessions.delivery.announce`), after this
        process's earlier posting of the same review (which may have posted it already)."""
        mark = (event.game_id, event.seat)
        earlier = self._posting.get(mark)
        task = asyncio.create_task(self._announce(event, earlier), name=f"telegram-review-{event.game_id}")
        self._posting[mark] = task

        def done(finished: asyncio.Task[None]) -> None:
            if self._posting.get(mark) is finished:
                del self._posting[mark]

        task.add_done_callback(done)

    async def _announce(self, event: ReviewOwed, earlier: asyncio.Task[None] | None) -> None:
        if earlier is not None:
            await asyncio.gather(earlier, return_exceptions=True)
        try:
            await self.sessions.delivery.announce(event, lambda: self._post(event))
        except Exception:
            log.warning("could not post a review of game %d", event.game_id, exc_info=True)

    async def _post(self, event: ReviewOwed) -> bool:
        """True once every message `event` owes is out, or its chat refuses the bot for good."""
        owed = await self.sessions.delivery.owed_review(event)
        if owed is None:
            return True
        if owed.seat is None:
            return await self._post_line(owed)
        found = await self.sessions.queries.stored_review(owed.game_id, owed.seat)
        if found is None:
            return False
        chat_id, user_id = int(found.game.chat.key), int(owed.player_key)
        player = await self.sessions.queries.find_player(PLATFORM, owed.player_key)
        lang = self.presenter.language(player)
        replay = ((replay_button(owed.game_id, lang),),)
        parts = [Content(private_review_html(found, owed.seat, lang), replay)]
        if await self.presenter.draws_pictures(chat_id):
            parts += costly_pictures(found, owed.seat, lang)
        for number in range(owed.sent, len(parts)):
            if await self.outbox.post(user_id, parts[number]) is None:
                return user_id in self.outbox.refusing
            await self.sessions.delivery.review_progress(owed, number + 1)
        return True

    async def _post_line(self, owed: ReviewOwed) -> bool:
        found = await self.sessions.queries.stored_review(owed.game_id, 0)
        if found is None:
            return False
        chat_id = self.outbox.moved.get(int(owed.chat_key), int(owed.chat_key))
        lang = await self.presenter.chat_language(chat_id)
        line = escape(accuracy_line(found.review, found.names, lang))
        posted = await self.outbox.post(chat_id, Content(line), game_id=owed.game_id,
                                        thread=topic_id(owed.thread))
        return posted is not None or chat_id in self.outbox.refusing
