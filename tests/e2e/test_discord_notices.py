"""A Discord bot that stops right after the last move of a match is stored, before its messages go
out: after the restart the channel still gets the round's breakdown and the end of the match, once."""

from __future__ import annotations

from bot.sessions import ChatRef, Event, MatchEnded, RoundEnded

from ..discord_helpers import World, play_to_end, started_duel
from ..fakes.discord_fakes import SEND_MESSAGES


def _posted(w: World, words: str) -> int:
    return sum(1 for m in w.fake.messages(w.channel)
               if words in m.text or any(words in e.get("title", "") for e in m.embeds))


def _match_ends(w: World) -> int:
    """The end of the match as its own message (with the Rematch button), not the final table."""
    return sum(1 for m in w.fake.messages(w.channel) if "Partita finita" in m.text and m.buttons())


async def _played_to_the_end_then_stopped(w: World) -> None:
    """A match to one point; the bot stops after the last move is stored and before the
    round's breakdown and the end of the match are posted."""
    await w.sessions.settings.set_chat_defaults(ChatRef("discord", str(w.channel.id)), {"target": 1})
    drawn = w.front.presenter.on_event

    async def stopped_before_posting(event: Event) -> None:
        if not isinstance(event, RoundEnded | MatchEnded):
            await drawn(event)

    w.front.presenter.on_event = stopped_before_posting  # type: ignore[method-assign]
    game_id = await started_duel(w)
    await play_to_end(w, game_id, [w.alice, w.bob])
    await w.front.lanes.idle()
    assert _posted(w, "Fine della smazzata") == 0 and _match_ends(w) == 0


async def test_announcements_lost_to_a_stop_are_posted_after_the_restart_once(world: World) -> None:
    w = world
    await _played_to_the_end_then_stopped(w)

    await w.restart()
    await w.fake.wait_for(lambda: _match_ends(w) == 1, timeout=20, what="the match end after the restart")
    await w.front.lanes.idle()
    assert _posted(w, "Fine della smazzata") == 1
    breakdown = next(m for m in w.fake.messages(w.channel)
                     if any("Fine della smazzata" in e.get("title", "") for e in m.embeds))
    assert breakdown.picture() is not None, "the round's end as its picture"
    assert "Punteggio" in breakdown.embeds[0]["description"]
    over = next(m for m in w.fake.messages(w.channel) if "Partita finita" in m.text and m.buttons())
    assert over.labels() == ["🔁 Rivincita", "🔍 Revisione"]

    await w.restart()
    await w.front.lanes.idle()
    assert _posted(w, "Fine della smazzata") == 1 and _match_ends(w) == 1, "posted once"
    assert await w.sessions.delivery.owed_notices("discord") == []


async def test_announcements_owed_to_a_channel_closed_to_the_bot_are_dropped_not_retried(
        world: World) -> None:
    w = world
    await _played_to_the_end_then_stopped(w)
    w.channel.bot_permissions &= ~SEND_MESSAGES

    await w.restart()
    await w.front.lanes.idle()
    assert _posted(w, "Fine della smazzata") == 0 and _match_ends(w) == 0
    assert await w.sessions.delivery.owed_notices("discord") == [], "owed no more: the channel refuses"
