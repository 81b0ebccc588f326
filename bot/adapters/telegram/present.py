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
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial

from ...engine import Move, Rules
from ...i18n import t, tn
from ...pictures import LastPlay, last_play_of, round_scene_of, seat_scene, table_scene
from ...render.boards import achievements_line
from ...sessions import (
    AchievementsEarned,
    ChatRef,
    Event,
    GameCancelled,
    GameSeat,
    GameStarted,
    GameStatus,
    GameSummary,
    HandView,
    MatchEnded,
    MovePlayed,
    PlayerProfile,
    RecapLine,
    Refused,
    ReviewOwed,
    RoundEnded,
    SeatAutoplay,
    Sessions,
    TableView,
    TurnReminder,
    TurnStarted,
    TurnWarning,
    UserRef,
    interaction,
)
from ...sessions.commands import ChatMoved, ThreadLost, platform_asker
from ...sessions.interaction import FuoriOutcome, HandPrompt
from ...sessions.replies import Done
from .announcements import Announcements
from .audience import Audience
from .daily import DailyLines
from .identity import PLATFORM, message_link, private_link, topic_id
from .keyboards import hand_keyboard, hand_over_keyboard, lobby_keyboard, match_keyboard, table_keyboard
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
from .notes import TABLE_SEEN_REF, GameNotes
from .outbox import SENT_REF, Content, Outbox, Picture, Target
from .privately import PrivateCopies
from .reviews import ReviewPoster

log = logging.getLogger(__name__)


def table_target(game_id: int, chat_id: int, thread: int | None = None) -> Target:
    return Target(chat_id, game_id, "table", thread=thread)


def hand_target(game_id: int, user_key: str) -> Target:
    return Target(int(user_key), game_id, f"hand:{user_key}")


WARNING_REF = "warning"
"""The private chat and message id of the time warning sent for the turn under way."""
BURIED_AFTER = 6
"""Newer messages in a group after which its game's table is posted again below them."""


def human(seat: GameSeat) -> PlayerProfile | None:
    return seat.player


