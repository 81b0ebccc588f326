"""A finished match's review on Discord: the player who asked sees theirs in an ephemeral
reply, and the channel gets the accuracy line once, when the review is first worked out.

The review may take some seconds to work out: `replies.answer` defers the interaction
first, and the reply follows."""

from __future__ import annotations

from ...i18n import t
from ...render_review import personal_review_text
from ...sessions import Sessions, UserRef
from .embeds import text_embed
from .presenter import Presenter
from .replies import Reply


async def review_reply(sessions: Sessions, presenter: Presenter, game_id: int, user: UserRef,
                       lang: str) -> Reply:
    """The review of match `game_id` for `user`, in `lang`; refused as the sessions say."""
    found = await sessions.review(game_id, user)
    if found.fresh:
        presenter.post_review_line(found)
    where = found.game.chat.title or f"<#{found.game.chat.key}>"
    text = (t(lang, "review.for", chat=where) + "\n"
            + personal_review_text(found.review, found.names, found.seat, lang, found.game.deck_style))
    return Reply.message(embed=text_embed(text))
