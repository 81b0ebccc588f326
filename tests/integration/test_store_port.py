"""The store port's rules, kept alike by the SQLite store and the in-memory store the
sessions' unit tests run on: what one refuses the other refuses, and a match played
the same way leaves the same rows in both."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sessions import GameStore, OpenGameExists, Sessions, StaleVersion
from bot.sessions.records import Deadline, DeadlineKind, MoveCommit, SeatRow
from bot.storage import SqliteStore
from tests.store_helpers import cancel_game, commit_move, set_deadline, set_seats, start_game

from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import ALICE, BOB, CHAT, FakeClock, first_legal, play_to_end, start_duel


@pytest.fixture(params=["sqlite", "memory"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[GameStore]:
    clock = FakeClock()
    opened: GameStore = await SqliteStore.open(tmp_path / "s.db", clock) if request.param == "sqlite" \
        else MemoryStore(clock)
    yield opened
    await opened.close()


async def _lobby(store: GameStore) -> tuple[int, int, int]:
    """A chat, two players and a lobby with both seated: (game, first player, second player)."""
    chat = await store.ensure_chat("test", "c1", "Chat")
    alice = await store.ensure_player("test", "a", "Alice", "it")
    bob = await store.ensure_player("test", "b", "Bob")
    game = await store.create_game(chat.id, alice.id, "scopa", {}, 2, 0, "napoletane", "seed")
    await set_seats(store, game.id, [*game.seats, SeatRow(1, bob.id, None, True, 0, False)])
    return game.id, alice.id, bob.id


def _move(game_id: int, version: int, **changes: object) -> MoveCommit:
    fields: dict[str, object] = {
        "game_id": game_id, "expected_version": version, "state": None, "seat": 0, "move": "1D",
        "by_computer": False, "deadline": 2_000_000.0, "deadline_kind": "turn"}
    return MoveCommit(**{**fields, **changes})  # type: ignore[arg-type]


async def test_a_chat_has_one_open_game(store: GameStore) -> None:
    game_id, alice, _ = await _lobby(store)
    chat = await store.ensure_chat("test", "c1")
    assert chat.title == "Chat" and chat.language == "it" and chat.turn_limit == 90
    with pytest.raises(OpenGameExists) as exists:
        await store.create_game(chat.id, alice, "scopa", {}, 2, 0, "napoletane", "other")
    assert exists.value.game_id == game_id
    assert (await store.open_game(chat.id)).id == game_id  # type: ignore[union-attr]
    assert await cancel_game(store, game_id) and not await cancel_game(store, game_id)
    again = await store.create_game(chat.id, alice, "escoba", {"x": [1]}, 2, 0, "french", "s",
                                    creator_seat=False)
    assert again.status == "lobby" and again.seats == () and again.options == {"x": [1]}
    assert [g.id for g in await store.open_games_of_player(alice)] == []


async def test_a_move_is_stored_at_its_version_or_not_at_all(store: GameStore) -> None:
    game_id, _, _ = await _lobby(store)
    with pytest.raises(StaleVersion):
        await commit_move(store, _move(game_id, 0))
    game = await store.get_game(game_id)
    assert game is not None
    assert not await set_deadline(store, game_id, 0, 1.0, "turn"), "a lobby has no deadline"
    assert await start_game(store, game_id, {"version": 0}, game.seats, 1_500_000.0, "turn")
    assert not await start_game(store, game_id, {"version": 0}, game.seats, None, None)
    before = await store.get_game(game_id)
    with pytest.raises(StaleVersion):
        await commit_move(store, _move(game_id, 3))
    assert await store.get_game(game_id) == before and await store.moves(game_id) == []
    await commit_move(store, _move(game_id, 0, seat_timeouts=2))
    with pytest.raises(StaleVersion):
        await commit_move(store, _move(game_id, 0, move="2D"))
    after = await store.get_game(game_id)
    assert after is not None and after.version == 1 and after.state == {"version": 0}
    assert after.seats[0].timeouts == 2 and after.deadline == 2_000_000.0
    assert [(m.number, m.move) for m in await store.moves(game_id)] == [(1, "1D")]
    assert await store.running_deadlines() == [Deadline(game_id, 2_000_000.0, DeadlineKind.TURN, False, 1)]
    assert not await set_deadline(store, game_id, 0, 5.0, "turn")
    assert await set_deadline(store, game_id, 1, 5.0, "turn", warned=True)
    assert await store.running_deadlines() == [Deadline(game_id, 5.0, DeadlineKind.TURN, True, 1)]
    assert await cancel_game(store, game_id, "record")
    assert await store.running_deadlines() == [] and await store.records() == ["record"]
    with pytest.raises(StaleVersion):
        await commit_move(store, _move(game_id, 1))


async def test_players_settings_and_message_references(store: GameStore) -> None:
    game_id, alice, _ = await _lobby(store)
    renamed = await store.ensure_player("test", "a", "  Alice B  ")
    assert renamed.id == alice and renamed.display_name == "Alice B" and renamed.platform_language == "it"
    await store.update_player(alice, language="en", can_dm=True)
    assert (await store.find_player("test", "a")) == await store.get_player(alice)
    player = await store.get_player(alice)
    assert player is not None and player.language == "en" and player.can_dm and not player.dm_pings
    assert await store.find_player("test", "nobody") is None
    chat = await store.update_chat(1, turn_limit=30, defaults={"variant": "escoba"})
    assert chat.turn_limit == 30 and chat.defaults == {"variant": "escoba"}
    await store.set_ref(game_id, "table", "17")
    await store.set_ref(game_id, "ping", "18")
    await store.set_ref(game_id, "ping", None)
    assert await store.get_refs(game_id) == {"table": "17"}


async def _match(store: GameStore, monkeypatch: pytest.MonkeyPatch) -> Sessions:
    counter = itertools.count(1)
    monkeypatch.setattr("bot.sessions.lobby.secrets.token_hex", lambda n: f"{next(counter):0{2 * n}x}")
    clock = FakeClock()
    sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)
    for _ in range(2):
        game_id = await start_duel(sessions)
        await play_to_end(sessions, game_id, [ALICE, BOB])
    await sessions.lobby.new_game(CHAT, ALICE, "scopone")
    await sessions.lobby.add_computer(CHAT, ALICE, "easy")
    return sessions


async def test_the_same_match_leaves_the_same_rows_in_both_stores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stores: list[GameStore] = [await SqliteStore.open(tmp_path / "s.db", FakeClock()),
                               MemoryStore(FakeClock())]
    seen = []
    for store in stores:
        sessions = await _match(store, monkeypatch)
        seen.append((
            [await store.get_game(game_id) for game_id in (1, 2, 3)],
            [await store.moves(game_id) for game_id in (1, 2)],
            [await store.results(game_id) for game_id in (1, 2)],
            [await store.round_records(game_id) for game_id in (1, 2)],
            await store.records(),
            await store.ratings([1, 2], "duel"),
            await store.leaderboard(None), await store.leaderboard(1, "duel"),
            await store.player_stats(1), await store.recent_matches(1),
            await sessions.queries.games_of(ALICE),
        ))
        await sessions.close()
    sqlite, memory = seen
    assert sqlite[0][0] is not None and sqlite[0][0].status == "finished"
    assert len(sqlite[4]) == 2 and len(sqlite[6]) == 2
    for stored, kept in zip(sqlite, memory, strict=True):
        assert stored == kept
