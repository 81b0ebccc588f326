"""A finished match's review on Telegram: each player's privately, one line in the group.

A player's review is a message of every seat's accuracy and their three costliest moves
with why; where the match's group shows pictures, each of those moves follows as a photo
of the position (the table, the hand, the move played and the better one) under its line.

The review is worked out (or read back) by the sessions; this only words and posts it.
When it was just worked out, every player of the match who opened their private chat with
the bot gets theirs and the group gets the accuracy line; asked for again, it goes to the
one who asked alone, so a second press posts nothing in the group. Nobody is sent a match's
review twice within two minutes (a double tap, or a press just after it went to everyone):
the one who asked is told it is already in their private chat."""

from __future__ import annotations

from enum import Enum

from ...i18n import t
from ...pictures import review_scene
from ...render_review import accuracy_line, costly_line, personal_review_text
from ...sessions import MatchReview, Sessions
from .identity import topic_id
from .markup import escape
from .outbox import Content, Picture
from .present import Presenter


def costly_pictures(found: MatchReview, seat: int, lang: str) -> list[Content]:
    """Each of the seat's costliest moves as a photo under its line (the line alone where a
    photo cannot go)."""
    game, review = found.game, found.review
    out = []
    for play in review.costliest(seat):
        line = escape(costly_line(play, lang, review.variant, game.deck_style))
        scene = review_scene(game.deck_style, review.variant, play.round, play.play, play.table, play.hand,
                             play.played, play.best)
        out.append(Content(line, (), Picture(scene, lang, line)))
    return out


def private_review_html(found: MatchReview, seat: int, lang: str) -> str:
    """A player's own review: the accuracy of every seat, and their costliest moves with why."""
    chat = found.game.chat.title or "—"
    return (f"<b>{escape(t(lang, 'review.for', chat=chat))}</b>\n"
            + escape(personal_review_text(found.review, found.names, seat, lang, found.game.deck_style)))


class Delivery(Enum):
    """What became of a review the asker asked for."""

    SENT = "sent"
    ALREADY_SENT = "already_sent"
    """It went to them moments ago (`Sessions.claim_review_sending`): nothing sent again."""
    UNREACHABLE = "unreachable"
    """They have not opened their private chat with the bot."""


class ReviewPoster:
    def __init__(self, sessions: Sessions, presenter: Presenter) -> None:
        self.sessions = sessions
        self.presenter = presenter
        self.outbox = presenter.outbox

    async def deliver(self, found: MatchReview) -> Delivery:
        """Post the review as the module says, to each player it did not go to moments ago;
        what became of the asker's."""
        asked = Delivery.UNREACHABLE
        chat_id = int(found.game.chat.key)
        pictures = await self.presenter.draws_pictures(chat_id)
        for seat, player in found.players:
            if (seat != found.seat and not found.fresh) or not self.presenter.reachable(player):
                continue
            if not await self.sessions.claim_review_sending(found.game.id, player):
                if seat == found.seat:
                    asked = Delivery.ALREADY_SENT
                continue
            if seat == found.seat:
                asked = Delivery.SENT
            lang = self.presenter.language(player)
            self.outbox.post(int(player.user_key), Content(private_review_html(found, seat, lang)))
            for content in costly_pictures(found, seat, lang) if pictures else ():
                self.outbox.post(int(player.user_key), content)
        if found.fresh:
            lang = await self.presenter.chat_language(chat_id)
            line = escape(accuracy_line(found.review, found.names, lang))
            self.outbox.post(chat_id, Content(line), game_id=found.game.id,
                             thread=topic_id(found.game.chat.thread))
        return asked
