"""A finished match's review on Discord: the player who asked sees theirs in an ephemeral
reply, and the channel gets the accuracy line once, when the review is first worked out
(owed by the sessions until posted, `Presenter._post_review_line`).

Where the channel shows pictures, each of the player's costliest moves follows, seen only by
them too, as the picture of its position. The review may take some seconds to work out:
`replies.answer` defers the interaction first, and the reply follows."""

from __future__ import annotations

from ...i18n import t
from ...pictures import review_scene
from ...render.review import costly_line, personal_review_text
from ...sessions import MatchReview
from .components import layout
from .embeds import text_embed
from .presenter import Presenter
from .replay import replay_button
from .replies import Reply


async def review_reply(presenter: Presenter, found: MatchReview, lang: str) -> Reply:
    """A player's review (`sessions.reviews.review`), in `lang`."""
    where = found.game.chat.title or f"<#{found.game.chat.key}>"
    text = (t(lang, "review.for", chat=where) + "\n"
            + personal_review_text(found.review, found.names, found.seat, lang, found.game.deck_style))
    return Reply.message(embed=text_embed(text), view=layout([replay_button(found.game.id, lang)]),
                         then=await _costly_pictures(presenter, found, lang))


async def _costly_pictures(presenter: Presenter, found: MatchReview, lang: str) -> tuple[Reply, ...]:
    """Where the match's channel shows pictures, each of the player's costliest moves as the
    picture of its position under its line."""
    game, review, painter = found.game, found.review, presenter.painter
    if not await painter.wanted(game.chat.key):
        return ()
    out = []
    for number, play in enumerate(review.costliest(found.seat), 1):
        scene = review_scene(game.deck_style, review, play)
        picture = await painter.review(scene, lang, number)
        if picture is not None:
            line = costly_line(review, play, lang, game.deck_style)
            out.append(Reply.message(embed=text_embed(line), picture=picture))
    return tuple(out)
