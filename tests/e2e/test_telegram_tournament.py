"""`scopa-bot telegram`: a group's tournament from /tournament to its champion, the players tapping
their private hands, the bot killed with SIGKILL between two matches and started again losing
nothing; and a Swiss tournament of three rounds with five players (a bye each round)."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.app import open_sessions
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import answered, bot_messages, live_button, redrawn_after, shown
from .test_telegram_restart import _launch, _polling

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

CHAMPION = "wins the tournament"


def _finished_matches(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM games WHERE status='finished'").fetchone()[0])


def _champion(tg: FakeTelegramServer, group: FakeChat) -> list[FakeMessage]:
    return [m for m in bot_messages(tg, group) if CHAMPION in shown(m)]


async def _group(tg: FakeTelegramServer, db: Path, names: list[str]) -> tuple[FakeChat, list[FakeUser]]:
    users = [tg.add_user(name) for name in names]
    group = tg.add_group("Friends", members=users)
    sessions = await open_sessions(str(db))
    try:
        await sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id), "Friends"), "en")
    finally:
        await sessions.close()
    for user in users:
        tg.user_starts_bot(user)
    return group, users


async def _signed_up(tg: FakeTelegramServer, group: FakeChat, users: list[FakeUser], line: str) -> None:
    tg.user_sends(group, users[0], line)
    signup = await tg.wait_for_message(group, contains="Tournament", timeout=20)
    stranger = await answered(tg, tg.tap(group, signup, users[1], "Start"))
    assert stranger.show_alert or "Only whoever" in (stranger.answer_text or ""), "a stranger cannot start"
    for user in users[1:]:
        assert not (await answered(tg, tg.tap(group, signup, user, "Join"))).show_alert
    await tg.wait_for(lambda: f"({len(users)}/32)" in shown(signup), 20, what="everyone signed up")
    assert not (await answered(tg, tg.tap(group, signup, users[0], "Start"))).show_alert


async def _play(tg: FakeTelegramServer, group: FakeChat, users: list[FakeUser], pressed: set[str], *,
                until: int | None = None, db: Path | None = None) -> None:
    """Tap live cards until the champion is announced (or `until` matches are finished)."""
    while not _champion(tg, group):
        if until is not None and db is not None and _finished_matches(db) >= until:
            return
        found = await tg.wait_for(lambda: _champion(tg, group) or live_button(tg, users, pressed), 60,
                                  what="a live card or the champion")
        if isinstance(found, list):
            return
        user, message, data = found
        pressed.add(data)
        record = await answered(tg, tg.press_button(user, message, user, data))
        if record.show_alert:
            continue  # a hand a restart or a finished match left behind
        await redrawn_after(tg, user, message, data, 30)


async def _stop(bot: subprocess.Popen[bytes]) -> None:
    bot.send_signal(signal.SIGTERM)
    await asyncio.to_thread(bot.wait, 30)


async def test_a_knockout_of_four_is_played_to_its_champion_through_a_kill(tmp_path: Path) -> None:
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        group, users = await _group(tg, db, ["Alice", "Bob", "Carla", "Dino"])
        bot = _launch(tg, db, log)
        try:
            await _polling(tg, 0)
            await _signed_up(tg, group, users, "/tournament target=1")
            pressed: set[str] = set()
            await _play(tg, group, users, pressed, until=1, db=db)
            bot.kill()
            await asyncio.to_thread(bot.wait)
            assert bot.returncode == -signal.SIGKILL
            polls = tg.request_counts["getUpdates"]
            bot = _launch(tg, db, log)
            await _polling(tg, polls)
            await _play(tg, group, users, pressed)
            await tg.wait_for(lambda: _champion(tg, group), 60, what="the champion")
        finally:
            await _stop(bot)
        assert _finished_matches(db) == 3, "two semi-finals and a final, none played twice"
        assert len(_champion(tg, group)) == 1, "the champion announced once"
        text = shown(_champion(tg, group)[0])
        assert "Round 2" in text and "Standings" in text
        assert _champion(tg, group)[0].photo is not None, "the bracket as a picture under the words"
        assert text.count("🏆 Tournament won") == 1, "the champion's achievement told with the champion"
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT status FROM tournaments").fetchall() == [("finished",)]
            won = conn.execute("SELECT p.display_name FROM achievements a JOIN players p "
                               "ON p.id = a.player_id WHERE a.code LIKE 'tournament_won:%'").fetchall()
        assert len(won) == 1 and f"{won[0][0]}: 🏆 Tournament won" in text, "kept once, the champion's"


async def test_a_swiss_of_three_rounds_with_five_players(tmp_path: Path) -> None:
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        group, users = await _group(tg, db, ["Alice", "Bob", "Carla", "Dino", "Elio"])
        bot = _launch(tg, db, log)
        try:
            await _polling(tg, 0)
            await _signed_up(tg, group, users, "/tournament swiss=3 target=1")
            await _play(tg, group, users, set())
            await tg.wait_for(lambda: _champion(tg, group), 60, what="the champion")
        finally:
            await _stop(bot)
        assert _finished_matches(db) == 6, "two tables a round, one player resting"
        text = shown(_champion(tg, group)[0])
        assert text.count("bye (a win)") == 3 and "Round 3" in text
        assert _champion(tg, group)[0].photo is not None, "the standings as a picture under the words"
