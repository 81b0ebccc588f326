"""What a player's hand asks (which capture, which play to declare fuori with) is kept with the game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import answered, friends_group, hand_message, running_bot, shown, start_bot

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

SEED = "0000000000000000"
"""A deal where the first to play holds cards with a choice of captures (the 6 and the 7)."""


async def _started(tg: FakeTelegramServer, group: FakeChat, creator: FakeUser, joiner: FakeUser) -> None:
    tg.user_sends(group, creator, "/newgame")
    lobby = await tg.wait_for_message(group)
    assert not (await answered(tg, tg.tap(group, lobby, joiner, "Join"))).show_alert
    await tg.wait_for(lambda: joiner.first_name in (lobby.text or lobby.caption or ""))
    assert not (await answered(tg, tg.tap(group, lobby, creator, "Start"))).show_alert


def _with_choice(message: FakeMessage | None) -> FakeMessage | None:
    return message if message and any(d.startswith("h|") for d in message.callback_data) else None


def _choices(message: FakeMessage | None) -> list[str]:
    return [d for d in (message.callback_data if message else ()) if d.startswith("p|")]


async def test_a_choice_of_captures_is_still_shown_after_a_restart(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.sessions.lobby.secrets.token_hex", lambda _: SEED)
    db = tmp_path / "bot.db"
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        bot = await start_bot(tg, db)
        try:
            await _started(tg, group, alice, bob)
            player = (alice, bob)[(await bot.sessions.queries.table(1)).to_play]
            hand = await tg.wait_for(lambda: _with_choice(hand_message(tg, player, 1)),
                                     what="a hand with a card to choose captures for")
            choose = next(d for d in hand.callback_data if d.startswith("h|"))
            assert not (await answered(tg, tg.press_button(player, hand, player, choose))).show_alert
            await tg.wait_for(lambda: len(_choices(hand)) > 1, what="the captures to choose from")
            shown = _choices(hand)
        finally:
            await bot.stop()

        async with running_bot(tg, db) as again:
            tg.user_sends(player, player, "/start")
            reposted = await tg.wait_for(
                lambda: (m := hand_message(tg, player, 1)) is not hand and m, what="the hand sent again")
            await tg.wait_for(lambda: _choices(reposted) == shown, what="the same captures after the restart")
            assert "choose one" in (reposted.text or reposted.caption or "")
            record = await answered(tg, tg.press_button(player, reposted, player, shown[-1]))
            assert not record.show_alert, record.answer_text
            assert (await again.sessions.queries.table(1)).version == 1, "the chosen capture was played"
            played = shown[-1].split("|")[-1]
            assert [m.move for m in await again.sessions.store.moves(1)] == [played]


BLOCKING_SEED = "0000000000000001"
"""A deal where the first to play must capture with the 9 of coins: the re and the 6 cannot be played."""


async def test_a_card_that_cannot_be_played_says_why_and_the_legend_explains_the_labels(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.sessions.lobby.secrets.token_hex", lambda _: BLOCKING_SEED)
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await _started(tg, group, alice, bob)
            player = (alice, bob)[(await bot.sessions.queries.table(1)).to_play]
            hand = await tg.wait_for(lambda: _with_choice(hand_message(tg, player, 1)),
                                     what="the first hand, the 9 with two captures")
            blocked = [b for b in hand.buttons if b["text"].startswith("🚫 ")]
            assert len(blocked) == 2, hand.button_texts
            assert "A = asso" in (hand.text or "") and "🚫 marks a card" in (hand.text or ""), "the legend"
            record = await answered(tg, tg.press_button(player, hand, player, blocked[0]["callback_data"]))
            assert record.show_alert and (record.answer_text or "").startswith("You must capture: C🪙 → ")
            assert (await bot.sessions.queries.table(1)).version == 0, "nothing was played"

            tg.user_sends(group, alice, "/help")
            help_text = await tg.wait_for_message(group, contains="/newgame")
            assert "A = asso" in shown(help_text), "/help has the legend too"


async def test_buttons_and_alerts_use_the_signs_of_the_deck_chosen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.sessions.lobby.secrets.token_hex", lambda _: BLOCKING_SEED)
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            chat = ChatRef(PLATFORM, str(group.id))
            await bot.sessions.settings.set_chat_language(chat, "en")
            await bot.sessions.settings.set_chat_defaults(chat, {"deck_style": "piacentine"})
            await _started(tg, group, alice, bob)
            player = (alice, bob)[(await bot.sessions.queries.table(1)).to_play]
            hand = await tg.wait_for(lambda: _with_choice(hand_message(tg, player, 1)),
                                     what="the first hand, the 9 with two captures")
            assert any("C🟡" in text for text in hand.button_texts), hand.button_texts
            assert not any(sign in text for text in hand.button_texts for sign in ("🪙", "🏏"))
            blocked = [b for b in hand.buttons if b["text"].startswith("🚫 ")]
            record = await answered(tg, tg.press_button(player, hand, player, blocked[0]["callback_data"]))
            assert record.show_alert and (record.answer_text or "").startswith("You must capture: C🟡 → ")
            assert "🪙" not in (record.answer_text or "")
