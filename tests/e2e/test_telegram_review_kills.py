"""`scopa-bot telegram` killed with SIGKILL at eight moments of a review's making and delivery,
from 0.05 s to 4 s after a player asked for it, and started again: every time the player gets
their review exactly once (its text and the photo of each costly move), and the group its
accuracy line once. Then killed right after a match ended, before anyone asked: started again,
it reviews that match unasked (sending nothing), and /review in the private chat then delivers
it once, with the group's line once."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.app import open_sessions
from bot.sessions import ChatRef, ReviewOwed, UserRef

from ..fakes.telegram_server import FakeChat, FakeTelegramServer, FakeUser
from ..sessions_helpers import play_to_end, start_duel
from ..telegram_helpers import bot_messages, shown
from .test_telegram_restart import _launch, _polling

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

KILLED_AFTER = (0.05, 0.1, 0.25, 0.5, 0.9, 1.5, 2.5, 4.0)
"""Seconds from /review to the kill: while the command is read, the review made, its messages sent."""
REVIEW_TITLE = "Your review of the match in Friends"


def _reviews(tg: FakeTelegramServer, user: FakeUser) -> list[str]:
    return [shown(m) for m in bot_messages(tg, user) if REVIEW_TITLE in shown(m)]


def _photos(tg: FakeTelegramServer, user: FakeUser) -> list[str]:
    return [shown(m) for m in bot_messages(tg, user)
            if m.photo is not None and shown(m).startswith("Round ")]


def _lines(tg: FakeTelegramServer, group: FakeChat) -> list[str]:
    return [shown(m) for m in bot_messages(tg, group) if shown(m).startswith("Accuracy:")]


async def _finished_match(db: Path, chat: ChatRef, alice: UserRef, bob: UserRef) -> int:
    """A match of the group played to its end beside the running bot (the same SQLite file), its
    breakdowns taken as posted: the group's own messages stay those of the reviews."""
    sessions = await open_sessions(str(db))
    try:
        game_id = await start_duel(sessions, chat, alice, bob, {"target": 1})
        await play_to_end(sessions, game_id, [alice, bob])
        for event in await sessions.delivery.owed_notices(PLATFORM):
            if event.game_id == game_id:
                await sessions.delivery.announce(event, _posted)
    finally:
        await sessions.close()
    return game_id


async def _costly_moves(db: Path, games: list[int], user: UserRef) -> list[int]:
    """How many costly moves each match's review shows the player of seat 0."""
    sessions = await open_sessions(str(db))
    try:
        return [len((await sessions.reviews.review(game_id, user)).review.costliest(0)) for game_id in games]
    finally:
        await sessions.close()


async def _reviewed(db: Path, game_id: int) -> None:
    """Until match `game_id`'s review is stored (by the running bot)."""
    for _ in range(600):
        sessions = await open_sessions(str(db))
        try:
            if await sessions.queries.stored_review(game_id, 0) is not None:
                return
        finally:
            await sessions.close()
        await asyncio.sleep(0.1)
    raise AssertionError(f"the review of game {game_id} was not made after the restart")


async def _posted() -> bool:
    return True


async def test_a_review_killed_at_any_moment_is_delivered_once(tmp_path: Path) -> None:
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = tg.add_group("Friends", members=[alice, bob])
        chat = ChatRef(PLATFORM, str(group.id), "Friends")
        users = UserRef(PLATFORM, str(alice.id), "Alice"), UserRef(PLATFORM, str(bob.id), "Bob")
        sessions = await open_sessions(str(db))
        await sessions.settings.set_chat_language(chat, "en")
        await sessions.close()
        for user in (alice, bob):
            tg.user_starts_bot(user)
        bot = _launch(tg, db, log)
        games = []
        try:
            for count, delay in enumerate(KILLED_AFTER, 1):
                games.append(await _finished_match(db, chat, *users))
                await _polling(tg, tg.request_counts["getUpdates"])
                tg.user_sends(group, alice, "/review")
                await asyncio.sleep(delay)
                bot.kill()
                await asyncio.to_thread(bot.wait)
                assert bot.returncode == -signal.SIGKILL
                bot = _launch(tg, db, log)
                await tg.wait_for(lambda n=count: len(_reviews(tg, alice)) >= n, 90,
                                  what=f"review {count}, killed {delay} s after it was asked for")
                await tg.wait_for(lambda n=count: len(_lines(tg, group)) >= n, 90,
                                  what=f"the group's line {count}")
            games.append(await _finished_match(db, chat, *users))
            bot.kill()
            await asyncio.to_thread(bot.wait)
            bot = _launch(tg, db, log)
            await _reviewed(db, games[-1])
            assert (len(_reviews(tg, alice)), len(_lines(tg, group))) == (len(KILLED_AFTER),) * 2, (
                "reviewed unasked after the restart: nothing sent")
            await _polling(tg, tg.request_counts["getUpdates"])
            tg.user_sends(alice, alice, "/review")
            await tg.wait_for(lambda: len(_reviews(tg, alice)) == len(games), 30,
                              what="the review of the match ended just before the kill")
            await tg.wait_for(lambda: len(_lines(tg, group)) == len(games), 30, what="its group line")
            costly = await _costly_moves(db, games, users[0])
            await tg.wait_for(lambda: len(_photos(tg, alice)) >= sum(costly), 60,
                              what="the photo of each costly move")
            await _polling(tg, tg.request_counts["getUpdates"])
        finally:
            bot.send_signal(signal.SIGTERM)
            await asyncio.to_thread(bot.wait, 30)
        assert bot.returncode == 0

        sessions = await open_sessions(str(db))
        try:
            assert not [e for e in await sessions.delivery.owed_notices(
                    PLATFORM) if isinstance(e, ReviewOwed)]
        finally:
            await sessions.close()
        assert len(_reviews(tg, alice)) == len(games), "each review once"
        assert len(_photos(tg, alice)) == sum(costly), "each costly move's photo once"
        assert len([m for m in bot_messages(tg, alice) if shown(m).startswith("Round ")]) == sum(costly)
        assert len(_lines(tg, group)) == len(games), "each accuracy line once"
        assert _reviews(tg, bob) == [], "Bob did not ask"
