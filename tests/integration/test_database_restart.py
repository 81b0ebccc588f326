"""A PostgreSQL server stopped at once (`pg_ctl stop -m immediate`) and started again under
a running bot: requests meanwhile are told the database is away (`StorageAway`) within a
few seconds and change nothing, the bot stays up, a request made while the server comes
back waits for it, and nothing is lost or stored twice; a server away for longer than the
bot's patience stops it (`StorageFailed`). The server is one of their own (they stop it),
durable as a real one: a commit it answered outlives an immediate stop."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.app import Settings
from bot.failures import FatalError
from bot.sessions import Sessions
from bot.sessions.ports import StorageAway, StorageFailed
from bot.storage.backends import open_store
from bot.storage.pg_retry import OUTAGE_LIMIT, RETRY_FOR, set_patience

from .. import pg
from ..fakes.telegram_server import CallbackRecord, FakeMessage, FakeTelegramServer, FakeUser
from ..sessions_helpers import ALICE, BOB, first_legal, play_one, start_duel
from ..telegram_helpers import Taps, answered, bot_messages, card_to_play, joined_lobby, play_until_over

ROOT = Path(__file__).resolve().parents[2]


cluster = pytest.fixture(scope="module")(pg.own_durable_cluster)
"""A server of this module's own, as its tests stop it."""


@pytest.fixture
async def sessions(cluster: pg.Cluster) -> AsyncIterator[Sessions]:
    url = await cluster.create_database()
    store = await open_store(url)
    sessions = Sessions(store, computer_pace=0.0, chooser=first_legal)
    try:
        yield sessions
    finally:
        await sessions.close()
        if not (cluster.data / "postmaster.pid").exists():
            cluster.restart()
        await cluster.drop_database(url)


async def _stored_moves(cluster: pg.Cluster, sessions: Sessions, game_id: int) -> list[int]:
    url = cluster.url(sessions.store.address.rsplit("/", 1)[1])  # type: ignore[attr-defined]
    conn = await asyncpg.connect(url)
    try:
        return [int(r["number"]) for r in await conn.fetch(
            "SELECT number FROM moves WHERE game_id=$1 ORDER BY number", game_id)]
    finally:
        await conn.close()


AWAY = "One moment: the database is restarting"
PATIENCE = 25
"""The bot's patience in the Telegram test: longer than the first outage takes on a busy
machine (a tap answered "one moment" within 10 s, then the server's recovery), and short
enough that the second outage, which outlasts it, keeps the test brief."""


def _showing(tg: FakeTelegramServer, user: FakeUser, data: str) -> FakeMessage | None:
    return next((m for m in reversed(bot_messages(tg, user)) if data in m.callback_data), None)


async def _press_newest(tg: FakeTelegramServer, user: FakeUser, data: str) -> CallbackRecord:
    """`user` taps `data` on the newest of their messages that shows it (a hand sent anew for
    the turn replaces the one the card was found on)."""
    message = await tg.wait_for(lambda: _showing(tg, user, data), what=f"a hand showing {data!r}")
    assert message is not None
    return tg.press_button(user, message, user, data)


async def test_a_move_while_the_server_is_stopped_is_refused_in_time_and_taken_once_it_is_back(
        cluster: pg.Cluster, sessions: Sessions) -> None:
    game_id = await start_duel(sessions)
    version = await play_one(sessions, game_id)
    table = await sessions.queries.table(game_id)
    user = ALICE if table.to_play == 0 else BOB
    hand = await sessions.queries.hand(game_id, user)
    card = hand.choices[0].moves[0].code

    cluster.halt()
    began = time.monotonic()
    with pytest.raises(StorageAway):
        await sessions.play.play(game_id, user, version, card)
    assert time.monotonic() - began < RETRY_FOR + 2, "told in time for Telegram's 15 s"
    with pytest.raises(StorageAway):
        await sessions.queries.table(game_id)
    assert not sessions._failed.is_set(), "the bot stays up"

    cluster.restart()
    assert (await sessions.queries.table(game_id)).version == version, "the refused move changed nothing"
    await sessions.play.play(game_id, user, version, card)
    assert await _stored_moves(cluster, sessions, game_id) == list(range(1, version + 2))
    assert (await sessions.queries.stored_game(game_id)).version == version + 1  # type: ignore[union-attr]


async def test_a_request_made_while_the_server_starts_again_waits_for_it(
        cluster: pg.Cluster, sessions: Sessions) -> None:
    game_id = await start_duel(sessions)
    # a request tries for 6 s; an immediate stop's recovery may take longer on a busy machine
    sessions.store._connections.retry_for = 60.0  # type: ignore[attr-defined]
    cluster.halt()

    async def start_again() -> None:
        await asyncio.sleep(1.0)
        await asyncio.to_thread(cluster.restart)

    restarting = asyncio.create_task(start_again())
    version = await play_one(sessions, game_id)
    await restarting
    assert await _stored_moves(cluster, sessions, game_id) == list(range(1, version + 1))


