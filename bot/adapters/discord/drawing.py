"""Every kind of the sessions' `Reply` as Discord shows it, in one `match`.

Presses and slash commands both draw their answer here, so that a kind of reply means the
same wherever it comes from, and a kind added to the sessions and not drawn here fails the
strict type check (`assert_never`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

import discord

from ...i18n import t
from ...render.daily import daily_started_text
from ...render.owners import owner_text
from ...render.review import asked_key, hint_text
from ...render.tournament import tournament_text
from ...render.words import refusal_text, turn_limit_text
from ...sessions import ChatRef, HandView, MatchReview, Reason, Refused, ReplayStep, Sessions
from ...sessions.daily import DailyOffer, DailyStart
from ...sessions.hints import PracticeHint
from ...sessions.interaction import PLAIN, HandPrompt
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
from ...sessions.reviews import ReviewAsked
from ...sessions.tap import Action, Asker, Reply, Tap
from ...sessions.taps import HAND_ACTIONS
from ...sessions.views import player_language
from .components import confirm_cancel
from .daily import offer_reply
from .embeds import text_embed
from .hands import DrawnHand, draw_hand
from .identity import is_admin
from .presenter import Presenter
from .puzzle import answer_reply, puzzle_reply
from .replay import replay_reply
from .replies import Reply as Answer
from .reviews import review_reply


@dataclass(frozen=True, slots=True)
class Asked:
    """Where a reply is drawn: the interaction, who asked, in which language, and the press
    (None for a slash command)."""

    interaction: discord.Interaction
    asker: Asker
    lang: str
    press: Tap | None = None

    @property
    def game_id(self) -> int:
        return 0 if self.press is None else self.press.game_id

    @property
    def on_ephemeral(self) -> bool:
        message = self.interaction.message
        return message is not None and message.flags.ephemeral


class ReplyDrawer:
    def __init__(self, sessions: Sessions, presenter: Presenter) -> None:
        self.sessions = sessions
        self.presenter = presenter
        self.hands = presenter.hands

    async def draw(self, reply: Reply, at: Asked) -> Answer:
        """The sessions' reply as Discord shows it."""
        lang = at.lang
        match reply:
            case Done() | HandRedrawn() | SeatReady() | MenuShown():
                return Answer.nothing()
            case Refusal(refused):
                if at.press is not None and at.press.action in HAND_ACTIONS:
                    return await self._refused_on_hand(at, refused)
                return Answer.note(refusal_text(refused, lang))
            case Note(say):
                return self._note(at, t(lang, say.key, **say.params))
            case OpenPrivate() | OpenPrivateForDaily():
                return self._note(at, t(lang, "dm.start_first"))
            case Played(say, hand):
                note = None if say is None else t(lang, say.key, **say.params)
                return self._hand_reply(at, await self._draw_hand(at, replied=hand), note)
            case HandPrompted(prompt, hand):
                return self._hand_reply(at, await self._draw_hand(at, prompt, hand))
            case HandShown():
                drawn = await self._draw_hand(at)
                return Answer.message(embed=drawn.embed, view=drawn.components, picture=drawn.picture,
                                      on_sent=self.hands.track(drawn, at.asker.user, lang))
            case ConfirmCancel(game_id):
                return Answer.note(t(lang, "cancel.confirm"), confirm_cancel(game_id, lang))
            case SettingsShown():
                return await self._settings(at, reply)
            case PracticeHint(hint=hint, variant=variant, deck_style=style):
                return Answer.note(hint_text(hint, lang, variant, style))
            case MatchReview():
                return await review_reply(self.presenter, reply, lang)
            case ReviewAsked():
                return self._note(at, t(lang, asked_key(reply)))
            case ReplayStep():
                in_place = at.press is not None and at.press.action is Action.REPLAY_STEP and at.on_ephemeral
                return await replay_reply(reply, lang, in_place=in_place)
            case PuzzleAnswer():
                return answer_reply(reply, lang)
            case Puzzle():
                channel = at.asker.chat
                shown = (await self.sessions.queries.chat(channel)).language if channel is not None else lang
                return await puzzle_reply(self.presenter.painter, reply, shown,
                                          None if channel is None else channel.key)
            case DailyOffer():
                return offer_reply(reply, at.asker.user, lang)
            case DailyDropped():
                return Answer.update(content=t(lang, "daily.dropped"))
            case DailyStart():
                if reply.resumed:
                    row = await self.sessions.queries.game(reply.table.game_id)
                    self.presenter.redraw(row.id, row.chat.key)
                text = daily_started_text(reply, lang)
                return Answer.note(text) if at.press is None else Answer.update(content=text)
            case TournamentShown(view):
                return Answer.note(tournament_text(view, lang))
            case OwnerAnswered(answer):
                return Answer.note(owner_text(answer, lang))
            case Erased(forgotten):
                return Answer.note(t(lang, "privacy.nothing_kept" if forgotten is None else "privacy.done"))
            case _:
                assert_never(reply)

    @staticmethod
    def _note(at: Asked, text: str) -> Answer:
        """Words in place of the pressed message when it is the asker's own, or a new one."""
        return Answer.update(content=text) if at.on_ephemeral else Answer.note(text)

    async def _draw_hand(self, at: Asked, prompt: HandPrompt = PLAIN,
                         replied: HandView | None = None) -> DrawnHand:
        """The asker's hand in the game pressed, from the reply's `replied` hand where it has one."""
        return await draw_hand(self.sessions, at.game_id, at.asker.user, at.lang, prompt, self.hands.painter,
                               replied)

    def _hand_reply(self, at: Asked, drawn: DrawnHand, note: str | None = None) -> Answer:
        """The hand in place of the pressed one; in a new ephemeral message if the press came
        from anywhere else (a hand is never drawn over a message others can see)."""
        track = self.hands.track(drawn, at.asker.user, at.lang)
        if at.on_ephemeral:
            return Answer.update(content=note, embed=drawn.embed, view=drawn.components, on_sent=track,
                                 picture=drawn.picture)
        return Answer.message(content=note, embed=drawn.embed, view=drawn.components, on_sent=track,
                              picture=drawn.picture)

    async def _refused_on_hand(self, at: Asked, refused: Refused) -> Answer:
        """A refused press on a hand redraws that hand as it is now, with the reason above it
        (a move refused as illegal names no card code, only that it cannot be played)."""
        if refused.reason is Reason.ILLEGAL_MOVE:
            refused = Refused(Reason.ILLEGAL_MOVE, detail=t(at.lang, "discord.card_not_playable"))
        note = refusal_text(refused, at.lang)
        try:
            drawn = await self._draw_hand(at)
        except Refused:
            return Answer.note(note)
        return self._hand_reply(at, drawn, note)

    async def _settings(self, at: Asked, shown: SettingsShown) -> Answer:
        """The settings as the sessions now keep them; the channel's copies of its language and
        pictures read again there, and its game drawn again when they changed."""
        sessions, user, chat = self.sessions, at.asker.user, at.asker.chat
        lang = player_language(await sessions.queries.player(user))
        lines = [t(lang, "settings.title")]
        if chat is not None:
            row = await sessions.queries.chat(chat)
            await self._redraw(chat, shown.redraw)
            variant = str(row.defaults.get("variant", "scopa"))
            lines += [t(lang, "settings.language", language=t(lang, f"discord.language.{row.language}")),
                      turn_limit_text("settings", row.turn_limit, lang),
                      t(lang, "discord.settings.variant", variant=t(lang, f"variant.{variant}")),
                      t(lang, f"discord.settings.pictures_{'on' if row.pictures else 'off'}")]
        player = await sessions.queries.player(user)
        lines.append(t(lang, "discord.settings.my_language", language=t(lang, f"discord.language.{lang}")))
        lines.append(t(lang, "settings.pings_on" if player.dm_pings else "settings.pings_off"))
        if chat is not None and not is_admin(at.interaction):
            lines.append(t(lang, "discord.settings.admins"))
        if shown.saved:
            lines.append(t(lang, "settings.saved"))
        return Answer.message(embed=text_embed("\n".join(lines)))

    async def _redraw(self, chat: ChatRef, redraw: Redraw) -> None:
        """The channel's game drawn again as its changed settings want it."""
        if not redraw & Redraw.GAME:
            return
        self.presenter.painter.settings_changed(chat.key)
        game_id = await self.sessions.queries.open_game_id(chat)
        if game_id is not None:
            self.presenter.redraw(game_id, chat.key)
