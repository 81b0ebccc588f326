"""On Discord a player whose hand is not open is mentioned when their turn begins: once a turn."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.sessions import Event, TurnStarted

from ..discord_helpers import World, play_turn, start_front, started_duel


@pytest.fixture(autouse=True)
def _same_deals(seeded_deals: None) -> None:
    """Every test here deals the same cards each run."""


async def test_each_turn_mentions_its_player_once(world: World) -> None:
    w = world
    await w.front.stop()
    w.front = await start_front(w.sessions, hand_ttl=0.0)
    turns: Counter[str] = Counter()

    async def count(event: Event) -> None:
        if isinstance(event, TurnStarted) and event.player_id is not None:
            turns[event.name] += 1

    w.sessions.bus.subscribe(count)
    game_id = await started_duel(w)
    users = {str(u.id): u for u in (w.alice, w.bob)}
    for _ in range(12):
        assert await play_turn(w, game_id, users, {}, fresh_hand=True)
        await w.front.lanes.idle()
    assert sum(turns.values()) == 13
    for user in (w.alice, w.bob):
        assert len(w.fake.pings(user)) == turns[user.name], user.name
