"""The table and the hands as pictures on Telegram, against the fake Bot API's media rules."""

from __future__ import annotations

import io
import logging
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.adapters.telegram.identity import PLATFORM
from bot.pictures import lobby_picture, lobby_scene, photo_bytes
from bot.sessions import ChatRef

from ..fakes.telegram_server import NO_PHOTO_RIGHTS, FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import (
    answered,
    bot_messages,
    hand_message,
    live_button,
    play_until_over,
    redrawn_after,
    running_bot,
    shown,
    table_message,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def _friends(tg: FakeTelegramServer) -> tuple[FakeUser, FakeUser, FakeChat]:
    alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
    group = tg.add_group("Friends", owner=alice, members=[bob])
    for user in (alice, bob):
        tg.user_starts_bot(user)
    return alice, bob, group


async def _start(tg: FakeTelegramServer, group: FakeChat, alice: FakeUser, bob: FakeUser) -> FakeMessage:
    tg.user_sends(group, alice, "/newgame")
    lobby = await tg.wait_for_message(group, contains="New game")
    assert not (await answered(tg, tg.tap(group, lobby, bob, "Join"))).show_alert
    await tg.wait_for(lambda: "2. Bob" in shown(lobby), what="Bob in the lobby")
    assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
    await tg.wait_for(lambda: "Join" not in lobby.button_texts, what="the table")
    return lobby


def _ok_calls(tg: FakeTelegramServer, method: str, chat: FakeChat) -> int:
    return sum(1 for call in tg.calls_to(method)
               if call.ok and str(call.params.get("chat_id")) == str(chat.id))


async def _english(bot_sessions: object, group: FakeChat) -> None:
    chat = ChatRef(PLATFORM, str(group.id))
    await bot_sessions.settings.set_chat_language(chat, "en")  # type: ignore[attr-defined]
    await bot_sessions.settings.set_chat_defaults(chat, {"target": 1})  # type: ignore[attr-defined]


async def test_the_table_is_a_photo_edited_in_place_and_hands_are_photos_with_buttons(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, group = _friends(tg)
        async with running_bot(tg, tmp_path / "bot.db", pictures=True) as bot:
            await _english(bot.sessions, group)
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game")
            assert lobby.photo is not None and lobby.text is None, "the lobby shows a sample of the deck"
            assert lobby.photo["data"] == photo_bytes(lobby_picture(lobby_scene("napoletane"), "en")), (
                "the lobby shows the deck's cards under its name, no hand")
            table = await _start(tg, group, alice, bob)
            assert table is lobby, "the lobby's photo becomes the table"
            await tg.wait_for(lambda: "to play" in shown(table), what="the table's caption")
            for user in (alice, bob):
                hand = await tg.wait_for(lambda u=user: hand_message(tg, u, 1), what="a hand")
                assert hand.photo is not None and hand.callback_data, "a photo with its buttons"
                assert "Your cards" in shown(hand)
            media_before = _ok_calls(tg, "editMessageMedia", group)
            await play_until_over(tg, group, [alice, bob], stop_after=4)
            await tg.wait_for(lambda: _ok_calls(tg, "editMessageMedia", group) > media_before,
                              what="the table's picture replaced")
            assert table_message(tg, group) is table and table.photo is not None
            assert table.photo_history, "the same message, its picture replaced"
            assert _ok_calls(tg, "editMessageText", group) == 0, "a photo is never edited as text"
            assert all(len(m.caption or "") <= 1024 for m in bot_messages(tg, group))
            assert bot.front.outbox.uploaded > 0


async def test_a_chat_that_turns_pictures_off_gets_text(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, group = _friends(tg)
        async with running_bot(tg, tmp_path / "bot.db", pictures=True) as bot:
            await _english(bot.sessions, group)
            tg.user_sends(group, alice, "/settings")
            settings = await tg.wait_for_message(group, contains="Settings")
            assert "Table and hands: 🖼 Pictures" in shown(settings)
            refused = await answered(tg, tg.tap(group, settings, bob, "Text"))
            assert refused.show_alert, "only admins change the chat's settings"
            assert not (await answered(tg, tg.tap(group, settings, alice, "Text"))).show_alert
            await tg.wait_for(lambda: "Table and hands: 🔤 Text" in shown(settings), what="the setting saved")
            assert not (await bot.sessions.queries.chat(ChatRef(PLATFORM, str(group.id)))).pictures

            table = await _start(tg, group, alice, bob)
            found = await tg.wait_for(lambda: live_button(tg, [alice, bob], set()), what="a live card")
            user, hand, data = found
            assert not (await answered(tg, tg.press_button(user, hand, user, data))).show_alert
            await redrawn_after(tg, user, hand, data)
            assert table.photo is None and "to play" in (table.text or "")
            for user in (alice, bob):
                hand = await tg.wait_for(lambda u=user: hand_message(tg, u, 1), what="a hand")
                assert hand.photo is None and "Your cards" in (hand.text or "")
            assert not tg.calls_to("sendPhoto")


async def test_a_group_that_forbids_photos_gets_its_table_as_text(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, group = _friends(tg)
        tg.set_permissions(group, can_send_photos=False)
        async with running_bot(tg, tmp_path / "bot.db", pictures=True) as bot:
            await _english(bot.sessions, group)
            with caplog.at_level(logging.WARNING, logger="bot.adapters.telegram.outbox"):
                table = await _start(tg, group, alice, bob)
                taps = await play_until_over(tg, group, [alice, bob], stop_after=4)
            assert table.photo is None and "to play" in (table.text or "")
            refusals = [c for c in tg.calls_to("sendPhoto") if not c.ok]
            assert refusals and refusals[0].description == NO_PHOTO_RIGHTS
            assert len(refusals) == 1, "the group is not asked again"
            assert len([r for r in caplog.records if "as a photo" in r.getMessage()]) == 1, "one log line"
            hand = hand_message(tg, alice, 1)
            assert hand is not None and hand.photo is not None, "private hands are still pictures"
            played = [r for r in taps.records if r.data.startswith("p|")]
            assert (await bot.sessions.queries.table(1)).version == len(played) > 0, "the game went on"


async def test_a_failed_upload_sends_that_message_as_text(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, group = _friends(tg)
        async with running_bot(tg, tmp_path / "bot.db", pictures=True) as bot:
            await _english(bot.sessions, group)
            tg.fail_next(1, error_code=400, description="Bad Request: IMAGE_PROCESS_FAILED",
                         methods=["sendPhoto"])
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game")
            assert lobby.photo is None and "New game" in (lobby.text or "")
            table = await _start(tg, group, alice, bob)
            taps = await play_until_over(tg, group, [alice, bob], stop_after=2)
            assert table is lobby and table.photo is None, "that message stays text"
            hand = hand_message(tg, bob, 1)
            assert hand is not None and hand.photo is not None, "nothing else changes"
            played = [r for r in taps.records if r.data.startswith("p|")]
            assert (await bot.sessions.queries.table(1)).version == len(played) > 0


async def test_a_round_ends_with_its_picture_under_a_short_caption(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, group = _friends(tg)
        async with running_bot(tg, tmp_path / "bot.db", pictures=True) as bot:
            await _english(bot.sessions, group)
            await _start(tg, group, alice, bob)
            await play_until_over(tg, group, [alice, bob])
            ended = await tg.wait_for(
                lambda: next((m for m in bot_messages(tg, group) if "End of round 1" in shown(m)), None),
                what="the end of the round")
            assert ended.photo is not None and ended.text is None, "the round's end is a photo"
            picture = Image.open(io.BytesIO(ended.photo["data"]))
            assert picture.width == 720, "the round's picture, every point and count in it"
            caption = shown(ended).splitlines()
            assert caption[0] == "📊 End of round 1"
            assert caption[-1].startswith("Score: Alice ") and "(to 1)" in caption[-1]
            assert any(re.fullmatch(r"\S+ wins the round \d+–\d+|Round tied \d+–\d+", line)
                       for line in caption), "the round's winner is the subject"
            assert "Counts" not in shown(ended), "the numbers are in the picture, not repeated"


async def test_a_round_end_in_a_chat_of_text_reads_on_a_phone(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, group = _friends(tg)
        async with running_bot(tg, tmp_path / "bot.db", pictures=True) as bot:
            await _english(bot.sessions, group)
            chat = ChatRef(PLATFORM, str(group.id))
            await bot.sessions.settings.set_chat_defaults(chat, {"target": 1, "pictures": "off"})
            await _start(tg, group, alice, bob)
            await play_until_over(tg, group, [alice, bob])
            ended = await tg.wait_for(
                lambda: next((m for m in bot_messages(tg, group) if "End of round 1" in shown(m)), None),
                what="the end of the round")
            assert ended.photo is None
            assert any(e["type"] == "pre" for e in ended.entities), "the breakdown in columns"
            lines = (ended.text or "").splitlines()[1:-1]
            assert lines[0].split() == ["Alice", "Bob"]
            assert any(line.startswith("Settebello") for line in lines)
            assert all(len(line) <= 32 for line in lines), lines
            assert "—–" not in (ended.text or "")


async def test_a_round_end_the_group_cannot_take_as_a_photo_is_posted_as_text(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, group = _friends(tg)
        async with running_bot(tg, tmp_path / "bot.db", pictures=True) as bot:
            await _english(bot.sessions, group)
            await _start(tg, group, alice, bob)
            tg.set_permissions(group, can_send_photos=False)
            await play_until_over(tg, group, [alice, bob])
            ended = await tg.wait_for(
                lambda: next((m for m in bot_messages(tg, group) if "End of round 1" in shown(m)), None),
                what="the end of the round")
            assert ended.photo is None and "Counts (Alice – Bob)" in (ended.text or "")
            assert [c.description for c in tg.calls_to("sendPhoto") if not c.ok] == [NO_PHOTO_RIGHTS]


async def test_a_lobby_offers_all_seven_decks_and_shows_the_one_chosen(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, _, group = _friends(tg)
        async with running_bot(tg, tmp_path / "bot.db", pictures=True) as bot:
            await _english(bot.sessions, group)
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game")
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Options"))).show_alert
            await tg.wait_for(lambda: any("Cards" in b for b in lobby.button_texts), what="the options")
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Cards"))).show_alert
            decks = ["Neapolitan", "Piacentine", "Sicilian", "Trevisane", "Bergamasche", "French", "Spanish"]
            await tg.wait_for(lambda: all(any(d in b for b in lobby.button_texts) for d in decks),
                              what="the seven decks")
            before = lobby.photo["data"] if lobby.photo else None
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Trevisane"))).show_alert
            trevisane = photo_bytes(lobby_picture(lobby_scene("trevisane"), "en"))
            await tg.wait_for(lambda: lobby.photo is not None and lobby.photo["data"] == trevisane,
                              what="the Trevisane deck in the lobby's picture")
            assert before != trevisane
            assert (await bot.sessions.queries.lobby_of(1)).deck_style == "trevisane"
