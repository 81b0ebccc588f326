"""`scopa-bot erase --platform telegram --user ID` beside the running bot (`scopa-bot telegram`,
a real process on the fake Telegram), on SQLite and on PostgreSQL, in the middle of a match: the
running bot makes the erasure at once and tells the group, the match goes on with the computer in
their seat, the database holds neither their name nor their id, and a second erase finds nothing."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.app import open_sessions
from bot.sessions import ChatRef

from .. import pg
from ..fakes.telegram_server import FakeTelegramServer
from ..privacy_helpers import naming, rows_of, texts
from ..telegram_helpers import joined_lobby, match_over, play_until_over, shown
from .test_telegram_restart import ROOT, _polling

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


@pytest.fixture(scope="module")
def postgres_cluster() -> pg.Cluster:
    return pg.shared_cluster()


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> object:
    if request.param == "sqlite":
        yield str(tmp_path / "bot.db")
        return
    cluster: pg.Cluster = request.getfixturevalue("postgres_cluster")
    url = await cluster.create_database()
    try:
        yield url
    finally:
        await cluster.drop_database(url)


def launch(tg: FakeTelegramServer, database: str, log: Path) -> subprocess.Popen[bytes]:
    """`scopa-bot telegram` on `database` (an SQLite file or a PostgreSQL URL)."""
    env = {**os.environ, "TELEGRAM_TOKEN": tg.token, "TELEGRAM_API_BASE": tg.base_url,
           "SCOPA_DB": database, "PYTHONUNBUFFERED": "1"}
    for name in ("DISCORD_TOKEN", "TELEGRAM_WEBHOOK_URL", "TELEGRAM_LISTEN"):
        env.pop(name, None)
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "bot", "telegram"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)


def erase(database: str, user: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "erase", "--platform", "telegram",
                           "--user", str(user), "--db", database, "--wait", "30"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


async def test_erase_from_the_command_line_while_the_bot_plays(database: str, tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alicezorg"), tg.add_user("Bob")
        group = tg.add_group("Friends", members=[alice, bob])
        sessions = await open_sessions(database)
        await sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id), "Friends"), "en")
        await sessions.close()
        for user in (alice, bob):
            tg.user_starts_bot(user)
        bot = launch(tg, database, tmp_path / "bot.log")
        try:
            await _polling(tg, tg.request_counts["getUpdates"])
            lobby = await joined_lobby(tg, group, alice, bob)
            tg.tap(group, lobby, alice, "Start")
            await play_until_over(tg, group, [alice, bob], stop_after=3, timeout=30)
            sessions = await open_sessions(database)
            bob_row = await sessions.queries.find_player(PLATFORM, str(bob.id))
            await sessions.close()
            assert bob_row is not None
            bob_before = await rows_of(database, bob_row.id)

            done = await asyncio.to_thread(erase, database, alice.id)
            assert done.returncode == 0, done.stderr
            assert f"telegram user {alice.id}: erased by the running bot" in done.stdout
            told = await tg.wait_for_message(group, contains="asked me to forget them")
            assert "Alicezorg left and asked me to forget them" in shown(told)
            assert "(the computer) plays their seat to the end" in shown(told)

            taps = await play_until_over(tg, group, [bob], stop_after=3, timeout=30)
            assert len(taps.records) == 3 or match_over(tg, group) is not None, \
                "Bob's match goes on, the computer playing between his turns"
            again = await asyncio.to_thread(erase, database, alice.id)
            assert "nothing is kept about them" in again.stdout
        finally:
            bot.send_signal(signal.SIGTERM)
            await asyncio.to_thread(bot.wait, 30)
        assert naming(await texts(database), "Alicezorg", str(alice.id)) == []
        bob_after = await rows_of(database, bob_row.id)
        assert bob_after["players"] == bob_before["players"]
