"""Through the fake Bot API: partners chosen in a scopone lobby, a group playing with no move
clock (a reminder after the hour, across a restart; the seat handed to the computer by the
creator alone), /cancel of a match in play confirmed first, and the time warning deleted once
the player has played."""

from __future__ import annotations

import asyncio
import re
from functools import partial
from pathlib import Path

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef
from bot.sessions.options import REMIND_AFTER

from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..sessions_helpers import FakeClock
from ..telegram_helpers import (
    Taps,
    answered,
    bot_messages,
    card_to_play,
    duel,
    friends_group,
    joined_lobby,
    redrawn_after,
    running_bot,
    shown,
    start_bot,
    table_message,
)


async def test_partners_chosen_in_a_scopone_lobby_are_the_teams_of_the_match(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        users = [tg.add_user(name) for name in ("Alice", "Bob", "Carla", "Dino")]
        alice, bob, carla, dino = users
        group = friends_group(tg, *users)
        async with running_bot(tg, tmp_path / "scopa.db") as bot:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            tg.user_sends(group, alice, "/newgame scopone")
            lobby = await tg.wait_for_message(group, contains="New game")
            for user in (bob, carla, dino):
                assert not (await answered(tg, tg.tap(group, lobby, user, "Join"))).show_alert
            await tg.wait_for(lambda: "4. Dino" in shown(lobby), what="every seat taken")
            assert "2. Bob · team B" in shown(lobby) and "🤝 With Alice" in labels(lobby)
            assert not (await answered(tg, tg.tap(group, lobby, bob, "With Alice"))).show_alert
            await tg.wait_for(lambda: "3. Bob · team A" in shown(lobby), what="Bob sat with Alice")
            assert "2. Carla · team B" in shown(lobby)
            same = await answered(tg, tg.tap(group, lobby, carla, "With Dino"))
            assert same.show_alert and "already play on Dino's team" in (same.answer_text or "")
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            await tg.wait_for(lambda: "Alice & Bob" in shown(table_message(tg, group)),
                              what="the table naming the teams as chosen")
            assert "Carla & Dino" in shown(table_message(tg, group))


async def no_clock_lobby(tg: FakeTelegramServer, group: FakeChat, alice: FakeUser,
                         bob: FakeUser) -> FakeMessage:
    """Alice opens a game, picks "No clock" in the lobby's options, Bob joins and Alice starts."""
    tg.user_sends(group, alice, "/newgame")
    lobby = await tg.wait_for_message(group, contains="New game")
    for label in ("Options", "Turn limit", "No clock", "Back"):
        await tg.wait_for(partial(has_button, lobby, label), what=f"the {label!r} button")
        assert not (await answered(tg, tg.tap(group, lobby, alice, label))).show_alert
    await tg.wait_for(lambda: "Turn limit: none" in shown(lobby), what="the lobby saying no clock")
    assert not (await answered(tg, tg.tap(group, lobby, bob, "Join"))).show_alert
    await tg.wait_for(lambda: "2. Bob" in shown(lobby), what="Bob seated")
    assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
    return lobby


def labels(message: FakeMessage) -> list[str]:
    return [button["text"] for row in (message.reply_markup or {}).get("inline_keyboard", [])
            for button in row]


def has_button(message: FakeMessage, label: str) -> bool:
    return any(label in text for text in labels(message))


def said_to(tg: FakeTelegramServer, chat: FakeChat | FakeUser, words: str) -> list[FakeMessage]:
    return [m for m in bot_messages(tg, chat) if words in shown(m)]


async def test_with_no_clock_nobody_is_played_for_and_the_reminder_comes_after_the_hour_across_a_restart(
        tmp_path: Path) -> None:
    db, clock = tmp_path / "scopa.db", FakeClock()
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        bot = await start_bot(tg, db, clock=clock)
        try:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            await no_clock_lobby(tg, group, alice, bob)
            mover, _, _ = await card_to_play(tg, [alice, bob], Taps())
            game_id = await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(group.id)))
            assert game_id is not None
            table = await bot.sessions.queries.table(game_id)
            version, to_play = table.version, table.to_play
            clock.advance(REMIND_AFTER / 2)
            assert await bot.sessions.scheduler.run_due() == 0
        finally:
            await bot.stop()
        bot = await start_bot(tg, db, clock=clock)
        try:
            clock.advance(REMIND_AFTER / 2 - 1)
            assert await bot.sessions.scheduler.run_due() == 0
            assert not said_to(tg, mover, "waiting for 1 hour")
            clock.advance(1)
            await tg.wait_for(lambda: said_to(tg, mover, "your turn in Friends has been waiting for 1 hour"),
                              what="the reminder in the private chat")
            waiting = await tg.wait_for(lambda: next(iter(said_to(tg, group, "turn has been waiting")), None),
                                        what="the group told, with the hand-over button")
            assert mover.first_name in shown(waiting)
            assert not said_to(tg, mover, "left for your move")
            for _ in range(3):
                clock.advance(REMIND_AFTER)
                assert await bot.sessions.scheduler.run_due() == 0
            assert len(said_to(tg, mover, "has been waiting")) == 1
            assert (await bot.sessions.queries.table(game_id)).version == version
            refused = await answered(tg, tg.tap(group, waiting, bob, "Computer plays for"))
            assert refused.show_alert
            assert "Only the player who created the game" in (refused.answer_text or "")
            assert (await bot.sessions.queries.table(game_id)).version == version
            handed = await answered(tg, tg.tap(group, waiting, alice, "Computer plays for"))
            assert not handed.show_alert, handed.answer_text
            await tg.wait_for(lambda: bool(re.search(r"\bplay", shown(table_message(tg, group)))),
                              what="the table after the handed-over seat")
            row = await bot.sessions.queries.game(game_id)
            assert next(s for s in row.seats if s.seat == to_play).autoplay
        finally:
            await bot.stop()


