"""A match against the computer in a direct message with the bot, on the fake Discord: /newgame
there opens a lobby of the user's alone, the computer seated, begun with Start, played to its
end there, then Rematch opens the next lobby there."""

from __future__ import annotations

import dataclasses

import pytest

from bot.sessions import ChatRef

from ..discord_helpers import HAND, World, play_to_end, play_until
from ..fakes.discord_fakes import Message

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _with(w: World, custom_id: str) -> Message | None:
    return next((m for m in w.fake.messages(w.channel)
                 if any(c.get("custom_id") == custom_id for c in m.components_flat())), None)


async def test_a_solo_match_in_a_direct_message_is_played_to_the_end_then_rematch(world: World) -> None:
    dm = world.fake.open_dm(world.alice)
    w = dataclasses.replace(world, channel=dm)
    await w.fake.slash(w.alice, dm, "newgame", options="target=11 level=easy")
    game_id = await w.sessions.queries.open_game_id(ChatRef("discord", str(dm.id)))
    assert game_id is not None
    lobby = await w.fake.wait_for(lambda: _with(w, f"scopa:s:{game_id}"), what="the lobby in the DM")
    await w.fake.wait_for(lambda: "computer" in lobby.text, what="the computer seated")
    await w.fake.press(w.alice, lobby, "▶️ Inizia")
    moves = await play_to_end(w, game_id, [w.alice])
    assert moves > 0
    over = await w.fake.wait_for(lambda: _with(w, f"scopa:r:{game_id}"), what="the match's end, with Rematch")
    await w.fake.press(w.alice, over, custom_id=f"scopa:r:{game_id}")
    again = await w.sessions.queries.open_game_id(ChatRef("discord", str(dm.id)))
    assert again is not None and again != game_id
    await w.fake.wait_for(lambda: _with(w, f"scopa:s:{again}"), what="the rematch's lobby in the DM")


async def test_help_says_where_a_match_against_the_computer_counts(world: World) -> None:
    dm = world.fake.open_dm(world.bob)
    asked = await world.fake.slash(world.bob, dm, "help")
    said = " ".join(str(e.get("description", "")) for e in asked.reply.embeds)
    assert "In a direct message with me, /newgame" in said
    assert "counts for your rating, your /stats and the global board" in said


async def test_a_practice_match_in_a_direct_message_offers_hints_and_says_it_is_not_counted(
        world: World) -> None:
    dm = world.fake.open_dm(world.bob)
    w = dataclasses.replace(world, channel=dm)
    await w.fake.slash(w.bob, dm, "newgame", options="practice=on level=easy")
    game_id = await w.sessions.queries.open_game_id(ChatRef("discord", str(dm.id)))
    assert game_id is not None
    lobby = await w.fake.wait_for(lambda: _with(w, f"scopa:s:{game_id}"), what="the lobby in the DM")
    await w.fake.wait_for(lambda: "computer" in lobby.text, what="the computer seated")
    await w.fake.press(w.bob, lobby, "▶️ Start")
    # A forced move offers no 💡: the turns are played until Bob's hand has a choice.
    await play_until(w, game_id, lambda view: view.offers_hint, "a hand of Bob's with a choice")
    table = await w.sessions.queries.table(game_id)
    shown = await w.fake.wait_for(lambda: _with(w, f"{HAND}{game_id}"), what="the table")
    await w.fake.wait_for(lambda: "💡 Practice: not counted" in shown.text, what="the table saying practice")
    hand = (await w.fake.press(w.bob, shown, prefix=f"{HAND}{game_id}")).reply
    hint = hand.find(prefix=f"scopa:I:{game_id}:{table.version}")
    assert "💡" in hint["label"]
    said = (await w.fake.press(w.bob, hand, custom_id=hint["custom_id"])).reply
    assert said.ephemeral and said.text.startswith("💡 ")
