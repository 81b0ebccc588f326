"""Button presses and menu choices: a typed tap, `sessions.taps`, and its reply drawn.

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
from ...render import failure_text, refusal_text
from ...render_review import hint_text
from ...sessions import MatchReview, Reason, Refused, ReplayStep, Sessions, language_of
from ...sessions.hints import PracticeHint
from ...sessions.interaction import PLAIN, HandPrompt
from ...sessions.puzzles import Puzzle, PuzzleAnswer
from ...sessions.tap import Asker, Tap
from ...sessions.tap import Reply as TapReply
from ...sessions.taps import HAND_ACTIONS
from ..common.failures import log_failure
from .components import confirm_cancel
from .custom_ids import Action, Menu, drawn_before, option_choice
from .daily import DAILY_ACTIONS, pressed
from .hands import DrawnHand, HandTracker, draw_hand
from .identity import PLATFORM, asker, user_ref
from .presenter import Presenter
from .puzzle import answer_reply, puzzle_reply
from .replay import replay_reply
from .replies import Reply, answer
from .reviews import review_reply

log = logging.getLogger(__name__)


class PressHandlers:
    def __init__(self, sessions: Sessions, hands: HandTracker, presenter: Presenter, *,
                 ack_after: float) -> None:
        self.sessions = sessions
        self.hands = hands
        self.presenter = presenter
        self.ack_after = ack_after

    async def on_press(self, interaction: discord.Interaction, press: Tap | None, custom_id: str) -> None:
        began = metrics.now()
        metrics.tap_began(None if press is None else press.game_id)
        await answer(interaction, self._reply(interaction, press, custom_id), ack_after=self.ack_after)
        metrics.tap(PLATFORM, "unknown" if press is None else press.action.name.lower(), None, began)

    async def _reply(self, interaction: discord.Interaction, press: Tap | None, custom_id: str) -> Reply:
        user = user_ref(interaction)
        lang = language_of(user.language)
        try:
            lang = self.sessions.player_language(await self.sessions.player(user))
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
                return await pressed(self.sessions, self.presenter, who, press, lang)
            return await self._draw(interaction, who, press, await self.sessions.taps.tap(who, press), lang)
        except Exception as exc:
            log_failure(log, f"press {custom_id!r}", exc)
            metrics.failed()
            return Reply.note(failure_text(exc, lang))

    async def _draw(self, interaction: discord.Interaction, asker: Asker, press: Tap, reply: TapReply,
                    lang: str) -> Reply:
        """The sessions' reply as Discord shows it."""
        game_id = press.game_id
        if reply.refused is not None:
            metrics.refused()
            if press.action in HAND_ACTIONS:
                return await self._refused_on_hand(interaction, asker, game_id, reply.refused, lang)
            return Reply.note(refusal_text(reply.refused, lang))
        note = t(lang, reply.say.key, **reply.say.params) if reply.say is not None else None
        if reply.shown is not None:
            drawn = await self._draw_hand(asker, game_id, lang)
            return Reply.message(embed=drawn.embed, view=drawn.components, picture=drawn.picture,
                                 on_sent=self.hands.track(drawn, asker.user, lang))
        if reply.hand is not None:
            note = None if press.action in HAND_ACTIONS else note
            drawn = await self._draw_hand(asker, game_id, lang, reply.hand)
            return self._hand_reply(interaction, asker, drawn, lang, note)
        if reply.confirm is not None:
            return Reply.note(note or "", confirm_cancel(game_id, lang))
        if isinstance(reply.result, PracticeHint):
            given = reply.result
            return Reply.note(hint_text(given.hint, lang, given.variant, given.deck_style))
        if isinstance(reply.result, MatchReview):
            return await review_reply(self.presenter, reply.result, lang)
        if isinstance(reply.result, ReplayStep):
            in_place = press.action is Action.REPLAY_STEP and _on_ephemeral(interaction)
            return await replay_reply(reply.result, lang, in_place=in_place)
        if isinstance(reply.result, PuzzleAnswer):
            return answer_reply(reply.result, lang)
        if isinstance(reply.result, Puzzle):
            channel = asker.chat
            shown = (await self.sessions.chat(channel)).language if channel is not None else lang
            key = None if channel is None else channel.key
            return await puzzle_reply(self.presenter.painter, reply.result, shown, key)
        if note is not None:
            return Reply.update(content=note) if _on_ephemeral(interaction) else Reply.note(note)
        return Reply.nothing()

    async def _draw_hand(self, asker: Asker, game_id: int, lang: str,
                         prompt: HandPrompt = PLAIN) -> DrawnHand:
        return await draw_hand(self.sessions, game_id, asker.user, lang, prompt, self.hands.painter)

    def _hand_reply(self, interaction: discord.Interaction, asker: Asker, drawn: DrawnHand, lang: str,
                    note: str | None = None) -> Reply:
        """The hand in place of the pressed one; in a new ephemeral message if the press came
        from anywhere else (a hand is never drawn over a message others can see)."""
        track = self.hands.track(drawn, asker.user, lang)
        if _on_ephemeral(interaction):
            return Reply.update(content=note, embed=drawn.embed, view=drawn.components, on_sent=track,
                                picture=drawn.picture)
        return Reply.message(content=note, embed=drawn.embed, view=drawn.components, on_sent=track,
                             picture=drawn.picture)

    async def _refused_on_hand(self, interaction: discord.Interaction, asker: Asker, game_id: int,
                               refused: Refused, lang: str) -> Reply:
        """A refused press on a hand redraws that hand as it is now, with the reason above it
        (a move refused as illegal names no card code, only that it cannot be played)."""
        if refused.reason is Reason.ILLEGAL_MOVE:
            refused = Refused(Reason.ILLEGAL_MOVE, detail=t(lang, "discord.card_not_playable"))
        note = refusal_text(refused, lang)
        try:
            drawn = await self._draw_hand(asker, game_id, lang)
        except Refused:
            return Reply.note(note)
        return self._hand_reply(interaction, asker, drawn, lang, note)


def _chosen(interaction: discord.Interaction, press: Tap) -> Tap | None:
    """A lobby menu's choice decoded into the option it sets (an OPTION tap, as a Telegram
    button carries it); None for a value the menu does not offer."""
    choice = option_choice(Menu(press.arg), dict(interaction.data or {}).get("values"))
    return None if choice is None else Tap(Action.OPTION, press.game_id, arg="=".join(choice))


def _on_ephemeral(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral
