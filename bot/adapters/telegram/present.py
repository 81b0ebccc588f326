"""From sessions events to Telegram messages.

Each game has one group message (the lobby, then the table) and one private
message per player (their hand); events only mark them for redrawing, and the
outbox draws them from the latest state. Only a round's breakdown, the end of
a match and a turn warning become new messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable

from ...engine import Move, Rules
from ...i18n import t
from ...pictures import LastPlay, last_play_of, round_scene_of, seat_scene, table_scene
from ...sessions import (
    ChatRef,
    Event,
    GameCancelled,
    GameSeat,
    GameStarted,
    GameStatus,
    HandView,
    MatchEnded,
    MovePlayed,
    PlayerProfile,
    Refused,
    RoundEnded,
    Sessions,
    TableView,
    TurnWarning,
    UserRef,
    interaction,
)
from ...sessions.interaction import PLAIN, FuoriOutcome, HandMode, HandPrompt
from .identity import PLATFORM, private_link, topic_id
from .keyboards import hand_keyboard, lobby_keyboard, match_keyboard, table_keyboard
from .markup import (
    breakdown_html,
    cancelled_html,
    caption,
    deck_sample,
    escape,
    hand_closed_html,
    hand_html,
    hand_lobby_html,
    lobby_caption,
    lobby_html,
    match_html,
    round_caption_html,
    table_caption,
    table_html,
)
from .outbox import SENT_REF, Content, Outbox, Picture, Target

log = logging.getLogger(__name__)


def table_target(game_id: int, chat_id: int, thread: int | None = None) -> Target:
    return Target(chat_id, game_id, "table", thread=thread)


def hand_target(game_id: int, user_key: str) -> Target:
    return Target(int(user_key), game_id, f"hand:{user_key}")


def prompt_ref(user_key: str) -> str:
    return f"prompt:{user_key}"


def rung_ref(user_key: str) -> str:
    """The version at which the player's phone last rang for their turn."""
    return f"rung:{user_key}"


def played_for_ref(user_key: str) -> str:
    """Set while the player's last card was played for them by the turn timer."""
    return f"played_for:{user_key}"


BURIED_AFTER = 6
"""Newer messages in a group after which its game's table is posted again below them."""
TIMED_OUT_REF = "timed_out"
"""The version after the game's last play when the turn timer made that play."""


def parse_prompt(value: str | None, version: int) -> HandPrompt:
    """The prompt kept as `version:mode:card`; plain when it was drawn for another version."""
    if not value:
        return PLAIN
    drawn, _, rest = value.partition(":")
    mode, _, card = rest.partition(":")
    if drawn != str(version) or mode not in HandMode._value2member_map_:
        return PLAIN
    return HandPrompt(HandMode(mode), card or None)


def human(seat: GameSeat) -> PlayerProfile | None:
    return seat.player


