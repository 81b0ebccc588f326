"""A PostgreSQL server stopped at once (`pg_ctl stop -m immediate`) and started again under
a running bot: requests meanwhile are told the database is away (`StorageAway`) within a
few seconds and change nothing, the bot stays up, a request made while the server comes
back waits for it, and nothing is lost or stored twice; a server away for longer than the
bot's patience stops it (`StorageFailed`). The server is one of their own (they stop it),
durable as a real one: a commit it answered outlives an immediate stop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest

from bot.sessions import Sessions
from bot.sessions.ports import StorageAway, StorageFailed
from bot.storage.backends import open_store
from bot.storage.pg_retry import RETRY_FOR, set_patience

from .. import pg
from ..sessions_helpers import ALICE, BOB, first_legal, play_one, start_duel


@pytest.fixture(scope="module")
def cluster() -> Iterator[pg.Cluster]:
    try:
        server = pg.start_cluster(durable=True)
    except pg.Unavailable as exc:
        if pg.in_ci():
            pytest.fail(f"CI=true, so the PostgreSQL tests must run, but {exc}")
        pytest.skip(f"{exc}; the PostgreSQL tests run in CI")
    yield server
    server.stop()


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
    url = cluster.url(sessions._store._inner.address.rsplit("/", 1)[1])  # type: ignore[attr-defined]
    conn = await asyncpg.connect(url)
    try:
        return [int(r["number"]) for r in await conn.fetch(
            "SELECT number FROM moves WHERE game_id=$1 ORDER BY number", game_id)]
    finally:
        await conn.close()


async def test_a_move_while_the_server_is_stopped_is_refused_in_time_and_taken_once_it_is_back(
        cluster: pg.Cluster, sessions: Sessions) -> None:
    game_id = await start_duel(sessions)
    version = await play_one(sessions, game_id)
    table = await sessions.table(game_id)
    user = ALICE if table.to_play == 0 else BOB
    hand = await sessions.hand(game_id, user)
    card = hand.choices[0].moves[0].code

    cluster.halt()
    began = time.monotonic()
    with pytest.raises(StorageAway):
        await sessions.play(game_id, user, version, card)
    assert time.monotonic() - began < RETRY_FOR + 2, "told in time for Telegram's 15 s"
    with pytest.raises(StorageAway):
        await sessions.table(game_id)
    assert not sessions._failed.is_set(), "the bot stays up"

    cluster.restart()
    assert (await sessions.table(game_id)).version == version, "the refused move changed nothing"
    await sessions.play(game_id, user, version, card)
    assert await _stored_moves(cluster, sessions, game_id) == list(range(1, version + 2))
    assert (await sessions.stored_game(game_id)).version == version + 1  # type: ignore[union-attr]


async def test_a_request_made_while_the_server_starts_again_waits_for_it(
        cluster: pg.Cluster, sessions: Sessions) -> None:
    game_id = await start_duel(sessions)
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
    set_patience(sessions._store._inner, 2.0)  # type: ignore[attr-defined]
    cluster.halt()
    began = time.monotonic()
    with pytest.raises(StorageFailed, match="could not be reached for 2 s"):
        await sessions.table(game_id)
    assert time.monotonic() - began < 4
    failure = await asyncio.wait_for(sessions.failure(), 1)
    assert "could not be reached" in str(failure)
