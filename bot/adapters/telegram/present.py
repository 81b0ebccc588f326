"""From sessions events to Telegram messages.

Each game has one group message (the lobby, then the table) and one private
message per player (their hand); events only mark them for redrawing, and the
outbox draws them from the latest state. Only a round's breakdown, the end of
a match and a turn warning become new messages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from ...engine import Move
from ...i18n import t
from ...pictures import hand_scene, table_scene
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
    table_caption,
    table_html,
)
from .outbox import Content, Outbox, Picture, Target

log = logging.getLogger(__name__)


def table_target(game_id: int, chat_id: int, thread: int | None = None) -> Target:
    return Target(chat_id, game_id, "table", thread=thread)


def hand_target(game_id: int, user_key: str) -> Target:
    return Target(int(user_key), game_id, f"hand:{user_key}")


def prompt_ref(user_key: str) -> str:
    return f"prompt:{user_key}"


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
        self._newcomers: dict[str, bool] = {}
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
        lang = self._chat_languages.get(chat_id)
        if lang is None:
            row = await self.sessions.chat(ChatRef(PLATFORM, str(chat_id)))
            lang = self._chat_languages[chat_id] = row.language
        return lang

    def set_chat_language(self, chat_id: int, lang: str) -> None:
        self._chat_languages[chat_id] = lang

    async def chat_pictures(self, chat_id: int) -> bool:
        """Whether the chat's table and its players' hands are pictures (its /settings)."""
        on = self._chat_pictures.get(chat_id)
        if on is None:
            row = await self.sessions.chat(ChatRef(PLATFORM, str(chat_id)))
            on = self._chat_pictures[chat_id] = row.pictures
        return on

    def set_chat_pictures(self, chat_id: int, on: bool) -> None:
        self._chat_pictures[chat_id] = on

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
            await self.refresh_hands(game_id)
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
                      thread: int | None = None) -> asyncio.Future[bool]:
        """Draw the game's group message; `thread`: the game's forum topic."""
        return self.outbox.update(table_target(game_id, chat_id, thread),
                                  lambda: self.draw_table(game_id, chat_id), delay)

    def refresh_hand(self, game_id: int, user_key: str) -> asyncio.Future[bool]:
        return self.outbox.update(hand_target(game_id, user_key),
                                  lambda: self.draw_hand(game_id, user_key))

    async def refresh_hands(self, game_id: int, last: int | None = None) -> None:
        """Every reachable player's hand; unchanged ones cost no request.

        Seat `last` (who just played) goes last: when the flood limits make
        hands wait, the hand that can play now is drawn first.
        """
        row = await self.sessions.game_row(game_id)
        for seat in sorted(row.seats, key=lambda s: s.seat == last):
            player = human(seat)
            if player is not None and seat.ready and self.reachable(player):
                self.refresh_hand(game_id, player.user_key)

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
                       if await self.chat_pictures(chat_id) else None)
            return Content(html, lobby_keyboard(view, lang, self.menus.get(game_id, "main"), link), picture)
        if row.status is GameStatus.CANCELLED:
            return Content(cancelled_html(lang, self._cancelled_by.get(game_id), row.started))
        view = await self.sessions.table(game_id)
        now = self.sessions.clock()
        picture = (Picture(table_scene(view), lang, table_caption(view, lang, now))
                   if await self.chat_pictures(chat_id) else None)
        if view.finished:
            return Content(table_html(view, lang, now), (), picture)
        humans = [(seat, player) for seat in row.seats if (player := human(seat)) is not None]
        show_hand = any(not self.reachable(player) for _, player in humans)
        take_back = any(seat.autoplay for seat, _ in humans)
        return Content(table_html(view, lang, now), table_keyboard(game_id, lang, show_hand, take_back),
                       picture)

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
            prompt = await self.prompt(game_id, user_key, view.version)
            fuori, fuori_wins = await self._fuori(view, user, prompt, seat.autoplay)
        except Refused:
            return None
        html = hand_html(view, lang, row.variant, prompt=prompt, autoplay=seat.autoplay, fuori=fuori,
                         fuori_wins=fuori_wins, legend=await self._newcomer(user))
        picture = (Picture(hand_scene(view), lang, caption(html))
                   if await self.chat_pictures(int(row.chat.key)) else None)
        return Content(html, hand_keyboard(view, lang, prompt, seat.autoplay, fuori_wins), picture)

    async def _fuori(self, view: HandView, user: UserRef, prompt: HandPrompt,
                     autoplay: bool) -> tuple[list[tuple[Move, FuoriOutcome]], bool]:
        """While declaring with one card, what each of its plays would mean; otherwise whether
        some play would win now (tried on copies of the game, only where fuori is played)."""
        if not view.my_turn or not view.may_declare or autoplay:
            return [], False
        if prompt.mode is HandMode.DECLARING:
            moves = next((c.moves for c in view.choices if c.card.code == prompt.card), ())
            return [(move, await interaction.fuori_outcome(self.sessions, view.game_id, user, view.version,
                                                           move)) for move in moves], False
        for choice in view.choices:
            for move in choice.moves:
                outcome = await interaction.fuori_outcome(self.sessions, view.game_id, user,
                                                          view.version, move)
                if outcome.wins:
                    return [], True
        return [], False

    async def _newcomer(self, user: UserRef) -> bool:
        """Whether the player has never finished a match: their hand explains the card labels."""
        known = self._newcomers.get(user.key)
        if known is None:
            known = self._newcomers[user.key] = not (await self.sessions.stats(user)).get("games")
        return known

    # ---- events --------------------------------------------------------------------

    async def on_event(self, event: Event) -> None:
        if event.platform != PLATFORM:
            return
        chat_id = int(event.chat_key)
        game_id = event.game_id
        if isinstance(event, GameCancelled):
            self._cancelled_by[game_id] = event.by
        delay = self.table_delay if isinstance(event, MovePlayed) else 0.0
        table_done = self.refresh_table(game_id, chat_id, delay, topic_id(event.thread))
        await self.refresh_hands(game_id, event.seat if isinstance(event, MovePlayed) else None)
        if isinstance(event, GameStarted):
            self.menus.pop(game_id, None)
        elif isinstance(event, RoundEnded):
            lang = await self.chat_language(chat_id)
            self._announce(event, Content(breakdown_html(event, lang)))
        elif isinstance(event, MatchEnded):
            self._newcomers.clear()
            lang = await self.chat_language(chat_id)
            ended = Content(match_html(event, lang), match_keyboard(game_id, lang))
            self._after(game_id, table_done, self._announce(event, ended))
        elif isinstance(event, GameCancelled):
            self._after(game_id, table_done)
        elif isinstance(event, TurnWarning):
            await self._warn(event)

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
