"""A lobby changed by another process between the moment a press reads it and the moment
its change is written: the press is refused with why, and the other's change is kept.

Two `Sessions` share one in-memory store, as two bot processes share a database; the store
lets the "other process" act at that moment, once (`_Between`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.sessions import Reason, Refused, Sessions
from bot.sessions.records import ChatSeen, PlayerSeen

from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, DINO, FakeClock


class _Between(MemoryStore):
    """The memory store, running `meanwhile` (once) just before the next unit of work writes a
    game (not one that only makes a chat or a player first seen)."""

    meanwhile: Callable[[], Awaitable[Any]] | None = None

    async def _commit_changes(self, changes: tuple[Any, ...]) -> list[Any]:
        if not all(isinstance(change, ChatSeen | PlayerSeen) for change in changes):
            act, self.meanwhile = self.meanwhile, None
            if act is not None:
                await act()
        return await super()._commit_changes(changes)


@pytest.fixture
def store(clock: FakeClock) -> _Between:
    return _Between(clock)


@pytest.fixture
def one(store: _Between, clock: FakeClock) -> Sessions:
    return Sessions(store, clock=clock, computer_pace=0.0)  # type: ignore[arg-type]


@pytest.fixture
def two(store: _Between, clock: FakeClock) -> Sessions:
    return Sessions(store, clock=clock, computer_pace=0.0)  # type: ignore[arg-type]


async def _seated(sessions: Sessions) -> list[str]:
    return [seat.name for seat in (await sessions.queries.lobby(CHAT)).seats if seat is not None]


async def test_a_join_that_lost_the_race_is_refused_and_the_winners_seat_kept(
        store: _Between, one: Sessions, two: Sessions) -> None:
    await one.lobby.new_game(CHAT, ALICE, "scopa", {"players": 4})
    store.meanwhile = lambda: two.lobby.join(CHAT, CARLA)
    with pytest.raises(Refused) as refused:
        await one.lobby.join(CHAT, BOB)
    assert refused.value.reason == Reason.LOBBY_CHANGED
    assert await _seated(one) == ["Alice", "Carla"]
    await one.lobby.join(CHAT, BOB)
    assert await _seated(two) == ["Alice", "Carla", "Bob"], "pressed again, on the lobby as it now is"


async def test_a_start_that_lost_the_race_to_a_leave_does_not_start_without_them(
        store: _Between, one: Sessions, two: Sessions) -> None:
    await one.lobby.new_game(CHAT, ALICE, "scopa")
    await one.lobby.join(CHAT, BOB)
    store.meanwhile = lambda: two.lobby.leave(CHAT, BOB)
    with pytest.raises(Refused) as refused:
        await one.lobby.start(CHAT, ALICE)
    assert refused.value.reason == Reason.LOBBY_CHANGED
    assert (await one.queries.lobby(CHAT)).status == "lobby" and await _seated(one) == ["Alice"]


async def test_a_join_after_the_game_started_elsewhere_is_told_the_match_began(
        store: _Between, one: Sessions, two: Sessions) -> None:
    await one.lobby.new_game(CHAT, ALICE, "scopa", {"players": 3})
    await one.lobby.add_computer(CHAT, ALICE, "easy")
    store.meanwhile = lambda: two.lobby.set_option(CHAT, ALICE, "players", 4)
    with pytest.raises(Refused) as refused:
        await one.lobby.join(CHAT, DINO)
    assert refused.value.reason == Reason.LOBBY_CHANGED

    async def filled_and_started() -> None:
        await two.lobby.join(CHAT, CARLA)
        await two.lobby.join(CHAT, BOB)
        await two.lobby.start(CHAT, ALICE)

    store.meanwhile = filled_and_started
    with pytest.raises(Refused) as refused:
        await one.lobby.join(CHAT, DINO)
    assert refused.value.reason == Reason.NOT_IN_LOBBY
    game_id = await one.queries.open_game_id(CHAT)
    assert game_id is not None
    seated = [player.display_name for _, player in await one.queries.seat_players(game_id) if player]
    assert sorted(seated) == ["Alice", "Bob", "Carla"]


async def test_two_options_changed_at_once_keep_one_of_them_whole(
        store: _Between, one: Sessions, two: Sessions) -> None:
    await one.lobby.new_game(CHAT, ALICE, "scopa")
    store.meanwhile = lambda: two.lobby.set_option(CHAT, ALICE, "variant", "escoba")
    with pytest.raises(Refused):
        await one.lobby.set_option(CHAT, ALICE, "target", 16)
    lobby = await one.queries.lobby(CHAT)
    assert (lobby.variant, lobby.options) == ("escoba", {}), "escoba's own target, not the 16 pressed"


async def test_a_seat_handed_over_while_a_move_was_made_is_refused(
        store: _Between, one: Sessions, two: Sessions) -> None:
    await one.lobby.new_game(CHAT, ALICE, "scopa")
    await one.lobby.join(CHAT, BOB)
    table = await one.lobby.start(CHAT, ALICE)
    mover = (ALICE, BOB)[table.to_play]
    hand = await two.queries.hand(table.game_id, mover)
    store.meanwhile = lambda: two.play.play(
            table.game_id, mover, table.version, hand.choices[0].moves[0].code)
    with pytest.raises(Refused) as refused:
        await one.play.set_autoplay(table.game_id, (BOB, ALICE)[table.to_play], True)
    assert refused.value.reason == Reason.LOBBY_CHANGED
    assert not any(seat.autoplay for seat in (await one.queries.game(table.game_id)).seats)
    assert (await one.queries.table(table.game_id)).version == table.version + 1


async def test_two_chat_defaults_changed_at_once_both_hold(
        store: _Between, one: Sessions, two: Sessions) -> None:
    await one.settings.change_chat_defaults(CHAT, {"target": 16})
    store.meanwhile = lambda: two.settings.change_chat_defaults(CHAT, {"variant": "escoba"})
    await one.settings.set_pictures(CHAT, False)
    assert (await one.queries.chat(CHAT)).defaults == {"target": 16, "variant": "escoba", "pictures": "off"}
