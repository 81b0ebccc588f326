"""Private hands: ephemeral messages, and keeping the open ones current.

A hand lives in an ephemeral message, which only the interaction that made
it (or a later press on it) can edit, and only for fifteen minutes. While
that token is fresh, the tracker redraws the player's latest hand after every
move, so it shows live cards when their turn comes; after `ttl` it lets go,
and "My hand" gives a fresh message.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import discord
from discord import ui

from ...render.words import card_legend
from ...sessions import HandView, Refused, Sessions, UserRef
from ...sessions.interaction import NO_FUORI, PLAIN, HandPrompt, fuori_preview
from .components import hand_components
from .embeds import hand_embed
from .lanes import Lanes
from .pictures import Painter, Picture
from .replies import Sent, drawing

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 15 * 60.0


@dataclass(frozen=True, slots=True)
class DrawnHand:
    view: HandView
    autoplay: bool
    embed: discord.Embed
    components: ui.View
    picture: Picture | None = None

    @property
    def state(self) -> tuple[int, bool, bool]:
        """What a redraw would change: the version, the end of the match, the computer playing."""
        return self.view.version, self.view.finished, self.autoplay


async def draw_hand(sessions: Sessions, game_id: int, user: UserRef, lang: str,
                    prompt: HandPrompt = PLAIN, painter: Painter | None = None,
                    replied: HandView | None = None) -> DrawnHand:
    """The player's hand in game `game_id`, showing `prompt` (with its picture if the game's
    channel wants pictures and a `painter` is given); Refused if they have none there. Until
    their first play of the match it explains the card labels (`HandView.shows_legend`).
    `replied`: the hand a tap's reply carries, drawn unless the game has moved on since."""
    row = await sessions.queries.game(game_id)
    view = replied if replied is not None and replied.version == row.version \
        else await sessions.queries.hand(game_id, user)
    autoplay = any(s.seat == view.seat and s.autoplay for s in row.seats)
    try:
        fuori = await fuori_preview(sessions, view, user, prompt, autoplay)
    except Refused:
        fuori = NO_FUORI
    embed = hand_embed(view, lang, row.variant, prompt, autoplay=autoplay,
                       legend=card_legend(view.deck_style, lang, buttons=True) if view.shows_legend else None,
                       outcomes=fuori.outcomes)
    picture = None
    if painter is not None and not view.finished and await painter.wanted(row.chat.key):
        picture = await painter.hand(view, lang)
    components = hand_components(view, lang, prompt, autoplay=autoplay, fuori_wins=fuori.wins)
    return DrawnHand(view, autoplay, embed, components, picture)


@dataclass(slots=True)
class _Live:
    """The message kept current and what it shows."""

    sent: Sent
    since: float
    user: UserRef
    lang: str
    shown: DrawnHand


class HandTracker:
    def __init__(self, sessions: Sessions, lanes: Lanes, ttl: float = TOKEN_LIFETIME - 60.0,
                 painter: Painter | None = None) -> None:
        self.sessions = sessions
        self.lanes = lanes
        self.painter = painter
        self.ttl = min(ttl, TOKEN_LIFETIME)
        self._live: dict[tuple[int, str], _Live] = {}

    def track(self, drawn: DrawnHand, user: UserRef, lang: str) -> Callable[[Sent], None]:
        """The `on_sent` hook for a reply showing `drawn`: that message becomes the one kept current."""
        game_id = drawn.view.game_id

        def on_sent(sent: Sent) -> None:
            if drawn.view.finished:
                self._live.pop((game_id, user.key), None)
            else:
                self._live[(game_id, user.key)] = _Live(sent, self.sessions.clock(), user, lang, drawn)

        return on_sent

    def live(self, game_id: int, user_key: str) -> bool:
        held = self._live.get((game_id, user_key))
        return held is not None and self.sessions.clock() - held.since < self.ttl

    def refresh(self, game_id: int) -> None:
        for game, key in list(self._live):
            if game == game_id:
                self.lanes.submit(("hand", game, key), partial(self._redraw, game, key),
                                  merge="redraw")

    async def _redraw(self, game_id: int, user_key: str) -> None:
        """Draw the player's kept hand as the game is now. A press that draws the hand (a card's
        captures to choose from) meanwhile wins: one during the drawing makes this redraw
        moot; one during the edit may have landed first, so its drawing is put back on top."""
        key = (game_id, user_key)
        held = self._live.get(key)
        if held is None:
            return
        if not self.live(game_id, user_key):
            self._live.pop(key, None)
            return
        try:
            drawn = await draw_hand(self.sessions, game_id, held.user, held.lang, painter=self.painter)
        except Refused:
            self._live.pop(key, None)
            return
        if self._live.get(key) is not held or drawn.state == held.shown.state:
            return
        shown = await self._show(held.sent, drawn)
        newer = self._live.get(key)
        if newer is not held:
            if shown and newer is not None and not await self._show(newer.sent, newer.shown) \
                    and self._live.get(key) is newer:
                self._live.pop(key, None)
            return
        if not shown:
            self._live.pop(key, None)
            return
        held.shown = drawn
        if drawn.view.finished:
            self._live.pop(key, None)

    async def _show(self, sent: Sent, drawn: DrawnHand) -> bool:
        """Edit `sent` to show `drawn` (as text if its picture is refused); False if Discord
        refuses it: the message is gone or its token expired."""
        try:
            await _edit(sent, drawn, drawn.picture)
        except discord.HTTPException as exc:
            if not await self._as_text(sent, drawn, exc):
                log.info("stopped updating a hand in game %s: %s", drawn.view.game_id, exc)
                return False
        return True


    async def _as_text(self, sent: Sent, drawn: DrawnHand, error: discord.HTTPException) -> bool:
        """After a refused picture, the hand as text; False if that is refused too (or there
        was no picture: the message is gone or its token expired)."""
        if drawn.picture is None or isinstance(error, discord.NotFound):
            return False
        log.warning("a hand's picture in game %s was refused (%s); showing text", drawn.view.game_id, error)
        try:
            await _edit(sent, drawn, None)
        except discord.HTTPException:
            return False
        return True


async def _edit(sent: Sent, drawn: DrawnHand, picture: Picture | None) -> None:
    shown = drawing(drawn.embed, picture)
    if sent.message_id is None:
        await sent.interaction.edit_original_response(content=None, view=drawn.components, **shown)
    else:
        await sent.interaction.followup.edit_message(sent.message_id, content=None, view=drawn.components,
                                                     **shown)
