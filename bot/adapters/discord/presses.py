"""Button presses and menu choices: a typed tap, `Sessions.handle`, and its reply drawn (`drawing`).

Who is pressing comes from Discord's interaction, never from the custom id;
what they ask for comes from a custom id a typed item parsed (`client.press_items`);
the sessions decide what it means. Every press gets exactly one answer: a
silent acknowledgement when the channel's message will show the change, the
player's hand, or an ephemeral message saying why nothing happened.
"""

from __future__ import annotations

import logging

import discord

from ... import metrics
from ...i18n import t
from ...render.words import failure_text, refusal_text
from ...sessions import Reason, Refused, Sessions, language_of
from ...sessions.commands import AnswerDaily
from ...sessions.replies import Refusal
from ...sessions.tap import Asker, Tap
from ...sessions.views import player_language
from ..common.failures import log_failure
from .custom_ids import Action, Menu, drawn_before, option_choice
from .daily import DAILY_ACTIONS, daily_place
from .drawing import Asked, ReplyDrawer
from .identity import PLATFORM, asker, user_ref
from .presenter import Presenter
from .replies import Reply, answer

log = logging.getLogger(__name__)


class PressHandlers:
    def __init__(self, sessions: Sessions, presenter: Presenter, *, ack_after: float) -> None:
        self.sessions = sessions
        self.presenter = presenter
        self.ack_after = ack_after
        self.drawer = ReplyDrawer(sessions, presenter)

    async def on_press(self, interaction: discord.Interaction, press: Tap | None, custom_id: str) -> None:
        began = metrics.now()
        metrics.tap_began(None if press is None else press.game_id)
        await answer(interaction, self._reply(interaction, press, custom_id), ack_after=self.ack_after)
        metrics.tap(PLATFORM, "unknown" if press is None else press.action.name.lower(), None, began)

    async def _reply(self, interaction: discord.Interaction, press: Tap | None, custom_id: str) -> Reply:
        user = user_ref(interaction)
        lang = language_of(user.language)
        try:
            lang = player_language(await self.sessions.queries.player(user))
            if press is None:
                metrics.refused()
                return Reply.note(refusal_text(Refused(Reason.STALE), lang) if drawn_before(custom_id)
                                  else t(lang, "discord.bad_button"))
            if press.action is Action.SELECT:
                press = _chosen(interaction, press)
                if press is None:
                    metrics.refused()
                    return Reply.note(refusal_text(Refused(Reason.BAD_INPUT), lang))
            who = asker(interaction)
            if press.action in DAILY_ACTIONS:
                return await self._daily(interaction, who, press, lang)
            reply = await self.sessions.handle(who, press)
            if isinstance(reply, Refusal):
                metrics.refused()
            return await self.drawer.draw(reply, Asked(interaction, who, lang, press))
        except Exception as exc:
            log_failure(log, f"press {custom_id!r}", exc)
            metrics.failed()
            return Reply.note(failure_text(exc, lang))

    async def _daily(self, interaction: discord.Interaction, who: Asker, press: Tap, lang: str) -> Reply:
        """Deal or Not now under the offer of /daily: dealt in its place of the channel
        (`daily_place`), the offer then saying it began; Not now, that nothing was dealt."""
        if who.chat is None:
            return Reply.note(refusal_text(Refused(Reason.BAD_INPUT), lang))
        reply = await self.sessions.handle(who, AnswerDaily(press, daily_place(who.chat, who.user)))
        return await self.drawer.draw(reply, Asked(interaction, who, lang, press))


def _chosen(interaction: discord.Interaction, press: Tap) -> Tap | None:
    """A lobby menu's choice decoded into the option it sets (an OPTION tap, as a Telegram
    button carries it); None for a value the menu does not offer."""
    choice = option_choice(Menu(press.arg), dict(interaction.data or {}).get("values"))
    return None if choice is None else Tap(Action.OPTION, press.game_id, arg="=".join(choice))
