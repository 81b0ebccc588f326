"""Games in the topics of a Telegram forum: one open game per topic, each shown in its own topic,
and a topic closed or deleted under its game."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef, Event, MatchEnded, RoundEnded

from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import (
    MATCH_OVER,
    Taps,
    answered,
    hand_message,
    live_button,
    running_bot,
    shown,
    start_bot,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def _forum(tg: FakeTelegramServer, *users: FakeUser, admin: FakeUser) -> FakeChat:
    forum = tg.add_group("Circolo", members=list(users), admins=[admin], forum=True)
    for user in users:
        tg.user_starts_bot(user)
    return forum


def _newest(tg: FakeTelegramServer, forum: FakeChat) -> int:
    return max((m.message_id for m in tg.messages(forum, include_deleted=True)), default=0)


async def _said_in(tg: FakeTelegramServer, forum: FakeChat, thread: int | None, contains: str,
                   after: int = 0) -> FakeMessage:
    """The bot's first message in topic `thread` (None: General) newer than `after` saying `contains`."""
    def find() -> FakeMessage | None:
        return next((m for m in tg.topic_messages(forum, thread)
                     if m.message_id > after and contains in shown(m)), None)

    return await tg.wait_for(find, what=f"{contains!r} in topic {thread}")


async def _lobby(tg: FakeTelegramServer, forum: FakeChat, thread: int, creator: FakeUser,
                 joiners: list[FakeUser]) -> FakeMessage:
    after = _newest(tg, forum)
    tg.user_sends(forum, creator, "/newgame", thread=thread)
    lobby = await _said_in(tg, forum, thread, "New game", after)
    for user in joiners:
        assert not (await answered(tg, tg.tap(forum, lobby, user, "Join"))).show_alert
    await tg.wait_for(lambda: all(f". {u.first_name}" in shown(lobby) for u in joiners), what="the seats")
    return lobby


async def _start(tg: FakeTelegramServer, forum: FakeChat, lobby: FakeMessage, creator: FakeUser) -> None:
    record = await answered(tg, tg.tap(forum, lobby, creator, "Start"))
    assert not record.show_alert, record.answer_text
    await tg.wait_for(lambda: "Join" not in lobby.button_texts, what="the table")


def _match_over(tg: FakeTelegramServer, forum: FakeChat, thread: int) -> FakeMessage | None:
    """The end of the match in its topic (the table, posted again below breakdowns, may show 🏆 cards)."""
    return next((m for m in tg.topic_messages(forum, thread) if shown(m).startswith(MATCH_OVER)), None)


async def _play(tg: FakeTelegramServer, forum: FakeChat, thread: int, users: list[FakeUser],
                stop_after: int | None = None) -> FakeMessage | None:
    """The users tap their live cards until the match ends in its topic (or `stop_after` taps)."""
    taps = Taps()
    while stop_after is None or len(taps.records) < stop_after:
        found = await tg.wait_for(
            lambda: _match_over(tg, forum, thread) or live_button(tg, users, taps.pressed), 30,
            what=f"a live card or the end of the match in topic {thread}")
        if isinstance(found, FakeMessage):
            return found
        user, message, data = found
        taps.pressed.add(data)
        record = await answered(tg, tg.press_button(user, message, user, data))
        taps.records.append(record)
        assert not record.show_alert, (record.data, record.answer_text)
        await tg.wait_for(lambda m=message, d=data: m.deleted or d not in m.callback_data, 30,
                          what="the hand redrawn (or sent anew)")
    return None


