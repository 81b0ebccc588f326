"""The deal of the day on Discord: where it is played, and the offer /daily answers with (an
ephemeral message, the asker's alone, dealt only when they press Deal)."""

from __future__ import annotations

import dataclasses

from ...i18n import t
from ...render.daily import daily_offer_text
from ...sessions import ChatRef, DailyOffer, UserRef
from ...sessions.tap import Action, Tap
from .components import Style, button, layout
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
