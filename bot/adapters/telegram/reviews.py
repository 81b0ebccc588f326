"""A finished match's review on Telegram: each player's privately, one line in the group.

The review is worked out (or read back) by the sessions; this only words and posts it.
When it was just worked out, every player of the match who opened their private chat with
the bot gets theirs and the group gets the accuracy line; asked for again, it goes to the
one who asked alone, so a second press posts nothing in the group."""

from __future__ import annotations

from ...i18n import t
from ...render_review import accuracy_line, personal_review_text
from ...sessions import MatchReview, PlayerProfile
from .identity import topic_id
from .markup import escape
from .outbox import Content
from .present import Presenter


def private_review_html(found: MatchReview, seat: int, lang: str) -> str:
    """A player's own review: the accuracy of every seat, and their costliest moves with why."""
    chat = found.game.chat.title or "—"
    return (f"<b>{escape(t(lang, 'review.for', chat=chat))}</b>\n"
            + escape(personal_review_text(found.review, found.names, seat, lang, found.game.deck_style)))


class ReviewPoster:
    def __init__(self, presenter: Presenter) -> None:
        self.presenter = presenter
        self.outbox = presenter.outbox

    async def deliver(self, found: MatchReview) -> bool:
        """Post the review as the module says; whether the one who asked could be written to."""
        asked: PlayerProfile | None = None
        for seat, player in found.players:
            if seat == found.seat:
                asked = player
            elif not found.fresh:
                continue
            if self.presenter.reachable(player):
                html = private_review_html(found, seat, self.presenter.language(player))
                self.outbox.post(int(player.user_key), Content(html))
        if found.fresh:
            chat_id = int(found.game.chat.key)
            lang = await self.presenter.chat_language(chat_id)
            line = escape(accuracy_line(found.review, found.names, lang))
            self.outbox.post(chat_id, Content(line), game_id=found.game.id,
                             thread=topic_id(found.game.chat.thread))
        return asked is not None and self.presenter.reachable(asked)
