"""The deal of the day on Discord: where it is played, and the offer /daily answers with (an
ephemeral message, the asker's alone, dealt only when they press Deal)."""

from __future__ import annotations

import dataclasses

from ...i18n import t
from ...render import refusal_text
from ...render_daily import daily_offer_text, daily_started_text
from ...sessions import ChatRef, DailyOffer, DailyStart, Reason, Refused, Sessions, UserRef
from ...sessions.tap import Action, Asker, Tap
from .components import Style, button, layout
from .presenter import Presenter
from .replies import Reply

DAILY_ACTIONS = frozenset({Action.DAILY_DEAL, Action.DAILY_DROP})


def daily_place(chat: ChatRef, user: UserRef) -> ChatRef:
    """Where `user`'s deal of the day is played: the channel, as a place of its own, so that it
    keeps neither the channel's own game nor another player's deal from being played. Discord
    has no private chat the bot's games can live in (they need a server channel), and an
    ephemeral message lives 15 minutes only; the hand is private there as in every game."""
    return dataclasses.replace(chat, thread=f"daily-{user.key}")


def offer_reply(offer: DailyOffer, user: UserRef, lang: str) -> Reply:
    """/daily's answer before anything is dealt: the offer, with Deal and Not now."""
    deal = Tap.daily_offer(Action.DAILY_DEAL, offer.day, user.key)
    drop = Tap.daily_offer(Action.DAILY_DROP, offer.day, user.key)
    view = layout([button(t(lang, "daily.offer.button"), deal, Style.primary),
                   button(t(lang, "daily.offer.drop"), drop)])
    return Reply.note(daily_offer_text(offer, lang), view)


async def pressed(sessions: Sessions, presenter: Presenter, who: Asker, press: Tap, lang: str) -> Reply:
    """Deal or Not now under the offer: the deal dealt in its place of the channel (or given
    back, pressed again), the offer then saying it began; Not now, that nothing was dealt."""
    if who.chat is None:
        return Reply.note(refusal_text(Refused(Reason.BAD_INPUT), lang))
    reply = await sessions.taps.daily_deal(who, press, daily_place(who.chat, who.user))
    if reply.refused is not None:
        return Reply.note(refusal_text(reply.refused, lang))
    if reply.say is not None:
        return Reply.update(content=t(lang, reply.say.key))
    start = reply.result
    assert isinstance(start, DailyStart)
    if start.resumed:
        row = await sessions.game_row(start.table.game_id)
        presenter.redraw(row.id, row.chat.key)
    return Reply.update(content=daily_started_text(start, lang))