async def test_two_topics_play_two_matches_at_once_each_in_its_own_topic(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, carla, dino, ada = (tg.add_user(n) for n in ("Alice", "Bob", "Carla", "Dino", "Ada"))
        forum = _forum(tg, alice, bob, carla, admin=ada)
        forum.members[dino.id] = "member"
        first, second = tg.create_topic(forum, alice, "Scopa"), tg.create_topic(forum, carla, "Serale")
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            lobby_a = await _lobby(tg, forum, first, alice, [bob])
            await _start(tg, forum, lobby_a, alice)
            after = _newest(tg, forum)
            tg.user_sends(forum, alice, "/newgame", thread=first)
            pointer = await _said_in(tg, forum, first, "already open", after)
            assert pointer.button_texts == ["Go to the game"] and pointer.reply_to is lobby_a
            lobby_b = await _lobby(tg, forum, second, carla, [])
            assert lobby_b is not lobby_a and "1. Carla" in shown(lobby_b), "a second game as the first plays"

            join = await answered(tg, tg.tap(forum, lobby_b, dino, "Join"))
            assert join.url is not None, "Dino never opened the private chat: the link does it"
            tg.user_starts_bot(dino, (tg.start_payload(join.url) or ("", ""))[1])
            await tg.wait_for(lambda: "Dino" in shown(lobby_b) and "⏳" not in shown(lobby_b),
                              what="Dino ready")

            await _start(tg, forum, lobby_b, carla)
            end_a, end_b = await asyncio.gather(_play(tg, forum, first, [alice, bob]),
                                                _play(tg, forum, second, [carla, dino]))
            assert end_a is not None and end_b is not None
            assert "Alice" in shown(end_a) and "Carla" not in shown(end_a)
            assert "Dino" in shown(end_b) and "Bob" not in shown(end_b)
            assert tg.topic_messages(forum, None) == [], "nothing of either game in General"
            for thread in (first, second):
                await tg.wait_for(lambda t=thread: any("Match over." in shown(m)
                                                       for m in tg.topic_messages(forum, t)),
                                  what="the final table")
                posts = tg.topic_messages(forum, thread)
                assert any("End of round" in shown(m) for m in posts)
            assert {m.thread for m in tg.messages(forum, from_bot=True)} == {first, second}

            tg.user_sends(forum, bob, "/leaderboard", thread=second)
            board = shown(await _said_in(tg, forum, second, "Leaderboard", end_b.message_id))
            assert all(name in board for name in ("Alice", "Bob", "Carla", "Dino")), board

            assert not (await answered(tg, tg.tap(forum, end_a, alice, "Rematch"))).show_alert
            rematch = await _said_in(tg, forum, first, "New game", end_a.message_id)
            assert "Alice" in shown(rematch) and "Bob" in shown(rematch)
            assert await bot.sessions.queries.open_game_id(
                    ChatRef(PLATFORM, str(forum.id), thread=str(first))) == 3
            assert await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(forum.id))) is None
            assert tg.topic_messages(forum, None) == []


