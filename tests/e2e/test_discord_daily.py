"""The deal of the day on Discord: /daily plays it in the channel it was asked in, in a place
of its own, so that two players' deals run at once beside the channel's game; the hand stays
the player's, a second try the same day is refused and /daily board shows the day's standings."""

from __future__ import annotations

import pytest

from bot.adapters.discord.identity import PLATFORM
from bot.sessions import ChatRef, UserRef

from ..discord_helpers import World, play_to_end, started_duel, table_message
from ..fakes.discord_fakes import Interaction, User

pytestmark = pytest.mark.usefixtures("seeded_deals")


def _said(asked: Interaction) -> str:
    first = [asked.response_message] if asked.response_message is not None else []
    return " ".join(m.text for m in [*first, *asked.followups])


async def _daily_game(w: World, user: User) -> int:
    game_id = await w.sessions.open_game_id(ChatRef(PLATFORM, str(w.channel.id), thread=f"daily-{user.id}"))
    assert game_id is not None
    return game_id


async def test_two_players_play_the_deal_of_the_day_in_the_channel_beside_its_game(world: World) -> None:
    w = world
    duel = await started_duel(w)
    alice_asked = await w.fake.slash(w.alice, w.channel, "daily")
    assert "Smazzata del giorno" in _said(alice_asked)
    assert alice_asked.response_message is None or alice_asked.response_message.ephemeral
    bob_asked = await w.fake.slash(w.bob, w.channel, "daily")
    assert "Deal of the day" in _said(bob_asked)
    alice_game, bob_game = await _daily_game(w, w.alice), await _daily_game(w, w.bob)
    assert len({duel, alice_game, bob_game}) == 3
    await table_message(w, alice_game)
    alice_hand = (await w.sessions.hand(alice_game, _user_ref(w.alice))).hand
    bob_hand = (await w.sessions.hand(bob_game, _user_ref(w.bob))).hand
    assert alice_hand == bob_hand, "the same deal for everyone"
    await play_to_end(w, alice_game, [w.alice])
    again = await w.fake.slash(w.alice, w.channel, "daily")
    assert "un tentativo al giorno" in _said(again)
    board = await w.fake.slash(w.carla, w.channel, "daily", board=True)
    assert "1. Alice" in _said(board) and "Bob" not in _said(board), "Bob's deal is not over yet"
    assert (await w.sessions.table(duel)).status.value == "running", "the channel's game goes on"



def _user_ref(user: User) -> UserRef:
    return UserRef(PLATFORM, str(user.id), user.name)
