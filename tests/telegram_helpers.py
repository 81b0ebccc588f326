"""Running the real Telegram front-end against the fake Bot API server, and playing as users."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.adapters.telegram import TelegramFrontEnd
from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef, Sessions

from .fakes.telegram_server import CallbackRecord, FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from .sessions_helpers import FakeClock, open_sessions

MATCH_OVER = "🏆"


@dataclass
class Bot:
    tg: FakeTelegramServer
    sessions: Sessions
    front: TelegramFrontEnd
    clock: FakeClock
    timers: asyncio.Task[None]

    async def stop(self) -> None:
        await self.front.stop()
        self.timers.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.timers
        await self.sessions.close()


async def start_bot(tg: FakeTelegramServer, db: Path, *, clock: FakeClock | None = None,
                    review_at_end: bool = False, **options: Any) -> Bot:
    """The real Application over HTTP to `tg`, with the sessions timer loop running.

    Flood limits are off unless asked for (`rate_limiter`, `group_rate`), so
    that a whole match takes seconds; the fake server can enforce them. Messages
    are text unless `pictures=True` (then as each chat's settings say). Matches are
    reviewed as they end with `review_at_end` (as the bot does with its worker pool).
    """
    clock = clock or FakeClock()
    sessions = await open_sessions(db, clock, review_at_end=review_at_end)
    settings: dict[str, Any] = {"api_base": tg.base_url, "poll_timeout": 5, "table_delay": 0.02,
                                "rate_limiter": None, "group_rate": None, "drain_timeout": 2.0,
                                "pictures": False}
    settings.update(options)
    front = TelegramFrontEnd(sessions, tg.token, **settings)
    await front.start()
    timers = asyncio.create_task(sessions.scheduler.run_forever(), name="timers")
    return Bot(tg, sessions, front, clock, timers)


@contextlib.asynccontextmanager
async def running_bot(tg: FakeTelegramServer, db: Path, **options: Any) -> AsyncIterator[Bot]:
    bot = await start_bot(tg, db, **options)
    try:
        yield bot
    finally:
        await bot.stop()


def friends_group(tg: FakeTelegramServer, *users: FakeUser) -> FakeChat:
    """A group "Friends" of `users`, each of whom has opened the private chat with the bot."""
    group = tg.add_group("Friends", members=list(users))
    for user in users:
        tg.user_starts_bot(user)
    return group


@dataclass
class Duel:
    """Alice and Bob in a group whose bot speaks English, with their game started."""

    tg: FakeTelegramServer
    bot: Bot
    group: FakeChat
    alice: FakeUser
    bob: FakeUser
    began: float
    """When the game was started (`time.time()`), after each private chat had its note of the seat."""


@contextlib.asynccontextmanager
async def duel(db: Path, tg: FakeTelegramServer | None = None, **options: Any) -> AsyncIterator[Duel]:
    """A two-player game opened by Alice with /newgame, joined by Bob and started, in English."""
    async with contextlib.AsyncExitStack() as stack:
        if tg is None:
            tg = await stack.enter_async_context(FakeTelegramServer())
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        bot = await stack.enter_async_context(running_bot(tg, db, **options))
        await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
        lobby = await joined_lobby(tg, group, alice, bob)
        await tg.wait_for(lambda: all(len(bot_messages(tg, user)) == 2 for user in (alice, bob)),
                          what="the welcome and the note of the seat taken, in each private chat")
        began = time.time()
        assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
        yield Duel(tg, bot, group, alice, bob, began)


TURN_TAPS = ("p|", "h|")
"""A hand's buttons at its player's turn: a card played at once, or one whose captures are chosen
next (a deal may leave no card of the first kind)."""


def at_turn(message: FakeMessage) -> bool:
    """Whether `message` is a hand its player can play from now."""
    return any(data.startswith(TURN_TAPS) for data in message.callback_data)


def bot_messages(tg: FakeTelegramServer, chat: FakeChat | FakeUser) -> list[FakeMessage]:
    return tg.messages(chat, from_bot=True)


def shown(message: FakeMessage | None) -> str:
    """What a message says: its text, or a photo's caption."""
    if message is None:
        return ""
    return message.text or message.caption or ""


POST_TITLES = ("📊", "🏆")
"""How a round's breakdown and the end of a match begin: posts, never the table."""


def table_message(tg: FakeTelegramServer, group: FakeChat) -> FakeMessage:
    """The game's group message, the lobby and then the table: the newest message of the bot in
    the group that answers no command and is neither a breakdown nor the end of a match (the
    table is posted again below breakdowns and chat, the old one deleted)."""
    return next(m for m in reversed(bot_messages(tg, group))
                if m.reply_to is None and not shown(m).startswith(POST_TITLES))


def table_history(tg: FakeTelegramServer, group: FakeChat) -> str:
    """Everything every table message of the group said, the deleted ones too."""
    return " ".join(v.text or "" for m in tg.messages(group, include_deleted=True, from_bot=True)
                    for v in [*m.history, m])


def hand_message(tg: FakeTelegramServer, user: FakeUser, game_id: int) -> FakeMessage | None:
    """The player's hand of game `game_id` (not a round's breakdown or the match's result, which
    the private chat gets too)."""
    for message in reversed(bot_messages(tg, user)):
        if shown(message).startswith(POST_TITLES):
            continue
        if f" {game_id})" in shown(message) or any(
                data.split("|")[1] == str(game_id) for data in message.callback_data):
            return message
    return None


def newest_hand(tg: FakeTelegramServer, user: FakeUser) -> FakeMessage | None:
    """The newest of the bot's messages to `user` with buttons: the hand a player plays from
    (a hand sent just before a crash may stand above the one the bot draws)."""
    return next((m for m in reversed(bot_messages(tg, user)) if m.callback_data), None)


def live_button(tg: FakeTelegramServer, users: Iterable[FakeUser], pressed: set[str],
                actions: str = "ph") -> tuple[FakeUser, FakeMessage, str] | None:
    """A card or capture someone can play now (`actions`: plays "p", cards with a choice of
    captures "h"), not pressed before (versions make data unique), on their newest hand."""
    for user in users:
        if user.blocked:
            continue
        newest = newest_hand(tg, user)
        for data in newest.callback_data if newest is not None else ():
            if data[0] in actions and data not in pressed:
                return user, newest, data
    return None


async def redrawn_after(tg: FakeTelegramServer, user: FakeUser, message: FakeMessage, data: str,
                        timeout: float = 20.0) -> None:
    """Waits until the hand tapped is redrawn, or a hand below it is drawn (the tapped one sent anew
    for the turn, or drawn by a process that was killed and never kept it), and no hand below
    offers the button tapped: a hand sent anew for the turn as the tap came shows the same
    buttons until it is redrawn too."""
    def done() -> bool:
        below = [m for m in bot_messages(tg, user) if m.message_id > message.message_id]
        return all(data not in m.callback_data for m in below) and (
            message.deleted or data not in message.callback_data or any(m.callback_data for m in below))
    await tg.wait_for(done, timeout, what=f"the hand to be redrawn after {data!r}")


def match_over(tg: FakeTelegramServer, group: FakeChat) -> FakeMessage | None:
    """The message that ends the match: the one with the Review button (the table, posted
    again below each round's breakdown, may show 🏆 cards)."""
    return next((m for m in bot_messages(tg, group)
                 if MATCH_OVER in shown(m) and any(d.startswith("R|") for d in m.callback_data)), None)


@dataclass
class Taps:
    records: list[CallbackRecord] = field(default_factory=list)
    pressed: set[str] = field(default_factory=set)


async def answered(tg: FakeTelegramServer, record: CallbackRecord, timeout: float = 10.0) -> CallbackRecord:
    await tg.wait_for(lambda: record.answered, timeout, what=f"an answer to {record.data!r}")
    return record


async def card_to_play(tg: FakeTelegramServer, users: list[FakeUser], taps: Taps,
                       timeout: float = 20.0) -> tuple[FakeUser, FakeMessage, str]:
    """The next play, on the newest hand of the player to move, once that hand is there: a
    card with a choice of captures is tapped first (an "h" button), and its first capture is it."""
    while True:
        found = await tg.wait_for(lambda: live_button(tg, users, taps.pressed), timeout,
                                  what="the hand of the player to move")
        assert found is not None
        play = live_button(tg, users, taps.pressed, actions="p")
        if play is not None:
            return play
        user, message, data = found
        taps.pressed.add(data)
        record = await answered(tg, tg.press_button(user, message, user, data))
        taps.records.append(record)
        assert not record.show_alert, (record.data, record.answer_text)
        await redrawn_after(tg, user, message, data, timeout)


async def joined_lobby(tg: FakeTelegramServer, group: FakeChat, creator: FakeUser,
                       joiner: FakeUser) -> FakeMessage:
    """`creator` opens a game with /newgame and `joiner` taps Join: the lobby message."""
    tg.user_sends(group, creator, "/newgame")
    lobby = await tg.wait_for_message(group, contains="New game")
    assert not (await answered(tg, tg.tap(group, lobby, joiner, "Join"))).show_alert
    await tg.wait_for(lambda: f"2. {joiner.first_name}" in shown(lobby), what="the seat taken")
    return lobby


async def play_until_over(tg: FakeTelegramServer, group: FakeChat, users: list[FakeUser],
                          taps: Taps | None = None, *, stop_after: int | None = None,
                          timeout: float = 20.0, stale_ok: bool = False) -> Taps:
    """Each user taps a live button when there is one, until the match-end message (or `stop_after` taps);
    `stale_ok`: a tap answered "out of date" or "over" (on a hand a crash left behind, which looks
    live while the match-end message waits for the group's minute) is no failure."""
    taps = taps or Taps()
    count = 0
    while stop_after is None or count < stop_after:
        found = await tg.wait_for(lambda: match_over(tg, group) or live_button(tg, users, taps.pressed),
                                  timeout, what="a live card or the end of the match")
        if isinstance(found, FakeMessage):
            break
        user, message, data = found
        taps.pressed.add(data)
        record = await answered(tg, tg.press_button(user, message, user, data))
        taps.records.append(record)
        count += 1
        if stale_ok and record.show_alert and any(said in (record.answer_text or "")
                                                  for said in ("out of date", "This game is over")):
            continue  # a hand a crash left behind: the player looks at the newer one
        assert not record.show_alert, (record.data, record.answer_text)
        await redrawn_after(tg, user, message, data, timeout)
    return taps


async def play_until_hint(tg: FakeTelegramServer, users: list[FakeUser]) -> tuple[FakeUser, FakeMessage]:
    """Plays the forced moves (their hands offer no 💡) until a hand offers one."""
    pressed: set[str] = set()
    for _ in range(20):
        user, hand, data = await tg.wait_for(lambda: live_button(tg, users, pressed), timeout=20,
                                             what="the hand of the player to move")
        if any(d.startswith("I|") for d in hand.callback_data):
            return user, hand
        pressed.add(data)
        assert not (await answered(tg, tg.press_button(user, hand, user, data))).show_alert
        await redrawn_after(tg, user, hand, data)
    raise AssertionError("no hand offered 💡")
