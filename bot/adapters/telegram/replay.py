"""A finished match's replay in the player's private chat: one photo message stepped with
⏮ ◀ ▶ ⏭, each tap editing it in place (a new message would ring the phone at every step).

The buttons carry the match and the play (`Action.REPLAY_STEP`), so nothing is kept between
taps and a restart forgets nothing; the sessions check who asks and which play
(`sessions.queries.replay_step`). ▶️ Replay under the review (`Action.REPLAY`) sends the message; a
step's tap is taken only on the replay's own message, where Telegram shows that button, so a
forged tap cannot edit another message. Telegram asks for no more than about one message a
second in a chat: a tap is drawn at once, and taps coming faster fold into one drawing of the
latest half a second after the last (`ReplayEdits`, the outbox's slot), so thirty taps in a
second make three edits, not thirty, and a player stepping as fast as they read is not held
back."""

from __future__ import annotations

import time
from collections.abc import Callable

from telegram import CallbackQuery, Message

from ...i18n import t
from ...render.replay import step_buttons, step_caption, step_scene
from ...sessions import ReplayStep
from ...sessions.tap import Action
from .callbacks import shows_button
from .keyboards import Button, Keyboard, tap
from .markup import escape
from .outbox import Content, Outbox, Picture, Target

EDIT_SPACING = 0.5
"""Seconds between two drawings of one private chat's replay."""


class ReplayEdits:
    """When each private chat's replay may be drawn next (kept in memory: a restart only
    forgets a second's spacing)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._next: dict[int, float] = {}

    def delay(self, chat_id: int) -> float:
        """How long to wait before drawing in `chat_id`, the drawing's place then taken."""
        now = self.clock()
        if len(self._next) > 1000:
            self._next = {chat: at for chat, at in self._next.items() if at > now}
        at = max(now, self._next.get(chat_id, now))
        self._next[chat_id] = at + EDIT_SPACING
        return at - now


def replay_button(game_id: int, lang: str) -> Button:
    """▶️ Replay, under a player's review of match `game_id`."""
    return tap(t(lang, "replay.button"), Action.REPLAY, game_id)


def replay_keyboard(step: ReplayStep) -> Keyboard:
    """The buttons `step_buttons` gives, each carrying the match and its play."""
    buttons = tuple(tap(label, Action.REPLAY_STEP, step.game_id, arg=str(number))
                    for label, number in step_buttons(step))
    return (buttons,) if buttons else ()


def replay_content(step: ReplayStep, lang: str) -> Content:
    caption = escape(step_caption(step, lang))
    return Content(caption, replay_keyboard(step), Picture(step_scene(step), lang, caption), silent=True)


def show_step(outbox: Outbox, edits: ReplayEdits, query: CallbackQuery, action: Action, step: ReplayStep,
              lang: str) -> bool:
    """Send the replay (▶️ Replay) to the asker's private chat, or draw `step` in the pressed
    replay message; False when the tap came from no replay message of theirs."""
    user_id = query.from_user.id
    content = replay_content(step, lang)
    if action is Action.REPLAY:
        outbox.post(user_id, content)
        return True
    message = query.message
    if not isinstance(message, Message) or message.chat.id != user_id \
            or not shows_button(message, query.data):
        return False

    async def render() -> Content:
        return content

    target = Target(user_id, message_id=message.message_id, photo=bool(message.photo))
    outbox.update(target, render, delay=edits.delay(user_id))
    return True
