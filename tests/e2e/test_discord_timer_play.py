"""On Discord, as on Telegram, the table says when the turn timer played for someone, and that
player's hand says their last card was played for them, until they play one themselves."""

from __future__ import annotations

from bot.i18n import t

from ..discord_helpers import HAND, World, mover, play_turn, started_duel, table_message


async def test_a_timed_out_turn_shows_the_timers_play_on_the_table_and_in_the_late_players_hand(
        world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    late, other, version = await mover(w, game_id)
    deadline = (await w.sessions.queries.table(game_id)).deadline
    assert deadline is not None
    w.clock.advance(deadline - w.clock() + 1)
    assert await w.sessions.scheduler.run_due() >= 1
    assert (await w.sessions.queries.table(game_id)).version == version + 1
    note = t("it", "play.timed_out_note", name=late.name)
    table = await table_message(w, game_id)
    await fake.wait_for(lambda: note in table.text, what="the table telling the timer's play")

    lang = "it" if late is w.alice else "en"
    hand = (await fake.press(late, table, prefix=f"{HAND}{game_id}")).reply
    assert t(lang, "discord.hand.played_for_you") in hand.text
    assert t(lang, "hand.since_turn") not in hand.text, "nobody played since the timer's play"

    users = {str(u.id): u for u in (w.alice, w.bob)}
    assert await play_turn(w, game_id, users, {}, fresh_hand=True)
    await fake.wait_for(lambda: note not in table.text,
                        what="the table after the next play, which the timer did not make")
    assert "⏰" not in table.text and other.name in table.text
    hand = (await fake.press(late, await table_message(w, game_id), prefix=f"{HAND}{game_id}")).reply
    assert t(lang, "discord.hand.played_for_you") in hand.text, "until they play a card themselves"
    assert await play_turn(w, game_id, users, {}, fresh_hand=True)
    hand = (await fake.press(late, await table_message(w, game_id), prefix=f"{HAND}{game_id}")).reply
    assert t(lang, "discord.hand.played_for_you") not in hand.text
