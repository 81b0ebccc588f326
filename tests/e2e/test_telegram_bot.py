"""Whole matches in Telegram groups: the real Application over HTTP to the fake Bot API server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef, UserRef

from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import (
    POST_TITLES,
    answered,
    bot_messages,
    friends_group,
    hand_message,
    match_over,
    play_until_over,
    running_bot,
    shown,
    table_history,
    table_message,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def _lobby_started(tg: FakeTelegramServer, group: FakeChat, creator: FakeUser,
                         joiners: list[FakeUser], command: str = "/newgame") -> None:
    tg.user_sends(group, creator, command)
    lobby = await tg.wait_for_message(group)
    for user in joiners:
        record = await answered(tg, tg.tap(group, lobby, user, "Join"))
        assert not record.show_alert, record.answer_text
    await tg.wait_for(lambda: all(u.first_name in (lobby.text or "") for u in joiners))
    record = await answered(tg, tg.tap(group, lobby, creator, "Start"))
    assert not record.show_alert, record.answer_text
    await tg.wait_for(lambda: "Join" not in lobby.button_texts, what="the table")


def _ref(user: FakeUser) -> UserRef:
    return UserRef(PLATFORM, str(user.id), user.first_name)


async def test_two_player_match_from_newgame_to_the_leaderboard(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob", language_code="it")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await tg.wait_for(lambda: len(bot_messages(tg, bob)) == 1, what="the welcome")
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game of Scopa")
            assert "1. Alice" in (lobby.text or "") and "2. (empty)" in (lobby.text or "")
            assert await answered(tg, tg.tap(group, lobby, bob, "Join"))
            await tg.wait_for(lambda: "2. Bob" in (lobby.text or ""))
            refused = await answered(tg, tg.tap(group, lobby, bob, "Start"))
            assert refused.show_alert and "creato" in (refused.answer_text or "")
            assert await answered(tg, tg.tap(group, lobby, alice, "Start"))

            bob_hand = await tg.wait_for(lambda: hand_message(tg, bob, 1), 30, what="Bob's hand")
            assert "Le tue carte" in (bob_hand.text or ""), "Bob's hand is in his language"
            taps = await play_until_over(tg, group, [alice, bob])

            await bot.front.outbox.drain(5)
            final = table_message(tg, group)
            await tg.wait_for(lambda: "Match over." in (final.text or ""), 30, what="the final table")
            assert final.edit_count > 3 and final.reply_markup is None, "edited in place within a round"
            assert "(within 90 s)" in table_history(tg, group)
            posts = bot_messages(tg, group)
            breakdowns = [m for m in posts if "End of round" in (m.text or "")]
            assert len([m for m in posts if m.reply_to is None]) == len(breakdowns) + 2, \
                "one table (the old ones deleted), the breakdowns and the end of the match"
            assert lobby.deleted or final is lobby
            assert all(any(e["type"] == "pre" for e in m.entities) for m in breakdowns)
            end = posts[-1]
            assert end is match_over(tg, group)
            assert re.search(r"\n\w+ wins the match \d+–\d+\n", end.text or ""), "the winner is the subject"
            assert end.button_texts == ["🔁 Rematch", "🔍 Review"]
            assert all(record.answered and not record.show_alert for record in taps.records)
            assert max(record.answer_delay or 0 for record in taps.records) < 2.0
            for user in (alice, bob):
                hand = hand_message(tg, user, 1)
                assert hand is not None and hand.reply_markup is None
                kept = [m for m in bot_messages(tg, user) if not shown(m).startswith(POST_TITLES)]
                assert len(kept) == 2, "a welcome and one hand message, the old deleted"
                assert sum(shown(m).startswith("🏆") for m in bot_messages(tg, user)) == 1, \
                    "below them each round's end and the match's"

            tg.user_sends(group, alice, "/leaderboard")
            board = await tg.wait_for_message(group, contains="Leaderboard", after=end)
            text = board.text or ""
            assert "Alice" in text and "Bob" in text
            assert "1 game, 1 win (100%)" in text and "1 game, 0 wins (0%)" in text
            assert len(await bot.sessions.store.records()) == 1
            tg.user_sends(group, bob, "/leaderboard global")
            everyone = await tg.wait_for_message(group, contains="everyone", after=board)
            assert "Alice" in (everyone.text or "")

            commands = {c["command"]: c["description"] for c in tg.get_commands(language_code="it")}
            assert "newgame" in commands and "partita" in commands["newgame"]
            assert "Open a game" in tg.get_commands()[0]["description"]


async def test_scopone_four_players_with_a_computer(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        players = [tg.add_user(name) for name in ("Alice", "Bob", "Carla")]
        group = tg.add_group("Circolo", members=players)
        for user in players:
            tg.user_starts_bot(user)
        async with running_bot(tg, tmp_path / "bot.db"):
            tg.user_sends(group, players[0], "/newgame scopone")
            lobby = await tg.wait_for_message(group, contains="Scopone")
            for user in players[1:]:
                assert not (await answered(tg, tg.tap(group, lobby, user, "Join"))).show_alert
            assert not (await answered(tg, tg.tap(group, lobby, players[1], "🤖 medium"))).show_alert
            await tg.wait_for(lambda: "4. Dora 🤖 (computer, medium)" in (lobby.text or ""),
                              what="the computer's seat")
            assert "team A" in (lobby.text or "") and "team B" in (lobby.text or "")
            assert not (await answered(tg, tg.tap(group, lobby, players[0], "Start"))).show_alert
            await play_until_over(tg, group, players, timeout=30)
            history = table_history(tg, group)
            assert "Dora plays" in history and "CPU" not in history
            end = match_over(tg, group)
            assert end is not None and " & " in (end.text or ""), "teams are named by their players"


async def test_deep_link_join_for_users_who_never_started_the_bot(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, carla, dino = tg.add_user("Alice"), tg.add_user("Carla"), tg.add_user("Dino")
        group = tg.add_group("Friends", members=[alice, carla, dino])
        tg.user_starts_bot(alice)
        async with running_bot(tg, tmp_path / "bot.db"):
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game")
            record = await answered(tg, tg.tap(group, lobby, carla, "Join"))
            assert record.url is not None and not record.show_alert
            bot_name, payload = tg.start_payload(record.url) or ("", "")
            assert bot_name == tg.bot_username
            await tg.wait_for(lambda: "Carla ⏳" in (lobby.text or ""), what="Carla waiting")
            link = next(b for b in lobby.buttons if "url" in b)
            assert tg.start_payload(link["url"]) == (bot_name, payload)
            waiting = await answered(tg, tg.tap(group, lobby, alice, "Start"))
            assert waiting.show_alert and "Carla" in (waiting.answer_text or "")

            tg.user_starts_bot(carla, payload)
            joined = await tg.wait_for_message(carla, contains="You joined a game of Scopa in “Friends”")
            await tg.wait_for(lambda: "⏳" not in (lobby.text or ""), what="Carla ready")
            assert not any("url" in b for b in lobby.buttons)
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            hand = await tg.wait_for(lambda: (h := hand_message(tg, carla, 1)) is not None
                                     and h.callback_data and h, what="Carla's cards")
            await tg.wait_for(lambda: joined is hand or joined.deleted,
                              what="the note become her hand, or give way to it")

            other = tg.add_group("Others", members=[dino])
            tg.user_sends(other, dino, "/newgame")
            prompt = await tg.wait_for_message(other, contains="privately")
            url = prompt.buttons[0]["url"]
            second = await tg.wait_for_message(other, contains="Dino ⏳")
            tg.user_starts_bot(dino, (tg.start_payload(url) or ("", ""))[1])
            await tg.wait_for(lambda: "⏳" not in (second.text or ""), what="the creator ready")
            await tg.wait_for_message(dino, contains="You joined")


async def test_double_taps_stale_keyboards_and_strangers_change_nothing(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, eve = tg.add_user("Alice"), tg.add_user("Bob"), tg.add_user("Eve")
        group = friends_group(tg, alice, bob, eve)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await _lobby_started(tg, group, alice, [bob])
            game = await bot.sessions.queries.table(1)
            player = (alice, bob)[game.to_play]

            def live_hand() -> FakeMessage | None:
                hand = hand_message(tg, player, 1)
                return hand if hand is not None and any(d[0] in "ph" for d in hand.callback_data) else None

            hand = await tg.wait_for(live_hand, what="a live hand")
            if not any(d.startswith("p|") for d in hand.callback_data):
                # Every card has a choice of captures: open one card's choices first.
                choose = next(d for d in hand.callback_data if d.startswith("h|"))
                await answered(tg, tg.press_button(player, hand, player, choose))
                hand = await tg.wait_for(
                    lambda: hand if any(d.startswith("p|") for d in hand.callback_data) else None,
                    what="the capture choices")
            data = next(d for d in hand.callback_data if d.startswith("p|"))
            first, second = (tg.press_button(player, hand, player, data) for _ in range(2))
            results = [await answered(tg, first), await answered(tg, second)]
            assert sorted(r.show_alert for r in results) == [False, True]
            assert (await bot.sessions.queries.table(1)).version == 1, "exactly one move applied"
            assert len(await bot.sessions.store.moves(1)) == 1

            stale = await answered(tg, tg.forge_callback(player, hand, player, data))
            assert stale.show_alert and "out of date" in (stale.answer_text or "")
            card = (await bot.sessions.queries.hand(1, _ref(player))).hand[0].code
            wrong = await answered(tg, tg.forge_callback(player, hand, player, f"p|1|1|{card}"))
            assert wrong.show_alert and "not your turn" in (wrong.answer_text or "")
            stranger = await answered(tg, tg.forge_callback(eve, 1, eve, f"p|1|1|{card}"))
            assert stranger.show_alert and "not playing" in (stranger.answer_text or "")
            for junk in ("p|1|x", "p|1|1|" + "1D+" * 25, "🂡", "j|1|2"):
                bad = await answered(tg, tg.forge_callback(group, 1, eve, junk))
                assert bad.show_alert and "not valid" in (bad.answer_text or "")
            intruder = await answered(tg, tg.forge_callback(group, 1, eve, "k|1"))
            assert intruder.show_alert and "admin" in (intruder.answer_text or "")
            assert (await bot.sessions.queries.table(1)).version == 1, "nothing changed"

            blocked = (alice, bob)[(await bot.sessions.queries.table(1)).to_play]
            tg.user_blocks_bot(blocked)
            table = table_message(tg, group)
            await tg.wait_for(lambda: "🃏 Show my hand" in table.button_texts, what="Show my hand")
            shown = await answered(tg, tg.tap(group, table, blocked, "Show my hand"))
            assert shown.show_alert and "Your cards" in (shown.answer_text or "")
            outsider = await answered(tg, tg.tap(group, table, eve, "Show my hand"))
            assert outsider.show_alert and "not playing" in (outsider.answer_text or "")
            bot.clock.advance(95)
            assert await bot.sessions.scheduler.run_due() == 1, "the blocked player's timer still runs"
            await tg.wait_for(lambda: f"{blocked.first_name} plays" in (table.text or ""),
                              what="the timed-out move on the table")
            assert (await bot.sessions.queries.table(1)).version == 2


async def test_429_storm_the_match_still_finishes(tmp_path: Path) -> None:
    async with FakeTelegramServer(flood_control=True) as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db", rate_limiter="default",
                               group_rate=(20.0, 60.0)) as bot:
            chat = ChatRef(PLATFORM, str(group.id))
            await bot.sessions.settings.set_chat_language(chat, "en")
            await bot.sessions.settings.set_chat_defaults(chat, {"target": 1})
            await _lobby_started(tg, group, alice, [bob])
            taps = await play_until_over(tg, group, [alice, bob], stop_after=6)
            tg.storm_429(40, retry_after=0.2)
            taps = await play_until_over(tg, group, [alice, bob], taps, timeout=60)
            assert sum(tg.rate_limited_counts.values()) == 40, "only the storm: flood limits were kept"
            assert (await bot.sessions.queries.table(1)).finished
            played = [r for r in taps.records if r.data.startswith("p|")]
            assert len(await bot.sessions.store.moves(1)) == len(played), "every tap's move is stored"
            await tg.wait_for(lambda: "Match over." in (table_message(tg, group).text or ""), 30)
            assert all(record.answered for record in taps.records)


async def test_leaving_coming_back_turn_warnings_and_rematch(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await _lobby_started(tg, group, alice, [bob])
            table = table_message(tg, group)
            tg.user_sends(group, bob, "/leave")
            await tg.wait_for(lambda: "computer plays for Bob" in (table.text or ""), what="autoplay")
            assert "👋 I'm back" in table.button_texts
            hand = await tg.wait_for(lambda: hand_message(tg, bob, 1))
            await tg.wait_for(lambda: "👋 I'm back" in hand.button_texts, what="Bob's way back")
            taps = None
            for _ in range(6):
                if any(move.by_computer for move in await bot.sessions.store.moves(1)):
                    break
                taps = await play_until_over(tg, group, [alice], taps, stop_after=1)
            else:
                raise AssertionError("the computer never played Bob's turns")
            back = await answered(tg, tg.tap(bob, hand, bob, "I'm back"))
            assert not back.show_alert and "Bob is back" in (back.answer_text or "")
            await tg.wait_for(lambda: "computer plays" not in (table.text or ""), what="Bob back")

            view = await bot.sessions.queries.table(1)
            waiting = (alice, bob)[view.to_play]
            bot.clock.advance(75)
            assert await bot.sessions.scheduler.run_due() == 1
            await tg.wait_for_message(waiting, contains="s left for your move")
            await tg.wait_for(lambda: "within 15 s" in (table.text or ""), what="the countdown")

            await play_until_over(tg, group, [alice, bob])
            end = match_over(tg, group)
            assert end is not None
            assert not (await answered(tg, tg.tap(group, end, bob, "Rematch"))).show_alert
            again = await tg.wait_for_message(group, contains="New game", after=end)
            assert "Alice" in (again.text or "") and "Bob" in (again.text or "")
            twice = await answered(tg, tg.tap(group, end, alice, "Rematch"))
            assert twice.show_alert and "already open" in (twice.answer_text or "")
            assert not (await answered(tg, tg.tap(group, again, bob, "Start"))).show_alert
            await tg.wait_for(lambda: "round 1" in (again.text or ""), what="the rematch's table")
