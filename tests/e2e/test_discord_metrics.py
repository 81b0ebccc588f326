"""The Discord front-end counts what it does when the metrics are on: a match played through
the fake Discord shows as its presses by kind and outcome, their answers' latencies, the
table drawn after them, /newgame, and the messages posted and edited in the channel."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot import metrics

from ..discord_helpers import World, play_to_end, started_duel


@pytest.fixture
def counting() -> Iterator[None]:
    """Counting on, with a refused command's mark left in the context every task of the bot
    inherits (as an earlier command in the same process could leave it): each command counts
    from a mark of its own."""
    metrics.enable()
    metrics.command_began()
    metrics.refused()
    try:
        yield
    finally:
        metrics.disable()


async def test_a_discord_match_shows_in_the_metrics(counting: None, world: World) -> None:
    game_id = await started_duel(world)
    moves = await play_to_end(world, game_id, [world.alice, world.bob])
    registry = metrics.registry()
    assert registry is not None

    def value(name: str, **labels: str) -> float:
        return registry.get_sample_value(name, {"platform": "discord", **labels}) or 0.0

    assert value("scopa_taps_total", kind="play", outcome="ok") >= moves // 2 > 0
    assert value("scopa_tap_answer_seconds_count") >= moves // 2
    assert value("scopa_tap_update_seconds_count") > 0
    assert value("scopa_commands_total", kind="newgame", outcome="ok") == 1
    posted = [m for m in world.fake.messages(world.channel, deleted=True) if m.interaction is None]
    assert value("scopa_messages_sent_total") >= len(posted) > 0
    assert value("scopa_messages_edited_total") > 0
    assert (registry.get_sample_value("scopa_db_seconds_count", {"op": "transaction"}) or 0) > moves