async def test_a_server_away_for_longer_than_the_patience_stops_the_bot(
        cluster: pg.Cluster, sessions: Sessions) -> None:
    game_id = await start_duel(sessions)
    set_patience(sessions.store, 2.0)  # type: ignore[attr-defined]
    cluster.halt()
    began = time.monotonic()
    with pytest.raises(StorageFailed, match="could not be reached for 2 s"):
        await sessions.queries.table(game_id)
    assert time.monotonic() - began < 4
    failure = await asyncio.wait_for(sessions.failure(), 1)
    assert "could not be reached" in str(failure)


def test_the_patience_is_a_setting() -> None:
    assert Settings.from_env({}).database_patience == OUTAGE_LIMIT == 120.0
    assert Settings.from_env({"SCOPA_DB_PATIENCE": "30"}).database_patience == 30.0
    for wrong in ("soon", "0", "-5"):
        with pytest.raises(FatalError, match="SCOPA_DB_PATIENCE") as refused:
            Settings.from_env({"SCOPA_DB_PATIENCE": wrong})
        assert refused.value.exit_code == 2


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_the_telegram_bot_says_one_moment_while_the_database_restarts_and_stops_only_when_it_stays_away(
        cluster: pg.Cluster, tmp_path: Path) -> None:
    url, log = await cluster.create_database(), tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = tg.add_group("Friends", members=[alice, bob])
        for user in (alice, bob):
            tg.user_starts_bot(user)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "SCOPA_"))}
        env.update({"TELEGRAM_TOKEN": tg.token, "TELEGRAM_API_BASE": tg.base_url, "SCOPA_DB": url,
                    "SCOPA_DB_PATIENCE": str(PATIENCE), "PYTHONUNBUFFERED": "1"})
        with log.open("wb") as out:
            bot = subprocess.Popen([sys.executable, "-m", "bot", "telegram"], cwd=ROOT, env=env,
                                   stdout=subprocess.DEVNULL, stderr=out)
        try:
            await tg.wait_for(lambda: tg.request_counts["getUpdates"] > 0, 30, what="the bot polling")
            await joined_lobby(tg, group, alice, bob)
            lobby = await tg.wait_for_message(group, contains="New game")
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            taps = await play_until_over(tg, group, [alice, bob], Taps(), stop_after=3)
            user, _, data = await card_to_play(tg, [alice, bob], taps)

            moves_before = len(await _moves(url))
            await asyncio.to_thread(cluster.halt)
            away = await answered(tg, await _press_newest(tg, user, data), timeout=15)
            assert away.answer_delay is not None and away.answer_delay < 10.0, away.answer_delay
            assert away.show_alert and AWAY in (away.answer_text or "")
            assert _showing(tg, user, data) is not None, "the card was not played: its hand is as it was"
            assert bot.poll() is None, "the bot stays up"

            await asyncio.to_thread(cluster.restart)
            deadline = time.monotonic() + 30
            while True:
                # the same card again, on the newest hand that shows it; until the bot's
                # connections are back, the answer may still be "one moment"
                played = await answered(tg, await _press_newest(tg, user, data), timeout=15)
                if not (played.show_alert and AWAY in (played.answer_text or "")):
                    break
                assert time.monotonic() < deadline, "the database is back for the bot too"
                await asyncio.sleep(0.5)
            assert not played.show_alert, played.answer_text
            taps.pressed.add(data)
            # A hand sent as the server went away, whose id could not be kept, stays behind
            # with its buttons (tapped later, it is "out of date"); the game moved on.
            deadline = time.monotonic() + 15
            while len(await _moves(url)) <= moves_before:
                assert time.monotonic() < deadline, "the card played once the database is back"
                await asyncio.sleep(0.1)
            await play_until_over(tg, group, [alice, bob], taps, stop_after=2, stale_ok=True)

            await asyncio.to_thread(cluster.halt)
            code = await asyncio.wait_for(asyncio.to_thread(bot.wait), 60)
        finally:
            if bot.poll() is None:
                bot.kill()
                await asyncio.to_thread(bot.wait)
            if not (cluster.data / "postmaster.pid").exists():
                cluster.restart()
    numbers = await _moves(url)
    await cluster.drop_database(url)
    assert len(numbers) >= 4 and numbers == list(range(1, len(numbers) + 1)), "each move stored once"
    assert code == 1
    last = log.read_text(encoding="utf-8").strip().splitlines()[-1]
    assert last.startswith("scopa-bot: the database failed (PostgreSQL at postgresql://scopa@"), last
    assert f"could not be reached for {PATIENCE} s" in last, last


async def _moves(url: str) -> list[int]:
    conn = await asyncpg.connect(url)
    try:
        return [int(r["number"]) for r in await conn.fetch("SELECT number FROM moves ORDER BY number")]
    finally:
        await conn.close()
