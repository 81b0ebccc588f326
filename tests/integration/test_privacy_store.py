"""The storage contract of a player's data (`ports.PlayerData`), on the in-memory store, SQLite
and PostgreSQL: an erasure whose game moved on writes nothing at all; one that holds writes the
player's row, private chat and notes at once and keeps everyone else's; erasures asked for are
kept once and gone with the erasure that makes them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.sessions.ports import ERASED_NAME, Erasure, StaleVersion
from bot.sessions.records import LobbyChange, SeatRow
from bot.storage.backends import open_store

from .. import pg
from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import FakeClock
from ..store_helpers import erase_player, set_seats


@pytest.fixture(scope="module")
def postgres_cluster() -> pg.Cluster:
    return pg.shared_cluster()


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    clock = FakeClock()
    if request.param == "memory":
        yield MemoryStore(clock)
        return
    if request.param == "sqlite":
        opened = await open_store(f"sqlite:///{tmp_path / 'privacy.db'}", clock)
        yield opened
        await opened.close()
        return
    cluster: pg.Cluster = request.getfixturevalue("postgres_cluster")
    url = await cluster.create_database()
    opened = await open_store(url, clock)
    try:
        yield opened
    finally:
        await opened.close()
        await cluster.drop_database(url)


async def _lobby(store: Any) -> tuple[int, int, int]:
    """A group lobby of Anna (the erased-to-be) and Bruno, Anna's private chat, and notes."""
    group = await store.ensure_chat("t", "-100", "Amici")
    await store.ensure_chat("t", "501", "Anna")
    anna = (await store.ensure_player("t", "501", "Anna")).id
    bruno = (await store.ensure_player("t", "502", "Bruno")).id
    game = await store.create_game(group.id, anna, "scopa", {}, 2, 0, "napoletane", "s")
    assert await set_seats(store, game.id, [SeatRow(0, anna, None, True, 0, False),
                                            SeatRow(1, bruno, None, True, 0, False)])
    await store.set_ref(game.id, "prompt:501", "3:play:")
    await store.set_ref(game.id, "prompt:502", "3:play:")
    await store.set_ref(game.id, "cancelled_by", "Anna")
    return game.id, anna, bruno


def _erasure(anna: int, chats: tuple[int, ...], change: Any) -> Erasure:
    return Erasure(anna, ("501",), ("Anna",), chats, (change,), asked=("t", "501"))


async def test_an_erasure_is_all_or_nothing(store: Any) -> None:
    game_id, anna, bruno = await _lobby(store)
    chats = tuple(c.id for c in await store.private_chats(anna))
    assert len(chats) == 1
    await store.ask_erasure("t", "501", 5.0)
    await store.ask_erasure("t", "501", 6.0)
    assert await store.erasures_asked("t") == ["501"]
    lobby = await store.get_game(game_id)
    stale = LobbyChange(game_id, lobby.version - 1, seats=(SeatRow(1, bruno, None, True, 0, False),))
    with pytest.raises(StaleVersion):
        await erase_player(store, _erasure(anna, chats, stale))
    assert (await store.get_player(anna)).display_name == "Anna", "nothing written"
    assert (await store.get_refs(game_id))["prompt:501"] == "3:play:"
    assert await store.erasures_asked("t") == ["501"]

    good = LobbyChange(game_id, lobby.version, seats=(SeatRow(1, bruno, None, True, 0, False),))
    await erase_player(store, _erasure(anna, chats, good))
    erased = await store.get_player(anna)
    assert (erased.user_key, erased.display_name, erased.language) == (f"erased:{anna}", ERASED_NAME, None)
    assert await store.find_player("t", "501") is None
    assert (await store.get_chat(chats[0])).chat_key == f"erased:{chats[0]}"
    assert (await store.get_chat(chats[0])).title is None
    refs = await store.get_refs(game_id)
    assert "prompt:501" not in refs and refs["prompt:502"] == "3:play:"
    assert refs["cancelled_by"] == ERASED_NAME
    assert [s.player_id for s in (await store.get_game(game_id)).seats] == [bruno]
    assert (await store.get_player(bruno)).display_name == "Bruno"
    assert await store.erasures_asked("t") == []
    data = await store.player_data(anna)
    assert data["profile"]["user_key"] == f"erased:{anna}" and data["games"] == []
