"""The owners' tools with three `scopa-bot telegram` processes in webhook mode on one
PostgreSQL, behind one webhook URL taking each in turn: two notices sent through two of them
reach every group with a game in play exactly once each (and no other group); a block made
through one holds in all three, and in three new processes after they are all restarted."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.app import open_sessions
from bot.sessions import ChatRef, UserRef

from ..fakes.telegram_server import FakeChat, FakeTelegramServer, FakeUser
from .test_scaling_processes import ROOT, Balancer, _until

PROCESSES = 3
GROUPS = 6
BLOCKED = "You cannot use this bot."

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def _launch(tg: FakeTelegramServer, url: str, hook: str, port: int, owner: FakeUser,
            log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "SCOPA_"))}
    env.update({"TELEGRAM_TOKEN": tg.token, "TELEGRAM_API_BASE": tg.base_url, "SCOPA_DB": url,
                "TELEGRAM_WEBHOOK_URL": hook, "TELEGRAM_LISTEN": f"127.0.0.1:{port}",
                "TELEGRAM_WORKERS": str(PROCESSES), "SCOPA_OWNERS": f"telegram:{owner.id}",
                "PYTHONUNBUFFERED": "1"})
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "bot", "telegram"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)


class Workers:
    def __init__(self, tg: FakeTelegramServer, url: str, owner: FakeUser, folder: Path) -> None:
        self.tg, self.url, self.owner, self.folder = tg, url, owner, folder
        self.ports = [_free() for _ in range(PROCESSES)]
        self.balancer = Balancer(self.ports)
        self.bots: list[subprocess.Popen[bytes]] = []
        self.runs = 0

    async def start(self) -> None:
        self.runs += 1
        logs = [self.folder / f"run{self.runs}-bot{n}.log" for n in range(PROCESSES)]
        self.bots = [_launch(self.tg, self.url, self.balancer.url, port, self.owner, log)
                     for port, log in zip(self.ports, logs, strict=True)]
        await _until(lambda: all(log.exists() and "is running (webhook)" in log.read_text(errors="replace")
                                 for log in logs), 90, "three processes taking updates")

    async def stop(self) -> None:
        for bot in self.bots:
            if bot.poll() is None:
                bot.send_signal(signal.SIGTERM)
        for bot in self.bots:
            try:
                await asyncio.to_thread(bot.wait, 30)
            except subprocess.TimeoutExpired:
                bot.kill()


def _free() -> int:
    from .. import pg

    return pg.free_port()


def _texts(tg: FakeTelegramServer, chat: FakeChat | FakeUser) -> list[str]:
    return [m.text or m.caption or "" for m in tg.messages(chat, from_bot=True)]


async def _said(tg: FakeTelegramServer, chat: FakeChat | FakeUser, contains: str, count: int = 1,
                timeout: float = 30.0) -> None:
    await tg.wait_for(lambda: sum(contains in text for text in _texts(tg, chat)) >= count, timeout,
                      what=f"{count} × {contains!r}")


async def _owed(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM notice_deliveries WHERE NOT delivered"))
    finally:
        await conn.close()


async def test_notices_reach_each_group_once_and_a_block_holds_in_every_process(
        postgres_url: str, tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        owner, bob = tg.add_user("Olga", language_code="en"), tg.add_user("Bob", language_code="en")
        players = [tg.add_user(f"P{n}", language_code="en") for n in range(GROUPS)]
        groups = [tg.add_group(f"Table {n}", members=[player, bob]) for n, player in enumerate(players)]
        idle = tg.add_group("Nobody plays here", members=[owner, bob])
        for user in (owner, bob, *players):
            tg.user_starts_bot(user)
        sessions = await open_sessions(postgres_url)
        for player, group in zip(players, groups, strict=True):
            chat = ChatRef(PLATFORM, str(group.id), group.title)
            await sessions.settings.set_chat_language(chat, "en")
            await sessions.lobby.new_game(chat, UserRef(PLATFORM, str(player.id), player.first_name, "en"))
            await sessions.lobby.join(chat, UserRef(PLATFORM, str(bob.id), bob.first_name, "en"))
            await sessions.lobby.start(chat, UserRef(PLATFORM, str(player.id), player.first_name, "en"))
        await sessions.queries.chat(ChatRef(PLATFORM, str(idle.id), idle.title), "en")
        await sessions.close()

        workers = Workers(tg, postgres_url, owner, tmp_path)
        await workers.balancer.start()
        try:
            await workers.start()
            tg.user_sends(owner, owner, "/botstatus")
            await _said(tg, owner, f"{PROCESSES} processes alive")
            notices = ["Restart at noon", "Back in five minutes"]
            for text in notices:
                tg.user_sends(owner, owner, f"/notice {text}")
            await _said(tg, owner, f"goes to {GROUPS} chats with a game in play", count=2)
            for group in groups:
                for text in notices:
                    await _said(tg, group, f"📢 From the bot's owner: {text}")
            for _ in range(300):
                if await _owed(postgres_url) == 0:
                    break
                await asyncio.sleep(0.1)
            assert await _owed(postgres_url) == 0, "every notice is marked delivered"
            for group in groups:
                texts = _texts(tg, group)
                assert [sum(f"owner: {text}" in said for said in texts) for text in notices] == [1, 1], texts
            assert not any("📢" in text for text in _texts(tg, idle))

            tg.user_sends(owner, owner, f"/block {bob.id}")
            await _said(tg, owner, f"telegram:{bob.id} is blocked")
            for _ in range(2 * PROCESSES):
                tg.user_sends(bob, bob, "/stats")
            await _said(tg, bob, BLOCKED, count=2 * PROCESSES)
            assert not any("📈" in text for text in _texts(tg, bob))

            await workers.stop()
            await workers.start()
            tg.user_sends(owner, owner, "/botstatus")
            await _said(tg, owner, f"{PROCESSES} processes alive", count=2)
            assert "silent" not in _texts(tg, owner)[-1]
            refused = sum(BLOCKED in text for text in _texts(tg, bob))
            for _ in range(PROCESSES):
                tg.user_sends(bob, bob, "/stats")
            await _said(tg, bob, BLOCKED, count=refused + PROCESSES)
            assert not any("📈" in text for text in _texts(tg, bob))
            tg.user_sends(owner, owner, f"/unblock {bob.id}")
            await _said(tg, owner, "is no longer blocked")
            for _ in range(PROCESSES):
                tg.user_sends(bob, bob, "/stats")
            await _said(tg, bob, "📈 Bob", count=PROCESSES)
            for group in groups:
                assert sum("📢" in text for text in _texts(tg, group)) == len(notices)
        finally:
            await workers.stop()
            await workers.balancer.close()
