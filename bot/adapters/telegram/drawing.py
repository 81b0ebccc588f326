"""Every kind of the sessions' `Reply` as Telegram shows it, in one `match`.

Taps and commands both draw their answer here, so that a kind of reply means the same
wherever it comes from, and a kind added to the sessions and not drawn here fails the
strict type check (`assert_never`). What is drawn is `Drawn`: the words that answer (a
tap's note or alert, a command's reply), a message of its own where the answer has buttons,
and the link to the private chat; a tap and a command each deliver it their way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import assert_never

from telegram import CallbackQuery, Message

from ...i18n import t
from ...render.daily import daily_playing_text, daily_started_text
from ...render.owners import owner_text
from ...render.review import asked_key, hint_text
from ...render.tournament import tournament_text
from ...render.words import refusal_text
from ...sessions import ChatRef, DailyStart, MatchReview, ReplayStep, ReviewAsked, Sessions
from ...sessions.daily import DailyOffer
from ...sessions.hints import PracticeHint
from ...sessions.puzzles import Puzzle, PuzzleAnswer
from ...sessions.replies import (
    ConfirmCancel,
    DailyDropped,
    Done,
    Erased,
    HandPrompted,
    HandRedrawn,
    HandShown,
    MenuShown,
    Note,
    OpenPrivate,
    OpenPrivateForDaily,
    OwnerAnswered,
    Played,
    Redraw,
    Refusal,
    SeatReady,
    SettingsShown,
    TournamentShown,
)
from ...sessions.tap import Action, Asker, Reply, Tap
from .daily import offer_content
from .identity import private_link, topic_id
from .keyboards import Keyboard, confirm_keyboard
from .markup import escape, hand_alert
from .outbox import Content, Target
from .present import Presenter
from .puzzle import answer_alert, puzzle_content
from .replay import ReplayEdits, show_step
from .reviews import private_review_html
from .settings_view import settings_answer

Words = Callable[[str], str]
"""Plain text in a given language."""

DAILY_PAYLOAD = "daily"
"""The /start payload of the link that opens the private chat to play the deal of the day."""


@dataclass(frozen=True, slots=True)
class Drawn:
    """A reply as Telegram shows it, to a tap or to a command."""

    words: Words | None = None
    """What answers: a tap's note (or alert), a command's reply."""
    alert: bool = False
    link: str | None = None
    """The way to the asker's private chat: a tap opens it, a command's reply has its button."""
    message: Callable[[str], tuple[str, Keyboard]] | None = None
    """The answer as a message of its own, its HTML and buttons: a command's reply; under a
    tap, posted in the chat tapped in (the words are then the tap's note)."""
    then: Callable[[], Awaitable[None]] | None = None
    """What follows once the answer is out (the asker's table and hand posted after it)."""
    outcome: str = "ok"
    """For the metrics: ok or refused."""


@dataclass(frozen=True, slots=True)
class Asked:
    """Where a reply is drawn: who asked, in which language, and the tap (None for a command)
    with its callback query."""

    asker: Asker
    lang: str
    bot_name: str
    tapped: Tap | None = None
    query: CallbackQuery | None = None

    @property
    def here(self) -> ChatRef | None:
        """The chat asked in: the group, or the asker's private chat."""
        return self.asker.chat or self.asker.home

    @property
    def pressed(self) -> Message | None:
        """The message whose button was tapped."""
        message = None if self.query is None else self.query.message
        return message if isinstance(message, Message) else None


def said(key: str, **params: object) -> Words:
    """A catalogue entry's words, in the language they are asked in."""
    return lambda lang: t(lang, key, **params)


class ReplyDrawer:
    def __init__(self, sessions: Sessions, presenter: Presenter) -> None:
        self.sessions = sessions
        self.presenter = presenter
        self.outbox = presenter.outbox
        self.lines = presenter.daily_lines
        self.replay_edits = ReplayEdits()

    async def draw(self, reply: Reply, at: Asked) -> Drawn:
        """Draw `reply`: what changes in the chats now, and the answer to deliver."""
        lang, user_key = at.lang, at.asker.user.key
        match reply:
            case Done():
                return Drawn()
            case Refusal(refused):
                return Drawn(lambda lang: refusal_text(refused, lang), alert=True, outcome="refused")
            case Note(say, alert):
                return Drawn(said(say.key, **say.params), alert=alert)
            case Played(say, hand, table):
                if hand is not None:
                    self.presenter.redraw_hand(user_key, hand, table, played=True)
                return Drawn(None if say is None else said(say.key, **say.params))
            case HandPrompted(prompt, hand):
                if at.tapped is not None and at.tapped.version is not None:
                    await self.presenter.set_prompt(at.tapped.game_id, user_key, at.tapped.version, prompt)
                    if hand is not None:
                        self.presenter.redraw_hand(user_key, hand, prompt=prompt)
                    else:
                        self.presenter.refresh_hand(at.tapped.game_id, user_key)
                return Drawn()
            case HandShown(hand):
                return Drawn(lambda lang: hand_alert(hand, lang), alert=True)
            case HandRedrawn(game_id):
                self.presenter.refresh_hand(game_id, user_key)
                return Drawn()
            case SeatReady(game_id):
                self.presenter.repost_hand(game_id, user_key)
                return Drawn()
            case MenuShown(menu):
                here, tapped = at.here, at.tapped
                if here is not None and tapped is not None:
                    self.presenter.menus[tapped.game_id] = menu
                    self.presenter.refresh_table(tapped.game_id, int(here.key), thread=topic_id(here.thread))
                return Drawn()
            case OpenPrivate(game_id):
                return Drawn(said("dm.start_first"), link=private_link(at.bot_name, game_id))
            case OpenPrivateForDaily():
                return Drawn(said("dm.start_first"), link=f"https://t.me/{at.bot_name}?start={DAILY_PAYLOAD}")
            case ConfirmCancel(game_id):
                return Drawn(said("cancel.confirm"), message=lambda lang: (
                    escape(t(lang, "cancel.confirm")),
                    confirm_keyboard(Action.CONFIRM_CANCEL, game_id, lang)))
            case SettingsShown(language=now, saved=saved):
                await self._settings_shown(at, reply)
                return Drawn(lambda _: t(now, "settings.saved")) if saved else Drawn()
            case PracticeHint(hint=hint, variant=variant, deck_style=style):
                return Drawn(lambda lang: hint_text(hint, lang, variant, style), alert=True)
            case MatchReview():
                self.outbox.post(int(user_key), Content(private_review_html(reply, reply.seat, lang)))
                return Drawn(said("review.sent"))
            case ReviewAsked():
                if not reply.privately:
                    return Drawn(said("dm.start_first"), link=f"https://t.me/{at.bot_name}?start=review")
                return Drawn(said(asked_key(reply)))
            case ReplayStep():
                query, tapped = at.query, at.tapped
                if query is not None and tapped is not None \
                        and show_step(self.outbox, self.replay_edits, query, tapped.action, reply, lang):
                    return Drawn()
                return Drawn(said("telegram.bad_button"), alert=True, outcome="refused")
            case PuzzleAnswer():
                return Drawn(lambda lang: answer_alert(reply, lang), alert=True)
            case Puzzle():
                here = at.here
                if here is not None:
                    pictures = await self.presenter.draws_pictures(int(here.key))
                    self.outbox.post(int(here.key), puzzle_content(reply, lang, pictures),
                                     thread=topic_id(here.thread))
                return Drawn()
            case DailyOffer():
                return Drawn(message=lambda lang: _content(offer_content(reply, user_key, lang)))
            case DailyDropped():
                pressed = at.pressed
                if pressed is None:
                    return Drawn(said("daily.dropped"))
                shown = await self.presenter.chat_language(pressed.chat.id) if at.asker.chat else lang
                self.lines.show(pressed.chat.id, pressed.message_id, escape(t(shown, "daily.dropped")))
                return Drawn()
            case DailyStart():
                return await self._daily_started(at, reply)
            case TournamentShown(view):
                return Drawn(lambda lang: tournament_text(view, lang))
            case OwnerAnswered(answer):
                return Drawn(lambda lang: owner_text(answer, lang))
            case Erased(forgotten):
                return Drawn(said("privacy.done" if forgotten is not None else "privacy.nothing_kept"))
            case _:
                assert_never(reply)

    async def _settings_shown(self, at: Asked, shown: SettingsShown) -> None:
        """What shows the changed settings drawn again, and the pressed settings message redrawn as
        they now are (in `shown.language`, the language of the answer too)."""
        sessions, presenter, uref, chat = self.sessions, self.presenter, at.asker.user, at.asker.chat
        if shown.redraw & Redraw.GAME and chat is not None:
            await redraw_game_of(sessions, presenter, chat)
        if shown.redraw & Redraw.MY_HANDS:
            for row in await sessions.queries.games_of(uref):
                presenter.refresh_hand(row.id, uref.key)
        pressed = at.pressed
        if pressed is None:
            return
        settings = await sessions.queries.chat(chat) if chat is not None else None
        rings = chat is not None or not (await sessions.queries.player(uref)).quiet_turns
        html, keyboard = settings_answer(settings, shown.language, rings)
        content = Content(html, keyboard)

        async def render() -> Content | None:
            return content

        self.outbox.update(Target(pressed.chat.id, message_id=pressed.message_id), render)

    async def _daily_started(self, at: Asked, start: DailyStart) -> Drawn:
        """The deal of the day dealt (or given back): under Deal, the offer's message made the
        group's line of it (who plays) or the deal's start in a private chat; asked with /daily,
        the answer says so. The start goes to the asker's private chat, where it is played."""
        uref, chat, lang = at.asker.user, at.asker.chat, at.lang
        game_id = start.table.game_id
        name = (await self.sessions.queries.player(uref)).display_name
        pressed = at.pressed
        if at.query is None or pressed is None:
            async def then() -> None:
                if chat is not None:
                    own = self.presenter.language(await self.sessions.queries.player(uref))
                    self.outbox.post(int(uref.key), Content(escape(daily_started_text(start, own))))
                self.presenter.refresh_table(game_id, int(uref.key))
                self.presenter.repost_hand(game_id, uref.key)

            if chat is not None:
                return Drawn(lambda lang: daily_playing_text(name, start.day, lang), then=then)
            return Drawn(lambda lang: daily_started_text(start, lang), then=then)
        if chat is not None:
            await self.lines.keep(game_id, pressed.chat.id, pressed.message_id, name)
            shown = await self.presenter.chat_language(pressed.chat.id)
            playing = daily_playing_text(name, start.day, shown)
            self.lines.show(pressed.chat.id, pressed.message_id, escape(playing))
            if not start.resumed:
                self.outbox.post(int(uref.key), Content(escape(daily_started_text(start, lang)), silent=True))
        else:
            self.lines.show(pressed.chat.id, pressed.message_id, escape(daily_started_text(start, lang)))
        if start.resumed:
            self.presenter.refresh_table(game_id, int(uref.key))
            self.presenter.repost_hand(game_id, uref.key)
        return Drawn(said("daily.dealt") if chat is not None else None)


async def redraw_game_of(sessions: Sessions, presenter: Presenter, chat: ChatRef) -> None:
    """The chat's open game (of the topic asked in) drawn again, its table and its players'
    hands, after a setting changed."""
    open_game = await sessions.queries.open_game_id(chat)
    if open_game is not None:
        presenter.refresh_table(open_game, int(chat.key), thread=topic_id(chat.thread))
        await presenter.refresh_hands(open_game)


def _content(content: Content) -> tuple[str, Keyboard]:
    return content.text, content.keyboard
