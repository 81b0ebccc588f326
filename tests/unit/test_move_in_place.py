"""A move is applied to the game in memory, not to a copy: while the store is writing it,
readers wait; a move the store does not take leaves the game as it was stored."""

from __future__ import annotations

import asyncio
from typing import TypeVar

import pytest

from bot.sessions import Reason, Refused, Sessions
from bot.sessions.records import Change, MoveCommit

from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import ALICE, BOB, FakeClock, first_legal, play_one, start_duel

StoreT = TypeVar("StoreT", bound=MemoryStore)


class HeldStore(MemoryStore):
    """Holds each move's write until told, then stores it or fails it."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__(clock)
        self.writing = asyncio.Event()
        self.go = asyncio.Event()
        self.fail = False
        self.held = False

    async def _commit_changes(self, changes: tuple[Change, ...]) -> int | None:
        if self.held and any(isinstance(change, MoveCommit) for change in changes):
            self.writing.set()
            await self.go.wait()
            if self.fail:
                raise ConnectionResetError("the database went away")
        return await super()._commit_changes(changes)


async def _duel_on(store_class: type[StoreT]) -> tuple[StoreT, Sessions, int]:
    clock = FakeClock()
    store = store_class(clock)
    sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)  # type: ignore[arg-type]
    return store, sessions, await start_duel(sessions)


@pytest.mark.parametrize("stored", [True, False])
async def test_readers_wait_for_a_move_being_stored_and_never_see_one_the_store_did_not_take(
        stored: bool) -> None:
    store, sessions, game_id = await _duel_on(HeldStore)
    await play_one(sessions, game_id)
    table = await sessions.queries.table(game_id)
    user = ALICE if table.to_play == 0 else BOB
    hand = await sessions.queries.hand(game_id, user)
    store.held, store.fail = True, not stored
    playing = asyncio.create_task(
        sessions.play.play(game_id, user, hand.version, hand.choices[0].moves[0].code))
    await store.writing.wait()
    reading = asyncio.create_task(sessions.queries.table(game_id))
    hand_reading = asyncio.create_task(sessions.queries.hand(game_id, user))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not reading.done() and not hand_reading.done(), "a reader saw the move before it was stored"
    store.go.set()
    if stored:
        after = await playing
        assert after.version == hand.version + 1
    else:
        with pytest.raises(ConnectionResetError):
            await playing
    seen = await reading
    assert seen.version == (hand.version + 1 if stored else hand.version)
    assert (await hand_reading).version == seen.version
    store.held = False
    to_move = (BOB if user is ALICE else ALICE) if stored else user
    now = await sessions.queries.hand(game_id, to_move)
    assert now.version == seen.version and now.my_turn
    await sessions.play.play(game_id, to_move, now.version, now.choices[0].moves[0].code)
    assert (await sessions.queries.table(game_id)).version == seen.version + 1


async def test_an_illegal_move_changes_nothing_in_memory_or_stored() -> None:
    _, sessions, game_id = await _duel_on(MemoryStore)
    table = await sessions.queries.table(game_id)
    user, other = (ALICE, BOB) if table.to_play == 0 else (BOB, ALICE)
    hand = await sessions.queries.hand(game_id, user)
    theirs = await sessions.queries.hand(game_id, other)
    with pytest.raises(Refused) as refused:
        await sessions.play.play(game_id, user, hand.version, theirs.hand[0].code)
    assert refused.value.reason in (Reason.ILLEGAL_MOVE, Reason.BAD_INPUT)
    assert (await sessions.queries.hand(game_id, user)) == hand
    stored = await sessions.queries.stored_game(game_id)
    assert stored is not None and stored.version == hand.version
    await sessions.play.play(game_id, user, hand.version, hand.choices[0].moves[0].code)
    assert (await sessions.queries.table(game_id)).version == hand.version + 1
