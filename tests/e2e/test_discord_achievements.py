"""Discord: the achievements a match earns are posted in its channel in one line, once, also
when the bot stops before posting them and starts again (twice)."""

from __future__ import annotations

from bot.sessions import AchievementsEarned, ChatRef, Event

from ..discord_helpers import World, play_to_end, started_duel

FEATS = "🏅"


def _lines(w: World) -> list[str]:
    return [m.text for m in w.fake.messages(w.channel) if m.text.startswith(FEATS)]


async def test_a_matchs_achievements_are_posted_once_even_across_a_stop(world: World) -> None:
    w = world
    await w.sessions.settings.set_chat_defaults(ChatRef("discord", str(w.channel.id)), {"target": 1})
    drawn = w.front.presenter.on_event
    told: list[AchievementsEarned] = []

    async def stopped_before_posting(event: Event) -> None:
        if isinstance(event, AchievementsEarned):
            told.append(event)
        else:
            await drawn(event)

    w.front.presenter.on_event = stopped_before_posting  # type: ignore[method-assign]
    for _ in range(6):
        game_id = await started_duel(w)
        await play_to_end(w, game_id, [w.alice, w.bob])
        await w.front.lanes.idle()
        if told:
            break
    assert len(told) == 1 and _lines(w) == [], "earned, and not posted before the stop"

    await w.restart()
    await w.fake.wait_for(lambda: _lines(w), timeout=20, what="the achievements after the restart")
    await w.front.lanes.idle()
    await w.restart()
    await w.front.lanes.idle()
    lines = _lines(w)
    assert len(lines) == 1 and "Prima scopa" in lines[0], lines
    assert await w.sessions.delivery.owed_notices("discord") == []