async def test_cancel_of_a_match_in_play_needs_the_creators_confirmation(tmp_path: Path) -> None:
    async with duel(tmp_path / "scopa.db") as game:
        tg, group, alice, bob = game.tg, game.group, game.alice, game.bob
        tg.user_sends(group, alice, "/cancel")
        asked = await tg.wait_for_message(group, contains="Cancel this match for everyone?")
        game_id = await game.bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(group.id)))
        assert game_id is not None
        refused = await answered(tg, tg.tap(group, asked, bob, "Yes, cancel the match"))
        assert refused.show_alert
        assert (await game.bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(group.id)))) == game_id
        assert not (await answered(tg, tg.tap(group, asked, alice, "Yes, cancel the match"))).show_alert
        await tg.wait_for(lambda: "cancelled" in shown(table_message(tg, group)), what="the match cancelled")


async def test_the_time_warning_is_deleted_once_the_player_has_played(tmp_path: Path) -> None:
    clock = FakeClock()
    async with duel(tmp_path / "scopa.db", clock=clock) as game:
        tg = game.tg
        taps = Taps()
        mover, hand, data = await card_to_play(tg, [game.alice, game.bob], taps)
        clock.advance(90 - 19)
        warning = await tg.wait_for(lambda: next(iter(said_to(tg, mover, "left for your move")), None),
                                    what="the time warning")
        assert not warning.deleted
        assert not (await answered(tg, tg.press_button(mover, hand, mover, data))).show_alert
        await tg.wait_for(lambda: warning.deleted, what="the warning deleted after the play")


async def test_a_player_who_turns_the_ring_off_gets_their_turns_without_a_ring(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "scopa.db") as bot:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            tg.user_sends(bob, bob, "/settings")
            settings = await tg.wait_for_message(bob, contains="Settings")
            assert "Your turn rings your phone" in shown(settings)
            assert not (await answered(tg, tg.tap(bob, settings, bob, "🔕"))).show_alert
            await tg.wait_for(lambda: "without ringing" in shown(settings), what="the ring turned off")
            lobby = await joined_lobby(tg, group, alice, bob)
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            taps = Taps()
            turns: dict[str, int] = {"Alice": 0, "Bob": 0}
            while min(turns.values()) < 2:
                user, hand, data = await card_to_play(tg, [alice, bob], taps)
                assert hand.silent == (user is bob), f"{user.first_name}'s turn rang: {not hand.silent}"
                turns[user.first_name] += 1
                taps.pressed.add(data)
                assert not (await answered(tg, tg.press_button(user, hand, user, data))).show_alert
                await redrawn_after(tg, user, hand, data)


async def test_a_warning_sent_before_a_restart_is_deleted_once_the_player_has_played(tmp_path: Path) -> None:
    db, clock = tmp_path / "scopa.db", FakeClock()
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        bot = await start_bot(tg, db, clock=clock)
        try:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            lobby = await joined_lobby(tg, group, alice, bob)
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            mover, _, _ = await card_to_play(tg, [alice, bob], Taps())
            clock.advance(90 - 19)
            warning = await tg.wait_for(lambda: next(iter(said_to(tg, mover, "left for your move")), None),
                                        what="the time warning")
            game_id = await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(group.id)))
            assert game_id is not None
            kept = f"{mover.id} {warning.message_id}"
            for _ in range(500):
                if (await bot.sessions.delivery.refs.get_refs(game_id)).get("warning") == kept:
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the warning's message was not kept with the game")
        finally:
            await bot.stop()
        bot = await start_bot(tg, db, clock=clock)
        try:
            user, hand, data = await card_to_play(tg, [alice, bob], Taps())
            assert user is mover and not warning.deleted
            assert not (await answered(tg, tg.press_button(user, hand, user, data))).show_alert
            await tg.wait_for(lambda: warning.deleted, what="the warning deleted after the play")
        finally:
            await bot.stop()
