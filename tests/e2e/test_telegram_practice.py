"""Practice matches on Telegram: the lobby's option, the 💡 button on the private hand that
answers with the move the computer would play and why, and its refusal in other matches."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.render.review import move_phrase
from bot.sessions import ChatRef, UserRef

from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import (
    answered,
    bot_messages,
    duel,
    friends_group,
    joined_lobby,
    live_button,
    play_until_hint,
    redrawn_after,
    running_bot,
    shown,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def _live_hand(tg: FakeTelegramServer, users: list[FakeUser]) -> tuple[FakeUser, FakeMessage, str]:
    """The player to move, their hand message and one of its play buttons' data."""
    for user in users:
        for message in reversed(bot_messages(tg, user)):
            data = next((d for d in message.callback_data if d[0] in "ph"), None)
            if data is not None:
                return user, message, data
    raise AssertionError("nobody has a live hand")


async def test_the_hint_button_of_a_practice_match_shows_a_legal_move_and_why(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            await _practice_started(tg, group, alice, bob)
            user, hand = await play_until_hint(tg, [alice, bob])
            pressed = await answered(tg, tg.tap(user, hand, user, "💡"), timeout=20)
            text = pressed.answer_text or ""
            assert pressed.show_alert and text.startswith("💡 ") and len(text) <= 200
            game_id = int(next(d for d in hand.callback_data if d[0] == "I").split("|")[1])
            view = await bot.sessions.queries.hand(game_id, UserRef(PLATFORM, str(user.id), user.first_name))
            legal = [move_phrase(m, "en") for c in view.choices for m in c.moves]
            assert any(text.startswith(f"💡 {phrase}: ") for phrase in legal), (text, legal)
            assert len(text.split(": ", 1)[1]) > 5, "a reason follows the move"
            data = next(d for d in hand.callback_data if d[0] == "I")
            other = bob if user is alice else alice
            waiting = await answered(tg, tg.forge_callback(other, 1, other, data))
            assert waiting.show_alert and "not your turn" in (waiting.answer_text or "").lower()
            carla = tg.add_user("Carla")
            tg.user_starts_bot(carla)
            stranger = await answered(tg, tg.forge_callback(carla, 1, carla, data))
            assert stranger.show_alert and "not playing in this game" in (stranger.answer_text or "")

async def test_a_hand_with_one_legal_move_offers_no_hint(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            await _practice_started(tg, group, alice, bob)
            pressed: set[str] = set()
            seen = {"forced": 0, "choice": 0}
            for _ in range(20):
                found = await tg.wait_for(lambda: live_button(tg, [alice, bob], pressed), timeout=20,
                                          what="the hand of the player to move")
                user, hand, data = found
                game_id = int(data.split("|")[1])
                view = await bot.sessions.queries.hand(
                        game_id, UserRef(PLATFORM, str(user.id), user.first_name))
                moves = [m for c in view.choices for m in c.moves]
                has_hint = any(d.startswith("I|") for d in hand.callback_data)
                if len(moves) == 1:
                    seen["forced"] += 1
                    assert not has_hint, ("💡 on a forced move", shown(hand))
                else:
                    seen["choice"] += 1
                    assert has_hint, ("no 💡 where there is a choice", shown(hand))
                if seen["forced"] and seen["choice"]:
                    break
                play = next((d for d in hand.callback_data if d[0] == "p"), data)
                pressed.add(play)
                record = await answered(tg, tg.press_button(user, hand, user, play))
                assert not record.show_alert, record.answer_text
                await redrawn_after(tg, user, hand, play)
            assert seen["forced"] >= 1 and seen["choice"] >= 1, seen


async def test_a_hint_outside_a_practice_match_is_refused_in_clear_words(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db") as d:
        tg = d.tg
        user, hand, data = await tg.wait_for(lambda: _live_or_none(tg, [d.alice, d.bob]), what="a live hand")
        assert not any(b.startswith("I|") for b in hand.callback_data), "no 💡 outside practice"
        _, game, version, *_ = data.split("|")
        refused = await answered(tg, tg.forge_callback(user, hand, user, f"I|{game}|{version}"))
        assert refused.show_alert and "practice matches only" in (refused.answer_text or "")


def _live_or_none(tg: FakeTelegramServer, users: list[FakeUser]) -> tuple[FakeUser, FakeMessage, str] | None:
    try:
        return _live_hand(tg, users)
    except AssertionError:
        return None


async def _practice_started(tg: FakeTelegramServer, group: FakeChat, alice: FakeUser, bob: FakeUser) -> None:
    """Alice opens a lobby, Bob joins, Alice switches practice on in the options and starts."""
    lobby = await joined_lobby(tg, group, alice, bob)
    steps = (("Options", "Practice (hints"), ("Practice (hints", "Practice: on"),
             ("Practice: on", "Practice (hints"), ("Back", "Start"))
    for label, then in steps:
        assert not (await answered(tg, tg.tap(group, lobby, alice, label))).show_alert, label
        await tg.wait_for(lambda nxt=then: any(nxt in b["text"] for b in tg.buttons(group, lobby)),
                          what=f"{then!r} in the lobby's buttons")
        if label == "Practice: on":
            await tg.wait_for(lambda: "Practice (hints, no rating)" in shown(lobby),
                              what="the option in the lobby's rules")
    assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
