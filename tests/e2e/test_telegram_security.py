"""A hostile user against the real Telegram front-end: links to other groups' lobbies."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sessions import GameStatus
from bot.sessions.throttle import CommandReply, CommandThrottle

from ..fakes.telegram_server import FakeTelegramServer
from ..telegram_helpers import (
    answered,
    bot_messages,
    duel,
    friends_group,
    joined_lobby,
    running_bot,
    table_message,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def test_a_start_link_seats_nobody_who_did_not_join_in_the_group(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, carla, mallory = tg.add_user("Alice"), tg.add_user("Carla"), tg.add_user("Mallory")
        group = tg.add_group("Secret Club", members=[alice, carla])
        tg.user_starts_bot(alice)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game")
            record = await answered(tg, tg.tap(group, lobby, carla, "Join"))
            payload = (tg.start_payload(record.url or "") or ("", ""))[1]
            await tg.wait_for(lambda: "Carla ⏳" in (lobby.text or ""), what="Carla waiting")

            for forged in (payload, "j1", "j2", "j999"):
                tg.user_starts_bot(mallory, forged)
                refusal = await tg.wait_for_message(mallory, contains="tap Join",
                                                    after=(bot_messages(tg, mallory) or [0])[-1])
                assert "Secret Club" not in (refusal.text or "")
            view = await bot.sessions.queries.lobby_of(1)
            assert [s.name for s in view.seats if s is not None] == ["Alice", "Carla"]
            assert "Mallory" not in (lobby.text or "")
            assert all("Secret Club" not in (m.text or "") for m in bot_messages(tg, mallory))

            tg.user_starts_bot(carla, payload)
            await tg.wait_for_message(carla, contains="You joined a game of Scopa in “Secret Club”")
            await tg.wait_for(lambda: "⏳" not in (lobby.text or ""), what="Carla ready")


async def test_a_huge_argument_is_refused_with_a_short_quote(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice")
        group = tg.add_group("Friends", members=[alice])
        tg.user_starts_bot(alice)
        async with running_bot(tg, tmp_path / "bot.db"):
            tg.user_sends(group, alice, "/newgame " + "x" * 4080)
            refusal = await tg.wait_for_message(group, contains="no game called")
            assert len(refusal.text or "") < 200 and "xxxx" in (refusal.text or "")
            tg.user_sends(group, alice, "/rules " + "y" * 4080)
            refusal = await tg.wait_for_message(group, contains="no game called", after=refusal)
            assert len(refusal.text or "") < 200


async def test_a_command_flood_leaves_the_group_its_allowance(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, spammer = tg.add_user("Alice"), tg.add_user("Bob"), tg.add_user("Spammer")
        group = friends_group(tg, alice, bob, spammer)
        async with running_bot(tg, tmp_path / "bot.db"):
            for _ in range(20):
                tg.user_sends(group, spammer, "/help")
                tg.user_sends(group, spammer, "/rules")
            tg.user_sends(group, bob, "/help")
            await tg.wait_for(lambda: len(bot_messages(tg, group)) >= 3, what="three answers")
            tg.user_sends(group, bob, "/stats")
            await tg.wait_for_message(group, contains="Bob")
            texts = [m.text or "" for m in bot_messages(tg, group)]
            assert len(texts) == 4, texts
            assert sum("/newgame" in text for text in texts) == 2, "the spammer's /help and Bob's"


def test_the_throttle_answers_a_repeat_once_and_sends_the_overflow_privately() -> None:
    now = [0.0]
    throttle = CommandThrottle(repeat_after=10, chat_replies=3, window=60, clock=lambda: now[0])
    assert throttle.answer("g", "u", "/help") is CommandReply.IN_CHAT
    assert throttle.answer("g", "u", "/help") is CommandReply.NOT_AGAIN
    now[0] = 10.0
    assert throttle.answer("g", "u", "/help") is CommandReply.IN_CHAT
    assert throttle.answer("g", "v", "/help") is CommandReply.IN_CHAT
    assert throttle.answer("g", "w", "/help") is CommandReply.PRIVATELY
    assert throttle.answer("h", "w", "/help") is CommandReply.IN_CHAT, "each group has its own allowance"
    now[0] = 60.0
    assert throttle.answer("g", "x", "/help") is CommandReply.IN_CHAT


async def test_a_stale_leave_button_after_the_start_hands_no_seat_over(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            lobby = await joined_lobby(tg, group, alice, bob)
            leave = next(b["callback_data"] for b in lobby.buttons if "Leave" in b["text"])
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            await tg.wait_for(lambda: "Join" not in lobby.button_texts, what="the table")

            stale = await answered(tg, tg.forge_callback(group, lobby, bob, leave))
            assert stale.show_alert and "/leave" in (stale.answer_text or "")
            table = await bot.sessions.queries.table(1)
            assert not any(seat.autoplay for seat in table.seats)


async def test_a_failed_database_is_said_plainly_to_the_user_who_asked(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game")
            bot.sessions.store._db.execute("PRAGMA query_only=1")
            tapped = await answered(tg, tg.tap(group, lobby, bob, "Join"))
            assert tapped.show_alert and "Your game is safe" in (tapped.answer_text or "")
            tg.user_sends(group, alice, "/cancel")
            await tg.wait_for_message(group, contains="Your game is safe", after=lobby)
            assert bot.sessions._failed.is_set(), "the bot stops (its supervisor starts it again)"
            bot.sessions.store._db.execute("PRAGMA query_only=0")


async def test_only_the_groups_members_take_a_seat_in_a_public_group(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, mallory, trudy, rita = (tg.add_user(name) for name in ("Alice", "Bob", "Mallory",
                                                                            "Trudy", "Rita"))
        group = tg.add_group("Open Table", members=[alice, bob, trudy, rita], username="open_table")
        for user in (alice, bob, mallory, trudy, rita):
            tg.user_starts_bot(user)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game")
            await answered(tg, tg.tap(group, lobby, alice, "Options"))
            await tg.wait_for(lambda: "Players" in " ".join(lobby.button_texts), what="the options")
            await answered(tg, tg.tap(group, lobby, alice, "Players"))
            await tg.wait_for(lambda: "4" in lobby.button_texts, what="the player counts")
            await answered(tg, tg.tap(group, lobby, alice, "4"))
            await tg.wait_for(lambda: "4. (empty)" in (lobby.text or ""), what="four seats")
            await answered(tg, tg.tap(group, lobby, alice, "Back"))
            await tg.wait_for(lambda: "Join" in lobby.button_texts, what="the lobby's buttons")

            tg.ban_user(group, trudy, by=alice)
            tg.restrict_user(group, rita, is_member=True)
            tg.user_leaves(group, rita)
            for outsider in (mallory, trudy, rita):
                refused = await answered(tg, tg.tap(group, lobby, outsider, "Join"))
                assert refused.show_alert
                assert refused.answer_text == "Only members of this group can join its games: " \
                                              "join the group first."
            view = await bot.sessions.queries.lobby_of(1)
            assert [s.name for s in view.seats if s is not None] == ["Alice"]

            tg.user_joins(group, rita)
            assert not (await answered(tg, tg.tap(group, lobby, rita, "Join"))).show_alert, \
                "a restricted member is a member"
            tg.fail_next(1, error_code=500, description="Internal Server Error", methods=["getChatMember"])
            assert not (await answered(tg, tg.tap(group, lobby, bob, "Join"))).show_alert, \
                "when Telegram cannot say, a member is not kept out"
            await tg.wait_for(lambda: "3. Bob" in (lobby.text or ""), what="Bob seated")
            assert "Mallory" not in (lobby.text or "") and "Trudy" not in (lobby.text or "")


async def test_a_cancel_tap_reaching_a_match_in_play_asks_to_confirm_and_only_its_creator_may(
        tmp_path: Path) -> None:
    """A lobby's Cancel tapped after the match began (a slow client, a forged tap) cancels
    nothing at once: as on Discord, the group is asked to confirm, and only someone who may
    manage the game can."""
    async with duel(tmp_path / "bot.db") as d:
        tg, group, alice, bob = d.tg, d.group, d.alice, d.bob
        table = table_message(tg, group)
        outsider = await answered(tg, tg.forge_callback(group, table, bob, "k|1"))
        assert outsider.show_alert and "creat" in (outsider.answer_text or "")
        asked = await answered(tg, tg.forge_callback(group, table, alice, "k|1"))
        assert not asked.show_alert
        confirm = await tg.wait_for_message(group, contains="Cancel this match for everyone?")
        assert confirm.callback_data == ["K|1"]
        assert (await d.bot.sessions.queries.table(1)).status is GameStatus.RUNNING
        refused = await answered(tg, tg.press_button(group, confirm, bob, "K|1"))
        assert refused.show_alert and (await d.bot.sessions.queries.table(1)).status is GameStatus.RUNNING
        done = await answered(tg, tg.press_button(group, confirm, alice, "K|1"))
        assert not done.show_alert and "cancelled" in (done.answer_text or "")
        assert (await d.bot.sessions.queries.game(1)).status is GameStatus.CANCELLED
