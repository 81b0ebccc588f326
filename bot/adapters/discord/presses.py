"""Button presses and menu choices, translated into sessions calls.

Who is pressing comes from Discord's interaction, never from the custom id;
what they ask for comes from a custom id that `custom_ids.decode` checked; the
sessions layer decides whether it is allowed. Every press gets exactly one
answer: a silent acknowledgement when the channel's message will show the
change, the player's hand, or an ephemeral message saying why nothing happened.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from ...i18n import t
from ...render import failure_text, refusal_text
from ...render_review import hint_text
from ...sessions import ChatRef, GameStatus, Reason, Refused, Sessions, UserRef, language_of
from ...sessions import interaction as taps
from ...sessions.interaction import PLAIN, HandMode, HandPrompt
from .components import confirm_cancel
from .custom_ids import Action, Menu, Press, decode, drawn_before, option_choice
from .hands import DrawnHand, HandTracker, draw_hand
from .identity import chat_ref, is_admin, user_ref
from .presenter import Presenter
from .replies import Reply, answer
from .reviews import review_reply

log = logging.getLogger(__name__)

# Presses on a hand are answered on the hand itself; the others in a new ephemeral message.
HAND_ACTIONS = (Action.PLAY, Action.CHOOSE, Action.BACK, Action.IDLE, Action.FUORI, Action.FUORI_CHOOSE,
                Action.DECLARE, Action.CAPTURE, Action.DECLARE_CAPTURE)


@dataclass(frozen=True, slots=True)
class Presser:
    interaction: discord.Interaction
    user: UserRef
    lang: str
    chat: ChatRef | None
    admin: bool


class PressHandlers:
    def __init__(self, sessions: Sessions, hands: HandTracker, presenter: Presenter, *,
                 ack_after: float) -> None:
        self.sessions = sessions
        self.hands = hands
        self.presenter = presenter
        self.ack_after = ack_after

    async def _draw(self, p: Presser, game_id: int, prompt: HandPrompt = PLAIN) -> DrawnHand:
        return await draw_hand(self.sessions, game_id, p.user, p.lang, prompt, self.hands.painter)

    async def on_press(self, interaction: discord.Interaction, custom_id: str) -> None:
        await answer(interaction, self._reply(interaction, custom_id), ack_after=self.ack_after)

    async def _reply(self, interaction: discord.Interaction, custom_id: str) -> Reply:
        user = user_ref(interaction)
        lang = language_of(user.language)
        press = decode(custom_id)
        try:
            player = await self.sessions.player(user)
            lang = self.sessions.player_language(player)
            if press is None:
                return Reply.note(refusal_text(Refused(Reason.STALE), lang) if drawn_before(custom_id)
                                  else t(lang, "discord.bad_button"))
            presser = Presser(interaction, user, lang, chat_ref(interaction), is_admin(interaction))
            return await self._handle(presser, press)
        except Refused as refused:
            if press is not None and press.action in HAND_ACTIONS:
                presser = Presser(interaction, user, lang, None, False)
                return await self._refused_on_hand(presser, press, refused)
            return Reply.note(refusal_text(refused, lang))
        except Exception as exc:
            log.exception("press %r failed", custom_id)
            return Reply.note(failure_text(exc, lang))

    async def _handle(self, p: Presser, press: Press) -> Reply:
        action = press.action
        if action is Action.SHOW_HAND:
            return await self._show_hand(p, press.game_id)
        if action is Action.TAKE_BACK:
            await self.sessions.set_autoplay(press.game_id, p.user, False)
            return self._hand_reply(p, await self._draw(p, press.game_id))
        if action is Action.REMATCH:
            await self.sessions.rematch(press.game_id, p.user)
            return Reply.nothing()
        if action is Action.REVIEW:
            return await review_reply(self.sessions, self.presenter, press.game_id, p.user, p.lang)
        if action is Action.HINT:
            assert press.version is not None
            given = await taps.hint(self.sessions, press.game_id, p.user, press.version)
            return Reply.note(hint_text(given.hint, p.lang, given.variant, given.deck_style))
        if action in HAND_ACTIONS:
            return await self._on_hand(p, press)
        return await self._on_channel_message(p, press)

    # ---- the lobby and the table ---------------------------------------------------------

    async def _on_channel_message(self, p: Presser, press: Press) -> Reply:
        if p.chat is None:
            raise Refused(Reason.BAD_INPUT)
        chat, user, admin, game_id = p.chat, p.user, p.admin, press.game_id
        await taps.require_open_game(self.sessions, chat, game_id)
        calls: dict[Action, Callable[[], Awaitable[object]]] = {
            Action.JOIN: lambda: self.sessions.join(chat, user, game_id=game_id),
            Action.LEAVE: lambda: self.sessions.leave(chat, user, from_lobby=True),
            Action.ADD_COMPUTER: lambda: self.sessions.add_computer(chat, user, press.arg, is_admin=admin),
            Action.REMOVE_COMPUTERS: lambda: self.sessions.remove_computers(chat, user, is_admin=admin),
            Action.START: lambda: self.sessions.start(chat, user, is_admin=admin),
        }
        if press.action in calls:
            await calls[press.action]()
            return Reply.nothing()
        if press.action is Action.SELECT:
            choice = option_choice(Menu(press.arg), _values(p.interaction))
            if choice is None:
                raise Refused(Reason.BAD_INPUT)
            await self.sessions.set_option(chat, user, *choice, is_admin=admin)
            return Reply.nothing()
        if press.action is Action.CANCEL:
            row = await self.sessions.game_row(game_id)
            if row.status is GameStatus.LOBBY:
                await self.sessions.cancel(chat, user, is_admin=admin)
                return Reply.nothing()
            if not await self.sessions.may_manage(game_id, user, admin):
                raise Refused(Reason.NOT_ALLOWED)
            return Reply.note(t(p.lang, "cancel.confirm"), confirm_cancel(game_id, p.lang))
        if press.action is Action.CONFIRM_CANCEL:
            await self.sessions.cancel(chat, user, is_admin=admin)
            done = t(p.lang, "cancel.done")
            return Reply.update(content=done) if _on_ephemeral(p.interaction) else Reply.note(done)
        raise Refused(Reason.BAD_INPUT)

    # ---- hands ---------------------------------------------------------------------------

    async def _show_hand(self, p: Presser, game_id: int) -> Reply:
        drawn = await self._draw(p, game_id)
        return Reply.message(embed=drawn.embed, view=drawn.components, picture=drawn.picture,
                             on_sent=self.hands.track(drawn, p.user, p.lang))

    def _hand_reply(self, p: Presser, drawn: DrawnHand, note: str | None = None) -> Reply:
        """The hand in place of the pressed one; in a new ephemeral message if the press came
        from anywhere else (a hand is never drawn over a message others can see)."""
        track = self.hands.track(drawn, p.user, p.lang)
        if _on_ephemeral(p.interaction):
            return Reply.update(content=note, embed=drawn.embed, view=drawn.components, on_sent=track,
                                picture=drawn.picture)
        return Reply.message(content=note, embed=drawn.embed, view=drawn.components, on_sent=track,
                             picture=drawn.picture)

    async def _on_hand(self, p: Presser, press: Press) -> Reply:
        """What a press on a hand means comes from `sessions.interaction`; the hand is redrawn
        as the answer shows it (plainly after a play)."""
        game_id, version, action = press.game_id, press.version, press.action
        assert version is not None
        prompt: HandPrompt | None
        if action in (Action.PLAY, Action.DECLARE):
            await taps.play(self.sessions, game_id, p.user, version, press.arg,
                                   declaring=action is Action.DECLARE)
            prompt = None
        elif action in (Action.CAPTURE, Action.DECLARE_CAPTURE):
            await taps.play_capture(self.sessions, game_id, p.user, version, press.arg, press.index,
                                           declaring=action is Action.DECLARE_CAPTURE)
            prompt = None
        elif action is Action.BACK:
            prompt = await taps.back(self.sessions, game_id, p.user, version)
        elif action is Action.FUORI:
            prompt = await taps.open_fuori(self.sessions, game_id, p.user, version)
        else:
            declaring = HandPrompt(HandMode.DECLARING) if action is Action.FUORI_CHOOSE else PLAIN
            prompt = await taps.tap_card(self.sessions, game_id, p.user, version, press.arg, declaring)
        return self._hand_reply(p, await self._draw(p, game_id, prompt or PLAIN))

    async def _refused_on_hand(self, p: Presser, press: Press, refused: Refused) -> Reply:
        """A refused press on a hand redraws that hand as it is now, with the reason above it
        (a move refused as illegal names no card code, only that it cannot be played)."""
        if refused.reason is Reason.ILLEGAL_MOVE:
            refused = Refused(Reason.ILLEGAL_MOVE, detail=t(p.lang, "discord.card_not_playable"))
        note = refusal_text(refused, p.lang)
        try:
            drawn = await self._draw(p, press.game_id)
        except Refused:
            return Reply.note(note)
        return self._hand_reply(p, drawn, note)

def _values(interaction: discord.Interaction) -> object:
    data = interaction.data or {}
    return data.get("values")


def _on_ephemeral(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral
