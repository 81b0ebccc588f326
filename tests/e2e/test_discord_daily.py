"""The deal of the day on Discord: /daily plays it in the channel it was asked in, in a place
of its own, so that two players' deals run at once beside the channel's game; the hand stays
the player's, a second try the same day is refused and /daily board shows the day's standings."""

from __future__ import annotations

import pytest

from bot.adapters.discord.identity import PLATFORM
from bot.sessions import ChatRef, UserRef

from ..discord_helpers import World, play_to_end, started_duel, table_message
from ..fakes.discord_fakes import Interaction, Message, User

pytestmark = pytest.mark.usefixtures("seeded_deals")


def _said(asked: Interaction) -> str:
    first = [asked.response_message] if asked.response_message is not None else []
    return " ".join(m.text for m in [*first, *asked.followups])


async def _dealt(w: World, user: User) -> Interaction:
    """`user`'s /daily, offered (an ephemeral message, theirs alone, dealing nothing yet), then
    Deal pressed; the press."""
    asked = await w.fake.slash(user, w.channel, "daily")
    offer = asked.reply
    assert offer.ephemeral and offer.visible_to is user
    place = ChatRef(PLATFORM, str(w.channel.id), thread=f"daily-{user.id}")
    assert await w.sessions.queries.open_game_id(place) is None, "nothing dealt before the press"
    deal = next(c["custom_id"] for c in offer.components_flat()
                if c.get("custom_id", "").startswith("scopa:y:"))
    return await w.fake.press(user, offer, custom_id=deal)


async def _daily_game(w: World, user: User) -> int:
    game_id = await w.sessions.queries.open_game_id(
            ChatRef(PLATFORM, str(w.channel.id), thread=f"daily-{user.id}"))
    assert game_id is not None
    return game_id


async def test_two_players_play_the_deal_of_the_day_in_the_channel_beside_its_game(world: World) -> None:
    w = world
    duel = await started_duel(w)
    alice_asked = await _dealt(w, w.alice)
    assert "Smazzata del giorno" in alice_asked.reply.text and not alice_asked.reply.components_flat()
    bob_asked = await _dealt(w, w.bob)
    assert "Deal of the day" in bob_asked.reply.text
    alice_game, bob_game = await _daily_game(w, w.alice), await _daily_game(w, w.bob)
    assert len({duel, alice_game, bob_game}) == 3
    await table_message(w, alice_game)
    alice_hand = (await w.sessions.queries.hand(alice_game, _user_ref(w.alice))).hand
    bob_hand = (await w.sessions.queries.hand(bob_game, _user_ref(w.bob))).hand
    assert alice_hand == bob_hand, "the same deal for everyone"
    await play_to_end(w, alice_game, [w.alice])
    again = await w.fake.slash(w.alice, w.channel, "daily")
    assert "un tentativo al giorno" in _said(again)
    board = await w.fake.slash(w.carla, w.channel, "daily", board=True)
    assert "1. Alice" in _said(board) and "Bob" not in _said(board), "Bob's deal is not over yet"
    assert (await w.sessions.queries.table(duel)).status.value == "running", "the channel's game goes on"



def _user_ref(user: User) -> UserRef:
    return UserRef(PLATFORM, str(user.id), user.name)


DAY = 24 * 3600


def _shows(w: World, custom_id: str) -> Message | None:
    return next((m for m in w.fake.messages(w.channel)
                 if any(c.get("custom_id") == custom_id for c in m.components_flat())), None)


async def test_a_finished_daily_offers_no_rematch_a_forged_one_opens_nothing_and_tomorrow_plays(
        world: World) -> None:
    w = world
    await _dealt(w, w.alice)
    game_id = await _daily_game(w, w.alice)
    asked_again = await w.fake.slash(w.alice, w.channel, "daily")
    assert "è in corso" in _said(asked_again), "asked again while under way: the same deal back"
    assert await _daily_game(w, w.alice) == game_id
    await play_to_end(w, game_id, [w.alice])
    end = await w.fake.wait_for(lambda: _shows(w, f"scopa:R:{game_id}"), what="the match's end, with Review")
    assert not any(c.get("custom_id", "").startswith("scopa:r:") for m in w.fake.messages(w.channel)
                   for c in m.components_flat()), "no Rematch under the deal of the day"
    forged = await w.fake.press(w.alice, end, custom_id=f"scopa:r:{game_id}", forge=True)
    assert "non ha rivincita" in _said(forged)
    place = ChatRef(PLATFORM, str(w.channel.id), thread=f"daily-{w.alice.id}")
    assert await w.sessions.queries.open_game_id(place) is None, "a refused rematch opens nothing"

    w.clock.advance(DAY)
    again = await _dealt(w, w.alice)
    assert "Smazzata del giorno" in again.reply.text
    tomorrow = await _daily_game(w, w.alice)
    assert tomorrow != game_id
    await play_to_end(w, tomorrow, [w.alice])
    assert [line.name for line in (await w.sessions.queries.daily_board(None)).lines] == ["Alice"]


async def test_the_daily_waits_for_its_player_and_closes_unfinished_at_midnight(world: World) -> None:
    """Only its player's press deals it; then nobody plays for them, warns or reminds them, an
    hour or more; at midnight UTC the deal still unfinished is closed, and the channel reads so."""
    w = world
    asked = await w.fake.slash(w.alice, w.channel, "daily")
    deal = next(c["custom_id"] for c in asked.reply.components_flat()
                if c.get("custom_id", "").startswith("scopa:y:"))
    forged = await w.fake.press(w.bob, asked.reply, custom_id=deal, forge=True)
    assert "offered to someone else" in _said(forged)
    for user in (w.alice, w.bob):
        place = ChatRef(PLATFORM, str(w.channel.id), thread=f"daily-{user.id}")
        assert await w.sessions.queries.open_game_id(place) is None, "a press by another deals nothing"
    await w.fake.press(w.alice, asked.reply, custom_id=deal)
    game_id = await _daily_game(w, w.alice)
    for _ in range(3):
        if (await w.sessions.queries.table(game_id)).to_play == 0:
            break
        await w.sessions.scheduler.run_due()
    table = await w.sessions.queries.table(game_id)
    assert table.to_play == 0 and table.deadline is None, "her turn shows no clock"
    before = len(w.fake.messages(w.channel))
    w.clock.advance(2 * 3600)
    await w.sessions.scheduler.run_due()
    assert (await w.sessions.queries.table(game_id)).version == table.version, "nobody played for her"
    assert len(w.fake.messages(w.channel)) == before, "no warning, no reminder"
    day = (await w.sessions.queries.daily_board(None)).day
    w.clock.advance(DAY)
    await w.sessions.scheduler.run_due()
    assert (await w.sessions.queries.table(game_id)).status.value == "cancelled"
    await w.fake.wait_for(lambda: any("Alice" in m.text and day in m.text and "UTC" in m.text
                                      for m in w.fake.messages(w.channel)), what="the channel told")
