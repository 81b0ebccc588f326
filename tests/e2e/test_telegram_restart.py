"""`scopa-bot telegram` killed with SIGKILL mid-match and started again: the same messages keep working,
and a hand the kill left behind is taken up when it is tapped."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.app import open_sessions
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import (
    POST_TITLES,
    Taps,
    answered,
    bot_messages,
    card_to_play,
    duel,
    hand_message,
    play_until_over,
    redrawn_after,
    shown,
    table_message,
)

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def _launch(tg: FakeTelegramServer, db: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "TELEGRAM_TOKEN": tg.token, "TELEGRAM_API_BASE": tg.base_url,
           "SCOPA_DB": str(db), "PYTHONUNBUFFERED": "1"}
    for name in ("DISCORD_TOKEN", "TELEGRAM_WEBHOOK_URL", "TELEGRAM_LISTEN"):
        env.pop(name, None)
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "bot", "telegram"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)


def _workers(bot: int) -> set[int]:
    """The computer players' worker processes (and their fork server) the bot `bot` started: other
    programs on this machine may run fork servers of their own."""
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                commands[int(entry.name)] = (entry / "cmdline").read_bytes()
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue

    def descends(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == bot:
                return True
        return False

    return {pid for pid, command in commands.items()
            if b"multiprocessing.forkserver" in command and descends(pid)}


def _alive(pids: set[int]) -> set[int]:
    """Those of `pids` still running (not ended, not zombies)."""
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            alive.add(pid)
    return alive


async def _polling(tg: FakeTelegramServer, since: int) -> None:
    """Until the bot has asked for updates (counted when a request starts, not when it ends)."""
    await tg.wait_for(lambda: tg.request_counts["getUpdates"] > since, 30, what="the bot polling")


def _stored_version(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT version FROM games WHERE id=1").fetchone()[0])


def _shows_version(tg: FakeTelegramServer, users: list[FakeUser], version: int) -> bool:
    """Whether the newest hands (messages with buttons) show the game at `version`: one of them
    asks for a card of it, none for a card of an older one."""
    shown: list[int] = []
    for user in users:
        newest = next((m for m in reversed(bot_messages(tg, user)) if m.callback_data), None)
        for data in newest.callback_data if newest is not None else ():
            if data[0] in "ph":
                shown.append(int(data.split("|")[2]))
    return version in shown and min(shown) == version


async def test_killed_mid_match_and_started_again(tmp_path: Path) -> None:
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = tg.add_group("Friends", members=[alice, bob])
        sessions = await open_sessions(str(db))
        chat = ChatRef(PLATFORM, str(group.id), "Friends")
        await sessions.settings.set_chat_language(chat, "en")
        await sessions.settings.set_chat_defaults(chat, {"target": 1})
        await sessions.close()
        for user in (alice, bob):
            tg.user_starts_bot(user)

        first = _launch(tg, db, log)
        try:
            await _polling(tg, 0)
            workers = _workers(first.pid)
            assert workers, "computer players think in processes of their own"
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game", timeout=10)
            assert not (await answered(tg, tg.tap(group, lobby, bob, "Join"))).show_alert
            await tg.wait_for(lambda: "2. Bob" in shown(lobby))
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            taps = await play_until_over(tg, group, [alice, bob], Taps(), stop_after=10)
            table = table_message(tg, group)
            await tg.wait_for(lambda: "Alice" in shown(table) and "Join" not in table.button_texts)
        finally:
            first.kill()
            await asyncio.to_thread(first.wait)
        assert first.returncode == -signal.SIGKILL
        await tg.wait_for(lambda: not _alive(workers), 10,
                          what="the killed bot's computer players to end")
        hands = {user.id: hand_message(tg, user, 1) for user in (alice, bob)}
        edits = table.edit_count

        polls = tg.request_counts["getUpdates"]
        second = _launch(tg, db, log)
        try:
            await _polling(tg, polls)
            # Killed between a move's commit and its drawing, the hands show the game before that
            # move (a tap on them is "out of date"): the players wait for the restart's drawing.
            version = _stored_version(db)
            await tg.wait_for(lambda: _shows_version(tg, [alice, bob], version), 30,
                              what="the hands drawn again after the restart")
            # The group may see at most 20 sends and edits a minute, counted across the restart:
            # the round summaries and the end of the match can wait their turn for up to a minute.
            await play_until_over(tg, group, [alice, bob], taps, timeout=90, stale_ok=True)
            await tg.wait_for(lambda: "Match over." in shown(table_message(tg, group)), 90,
                              what="the final table")
            final = table_message(tg, group)
            # A table posted again below a breakdown deletes the old one when the group's
            # minute has room for it, which on a busy machine can come after the final drawing.
            await tg.wait_for(lambda: (final is table and table.edit_count > edits) or table.deleted,
                              60, what="the table message edited, or posted again below a "
                                       "breakdown and the old one deleted")
            for user in (alice, bob):
                final_hand = hand_message(tg, user, 1)
                assert final_hand is not None and "The match is over." in shown(final_hand)
                # A hand sent just as the first process was killed, before its id was kept, stays
                # behind until it is tapped (its buttons soon out of date); the restart sent the
                # hand anew below it.
                left = [m for m in bot_messages(tg, user)[1:]
                        if m is not final_hand and not shown(m).startswith(POST_TITLES)]
                assert len(left) <= 1 and all(m is hands[user.id] for m in left), \
                    "the old hands are deleted, all but one the kill left behind"
            assert all(record.answered for record in taps.records)
        finally:
            second.send_signal(signal.SIGTERM)
            await asyncio.to_thread(second.wait, 30)
        assert second.returncode == 0
    output = log.read_text(encoding="utf-8", errors="replace")
    assert tg.token not in output and tg.token.split(":")[1] not in output
    assert "Telegram bot @" in output


async def _sent_but_never_kept(tg: FakeTelegramServer, user: FakeUser,
                               hand: FakeMessage | None) -> FakeMessage:
    """A copy of `hand` sent as the bot: what Telegram holds when the bot is killed between
    sending a hand and keeping its id (None: a message without buttons)."""
    sent: dict[str, object] = {"chat_id": user.id, "text": shown(hand) if hand else "Another message"}
    if hand is not None:
        sent["reply_markup"] = hand.reply_markup
    async with httpx.AsyncClient(base_url=f"{tg.base_url}{tg.token}/", timeout=10) as client:
        answer = await client.post("sendMessage", json=sent)
    assert answer.status_code == 200, answer.text
    return tg.message(user, int(answer.json()["result"]["message_id"]))


async def test_a_hand_left_behind_by_a_kill_is_redrawn_once_tapped_and_the_older_deleted(
        tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db") as d:
        taps = Taps()
        user, kept, data = await card_to_play(d.tg, [d.alice, d.bob], taps)
        left = await _sent_but_never_kept(d.tg, user, kept)
        taps.pressed.add(data)
        record = await answered(d.tg, d.tg.press_button(user, left, user, data))
        assert not record.show_alert, record.answer_text
        await redrawn_after(d.tg, user, left, data)
        await d.tg.wait_for(lambda: kept.deleted, what="the hand the bot had kept deleted")
        assert not left.deleted and data not in left.callback_data, "the hand tapped shows the move"
        assert hand_message(d.tg, user, 1) is left
        await play_until_over(d.tg, d.group, [d.alice, d.bob], taps, timeout=30)
        await d.bot.front.outbox.drain(5)
        for player in (d.alice, d.bob):
            hands = [m for m in bot_messages(d.tg, player) if not shown(m).startswith(POST_TITLES)
                     and ("game 1)" in shown(m) or m.callback_data)]
            assert len(hands) == 1, "one hand, the others deleted"


async def test_a_tap_forged_on_another_message_takes_no_message_up(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db") as d:
        user, kept, data = await card_to_play(d.tg, [d.alice, d.bob], Taps())
        other = await _sent_but_never_kept(d.tg, user, None)
        await answered(d.tg, d.tg.forge_callback(user, other, user, data))
        await redrawn_after(d.tg, user, kept, data)
        await d.bot.front.outbox.drain(5)
        assert not kept.deleted and not other.deleted and hand_message(d.tg, user, 1) is kept
        assert other.reply_markup is None and shown(other) == "Another message"
