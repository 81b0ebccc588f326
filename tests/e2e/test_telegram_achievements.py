"""`scopa-bot telegram`: the achievements a match earns are told in its group once, in one line,
whether the bot runs on or is killed with SIGKILL right after the match's last card and started
again; each is stored once and listed in /stats."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.app import open_sessions
from bot.engine import Game, Move, dump_game, load_game, to_record
from bot.sessions import ChatRef, UserRef
from bot.sessions.feats import seat_facts

from ..fakes.telegram_server import FakeChat, FakeTelegramServer, FakeUser
from ..sessions_helpers import play_one, start_duel
from ..telegram_helpers import bot_messages, newest_hand, shown
from .test_telegram_restart import _launch, _polling

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

KILLED_AFTER = (None, 0.05, 0.4, 1.5)
"""Seconds from the match's last card to the kill (None: not killed): while the move is stored,
and while the match's end and its achievements are posted."""
FEATS = "🏅"


def _feat_lines(tg: FakeTelegramServer, group: FakeChat) -> list[str]:
    return [shown(m) for m in bot_messages(tg, group) if shown(m).startswith(FEATS)]


async def _match_about_to_end(db: Path, chat: ChatRef, users: tuple[UserRef, UserRef]) -> tuple[int, int]:
    """A one-round match of the group played beside the running bot (the same SQLite file) up to
    its last card, dealt again until whatever that card does the match ends with a scopa made
    (a first scopa for someone); the seat that plays it."""
    sessions = await open_sessions(str(db))
    try:
        await sessions.settings.set_chat_language(chat, "en")
        for user in users:
            await sessions.settings.set_can_dm(user, True)
        for _ in range(40):
            game_id = await start_duel(sessions, chat, *users, options={"round_limit": "1"})
            while True:
                table = await sessions.queries.table(game_id)
                if table.stock_count == 0 and sum(table.hand_counts) == 1:
                    break
                await play_one(sessions, game_id, *users)
            _, game = await sessions.games.load(game_id)
            assert game is not None
            if all(_ends_with_a_scopa(game, move) for move in game.legal_moves()):
                return game_id, table.to_play
            await sessions.lobby.cancel(chat, users[0])
        raise AssertionError("no deal ended with a scopa")
    finally:
        await sessions.close()


def _ends_with_a_scopa(game: Game, move: Move) -> bool:
    after = load_game(dump_game(game))
    after.apply(move)
    if after.winner is None:
        return False
    record = to_record(after)
    return any(seat_facts(record, seat).scope for seat in (0, 1))


def _stored(db: Path, game_id: int) -> list[tuple[int, str]]:
    with sqlite3.connect(db) as conn:
        return [(int(r[0]), str(r[1])) for r in conn.execute(
            "SELECT player_id, code FROM achievements WHERE game_id=? ORDER BY player_id, code", (game_id,))]


async def test_a_matchs_achievements_are_told_once_even_killed_right_after_its_last_card(
        tmp_path: Path) -> None:
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        bot = _launch(tg, db, log)
        played: list[tuple[FakeUser, FakeChat, int]] = []
        try:
            for count, delay in enumerate(KILLED_AFTER, 1):
                alice, bob = tg.add_user(f"Alice{count}"), tg.add_user(f"Bob{count}")
                group = tg.add_group(f"Friends {count}", members=[alice, bob])
                users = (UserRef(PLATFORM, str(alice.id), alice.first_name),
                         UserRef(PLATFORM, str(bob.id), bob.first_name))
                game_id, seat = await _match_about_to_end(db, ChatRef(PLATFORM, str(group.id), group.title),
                                                          users)
                played.append((alice, group, game_id))
                last = (alice, bob)[seat]
                await _polling(tg, tg.request_counts["getUpdates"])
                tg.user_starts_bot(bob if last is alice else alice)
                tg.user_starts_bot(last)
                card = await tg.wait_for(lambda u=last: (h := newest_hand(tg, u)) and next(
                    (d for d in h.callback_data if d.startswith("p|")), None) and h, 60,
                    what=f"the last card of match {count}")
                data = next(d for d in card.callback_data if d.startswith("p|"))
                tg.press_button(last, card, last, data)
                if delay is not None:
                    await asyncio.sleep(delay)
                    bot.kill()
                    await asyncio.to_thread(bot.wait)
                    assert bot.returncode == -signal.SIGKILL
                    bot = _launch(tg, db, log)
                    await _polling(tg, tg.request_counts["getUpdates"])
                    if not _stored(db, game_id):
                        hand = newest_hand(tg, last)
                        if hand is not None and data in hand.callback_data:
                            tg.press_button(last, hand, last, data)
                await tg.wait_for(lambda g=group: _feat_lines(tg, g), 90,
                                  what=f"the achievements of match {count}, killed after {delay} s")
            sessions = await open_sessions(str(db))
            try:
                for _ in range(60):
                    if not await sessions.delivery.owed_notices(PLATFORM):
                        break
                    await asyncio.sleep(1)
                assert not await sessions.delivery.owed_notices(PLATFORM), "every line posted"
            finally:
                await sessions.close()
            alice, group, _ = played[0]
            tg.user_sends(group, alice, "/stats")
            await tg.wait_for(lambda: any("Achievements:" in shown(m) and alice.first_name in shown(m)
                                          for m in bot_messages(tg, group)), 30, what="/stats")
        finally:
            bot.send_signal(signal.SIGTERM)
            await asyncio.to_thread(bot.wait, 30)
        assert bot.returncode == 0

        for _, group, game_id in played:
            lines = _feat_lines(tg, group)
            stored = _stored(db, game_id)
            assert len(lines) == 1 and stored, (group.title, lines, stored)
            assert lines[0].count("First scopa") == sum(code == "first_scopa" for _, code in stored)