class Presenter:
    def __init__(self, sessions: Sessions, outbox: Outbox, bot_username: Callable[[], str], *,
                 table_delay: float = 0.3) -> None:
        self.sessions = sessions
        self.outbox = outbox
        self.bot_username = bot_username
        self.table_delay = table_delay
        self.menus: dict[int, str] = {}
        self._cancelled_by: dict[int, str] = {}
        self._dm: dict[str, bool] = {}
        self._languages: dict[str, str] = {}
        self._chat_languages: dict[int, str] = {}
        self._chat_pictures: dict[int, bool] = {}
        self._cleanups: set[asyncio.Task[None]] = set()
        self._announcing: dict[int, asyncio.Task[bool]] = {}

    # ---- who can be reached, in which language ------------------------------------

    def reachable(self, player: PlayerProfile) -> bool:
        return self._dm.get(player.user_key, player.can_dm)

    async def set_reachable(self, user: UserRef, on: bool) -> None:
        if self._dm.get(user.key) == on:
            return
        self._dm[user.key] = on
        await self.sessions.set_can_dm(user, on)

    def language(self, player: PlayerProfile | None, fallback: str = "it") -> str:
        if player is not None and player.user_key in self._languages:
            return self._languages[player.user_key]
        return self.sessions.player_language(player, fallback)

    def set_language(self, user_key: str, lang: str) -> None:
        self._languages[user_key] = lang

    async def chat_language(self, chat_id: int) -> str:
        chat_id = self.outbox.moved.get(chat_id, chat_id)
        lang = self._chat_languages.get(chat_id)
        if lang is None:
            row = await self.sessions.chat(ChatRef(PLATFORM, str(chat_id)))
            lang = self._chat_languages[chat_id] = row.language
        return lang

    def set_chat_language(self, chat_id: int, lang: str) -> None:
        self._chat_languages[chat_id] = lang

    async def chat_pictures(self, chat_id: int) -> bool:
        """Whether the chat's table and its players' hands are pictures (its /settings)."""
        chat_id = self.outbox.moved.get(chat_id, chat_id)
        on = self._chat_pictures.get(chat_id)
        if on is None:
            row = await self.sessions.chat(ChatRef(PLATFORM, str(chat_id)))
            on = self._chat_pictures[chat_id] = row.pictures
        return on

    async def draws_pictures(self, chat_id: int) -> bool:
        """Whether to draw the chat's messages as pictures: its settings want them and this
        front-end draws pictures at all."""
        return self.outbox.painter is not None and await self.chat_pictures(chat_id)

    def set_chat_pictures(self, chat_id: int, on: bool) -> None:
        self._chat_pictures[chat_id] = on

    async def chat_migrated(self, old_id: int, new_id: int) -> None:
        """Group `old_id` became the supergroup `new_id` (the outbox's `chat_moved`): the group's
        games, settings and leaderboard move to the new id, and the game in play, if any, is
        drawn there in a new message; the old group's message can no longer be edited, and its
        id means nothing in the new one. Said twice (both service messages, a refused send,
        another process), it is done once."""
        moved = await self.sessions.move_chat(ChatRef(PLATFORM, str(old_id)), str(new_id))
        for chat_id in (old_id, new_id):
            self._chat_languages.pop(chat_id, None)
            self._chat_pictures.pop(chat_id, None)
        if moved is None:
            return
        game_id = await self.sessions.open_game_id(ChatRef(PLATFORM, str(new_id)))
        if game_id is None:
            return
        for ref in (table_target(game_id, new_id).ref, SENT_REF):
            await self.outbox.refs.set(game_id, ref, None)
        self.outbox.forget(game_id)
        self.refresh_table(game_id, new_id, fresh=True)

    async def user_forbidden(self, chat_id: int) -> None:
        """A private chat refused us: the player blocked the bot or never started it."""
        if chat_id <= 0:
            return
        key = str(chat_id)
        player = await self.sessions.find_player(PLATFORM, key)
        if player is None:
            return
        await self.set_reachable(UserRef(PLATFORM, key, player.display_name), False)
        for row in await self.sessions.games_of(UserRef(PLATFORM, key, player.display_name)):
            if row.status is GameStatus.RUNNING:
                self.refresh_table(row.id, int(row.chat.key), thread=topic_id(row.chat.thread))

    async def redraw_running(self) -> int:
        """Redraw every Telegram game in play: after a restart, the last move may not be shown yet."""
        count = 0
        for row in await self.sessions.running_games():
            if row.chat.platform != PLATFORM:
                continue
            game_id = row.id
            self.refresh_table(game_id, int(row.chat.key), thread=topic_id(row.chat.thread))
            await self.refresh_hands(game_id, restarted=True)
            count += 1
        for event in await self.sessions.owed_notices(PLATFORM):
            await self.on_event(event)
        return count

    # ---- what a hand shows ---------------------------------------------------------

    async def prompt(self, game_id: int, user_key: str, version: int) -> HandPrompt:
        """What the player's hand shows at `version`, kept with the game's message references
        (`prompt:<user>` = `version:mode:card`) so that a restart still shows a choice of captures."""
        value = await self.outbox.refs.get(game_id, prompt_ref(user_key))
        return parse_prompt(value, version)

    async def set_prompt(self, game_id: int, user_key: str, version: int, prompt: HandPrompt) -> None:
        key = prompt_ref(user_key)
        if prompt == PLAIN:
            if await self.outbox.refs.get(game_id, key) is not None:
                await self.outbox.refs.set(game_id, key, None)
            return
        await self.outbox.refs.set(game_id, key, f"{version}:{prompt.mode.value}:{prompt.card or ''}")

    # ---- drawing -------------------------------------------------------------------

    def refresh_table(self, game_id: int, chat_id: int, delay: float = 0.0,
                      thread: int | None = None, fresh: bool = False) -> asyncio.Future[bool]:
        """Draw the game's group message, in its forum topic (`thread`); `fresh`: as a new
        message at the bottom of the chat."""
        chat_id = self.outbox.moved.get(chat_id, chat_id)
        return self.outbox.update(table_target(game_id, chat_id, thread),
                                  lambda: self.draw_table(game_id, chat_id), delay, fresh)

    def refresh_hand(self, game_id: int, user_key: str, fresh: bool = False) -> asyncio.Future[bool]:
        return self.outbox.update(hand_target(game_id, user_key),
                                  lambda: self.draw_hand(game_id, user_key), fresh=fresh)

    async def refresh_hands(self, game_id: int, last: int | None = None, restarted: bool = False) -> None:
        """Every reachable player's hand; unchanged ones cost no request.

        Seat `last` (who just played) goes last: when the flood limits make
        hands wait, the hand that can play now is drawn first. The hand of the
        player whose turn has just begun is sent as a new message (`_rings`);
        `restarted`: sent anew in any case, for a process stopped between sending a
        turn's hand and keeping its id left that message behind, live but no longer
        drawn: the player finds the hand the bot draws below it.
        """
        row = await self.sessions.game_row(game_id)
        turn = None
        if row.status is GameStatus.RUNNING:
            with contextlib.suppress(Refused):
                table = await self.sessions.table(game_id)
                turn = None if table.finished else (table.to_play, table.version)
        for seat in sorted(row.seats, key=lambda s: s.seat == last):
            player = human(seat)
            if player is not None and seat.ready and self.reachable(player):
                ring = (turn is not None and seat.seat == turn[0] and not seat.autoplay
                        and (await self._rings(game_id, player.user_key, turn[1]) or restarted))
                self.refresh_hand(game_id, player.user_key, fresh=ring)

    async def _rings(self, game_id: int, user_key: str, version: int) -> bool:
        """Whether the player's turn at `version` still has to ring their phone; it rings once.

        Telegram rings a phone for a new message and never for an edit: the hand of the
        player to move is sent anew at the bottom of their chat (the old one deleted), every
        other drawing is an edit. Capture choices, refusals and redraws keep the version, so
        they ring nobody; the version rung is kept with the game, so a restart rings no one
        twice either."""
        key = rung_ref(user_key)
        if await self.outbox.refs.get(game_id, key) == str(version):
            return False
        await self.outbox.refs.set(game_id, key, str(version))
        return True

    def repost_hand(self, game_id: int, user_key: str) -> asyncio.Future[bool]:
        """Draw the hand in a new message (the old one may be far up the chat)."""
        return self.outbox.update(hand_target(game_id, user_key),
                                  lambda: self.draw_hand(game_id, user_key), fresh=True)

    async def draw_table(self, game_id: int, chat_id: int) -> Content | None:
        lang = await self.chat_language(chat_id)
        row = await self.sessions.game_row(game_id)
        if row.status is GameStatus.LOBBY:
            view = await self.sessions.lobby_of(game_id)
            link = private_link(self.bot_username(), game_id) if view.waiting else None
            html = lobby_html(view, lang)
            picture = (Picture(deck_sample(view.deck_style), lang, lobby_caption(view, lang))
                       if await self.draws_pictures(chat_id) else None)
            return Content(html, lobby_keyboard(view, lang, self.menus.get(game_id, "main"), link), picture)
        if row.status is GameStatus.CANCELLED:
            return Content(cancelled_html(lang, self._cancelled_by.get(game_id), row.started))
        view = await self.sessions.table(game_id)
        now = self.sessions.clock()
        timed_out = await self._timed_out(view)
        picture = (Picture(table_scene(view, last=self._last_play(view, timed_out)), lang,
                           table_caption(view, lang, now, timed_out))
                   if await self.draws_pictures(chat_id) else None)
        if view.finished:
            return Content(table_html(view, lang, now, timed_out), (), picture)
        humans = [(seat, player) for seat in row.seats if (player := human(seat)) is not None]
        show_hand = any(not self.reachable(player) for _, player in humans)
        take_back = any(seat.autoplay for seat, _ in humans)
        return Content(table_html(view, lang, now, timed_out),
                       table_keyboard(game_id, lang, show_hand, take_back), picture)

    async def _timed_out(self, view: TableView) -> bool:
        """Whether the last play on the table was made by the turn timer."""
        return bool(view.last_plays) and (
            await self.outbox.refs.get(view.game_id, TIMED_OUT_REF) == str(view.version))

    @staticmethod
    def _last_play(view: TableView, timed_out: bool) -> LastPlay | None:
        last = last_play_of(view.last_plays[-1] if view.last_plays else None)
        return dataclasses.replace(last, timed_out=True) if last is not None and timed_out else last

    async def draw_hand(self, game_id: int, user_key: str) -> Content | None:
        row = await self.sessions.game_row(game_id)
        seat = next((s for s in row.seats if (p := human(s)) is not None and p.user_key == user_key),
                    None)
        player = human(seat) if seat is not None else await self.sessions.find_player(
            PLATFORM, user_key)
        lang = self.language(player)
        if seat is None or player is None:
            return Content(escape(t(lang, "telegram.hand.left")))
        if row.status is GameStatus.LOBBY:
            return Content(hand_lobby_html(lang, row.variant, row.chat.title))
        if row.status is GameStatus.CANCELLED:
            return Content(hand_closed_html(lang, row.started))
        user = UserRef(PLATFORM, user_key, player.display_name)
        try:
            view = await self.sessions.hand(game_id, user)
            table = await self.sessions.table(game_id)
            prompt = await self.prompt(game_id, user_key, view.version)
            fuori, fuori_wins = await self._fuori(view, user, prompt, seat.autoplay)
        except Refused:
            return None
        timed_out = await self._timed_out(table)
        played_for_you = await self.outbox.refs.get(game_id, played_for_ref(user_key)) is not None
        html = hand_html(view, lang, row.variant, prompt=prompt, autoplay=seat.autoplay, fuori=fuori,
                         fuori_wins=fuori_wins, legend=view.shows_legend, table=table,
                         timed_out=timed_out, played_for_you=played_for_you)
        picture = (Picture(seat_scene(table, view, self._last_play(table, timed_out)), lang, caption(html))
                   if await self.draws_pictures(int(row.chat.key)) else None)
        return Content(html, hand_keyboard(view, lang, prompt, seat.autoplay, fuori_wins), picture)

    async def _fuori(self, view: HandView, user: UserRef, prompt: HandPrompt,
                     autoplay: bool) -> tuple[list[tuple[Move, FuoriOutcome]], bool]:
        """What the hand tells about declaring fuori (`interaction.fuori_preview`, the same rule
        on every front-end)."""
        preview = await interaction.fuori_preview(self.sessions, view, user, prompt, autoplay)
        return list(preview.outcomes), preview.wins

    # ---- events --------------------------------------------------------------------

    async def on_event(self, event: Event) -> None:
        if event.platform != PLATFORM:
            return
        chat_id = self.outbox.moved.get(int(event.chat_key), int(event.chat_key))
        game_id = event.game_id
        if isinstance(event, GameCancelled):
            self._cancelled_by[game_id] = event.by
        if isinstance(event, MovePlayed):
            await self._note_timer(event)
        delay = self.table_delay if isinstance(event, MovePlayed) else 0.0
        table_done = self.refresh_table(game_id, chat_id, delay, topic_id(event.thread))
        await self.refresh_hands(game_id, event.seat if isinstance(event, MovePlayed) else None)
        if isinstance(event, GameStarted):
            self.menus.pop(game_id, None)
        elif isinstance(event, RoundEnded):
            self._table_below(event, self._announce(event, await self._round_end(event, chat_id)))
        elif isinstance(event, MatchEnded):
            lang = await self.chat_language(chat_id)
            ended = Content(match_html(event, lang), match_keyboard(game_id, lang))
            self._after(game_id, table_done, self._announce(event, ended))
        elif isinstance(event, GameCancelled):
            self._after(game_id, table_done)
        elif isinstance(event, TurnWarning):
            await self._warn(event)

    async def _note_timer(self, event: MovePlayed) -> None:
        """Keep that the turn timer made this play (the table and the hand say so), or that
        the player played for themselves again."""
        refs = self.outbox.refs
        if event.timed_out:
            await refs.set(event.game_id, TIMED_OUT_REF, str(event.version))
        row = await self.sessions.game_row(event.game_id)
        seat = next((s for s in row.seats if s.seat == event.seat), None)
        player = human(seat) if seat is not None else None
        if player is None:
            return
        key = played_for_ref(player.user_key)
        if event.timed_out:
            await refs.set(event.game_id, key, str(event.version))
        elif not event.by_computer and await refs.get(event.game_id, key) is not None:
            await refs.set(event.game_id, key, None)

    async def saw_message(self, chat: ChatRef, message_id: int) -> None:
        """A message `message_id` was posted in the group (by anyone, the bot too). Message ids
        grow by one with each message of a chat, so once `BURIED_AFTER` messages stand below a
        running game's table, the table is posted again at the bottom (the old one deleted)."""
        game_id = await self.sessions.open_game_id(chat)
        if game_id is None:
            return
        chat_id = int(chat.key)
        shown = await self.outbox.message_of(table_target(game_id, chat_id, topic_id(chat.thread)))
        if shown is None or message_id - shown < BURIED_AFTER:
            return
        if (await self.sessions.game_row(game_id)).status is GameStatus.RUNNING:
            self.refresh_table(game_id, chat_id, thread=topic_id(chat.thread), fresh=True)

    def _table_below(self, event: RoundEnded, after: asyncio.Future[bool]) -> None:
        """Once the round's breakdown is posted, the table is posted again below it (and the
        old one deleted): a new round starts in sight, not above the count of the last one."""
        game_id = event.game_id

        async def repost() -> None:
            if await after and (await self.sessions.game_row(game_id)).status is GameStatus.RUNNING:
                self.refresh_table(game_id, int(event.chat_key), thread=topic_id(event.thread), fresh=True)

        task = asyncio.create_task(repost())
        self._cleanups.add(task)
        task.add_done_callback(self._cleanups.discard)

    async def _round_end(self, event: RoundEnded, chat_id: int) -> Content:
        """A round's end: in a chat with pictures a photo of it under a short caption, its
        breakdown as text where a photo cannot go."""
        lang = await self.chat_language(chat_id)
        text = breakdown_html(event, lang)
        if not await self.draws_pictures(chat_id):
            return Content(text)
        row = await self.sessions.game_row(event.game_id)
        rules = Rules.from_options(row.variant, row.options)
        scene = round_scene_of(event, row.deck_style, rules)
        return Content(text, (), Picture(scene, lang, round_caption_html(event, lang, rules.target)))

    async def _warn(self, event: TurnWarning) -> None:
        row = await self.sessions.game_row(event.game_id)
        seat = next((s for s in row.seats if s.seat == event.seat), None)
        player = human(seat) if seat is not None else None
        if player is not None and self.reachable(player):
            text = t(self.language(player), "play.warning", name=player.display_name,
                     seconds=event.seconds_left)
            self.outbox.post(int(player.user_key), Content(escape(text)))

    def _announce(self, event: RoundEnded | MatchEnded, content: Content) -> asyncio.Task[bool]:
        """Post a round's breakdown or the end of a match, once of all processes
        (`Sessions.announce`), after the game's earlier announcements. Once the chat refuses
        the bot (it was removed from the group) it is owed no more: trying again at every
        start would only be refused again."""
        chat_id, earlier = int(event.chat_key), self._announcing.get(event.game_id)
        thread = topic_id(event.thread)

        async def post() -> bool:
            if await self.outbox.post(chat_id, content, game_id=event.game_id, thread=thread) is not None:
                return True
            if thread is not None and (chat_id, thread) in self.outbox.lost_topics:
                return await self._after_lost_topic(event, content)
            if chat_id not in self.outbox.refusing:
                return False
            log.info("chat %s refuses the bot: %s of game %d is dropped", event.chat_key,
                     type(event).__name__, event.game_id)
            return True

        async def announce() -> bool:
            if earlier is not None:
                await asyncio.gather(earlier, return_exceptions=True)
            try:
                return await self.sessions.announce(event, post)
            except Exception:
                log.warning("could not post %s of game %d", type(event).__name__, event.game_id,
                            exc_info=True)
                return False

        task = asyncio.create_task(announce(), name=f"telegram-announce-{event.game_id}")
        self._announcing[event.game_id] = task

        def done(finished: asyncio.Task[bool]) -> None:
            if self._announcing.get(event.game_id) is finished:
                del self._announcing[event.game_id]

        task.add_done_callback(done)
        return task

    async def topic_lost(self, chat_id: int, thread: int, how: str) -> None:
        """A forum topic refused the bot ("closed" or "deleted"): its open game, which can no
        longer be shown, is stopped, and General says so in the group's language."""
        game_id = await self.sessions.abandon(ChatRef(PLATFORM, str(chat_id), thread=str(thread)))
        if game_id is None:
            return
        lang = await self.chat_language(chat_id)
        variant = t(lang, f"variant.{(await self.sessions.game_row(game_id)).variant}")
        self.outbox.post(chat_id, Content(escape(t(lang, f"telegram.topic.{how}", game=game_id,
                                                   variant=variant))), game_id=game_id)

    async def _after_lost_topic(self, event: RoundEnded | MatchEnded, content: Content) -> bool:
        """An announcement its topic refused: the end of a match is posted in General, where it
        can still be read (without its Rematch button: a rematch would open in the lost topic);
        a round's breakdown is dropped, its game stopped (`topic_lost`)."""
        if not isinstance(event, MatchEnded):
            return True
        lang = await self.chat_language(int(event.chat_key))
        moved = Content(escape(t(lang, "telegram.topic.result_here")) + "\n\n" + content.text)
        return await self.outbox.post(int(event.chat_key), moved, game_id=event.game_id) is not None

    def _after(self, game_id: int, *waits: asyncio.Future[object] | asyncio.Future[bool]) -> None:
        """Forget a closed game's drawing state once its last messages are out."""
        async def cleanup() -> None:
            await asyncio.gather(*waits, return_exceptions=True)
            await asyncio.sleep(0)
            self.menus.pop(game_id, None)
            self._cancelled_by.pop(game_id, None)
            self.outbox.forget(game_id)

        task = asyncio.create_task(cleanup())
        self._cleanups.add(task)
        task.add_done_callback(self._cleanups.discard)