async def test_a_game_in_general_is_the_forums_own_and_leaves_topics_free(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, ada = tg.add_user("Alice"), tg.add_user("Bob"), tg.add_user("Ada")
        forum = _forum(tg, alice, bob, admin=ada)
        topic = tg.create_topic(forum, bob, "Scopa")
        async with running_bot(tg, tmp_path / "bot.db"):
            tg.user_sends(forum, alice, "/newgame")
            general = await _said_in(tg, forum, None, "New game")
            assert "message_thread_id" not in general.to_api()
            in_topic = await _lobby(tg, forum, topic, bob, [alice])
            assert "1. Bob" in shown(in_topic) and "1. Alice" in shown(general)
            assert not (await answered(tg, tg.tap(forum, general, bob, "Join"))).show_alert
            await tg.wait_for(lambda: "2. Bob" in shown(general), what="Bob in General's game")
            assert "2. Bob" not in shown(in_topic)


async def test_a_lobby_and_table_drawn_as_pictures_go_to_their_topic(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, ada = tg.add_user("Alice"), tg.add_user("Bob"), tg.add_user("Ada")
        forum = _forum(tg, alice, bob, admin=ada)
        topic = tg.create_topic(forum, alice, "Scopa")
        async with running_bot(tg, tmp_path / "bot.db", pictures=True):
            lobby = await _lobby(tg, forum, topic, alice, [bob])
            assert lobby.photo is not None and lobby.thread == topic
            await _start(tg, forum, lobby, alice)
            await tg.wait_for(lambda: len(lobby.photo_history) > 0, what="the table's picture")
            assert tg.topic_messages(forum, None) == []


async def _closing(tmp_path: Path, close: bool) -> None:
    """A match in one topic, another in a second; the first topic is closed (or deleted) mid-match."""
    async with FakeTelegramServer() as tg:
        alice, bob, carla, dino, ada = (tg.add_user(n) for n in ("Alice", "Bob", "Carla", "Dino", "Ada"))
        forum = _forum(tg, alice, bob, carla, dino, admin=ada)
        first, second = tg.create_topic(forum, alice, "Scopa"), tg.create_topic(forum, carla, "Serale")
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await _start(tg, forum, await _lobby(tg, forum, first, alice, [bob]), alice)
            await _start(tg, forum, await _lobby(tg, forum, second, carla, [dino]), carla)
            await _play(tg, forum, first, [alice, bob], stop_after=3)
            version = (await bot.sessions.queries.table(1)).version
            hand = hand_message(tg, alice, 1)
            if close:
                tg.close_topic(forum, first, ada)
            else:
                tg.delete_topic(forum, first)
            await _play(tg, forum, first, [alice, bob], stop_after=1)

            word = "closed" if close else "deleted"
            notice = await _said_in(tg, forum, None, f"its topic was {word}")
            assert "Game 1 of Scopa was stopped" in shown(notice)
            assert len(tg.topic_messages(forum, None)) == 1, "one notice, in General"
            row = await bot.sessions.queries.game(1)
            assert row.status.value == "cancelled" and row.version == version + 1, "the moves made are kept"
            assert len(await bot.sessions.store.records()) == 1, "the stopped match's record is kept"
            await tg.wait_for(lambda: hand is not None and not hand.callback_data, what="Alice's hand closed")
            assert "The match was cancelled." in shown(hand), "a stopped match is cancelled, not over"

            end = await _play(tg, forum, second, [carla, dino])
            assert end is not None and " wins the match " in shown(end), "the other topic plays on to its end"
            assert len(tg.topic_messages(forum, None)) == 1
            if close:
                tg.reopen_topic(forum, first, ada)
                after = _newest(tg, forum)
                tg.user_sends(forum, alice, "/newgame", thread=first)
                await _said_in(tg, forum, first, "New game", after)


async def test_a_topic_closed_mid_match_stops_its_game_with_a_notice_in_general(tmp_path: Path) -> None:
    await _closing(tmp_path, close=True)


async def test_a_topic_deleted_mid_match_stops_its_game_with_a_notice_in_general(tmp_path: Path) -> None:
    await _closing(tmp_path, close=False)


async def test_a_match_that_ended_as_its_topic_closed_has_its_result_in_general(tmp_path: Path) -> None:
    """The bot stops after the last move of a match is stored and before its end is posted; the
    topic is closed meanwhile: after the restart the result goes to General, once."""
    db = tmp_path / "bot.db"
    async with FakeTelegramServer() as tg:
        alice, bob, ada = tg.add_user("Alice"), tg.add_user("Bob"), tg.add_user("Ada")
        forum = _forum(tg, alice, bob, admin=ada)
        topic = tg.create_topic(forum, alice, "Scopa")
        bot = await start_bot(tg, db)
        await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(forum.id)), "en")
        await bot.sessions.settings.set_chat_defaults(ChatRef(PLATFORM, str(forum.id)), {"target": 1})
        drawn = bot.front.presenter.on_event

        async def stopped_before_posting(event: Event) -> None:
            if not isinstance(event, RoundEnded | MatchEnded):
                await drawn(event)

        bot.front.presenter.on_event = stopped_before_posting  # type: ignore[method-assign]
        await _start(tg, forum, await _lobby(tg, forum, topic, alice, [bob]), alice)
        pressed: set[str] = set()
        while not (await bot.sessions.queries.table(1)).finished:
            user, message, data = await tg.wait_for(lambda: live_button(tg, [alice, bob], pressed),
                                                    what="a card to play")
            pressed.add(data)
            await answered(tg, tg.press_button(user, message, user, data))
        await bot.stop()
        tg.close_topic(forum, topic, ada)

        restarted = await start_bot(tg, db)
        try:
            result = await _said_in(tg, forum, None, "its result is posted here")
            assert MATCH_OVER in shown(result) and " wins the match " in shown(result)
            assert result.buttons == []
            for _ in range(200):
                if not await restarted.sessions.delivery.owed_notices(PLATFORM):
                    break
                await asyncio.sleep(0.02)
            assert await restarted.sessions.delivery.owed_notices(PLATFORM) == [], "posted, so owed no more"
            assert (await restarted.sessions.queries.game(1)).status.value == "finished"
            assert [m.message_id for m in tg.topic_messages(forum, None)] == [result.message_id]
        finally:
            await restarted.stop()
