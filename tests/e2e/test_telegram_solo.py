"""A match against the computer in the private chat: /newgame there opens a lobby of the player's
alone, the computer's seats taken, started with one tap; played to its end there, then Rematch;
a practice match there offers 💡; /cancel there ends it; nobody else can tap its buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import (
    answered,
    at_turn,
    bot_messages,
    friends_group,
    hand_message,
    joined_lobby,
    match_over,
    play_until_hint,
    play_until_over,
    running_bot,
    shown,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def lobbies(tg: FakeTelegramServer, user: FakeUser) -> list[FakeMessage]:
    return [m for m in bot_messages(tg, user) if any(d.startswith("s|") for d in m.callback_data)]


async def solo_lobby(tg: FakeTelegramServer, user: FakeUser, line: str, before: int = 0) -> FakeMessage:
    """`user` types `line` in the private chat: the lobby there (the `before`+1-th), full."""
    tg.user_sends(user, user, line)
    await tg.wait_for(lambda: len(lobbies(tg, user)) > before, what="the lobby in the private chat")
    return lobbies(tg, user)[before]


async def test_newgame_in_the_private_chat_is_played_to_the_end_against_the_computer_then_rematch(
        tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice")
        tg.user_starts_bot(alice)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            lobby = await solo_lobby(tg, alice, "/newgame scopa target=11 level=easy")
            await tg.wait_for(lambda: "(computer, easy)" in shown(lobby), what="the easy computer seated")
            assert "Every seat is taken: the creator taps Start" in shown(lobby)
            assert "Turn limit: none" in shown(lobby), "nobody plays for a player alone with the computer"
            assert not (await answered(tg, tg.tap(alice, lobby, alice, "Start"))).show_alert
            await play_until_over(tg, alice, [alice], timeout=30)
            over = match_over(tg, alice)
            assert over is not None and "Alice" in shown(over)
            assert any(d.startswith("r|") for d in over.callback_data), "Rematch under the result"

            rematch = await answered(tg, tg.tap(alice, over, alice, "Rematch"))
            assert not rematch.show_alert and "group" not in (rematch.answer_text or "")
            first = lobby.callback_data
            again = await tg.wait_for(lambda: next((m for m in lobbies(tg, alice)
                                                    if m.callback_data != first), None),
                                      what="the rematch's lobby, here")
            await tg.wait_for(lambda: "(computer, easy)" in shown(again), what="the computer seated again")
            assert not (await answered(tg, tg.tap(alice, again, alice, "Start"))).show_alert
            await tg.wait_for(lambda: any(at_turn(m) for m in bot_messages(tg, alice)
                                          if m.message_id > again.message_id),
                              what="the rematch's hand")
            game_id = await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(alice.id)))
            assert game_id is not None


async def test_a_practice_match_in_the_private_chat_offers_hints_and_cancel_ends_it(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bruno = tg.add_user("Alice"), tg.add_user("Bruno")
        tg.user_starts_bot(alice)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            lobby = await solo_lobby(tg, alice, "/newgame scopa practice=on level=hard")
            await tg.wait_for(lambda: "(computer, hard)" in shown(lobby), what="the hard computer seated")
            forged = await answered(tg, tg.forge_callback(bruno, 1, bruno, tg.find_button(
                alice, lobby, "Start")["callback_data"]))
            assert forged.show_alert, "a lobby in someone's private chat is theirs alone"
            assert not (await answered(tg, tg.tap(alice, lobby, alice, "Start"))).show_alert
            _, hand = await play_until_hint(tg, [alice])
            card = next(d for d in hand.callback_data if d[0] in "ph")
            hint = await answered(tg, tg.tap(alice, hand, alice, "💡"))
            assert hint.show_alert and hint.answer_text

            tg.user_sends(alice, alice, "/cancel")
            confirm = await tg.wait_for(lambda: next((m for m in reversed(bot_messages(tg, alice))
                                                      if any(d.startswith("K|") for d in m.callback_data)),
                                                     None), what="the cancel to confirm")
            assert not (await answered(tg, tg.tap(alice, confirm, alice, "✖️"))).show_alert
            await tg.wait_for_message(alice, contains="cancelled")
            await tg.wait_for(lambda: "The match was cancelled." in shown(hand) and "over" not in shown(hand),
                              what="the hand saying cancelled, not over")
            late = await answered(tg, tg.forge_callback(alice, hand, alice, card))
            assert late.show_alert and late.answer_text == "This match was cancelled."
            assert await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(alice.id))) is None


async def test_a_practice_match_says_it_is_not_counted_on_the_table_at_its_end_and_in_stats(
        tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice")
        tg.user_starts_bot(alice)
        async with running_bot(tg, tmp_path / "bot.db"):
            tg.user_sends(alice, alice, "/stats")
            await tg.wait_for_message(alice, contains="No finished matches yet.")
            lobby = await solo_lobby(tg, alice, "/newgame scopa target=11 practice=on level=easy")
            await tg.wait_for(lambda: "(computer, easy)" in shown(lobby), what="the easy computer seated")
            assert not (await answered(tg, tg.tap(alice, lobby, alice, "Start"))).show_alert
            await tg.wait_for(lambda: "💡 Practice: not counted" in shown(lobby),
                              what="the table saying practice")
            await play_until_over(tg, alice, [alice], timeout=30)
            over = match_over(tg, alice)
            assert over is not None and "💡 Practice: not counted" in shown(over)
            assert "rating" not in shown(over)

            tg.user_sends(alice, alice, "/stats")
            stats = await tg.wait_for_message(alice, contains="Not counted")
            assert "No match counted yet." in shown(stats)
            assert any(f"Not counted: 1 practice match: {won} won (no rating or board)." in shown(stats)
                       for won in (0, 1))


async def test_a_hand_names_its_group_when_its_player_has_another_game_open(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            await solo_lobby(tg, alice, "/newgame scopa")
            lobby = await joined_lobby(tg, group, alice, bob)
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            game_id = await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(group.id)))
            assert game_id is not None
            await tg.wait_for(lambda: "📍 Game in Friends" in shown(hand_message(tg, alice, game_id)),
                              what="Alice's hand naming the group")
            await tg.wait_for(lambda: "Score" in shown(hand_message(tg, bob, game_id)), what="Bob's hand")
            assert "📍" not in shown(hand_message(tg, bob, game_id)), "Bob plays in one game alone"


async def test_help_says_where_a_match_against_the_computer_counts(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice")
        tg.user_starts_bot(alice)
        async with running_bot(tg, tmp_path / "bot.db"):
            await tg.wait_for_message(alice, contains="Or type /newgame here to play against the computer.")
            tg.user_sends(alice, alice, "/help")
            said = await tg.wait_for_message(alice, contains="opens a match against the computer")
            assert "counts for your rating, your /stats and the global board" in shown(said)
            tg.user_sends(alice, alice, "/join")
            await tg.wait_for_message(alice, contains="Here, /newgame opens a match against the computer.")
