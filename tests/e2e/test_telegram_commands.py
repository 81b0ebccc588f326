"""Commands, settings, options and permissions, and webhook mode, against the fake Bot API server."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeTelegramServer
from ..telegram_helpers import answered, bot_messages, friends_group, running_bot, table_message

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def test_commands_options_settings_and_who_may_do_what(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob, admin = tg.add_user("Alice"), tg.add_user("Bob"), tg.add_user("Ada", language_code="it")
        group = tg.add_group("Friends", members=[alice, bob], admins=[admin])
        for user in (alice, bob, admin):
            tg.user_starts_bot(user)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            tg.user_sends(alice, alice, "/join")
            await tg.wait_for_message(alice, contains="works in a group")
            tg.user_sends(group, alice, "/help")
            await tg.wait_for_message(group, contains="/newgame [variant]")
            tg.user_sends(group, alice, "/rules escoba")
            await tg.wait_for_message(group, contains="Escoba: 2 to 6 players")
            tg.user_sends(group, alice, "/rules poker")
            await tg.wait_for_message(group, contains="You can play: Scopa, Scopone, Scopone scientifico")
            tg.user_sends(group, bob, "/stats")
            await tg.wait_for_message(group, contains="📈 Bob")

            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game of Scopa")
            tg.user_sends(group, bob, "/newgame escoba")
            pointer = await tg.wait_for_message(group, contains="already open", after=lobby)
            assert pointer.reply_to is lobby, "the answer points at the open game"
            assert pointer.buttons[0]["url"].endswith(f"/{lobby.message_id}")

            denied = await answered(tg, tg.tap(group, lobby, bob, "Options"))
            assert denied.show_alert
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Options"))).show_alert
            await tg.wait_for(lambda: "Variant" in " ".join(lobby.button_texts), what="the options menu")
            await answered(tg, tg.tap(group, lobby, alice, "Variant"))
            await tg.wait_for(lambda: "Escoba" in " ".join(lobby.button_texts), what="the variants")
            await answered(tg, tg.tap(group, lobby, alice, "Escoba"))
            await tg.wait_for(lambda: "Escoba" in (lobby.text or ""), what="escoba chosen")
            await answered(tg, tg.tap(group, lobby, alice, "Players"))
            await tg.wait_for(lambda: "6" in lobby.button_texts, what="the player counts")
            await answered(tg, tg.tap(group, lobby, alice, "3"))
            await tg.wait_for(lambda: "3. (empty)" in (lobby.text or ""), what="three seats")
            for menu, value, shown in (("Target", "31", "Target 31"), ("Turn limit", "300 s", "300 s"),
                                       ("Cards", "French", "French"),
                                       ("Capture rule", "fewest", "fewest cards")):
                await answered(tg, tg.tap(group, lobby, alice, menu))
                await tg.wait_for(lambda v=value: any(v in t for t in lobby.button_texts), what=menu)
                assert not (await answered(tg, tg.tap(group, lobby, alice, value))).show_alert
                await tg.wait_for(lambda s=shown: s in (lobby.text or ""), what=shown)
            await answered(tg, tg.tap(group, lobby, alice, "Back"))
            await tg.wait_for(lambda: "Join" in lobby.button_texts, what="the main lobby buttons")

            await answered(tg, tg.tap(group, lobby, bob, "Join"))
            await answered(tg, tg.tap(group, lobby, bob, "🤖 easy"))
            await tg.wait_for(lambda: "3. Ciro 🤖 (computer, easy)" in (lobby.text or ""),
                              what="the computer")
            refused = await answered(tg, tg.tap(group, lobby, bob, "Remove computers"))
            assert refused.show_alert
            await answered(tg, tg.tap(group, lobby, bob, "Leave"))
            await tg.wait_for(lambda: "Bob" not in (lobby.text or ""), what="Bob gone")
            await tg.wait_for_message(bob, contains="You left this game")
            cancel = await answered(tg, tg.tap(group, lobby, bob, "Cancel"))
            assert cancel.show_alert and "admin" in (cancel.answer_text or "")

            tg.user_sends(group, admin, "/cancel")
            await tg.wait_for(lambda: "cancelled by Ada" in (lobby.text or ""), what="the admin's cancel")
            assert lobby.reply_markup is None

            tg.user_sends(group, bob, "/settings")
            settings = await tg.wait_for_message(group, contains="Settings", after=lobby)
            assert not (await answered(tg, tg.tap(group, settings, admin, "Italiano"))).show_alert
            await tg.wait_for(lambda: "Impostazioni" in (settings.text or ""), what="settings in Italian")
            denied = await answered(tg, tg.tap(group, settings, bob, "60 s"))
            assert denied.show_alert
            assert not (await answered(tg, tg.tap(group, settings, admin, "60 s"))).show_alert
            await tg.wait_for(lambda: "60 s" in (settings.text or ""), what="the new turn limit")
            tg.user_sends(group, bob, "/newgame")
            italian = await tg.wait_for_message(group, contains="Nuova partita", after=settings)
            assert "60 s" in (italian.text or "")

            tg.user_sends(bob, bob, "/settings")
            mine = await tg.wait_for_message(bob, contains="Settings")
            await answered(tg, tg.tap(bob, mine, bob, "Italiano"))
            await tg.wait_for(lambda: "Impostazioni" in (mine.text or ""), what="Bob's language")
            chat = await bot.sessions.queries.chat(ChatRef(PLATFORM, str(group.id)))
            assert chat.language == "it" and chat.turn_limit == 60


async def test_house_rules_and_a_round_limit_are_set_from_the_lobby(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game of Scopa")
            await answered(tg, tg.tap(group, lobby, alice, "Options"))
            await tg.wait_for(lambda: "House rules" in lobby.button_texts, what="the options menu")
            await answered(tg, tg.tap(group, lobby, alice, "House rules"))
            await tg.wait_for(lambda: "Ace takes all" in lobby.button_texts, what="the house rules")
            assert "✅ Capturing is compulsory" in lobby.button_texts
            for switch in ("Ace takes all", "Re bello", "Primiera: most sevens"):
                assert not (await answered(tg, tg.tap(group, lobby, alice, switch))).show_alert
                await tg.wait_for(lambda s=switch: f"✅ {s}" in lobby.button_texts, what=switch)
                assert switch in (lobby.text or "")
            denied = await answered(tg, tg.tap(group, lobby, bob, "✅ Re bello"))
            assert denied.show_alert
            await answered(tg, tg.tap(group, lobby, alice, "✅ Re bello"))
            await tg.wait_for(lambda: "Re bello" in lobby.button_texts, what="re bello off again")
            assert "Re bello" not in (lobby.text or "")
            await answered(tg, tg.tap(group, lobby, alice, "Back"))
            await answered(tg, tg.tap(group, lobby, alice, "Rounds"))
            await tg.wait_for(lambda: "✅ No round limit" in lobby.button_texts, what="the round limits")
            await answered(tg, tg.tap(group, lobby, alice, "Round limit: 3"))
            await tg.wait_for(lambda: "Round limit: 3" in (lobby.text or ""), what="three rounds")
            game_id = await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(group.id)))
            assert game_id is not None
            rules = (await bot.sessions.queries.lobby_of(game_id)).rules
            assert rules.ace_takes_all and not rules.re_bello and rules.primiera.value == "sevens"
            assert rules.round_limit == 3


async def test_a_player_declares_fuori_from_their_hand(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice")
        group = friends_group(tg, alice)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            tg.user_sends(group, alice, "/newgame scopone")
            lobby = await tg.wait_for_message(group, contains="New game of Scopone")
            await answered(tg, tg.tap(group, lobby, alice, "Options"))
            await answered(tg, tg.tap(group, lobby, alice, "House rules"))
            await tg.wait_for(lambda: "Declaring fuori" in lobby.button_texts, what="the fuori switch")
            await answered(tg, tg.tap(group, lobby, alice, "Declaring fuori"))
            await tg.wait_for(lambda: "Declaring fuori" in (lobby.text or ""), what="fuori on")
            await answered(tg, tg.tap(group, lobby, alice, "Back"))
            await answered(tg, tg.tap(group, lobby, alice, "Back"))
            for _ in range(3):
                await answered(tg, tg.tap(group, lobby, alice, "🤖 easy"))
            await tg.wait_for(lambda: "4. Dora 🙂" in (lobby.text or ""), what="three computers")
            await answered(tg, tg.tap(group, lobby, alice, "Start"))
            declare = "Declare fuori…"
            hand = await tg.wait_for(
                lambda: next((m for m in bot_messages(tg, alice) if declare in m.button_texts), None),
                what="Alice's turn, with the fuori button")
            assert "🏁 " + declare not in hand.button_texts, "no 🏁 hint: declaring now would lose"
            before = (await bot.sessions.queries.table(1)).version
            assert "would win" not in (hand.text or "")
            assert not (await answered(tg, tg.tap(alice, hand, alice, declare))).show_alert
            await tg.wait_for(lambda: "Choose the play you declare fuori with" in (hand.text or ""),
                              what="the plays to declare with")
            cards = [label for label in hand.button_texts if label.startswith("🏁 ")]
            assert cards and "↩️ Back" in hand.button_texts
            assert not (await answered(tg, tg.tap(alice, hand, alice, cards[0]))).show_alert
            await tg.wait_for(lambda: "cannot be taken back" in (hand.text or ""), what="the confirmation")
            assert "you lose the match, only" in (hand.text or ""), "what declaring would mean now"
            assert (await bot.sessions.queries.table(1)).version == before, "nothing declared yet"
            confirm = next(label for label in hand.button_texts if label.startswith("✅ Fuori with "))
            assert not (await answered(tg, tg.tap(alice, hand, alice, confirm))).show_alert
            breakdown = await tg.wait_for_message(group, contains="declared fuori, but")
            assert "the match goes to" in (breakdown.text or "")
            await tg.wait_for(lambda: "Match over" in (table_message(tg, group).text or "")
                              or any("Match over" in (m.text or "") for m in bot_messages(tg, group)),
                              what="the end of the match")
            game = await bot.sessions.queries.stored_game(1)
            assert game is not None and game.winner == 1 and game.results[-1].fuori == 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_webhook_mode(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = tg.add_group("Friends", members=[alice, bob])
        port = _free_port()
        url = f"http://127.0.0.1:{port}/telegram/hook"
        async with running_bot(tg, tmp_path / "bot.db", webhook_url=url, listen=f"127.0.0.1:{port}"):
            assert tg.webhook is not None and tg.webhook.url == url and tg.webhook.secret_token
            tg.user_starts_bot(alice)
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game")
            assert not (await answered(tg, tg.tap(group, lobby, bob, "Join"))).show_alert
            await tg.wait_for(lambda: "Bob ⏳" in (table_message(tg, group).text or ""))
            assert tg.webhook.delivered >= 3 and not tg.calls_to("getUpdates")
        assert len(bot_messages(tg, alice)) == 2
