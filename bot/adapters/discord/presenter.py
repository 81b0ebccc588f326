"""From sessions events to a channel's messages.

Each game has one channel message, the lobby and then the table, edited in
place from the latest state; its id is kept with the game (`notes.MessageNotes`),
so a restarted bot edits the same message. The message is drawn through the sessions'
hold on it (with a store other bot processes share, one process at a time draws it, and
the notes keep a fingerprint of what it shows, so that what this process remembers
drawing is used only while the message still shows it). A channel's language and
pictures setting are the sessions' (`sessions.queries`), read at each drawing. The lobby
shows a sample of its deck and the table its picture, attached, when the channel
wants pictures. A round's breakdown, the end of a match and turn pings are new
messages. Listeners are awaited by the sessions
layer, so `on_event` only queues work in the channel's lane and returns.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable
from typing import Any

import discord
from discord import ui

from ... import metrics
from ...engine import Rules
from ...i18n import t, tn
from ...pictures import round_scene_of, table_scene
from ...render.boards import achievements_line
from ...render.daily import daily_unfinished_text
from ...render.review import accuracy_line
from ...sessions import (
    AchievementsEarned,
    ChatRef,
    Event,
    GameCancelled,
    GameStatus,
    HandedOver,
    LobbyUpdated,
    MatchEnded,
    PlayerProfile,
    Refused,
    ReviewOwed,
    RoundEnded,
    Sessions,
    TableView,
    TurnReminder,
    TurnStarted,
    TurnWarning,
)
from ...sessions.views import player_language
from ..common.digest import digest
from .components import hand_button, hand_over_button, lobby_components, match_components, table_components
from .embeds import breakdown_embed, closed_embed, lobby_embed, match_embed, round_embed, table_embed
from .hands import HandTracker
from .identity import PLATFORM
from .lanes import Lanes
from .notes import TABLE_REF, MessageNotes
from .pictures import DECK_FILE, TABLE_FILE, Painter, Picture
from .replies import drawing

log = logging.getLogger(__name__)

PLACING_AT_ONCE = 8
"""Channels asked about at once at start (`_placed`): a bot with many games in channels
stored before servers were kept starts in seconds, within Discord's global rate limit."""

Drawing = tuple[discord.Embed, ui.View | None]

def _picture_key(shown: TableView | str | None, lang: str) -> tuple[Hashable, ...] | None:
    """What a picture shows, equal for equal pictures."""
    if isinstance(shown, str):
        return ("deck", shown, lang)
    return ("table", table_scene(shown), lang) if shown is not None else None


