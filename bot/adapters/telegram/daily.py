"""The deal of the day on Telegram, around its match: the offer /daily answers with (dealt only
when its player taps Deal), and the group's one line about it, edited as it goes: who plays
it, then its result (or that the day ended first).

The line is the offer's own message, kept with the game once dealt (`LINE`: chat, message and
the player's name), so that any process, after any restart, edits that message and no other:
an edit done twice shows the same words, so the result is told once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ...i18n import t
from ...render.daily import daily_done_text, daily_offer_text, daily_unfinished_text
from ...sessions import DailyOffer, GameCancelled, MatchEnded
from ...sessions.tap import Action, Tap
from .keyboards import Keyboard, tap
from .markup import escape
from .outbox import Content, Outbox, Target

LINE = "daily:line"
"""The game's note of the group's line: `chat:message:name`."""


def offer_content(offer: DailyOffer, user_key: str, lang: str) -> Content:
    """The offer, with its two buttons (for the player it was offered to, on its day)."""
    keyboard: Keyboard = ((
        tap(t(lang, "daily.offer.button"), Action.DAILY_DEAL,
            arg=Tap.daily_offer(Action.DAILY_DEAL, offer.day, user_key).arg),
        tap(t(lang, "daily.offer.drop"), Action.DAILY_DROP,
            arg=Tap.daily_offer(Action.DAILY_DROP, offer.day, user_key).arg),
    ),)
    return Content(escape(daily_offer_text(offer, lang)), keyboard)


class DailyLines:
    def __init__(self, outbox: Outbox, chat_language: Callable[[int], Awaitable[str]]) -> None:
        self.outbox = outbox
        self.chat_language = chat_language

    async def keep(self, game_id: int, chat_id: int, message_id: int, name: str) -> None:
        """Message `message_id` of group `chat_id` is the line of deal `game_id`, played by `name`."""
        await self.outbox.refs.set(game_id, LINE, f"{chat_id}:{message_id}:{name}")

    def show(self, chat_id: int, message_id: int, html: str) -> Awaitable[bool]:
        """The line drawn as `html`, without buttons."""
        async def render() -> Content:
            return Content(html)

        return self.outbox.update(Target(chat_id, message_id=message_id), render)

    async def tell(self, event: MatchEnded | GameCancelled) -> None:
        """The deal ended (`MatchEnded`) or its day did (`GameCancelled.day_over`): the group's line
        says so, where the deal was asked for in a group."""
        kept = await self.outbox.refs.get(event.game_id, LINE)
        if kept is None:
            return
        chat, message, name = kept.split(":", 2)
        lang = await self.chat_language(int(chat))
        if isinstance(event, MatchEnded):
            words = daily_done_text(event, lang)
        else:
            words = daily_unfinished_text(name, event.day_over, lang)
        await self.show(int(chat), int(message), escape(words))