class Presenter(Audience):
    """Draws each game's messages from the latest state. What it keeps between drawings is
    kept with the game (`notes.GameNotes`) or read from the store (`audience.Audience`), so
    that every process sharing the store draws alike."""

    def __init__(self, sessions: Sessions, outbox: Outbox, bot_username: Callable[[], str], *,
                 table_delay: float = 0.3) -> None:
        super().__init__(sessions, outbox)
        self.bot_username = bot_username
        self.table_delay = table_delay
        self.notes = GameNotes(outbox.refs)
        self.menus = self.notes.menus
        self.announcements = Announcements(sessions, outbox, self)
        self.reviews = ReviewPoster(sessions, outbox, self)
        self.copies = PrivateCopies(sessions, outbox, self)
        self.daily_lines = DailyLines(outbox, self.chat_language)
        self._cleanups: set[asyncio.Task[None]] = set()
        self._ended_tables: dict[int, asyncio.Future[bool]] = {}
        """Per game whose end this process drew, its table's last drawing: the achievements' line
        goes after it."""
        self._replied: dict[tuple[int, str], int] = {}
        """Per game and player, the version of the hand last drawn from a tap's reply
        (`redraw_hand`): the events of that play need not draw it again."""
        self._warnings: dict[int, list[tuple[int, asyncio.Future[int | None]]]] = {}
        """Per game, the time warnings sent since its last move (private chat, message id to
        come): deleted once the game moves, when they no longer hold."""

    async def chat_migrated(self, old_id: int, new_id: int) -> None:
        """Group `old_id` became the supergroup `new_id` (the outbox's `chat_moved`): the group's
        games, settings and leaderboard move to the new id, and the game in play, if any, is
        drawn there in a new message; the old group's message can no longer be edited, and its
        id means nothing in the new one. Said twice (both service messages, a refused send,
        another process), it is done once."""
        old = platform_asker(ChatRef(PLATFORM, str(old_id)))
        moved = await self.sessions.handle(old, ChatMoved(str(new_id)))
        game_id = moved.game_id if isinstance(moved, Done) else None
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
        player = await self.sessions.queries.find_player(PLATFORM, key)
        if player is None:
            return
        await self.set_reachable(UserRef(PLATFORM, key, player.display_name), False)
        for row in await self.sessions.queries.games_of(UserRef(PLATFORM, key, player.display_name)):
            if row.status is GameStatus.RUNNING:
                self.refresh_table(row.id, int(row.chat.key), thread=topic_id(row.chat.thread))

    async def redraw_running(self) -> int:
        """Redraw every Telegram game in play: after a restart, the last move may not be shown yet."""
        count = 0
        for row in await self.sessions.queries.running_games():
            if row.chat.platform != PLATFORM:
                continue
            game_id = row.id
            self.refresh_table(game_id, int(row.chat.key), thread=topic_id(row.chat.thread))
            await self.refresh_hands(game_id, restarted=True)
            count += 1
        for event in await self.sessions.delivery.owed_notices(PLATFORM):
            await self.on_event(event)
        return count

    # ---- what a hand shows ---------------------------------------------------------

    async def prompt(self, game_id: int, user_key: str, version: int) -> HandPrompt:
        return await self.notes.prompt(game_id, user_key, version)

    async def set_prompt(self, game_id: int, user_key: str, version: int, prompt: HandPrompt) -> None:
        await self.notes.set_prompt(game_id, user_key, version, prompt)

    # ---- drawing -------------------------------------------------------------------

    def refresh_table(self, game_id: int, chat_id: int, delay: float = 0.0,
                      thread: int | None = None, fresh: bool = False) -> asyncio.Future[bool]:
        """Draw the game's group message, in its forum topic (`thread`); `fresh`: as a new
        message at the bottom of the chat."""
        chat_id = self.outbox.moved.get(chat_id, chat_id)
        return self.outbox.update(table_target(game_id, chat_id, thread),
                                  lambda: self.draw_table(game_id, chat_id), delay, fresh)

    def refresh_hand(self, game_id: int, user_key: str, fresh: bool = False,
                     table: TableView | None = None) -> asyncio.Future[bool]:
        """Draw the player's hand as the game is now; `table`: the table read for the event
        that asks for it, used unless the game has moved on since."""
        return self.outbox.update(hand_target(game_id, user_key),
                                  lambda: self._hand(game_id, user_key, table=table), fresh=fresh)

    def redraw_hand(self, user_key: str, view: HandView, table: TableView | None = None,
                    prompt: HandPrompt | None = None, played: bool = False) -> asyncio.Future[bool]:
        """The hand a tap was answered with (`view`, and the `table` its play left) drawn as
        the reply gives it, reading neither again; `prompt`: what it shows now. After a play
        (`played`), the events of that play, drawn after the answer, leave this hand alone
        while the game is still at the reply's version (`refresh_hands`)."""
        if played:
            self._replied[(view.game_id, user_key)] = view.version
        return self.outbox.update(hand_target(view.game_id, user_key),
                                  lambda: self._hand(view.game_id, user_key, view, table, prompt))

    def _drawn_by_reply(self, game_id: int, user_key: str, version: int) -> bool:
        """Whether the player's hand at `version` was drawn from their tap's reply."""
        replied = self._replied.get((game_id, user_key))
        if replied is not None and replied != version:
            del self._replied[(game_id, user_key)]
        return replied == version

    async def refresh_hands(self, game_id: int, last: int | None = None, restarted: bool = False,
                            replied: bool = False) -> None:
        """Every reachable player's hand; unchanged ones cost no request. For the events of a
        play (`replied`: the move, the turn, a round's or the match's end), a hand drawn from
        the reply to its player's tap at the game's version is not drawn again (`redraw_hand`),
        unless it rings for a turn of its own or the game was cancelled; the table read here
        is drawn with every hand.

        Seat `last` (who just played) goes last: when the flood limits make
        hands wait, the hand that can play now is drawn first. The hand of the
        player whose turn has just begun is sent as a new message (`GameNotes.rings`);
        `restarted`: sent anew in any case, for a process stopped between sending a
        turn's hand and keeping its id left that message behind, live but no longer
        drawn: the player finds the hand the bot draws below it.
        """
        row = await self.sessions.queries.game(game_id)
        turn, table = None, None
        if row.status is GameStatus.RUNNING:
            with contextlib.suppress(Refused):
                table = await self.sessions.queries.table(game_id)
                turn = None if table.finished else (table.to_play, table.version)
        replied = replied and row.status is not GameStatus.CANCELLED
        for seat in sorted(row.seats, key=lambda s: s.seat == last):
            player = human(seat)
            if player is not None and seat.ready and self.reachable(player):
                ring = (turn is not None and seat.seat == turn[0] and not seat.autoplay
                        and (await self.notes.rings(game_id, player.user_key, turn[1]) or restarted))
                if replied and not ring and self._drawn_by_reply(game_id, player.user_key, row.version):
                    continue
                self.refresh_hand(game_id, player.user_key, fresh=ring, table=table)

    async def adopt_hand(self, game_id: int, user_key: str, message_id: int, photo: bool) -> None:
        """The player acted on `message_id`, a hand of game `game_id` in their private chat that
        is not the one the bot keeps (a kill left it behind): the newer of the two is drawn from
        now on, and the older deleted, so a tap never leaves the hand tapped unchanged."""
        await self.outbox.adopt(hand_target(game_id, user_key), message_id, photo)

    def repost_hand(self, game_id: int, user_key: str) -> asyncio.Future[bool]:
        """Draw the hand in a new message (the old one may be far up the chat)."""
        return self.outbox.update(hand_target(game_id, user_key),
                                  lambda: self.draw_hand(game_id, user_key), fresh=True)

    async def draw_table(self, game_id: int, chat_id: int) -> Content | None:
        """The game's table (or lobby); in a private chat (a match played there, the deal of the
        day) it never rings: the hand rings for each turn, once."""
        content = await self._table(game_id, chat_id)
        return dataclasses.replace(content, silent=True) if content is not None and chat_id > 0 else content

    async def _table(self, game_id: int, chat_id: int) -> Content | None:
        lang = await self.chat_language(chat_id)
        row = await self.sessions.queries.game(game_id)
        if row.status is GameStatus.LOBBY:
            view = await self.sessions.queries.lobby_of(game_id)
            link = private_link(self.bot_username(), game_id) if view.waiting else None
            html = lobby_html(view, lang)
            picture = (Picture(deck_sample(view.deck_style), lang, lobby_caption(view, lang))
                       if await self.draws_pictures(chat_id) else None)
            menu = await self.menus.shown(game_id)
            return Content(html, lobby_keyboard(view, lang, menu, link), picture)
        if row.status is GameStatus.CANCELLED:
            return Content(cancelled_html(lang, row.cancelled_by, row.started))
        table, unseen, keeps = await self._table_since(game_id)
        now = self.sessions.clock()
        picture = (Picture(table_scene(table, last=self._last_play(table)), lang,
                           table_caption(table, lang, now, unseen))
                   if await self.draws_pictures(chat_id) else None)
        if table.finished:
            return Content(table_html(table, lang, now, unseen), (), picture, keeps=keeps)
        humans = [(seat, player) for seat in row.seats if (player := human(seat)) is not None]
        show_hand = any(not self.reachable(player) for _, player in humans)
        take_back = any(seat.autoplay for seat, _ in humans)
        return Content(table_html(table, lang, now, unseen),
                       table_keyboard(game_id, lang, show_hand, take_back), picture, keeps=keeps)

    async def _table_since(self, game_id: int) -> tuple[TableView, tuple[RecapLine, ...],
                                                         tuple[tuple[str, str], ...]]:
        """The table, the plays the group has not seen drawn, and the note to keep once this
        drawing shows. A drawing goes on from where the one the group saw ended; with no play
        since, it tells what that one told (drawn again, it costs no edit)."""
        seen = await self.notes.table_seen(game_id)
        table, recap = await self.sessions.queries.table_since(game_id, seen[0] if seen else None)
        start, lines = recap.since, recap.lines
        if seen is not None and seen[1] < recap.made:
            start = max(start, seen[1])
            lines = lines[max(0, len(lines) - (recap.made - start)):] if recap.made > start else ()
        return table, lines, ((TABLE_SEEN_REF, f"{start} {recap.made}"),)

    @staticmethod
    def _last_play(view: TableView) -> LastPlay | None:
        """The table's last play as pictures draw it, marked when the turn timer made it."""
        last = last_play_of(view.last_plays[-1] if view.last_plays else None)
        return dataclasses.replace(last, timed_out=True) if last is not None and view.timed_out else last

    async def draw_hand(self, game_id: int, user_key: str) -> Content | None:
        return await self._hand(game_id, user_key)

    async def _hand(self, game_id: int, user_key: str, view: HandView | None = None,
                    table: TableView | None = None, prompt: HandPrompt | None = None) -> Content | None:
        """The player's hand as the game is now, or as a tap's reply gives it (`view`, `table`,
        `prompt`: what the reply already says is not read again, unless the game has moved on
        since, a computer's play drawn after it)."""
        row = await self.sessions.queries.game(game_id)
        seat = next((s for s in row.seats if (p := human(s)) is not None and p.user_key == user_key),
                    None)
        player = human(seat) if seat is not None else await self.sessions.queries.find_player(
            PLATFORM, user_key)
        lang = self.language(player)
        if seat is None or player is None:
            return Content(escape(t(lang, "telegram.hand.left")))
        if row.status is GameStatus.LOBBY:
            return Content(hand_lobby_html(lang, row.variant, row.chat.title, row.chat.key == user_key))
        if row.status is GameStatus.CANCELLED:
            return Content(hand_closed_html(lang, row.started))
        user = UserRef(PLATFORM, user_key, player.display_name)
        try:
            if view is None or view.version != row.version:
                view, prompt = await self.sessions.queries.hand(game_id, user), None
            if table is None or table.version != view.version:
                table = await self.sessions.queries.table(game_id)
            if prompt is None:
                prompt = await self.prompt(game_id, user_key, view.version)
            fuori, fuori_wins = await self._fuori(view, user, prompt, seat.autoplay)
        except Refused:
            return None
        html = hand_html(view, lang, row.variant, prompt=prompt, autoplay=seat.autoplay, fuori=fuori,
                         fuori_wins=fuori_wins, legend=view.shows_legend, table=table)
        where = await self._where(row, user, lang)
        if where:
            title, _, rest = html.partition("\n")
            html = f"{title}\n{where}\n{rest}"
        picture = (Picture(seat_scene(table, view, self._last_play(table)), lang, caption(html))
                   if await self.draws_pictures(int(row.chat.key)) else None)
        return Content(html, hand_keyboard(view, lang, prompt, seat.autoplay, fuori_wins), picture,
                       silent=player.quiet_turns or not view.my_turn)

    async def _where(self, row: GameSummary, user: UserRef, lang: str) -> str:
        """The group (and topic) a hand's game is played in, linked to its table where Telegram
        allows, for a player with more than one game open; '' otherwise, or for a game played
        in this private chat."""
        if row.chat.key == user.key or len(await self.sessions.queries.games_of(user)) < 2:
            return ""
        chat_id, thread = int(row.chat.key), topic_id(row.chat.thread)
        key = "telegram.hand.where_topic" if thread else "telegram.hand.where"
        shown_in = await self.outbox.message_of(table_target(row.id, chat_id, thread))
        link = message_link(chat_id, shown_in) if shown_in else None
        name = escape(row.chat.title or "—")
        named = f'<a href="{escape(link)}">{name}</a>' if link else name
        return escape(t(lang, key, chat="{chat}")).replace("{chat}", named)

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
        if isinstance(event, ReviewOwed):
            self.reviews.post_owed(event)
            return
        chat_id = self.outbox.moved.get(int(event.chat_key), int(event.chat_key))
        if isinstance(event, AchievementsEarned):
            task = asyncio.create_task(self._achievements(event, chat_id))
            self._cleanups.add(task)
            task.add_done_callback(self._cleanups.discard)
            return
        announced = isinstance(event, RoundEnded | MatchEnded)
        paid = self.outbox.pacer.owe_post(chat_id) if announced else None
        try:
            await self._drawn(event, chat_id)
        finally:
            if paid is not None:
                paid()

    async def _drawn(self, event: Event, chat_id: int) -> None:
        """What `event` changes drawn; a round's breakdown or a match's end is owed to the group
        from the start (`Pacer.owe_post`), so that no table edit goes before it."""
        game_id = event.game_id
        if isinstance(event, MovePlayed | SeatAutoplay | MatchEnded | GameCancelled):
            self._unwarn(game_id)
        delay = self.table_delay if isinstance(event, MovePlayed) else 0.0
        table_done = self.refresh_table(game_id, chat_id, delay, topic_id(event.thread))
        of_play = isinstance(event, MovePlayed | TurnStarted | RoundEnded | MatchEnded)
        await self.refresh_hands(game_id, event.seat if isinstance(event, MovePlayed) else None,
                                 replied=of_play)
        if isinstance(event, GameStarted):
            self.menus.pop(game_id, None)
        elif isinstance(event, RoundEnded):
            breakdown = await self._round_end(event, chat_id)
            copies = partial(self.copies.post, event, partial(self._round_content, event), silent=True)
            self._table_below(event, self.announcements.announce(event, breakdown, copies))
        elif isinstance(event, MatchEnded):
            lang = await self.chat_language(chat_id)
            copies = partial(self.copies.post, event, partial(self._match_content, event), silent=True)
            if event.daily:
                copies = partial(self._daily_told, event, copies)
            ended = Content(match_html(event, lang), match_keyboard(game_id, lang, event.rematch))
            self._ended_tables[game_id] = table_done
            table_done.add_done_callback(lambda _: self._ended_tables.pop(game_id, None))
            self._after(game_id, table_done, self.announcements.announce(event, ended, copies))
        elif isinstance(event, GameCancelled):
            self._after(game_id, table_done)
            if event.day_over:
                await self._day_over(event, chat_id)
        elif isinstance(event, TurnWarning):
            await self._warn(event)
        elif isinstance(event, TurnReminder):
            await self._remind(event, chat_id)

    async def _achievements(self, event: AchievementsEarned, chat_id: int) -> None:
        """A match's achievements, in one line once the table shows the match over (where this
        process drew it): its last edit goes first, and the line waits for its place in the
        group's minute if it must."""
        table = self._ended_tables.pop(event.game_id, None)
        if table is not None:
            await asyncio.gather(table, return_exceptions=True)
        line = achievements_line(event.earned, await self.chat_language(chat_id))
        self._after(event.game_id, self.announcements.announce(event, Content(escape(line), silent=True)))

    async def saw_message(self, chat: ChatRef, message_id: int) -> None:
        """A message `message_id` was posted in the group (by anyone, the bot too). Message ids
        grow by one with each message of a chat, so once `BURIED_AFTER` messages stand below a
        running game's table, the table is posted again at the bottom (the old one deleted)."""
        game_id = await self.sessions.queries.open_game_id(chat)
        if game_id is None:
            return
        chat_id = int(chat.key)
        shown = await self.outbox.message_of(table_target(game_id, chat_id, topic_id(chat.thread)))
        if shown is None or message_id - shown < BURIED_AFTER:
            return
        if (await self.sessions.queries.game(game_id)).status is GameStatus.RUNNING:
            self.refresh_table(game_id, chat_id, thread=topic_id(chat.thread), fresh=True)

    def _table_below(self, event: RoundEnded, after: asyncio.Future[bool]) -> None:
        """Once the round's breakdown is posted, the table is posted again below it (and the
        old one deleted): a new round starts in sight, not above the count of the last one.
        Until then the table's edits wait (`Pacer.owe_post`): the one waiting is drawn anew below."""
        game_id = event.game_id
        paid = self.outbox.pacer.owe_post(int(event.chat_key))

        async def repost() -> None:
            try:
                if await after and (await self.sessions.queries.game(game_id)).status is GameStatus.RUNNING:
                    self.refresh_table(game_id, int(event.chat_key), thread=topic_id(event.thread),
                                       fresh=True)
            finally:
                paid()

        task = asyncio.create_task(repost())
        self._cleanups.add(task)
        task.add_done_callback(self._cleanups.discard)

    async def _round_end(self, event: RoundEnded, chat_id: int) -> Content:
        """A round's end as its chat gets it; in a private chat (a match played there, the deal of
        the day) it does not ring: the player's next hand rings for the turn, once."""
        content = await self._round_content(event, await self.chat_language(chat_id),
                                            await self.draws_pictures(chat_id))
        return dataclasses.replace(content, silent=True) if chat_id > 0 else content

    async def _round_content(self, event: RoundEnded, lang: str, pictures: bool) -> Content:
        """A round's end: with `pictures` a photo of it under a short caption, its breakdown as
        text where a photo cannot go."""
        text = breakdown_html(event, lang)
        if not pictures:
            return Content(text)
        row = await self.sessions.queries.game(event.game_id)
        rules = Rules.from_options(row.variant, row.options)
        scene = round_scene_of(event, row.deck_style, rules)
        return Content(text, (), Picture(scene, lang, round_caption_html(event, lang, rules.target)))

    async def _match_content(self, event: MatchEnded, lang: str, pictures: bool) -> Content:
        """The end of a match in a player's private chat: its result, Rematch and Review."""
        return Content(match_html(event, lang), match_keyboard(event.game_id, lang, event.rematch))

    async def _daily_told(self, event: MatchEnded, then: Callable[[], Awaitable[None]]) -> None:
        """Before a deal of the day's end is posted (while it is owed, so once even across a
        restart): the line of the group it was asked in tells its result; then `then`."""
        try:
            await self.daily_lines.tell(event)
        finally:
            await then()

    async def _day_over(self, event: GameCancelled, chat_id: int) -> None:
        """A deal of the day its day ended first: its player is told (it is played in their
        private chat), and so is the group it was asked in."""
        lang = await self.chat_language(chat_id)
        self.outbox.post(chat_id, Content(escape(t(lang, "daily.day_over", day=event.day_over))))
        await self.daily_lines.tell(event)

    async def _warn(self, event: TurnWarning) -> None:
        row = await self.sessions.queries.game(event.game_id)
        seat = next((s for s in row.seats if s.seat == event.seat), None)
        player = human(seat) if seat is not None else None
        if player is not None and self.reachable(player):
            text = t(self.language(player), "play.warning", name=player.display_name,
                     seconds=event.seconds_left)
            chat_id = int(player.user_key)
            sent = self.outbox.post(chat_id, Content(escape(text), silent=player.quiet_turns))
            self._warnings.setdefault(event.game_id, []).append((chat_id, sent))
            self._in_background(self._keep_warning(event.game_id, chat_id, sent))

    async def _keep_warning(self, game_id: int, chat_id: int, sent: asyncio.Future[int | None]) -> None:
        """The warning's message kept with the game, for a process started after this one stopped
        to delete it (`WARNING_REF`)."""
        with contextlib.suppress(asyncio.CancelledError):
            message_id = await sent
            if message_id is not None and any(s is sent for _, s in self._warnings.get(game_id, ())):
                await self.outbox.refs.set(game_id, WARNING_REF, f"{chat_id} {message_id}")

    def _unwarn(self, game_id: int) -> None:
        """The game moved: the time warnings sent for the turn that ended are deleted."""
        self._in_background(self._delete_warnings(game_id, self._warnings.pop(game_id, [])))

    async def _delete_warnings(self, game_id: int,
                               pending: list[tuple[int, asyncio.Future[int | None]]]) -> None:
        deleted = set()
        for chat_id, sent in pending:
            with contextlib.suppress(asyncio.CancelledError):
                message_id = await sent
                if message_id is not None:
                    await self.outbox.delete(chat_id, message_id)
                    deleted.add((chat_id, message_id))
        kept = await self.outbox.refs.get(game_id, WARNING_REF)
        if kept is not None:
            chat_id, message_id = (int(part) for part in kept.split())
            if (chat_id, message_id) not in deleted:
                await self.outbox.delete(chat_id, message_id)
            await self.outbox.refs.set(game_id, WARNING_REF, None)

    def _in_background(self, work: Coroutine[object, object, None]) -> None:
        """Best-effort work on a warning's message: a failure is logged, never raised."""
        async def logged() -> None:
            try:
                await work
            except Exception:
                log.exception("a time warning's message could not be kept or deleted")

        task = asyncio.create_task(logged())
        self._cleanups.add(task)
        task.add_done_callback(self._cleanups.discard)

    async def _remind(self, event: TurnReminder, chat_id: int) -> None:
        """A turn with no clock has waited (`REMIND_AFTER`): its player is reminded privately, with
        a ring, and the group is told, with a button for the game's creator or an admin to let
        the computer play that seat."""
        row = await self.sessions.queries.game(event.game_id)
        seat = next((s for s in row.seats if s.seat == event.seat), None)
        player = human(seat) if seat is not None else None
        hours = max(1, round(event.waited / 3600))
        if player is not None and self.reachable(player):
            text = tn(self.language(player), "clock.reminder", hours, name=player.display_name,
                      chat=row.chat.title or "—")
            self.outbox.post(int(player.user_key), Content(escape(text), silent=player.quiet_turns))
        lang = await self.chat_language(chat_id)
        keyboard = hand_over_keyboard(event.game_id, event.version, event.name, lang)
        text = escape(tn(lang, "clock.waiting", hours, name=event.name))
        self.outbox.post(chat_id, Content(text, keyboard), game_id=event.game_id,
                         thread=topic_id(event.thread))

    async def topic_lost(self, chat_id: int, thread: int, how: str) -> None:
        """A forum topic refused the bot ("closed" or "deleted"): its open game, which can no
        longer be shown, is stopped, and General says so in the group's language."""
        lost = await self.sessions.handle(platform_asker(ChatRef(PLATFORM, str(chat_id), thread=str(thread))),
                                          ThreadLost())
        game_id = lost.game_id if isinstance(lost, Done) else None
        if game_id is None:
            return
        lang = await self.chat_language(chat_id)
        variant = t(lang, f"variant.{(await self.sessions.queries.game(game_id)).variant}")
        self.outbox.post(chat_id, Content(escape(t(lang, f"telegram.topic.{how}", game=game_id,
                                                   variant=variant))), game_id=game_id)

    def _after(self, game_id: int, *waits: asyncio.Future[object] | asyncio.Future[bool]) -> None:
        """Forget a closed game's drawing state once its last messages are out."""
        async def cleanup() -> None:
            await asyncio.gather(*waits, return_exceptions=True)
            await asyncio.sleep(0)
            self.outbox.forget(game_id)
            for key in [key for key in self._replied if key[0] == game_id]:
                del self._replied[key]

        task = asyncio.create_task(cleanup())
        self._cleanups.add(task)
        task.add_done_callback(self._cleanups.discard)