class Presenter:
    def __init__(self, sessions: Sessions, client: discord.Client, lanes: Lanes, hands: HandTracker,
                 painter: Painter, notes: MessageNotes) -> None:
        self.sessions = sessions
        self.notes = notes
        """The game's messages as kept with it (`notes.message_notes`, chosen once at start)."""
        self.client = client
        self.lanes = lanes
        self.hands = hands
        self.painter = painter
        self.running = False
        self._drawn: dict[int, Any] = {}
        self._pictured: dict[int, tuple[Hashable, ...] | None] = {}
        """What the picture on each game's message shows, to keep it when a redraw changes only text."""
        self._pinged: dict[int, int] = {}

    # ---- languages ---------------------------------------------------------------

    async def chat_language(self, channel_key: str) -> str:
        return (await self.sessions.queries.chat(ChatRef(PLATFORM, channel_key))).language

    def player_language(self, player: PlayerProfile | None) -> str:
        return player_language(player)

    def _channel(self, channel: str) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(int(channel))

    # ---- events ------------------------------------------------------------------

    async def on_event(self, event: Event) -> None:
        if event.platform != PLATFORM or not self.running:
            return
        game_id, channel = event.game_id, event.chat_key
        if isinstance(event, TurnWarning):
            self.lanes.submit(channel, lambda: self._warn(event))
            return
        if isinstance(event, TurnReminder):
            self.lanes.submit(channel, lambda: self._remind(event))
            return
        if isinstance(event, ReviewOwed):
            if event.seat is None:
                self.lanes.submit(channel, lambda: self._post_review_line(event))
            return
        if isinstance(event, AchievementsEarned):
            self.lanes.submit(channel, lambda: self._post_achievements(event))
            return
        self.redraw(game_id, channel)
        if not isinstance(event, LobbyUpdated):
            self.hands.refresh(game_id)
        if isinstance(event, RoundEnded):
            self.lanes.submit(channel, lambda: self._post_breakdown(event))
        elif isinstance(event, MatchEnded):
            self.lanes.submit(channel, lambda: self._post_match(event))
            self.lanes.submit(channel, lambda: self._clear_ping(game_id, channel))
        elif isinstance(event, GameCancelled):
            self.lanes.submit(channel, lambda: self._clear_ping(game_id, channel))
            if event.day_over:
                self.lanes.submit(channel, lambda: self._day_over(event))
        elif isinstance(event, TurnStarted):
            self.lanes.submit(channel, lambda: self._ping(game_id, channel), merge=("ping", game_id))

    def redraw(self, game_id: int, channel: str) -> None:
        self.lanes.submit(channel, lambda: self._draw_table(game_id, channel), merge=("table", game_id))

    async def redraw_running(self) -> int:
        """Redraw the Discord games in play on this process's shards: the last move before a
        restart may not be shown yet."""
        games = [g for g in await self.sessions.queries.running_games() if g.chat.platform == PLATFORM]
        unplaced = {g.chat.key: g.chat for g in games if g.chat.home is None}
        asking = asyncio.Semaphore(PLACING_AT_ONCE)

        async def placed(chat: ChatRef) -> ChatRef:
            async with asking:
                return await self._placed(chat)

        found = await asyncio.gather(*(placed(chat) for chat in unplaced.values()))
        chats = {chat.key: chat for chat in found}
        count = 0
        for game in games:
            chat = chats.get(game.chat.key, game.chat)
            if self.sessions.delivery.serves(chat):
                self.redraw(game.id, chat.key)
                count += 1
        for event in await self.sessions.delivery.owed_notices(PLATFORM):
            await self.on_event(event)
        return count

    async def _placed(self, chat: ChatRef) -> ChatRef:
        """A channel stored before its server was kept: ask Discord for its server and keep it,
        so that only the process of that server's shard runs the game from now on."""
        try:
            channel = await self.client.fetch_channel(int(chat.key))
        except (discord.DiscordException, ValueError) as exc:
            log.info("cannot find the server of channel %s: %s", chat.key, exc)
            return chat
        guild = getattr(channel, "guild", None)
        if guild is None:
            return chat
        placed = ChatRef(chat.platform, chat.key, chat.title, str(guild.id))
        await self.sessions.delivery.place_chat(placed)
        return placed

    # ---- the lobby and the table ----------------------------------------------------

    async def _draw_table(self, game_id: int, channel: str) -> None:
        """Draw the game's message, one process at a time; if another is drawing it, that one
        draws it again, and this one looks again once its hold would run out."""
        outcome = await self.sessions.delivery.draw_message(game_id, TABLE_REF,
                                                   lambda first: self._draw_held(game_id, channel))
        if isinstance(outcome, HandedOver):
            asyncio.get_running_loop().call_later(outcome.after + 0.5, self.redraw, game_id, channel)

    async def _draw_held(self, game_id: int, channel: str) -> None:
        if not await self.notes.still_shows(game_id, self._shows(game_id)):
            self._drawn.pop(game_id, None)
            self._pictured.pop(game_id, None)
        await self._draw_table_held(game_id, channel)
        if game_id in self._drawn:
            await self.notes.showing(game_id, self._shows(game_id))

    def _shows(self, game_id: int) -> str:
        return digest((self._drawn.get(game_id), self._pictured.get(game_id)))

    async def _draw_table_held(self, game_id: int, channel: str) -> None:
        lang = await self.chat_language(channel)
        (embed, view), closed, shown = await self._drawing(game_id, lang)
        pictures = shown is not None and await self.painter.wanted(channel) \
            and not self.painter.refusing(channel)
        signature = (embed.to_dict(), view.to_components() if view is not None else None, pictures)
        if self._drawn.get(game_id) != signature:
            key = _picture_key(shown, lang) if pictures else None
            if key is not None and key == self._pictured.get(game_id):
                kept = Picture(DECK_FILE if key[0] == "deck" else TABLE_FILE, b"")
                await self._put(game_id, channel, embed, view, kept, kept=True)
            else:
                picture = await self._picture(shown, lang) if pictures else None
                self._pictured[game_id] = key if await self._put(game_id, channel, embed, view, picture) \
                    else None
        if closed:
            self._pictured.pop(game_id, None)
            self._drawn.pop(game_id, None)
            self._pinged.pop(game_id, None)
        else:
            self._drawn[game_id] = signature

    async def _drawing(self, game_id: int, lang: str) -> tuple[Drawing, bool, TableView | str | None]:
        """The message's embed and buttons, whether the game is closed, and what its picture
        shows: the table, the lobby's deck style, or nothing."""
        row = await self.sessions.queries.game(game_id)
        if row.status is GameStatus.LOBBY:
            lobby = await self.sessions.queries.lobby_of(game_id)
            return (lobby_embed(lobby, lang), lobby_components(lobby, lang)), False, lobby.deck_style
        if row.status is GameStatus.CANCELLED:
            return (closed_embed(lang, row.cancelled_by, row.started), None), True, None
        table = await self.sessions.queries.table(game_id)
        now = self.sessions.clock()
        if table.finished:
            return (table_embed(table, lang, now), None), True, table
        away = tuple(s.name for s in table.seats if s.autoplay and not s.is_computer)
        return ((table_embed(table, lang, now, away), table_components(game_id, lang, bool(away))), False,
                table)

    async def _picture(self, shown: TableView | str | None, lang: str) -> Picture | None:
        if isinstance(shown, str):
            return await self.painter.deck(shown, lang)
        if shown is not None:
            return await self.painter.table(shown, lang)
        return None

    async def _put(self, game_id: int, channel: str, embed: discord.Embed, view: ui.View | None,
                   picture: Picture | None, *, kept: bool = False) -> bool:
        """Edit the game's message, or post it if there is none yet (or it was deleted); a
        picture the channel refuses leaves the message as text. Whether it shows the picture.
        With `kept`, `picture` is the one the message shows already: nothing is uploaded."""
        try:
            pictured = await self._put_once(game_id, channel, embed, view, picture, kept)
        except discord.HTTPException as exc:
            if picture is None or isinstance(exc, discord.NotFound):
                raise
            self.painter.refused(channel, exc)
            self._pictured.pop(game_id, None)
            pictured = await self._put_once(game_id, channel, embed, view, None, False)
        metrics.drawn(PLATFORM, game_id)
        return pictured

    async def _put_once(self, game_id: int, channel: str, embed: discord.Embed, view: ui.View | None,
                        picture: Picture | None, kept: bool) -> bool:
        target = self._channel(channel)
        known = await self.notes.table(game_id)
        if known is not None:
            message = target.get_partial_message(known)
            try:
                if kept and picture is not None:
                    await message.edit(view=view, embed=picture.shown_in(embed))
                else:
                    await message.edit(view=view, **drawing(embed, picture))
                return picture is not None
            except discord.NotFound:
                log.info("the message of game %s is gone; posting it again", game_id)
                if kept:
                    self._pictured.pop(game_id, None)
                    self.redraw(game_id, channel)
                    return False
        shown = drawing(embed, picture)
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        if shown["attachments"]:
            extra["files"] = shown["attachments"]
        message = await target.send(embed=shown["embed"], **extra)
        await self.notes.set_table(game_id, message.id)
        return picture is not None

    async def table_message(self, game_id: int) -> int | None:
        return await self.notes.table(game_id)

    # ---- new messages ----------------------------------------------------------------

    async def _post_breakdown(self, event: RoundEnded) -> None:
        """A round's end: in a channel with pictures its picture under a short embed (who took
        the round, the match's score); else, or if the picture is refused, its breakdown as text."""
        lang = await self.chat_language(event.chat_key)
        text: dict[str, Any] = {"embed": breakdown_embed(event, lang)}
        channel = event.chat_key
        picture = None
        if await self.painter.wanted(channel) and not self.painter.refusing(channel):
            row = await self.sessions.queries.game(event.game_id)
            rules = Rules.from_options(row.variant, row.options)
            picture = await self.painter.round_end(round_scene_of(event, row.deck_style, rules), lang)
            embed = round_embed(event, lang, rules.target)
        if picture is None:
            await self._post_notice(event, text)
            return
        await self._post_notice(event, {"embed": picture.shown_in(embed), "file": picture}, fallback=text)

    async def _post_review_line(self, event: ReviewOwed) -> None:
        """Each seat's accuracy in a match's review, once of all processes, in the match's
        channel (owed from when the review was first asked for until it is posted)."""
        found = await self.sessions.queries.stored_review(event.game_id, 0)
        if found is None:
            return
        lang = await self.chat_language(event.chat_key)
        await self._post_notice(event, {"content": accuracy_line(found.review, found.names, lang),
                                        "allowed_mentions": discord.AllowedMentions.none()})

    async def _post_achievements(self, event: AchievementsEarned) -> None:
        lang = await self.chat_language(event.chat_key)
        await self._post_notice(event, {"content": achievements_line(event.earned, lang),
                                        "allowed_mentions": discord.AllowedMentions.none()})

    async def _post_match(self, event: MatchEnded) -> None:
        lang = await self.chat_language(event.chat_key)
        await self._post_notice(event, {"embed": match_embed(event, lang),
                                        "view": match_components(event.game_id, lang, event.rematch)})

    async def _post_notice(self, event: RoundEnded | MatchEnded | ReviewOwed | AchievementsEarned,
                           message: dict[str, Any],
                           fallback: dict[str, Any] | None = None) -> None:
        """Post an announcement the game owes its channel, once of all processes
        (`sessions.delivery.announce`); once posted it is owed no more, nor once the channel refuses
        the bot for good (gone, or closed to it): trying again at every start would only be
        refused again. A message with a picture (a `Picture` as its `file`) that the channel
        refuses is posted as `fallback`, text."""
        async def send(sent: dict[str, Any]) -> None:
            picture = sent.get("file")
            if isinstance(picture, Picture):
                sent = {**sent, "file": picture.file()}
            await self._channel(event.chat_key).send(**sent)

        async def post() -> bool:
            try:
                try:
                    await send(message)
                except discord.HTTPException as exc:
                    if fallback is None or isinstance(exc, discord.NotFound):
                        raise
                    self.painter.refused(event.chat_key, exc)
                    await send(fallback)
            except (discord.Forbidden, discord.NotFound) as exc:
                log.info("channel %s refuses the bot (%s): %s of game %d is dropped",
                         event.chat_key, exc.status, type(event).__name__, event.game_id)
            return True

        await self.sessions.delivery.announce(event, post)

    async def _ping(self, game_id: int, channel: str) -> None:
        """Tell the player whose turn it is, unless their hand is open and current already."""
        try:
            table = await self.sessions.queries.table(game_id)
        except Refused:
            return
        seat = table.seats[table.to_play]
        if table.finished or seat.is_computer or seat.autoplay or self._pinged.get(game_id) == table.version:
            return
        self._pinged[game_id] = table.version
        player = await self._player(game_id, table.to_play)
        if player is None or self.hands.live(game_id, player.user_key):
            return
        await self._notify(game_id, channel, player, "play.your_turn")

    async def _warn(self, event: TurnWarning) -> None:
        player = await self._player(event.game_id, event.seat)
        if player is not None:
            await self._notify(event.game_id, event.chat_key, player, "play.warning",
                               seconds=event.seconds_left)

    async def _remind(self, event: TurnReminder) -> None:
        """A turn with no clock has waited (`REMIND_AFTER`): its player is pinged once more, and
        the channel gets a button for the game's creator or an admin to let the computer play it."""
        hours = max(1, round(event.waited / 3600))
        player = await self._player(event.game_id, event.seat)
        row = await self.sessions.queries.game(event.game_id)
        if player is not None:
            await self._notify(event.game_id, event.chat_key, player, "clock.reminder", count=hours,
                               chat=row.chat.title or "—")
        lang = await self.chat_language(event.chat_key)
        await self._channel(event.chat_key).send(
            tn(lang, "clock.waiting", hours, name=event.name),
            view=hand_over_button(event.game_id, event.version, event.name, lang),
            allowed_mentions=discord.AllowedMentions.none())

    async def _day_over(self, event: GameCancelled) -> None:
        """A deal of the day its day ended first (midnight UTC): closed unfinished, as the
        channel it is played in reads in one line."""
        player = await self._player(event.game_id, 0)
        lang = await self.chat_language(event.chat_key)
        await self._channel(event.chat_key).send(
            daily_unfinished_text(player.display_name if player else "—", event.day_over, lang),
            allowed_mentions=discord.AllowedMentions.none())

    async def _player(self, game_id: int, seat: int) -> PlayerProfile | None:
        row = await self.sessions.queries.game(game_id)
        found = next((s for s in row.seats if s.seat == seat), None)
        if found is None or found.is_computer:
            return None
        return found.player

    async def _notify(self, game_id: int, channel: str, player: PlayerProfile, key: str,
                      **params: Any) -> None:
        """A DM if the player asked for one and Discord delivers it; else a mention in the channel."""
        if player.dm_pings and await self._direct(game_id, channel, player, key, **params):
            return
        lang = await self.chat_language(channel)
        text = t(lang, key, name=f"<@{player.user_key}>", **params)
        message = await self._channel(channel).send(
            text, view=hand_button(game_id, lang),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(player.user_key))]))
        previous = await self.notes.ping(game_id)
        await self.notes.set_ping(game_id, message.id)
        if previous is not None:
            await self._delete(channel, previous)

    async def _direct(self, game_id: int, channel: str, player: PlayerProfile, key: str,
                      **params: Any) -> bool:
        lang = self.player_language(player)
        chat = await self.sessions.queries.chat(ChatRef(PLATFORM, channel))
        text = t(lang, key, name=player.display_name, **params) + "\n" + t(
            lang, "discord.ping.where", channel=chat.title or channel)
        try:
            direct = await self.client.create_dm(discord.Object(int(player.user_key)))
            await direct.send(text, view=hand_button(game_id, lang))
        except discord.HTTPException as exc:
            log.info("could not send a direct message to player %s: %s", player.id, exc)
            return False
        return True

    async def _clear_ping(self, game_id: int, channel: str) -> None:
        previous = await self.notes.ping(game_id)
        if previous is not None:
            await self.notes.set_ping(game_id, None)
            await self._delete(channel, previous)

    async def _delete(self, channel: str, message_id: int) -> None:
        try:
            await self._channel(channel).get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            log.info("could not delete an old ping: %s", exc)
