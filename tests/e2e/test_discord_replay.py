"""The replay on Discord: ▶️ Replay under a player's review opens an ephemeral message, seen
only by them, with the picture of the match's first play; ⏮ ◀ ▶ ⏭ edit that message in place
from the first play to the last; a forged step or someone who did not play is refused and
changes nothing."""

from __future__ import annotations

import re

import pytest

from bot.adapters.discord.custom_ids import encode
from bot.adapters.discord.identity import PLATFORM
from bot.sessions import UserRef
from bot.sessions.tap import Action, Tap

from ..discord_helpers import World, lobby_message, open_game, play_to_end, table_message
from ..fakes.discord_fakes import Interaction, Message

pytestmark = pytest.mark.usefixtures("seeded_deals")

COUNT = re.compile(r"· (\d+) of (\d+)")


async def _one_round_over(w: World) -> Message:
    """Alice and Bob's match of one round (36 plays) played out: its "match over" message."""
    await w.fake.slash(w.alice, w.channel, "newgame", options="scopa round_limit=1")
    lobby = await lobby_message(w)
    await w.fake.press(w.bob, lobby, "Partecipa")
    await w.fake.wait_for(lambda: "Bob" in lobby.text, what="Bob in the lobby")
    await w.fake.press(w.alice, lobby, "▶️ Inizia")
    game_id = await open_game(w)
    await table_message(w, game_id)
    await play_to_end(w, game_id, [w.alice, w.bob])
    await w.front.lanes.idle()
    return next(m for m in w.fake.messages(w.channel) if "Partita finita" in m.text and m.buttons())


def _shown(pressed: Interaction) -> list[Message]:
    first = [pressed.response_message] if pressed.response_message is not None else []
    return [*first, *pressed.followups]


def _count(message: Message) -> tuple[int, int]:
    found = COUNT.search(message.text)
    assert found is not None, message.text
    return int(found[1]), int(found[2])


async def _opened(w: World) -> Message:
    """Bob's review, asked for under the match's end, and the replay opened from it."""
    over = await _one_round_over(w)
    review = next(m for m in _shown(await w.fake.press(w.bob, over, "🔍 Revisione")) if "review" in m.text)
    opened = _shown(await w.fake.press(w.bob, review, "▶️ Replay"))
    assert len(opened) == 1
    return opened[0]


async def test_a_player_steps_through_the_match_in_one_ephemeral_message(world: World) -> None:
    w = world
    replay = await _opened(w)
    assert replay.ephemeral and replay.visible_to is w.bob
    assert _count(replay) == (1, 36) and replay.text.startswith("Round 1 · ")
    assert replay.picture() is not None and replay.labels() == ["▶", "⏭"]
    seen = [1]
    graded, equal = ["Better:" in replay.text], ["Equivalent:" in replay.text]
    while "▶" in replay.labels():
        edits = replay.edits
        pressed = await w.fake.press(w.bob, replay, "▶")
        assert pressed.followups == [] and pressed.response_message in (None, replay)
        assert replay.edits > edits
        seen.append(_count(replay)[0])
        graded.append("Better:" in replay.text)
        equal.append("Equivalent:" in replay.text)
    assert seen == list(range(1, 37)), "each play once, in order"
    bob = UserRef(PLATFORM, str(w.bob.id), "Bob")
    steps = [await w.sessions.queries.replay_step(1, bob, n) for n in range(36)]
    assert graded == [step.better is not None for step in steps], "each graded play says the better move"
    assert equal == [step.equivalent for step in steps], "each play as good as another says so"
    assert any(graded) and any(equal)
    assert replay.labels() == ["⏮", "◀"], "the last play has no ▶"
    assert replay.picture() is not None
    await w.fake.press(w.bob, replay, "⏮")
    assert _count(replay) == (1, 36)
    await w.fake.press(w.bob, replay, "⏭")
    assert _count(replay) == (36, 36)


async def test_forged_steps_and_strangers_are_refused_and_change_nothing(world: World) -> None:
    w = world
    replay = await _opened(w)
    before = (replay.text, replay.edits)
    for user, data in ((w.bob, encode(Tap(Action.REPLAY_STEP, 1, arg="36"))), (w.bob, "scopa:V:1:x"),
                       (w.bob, encode(Tap(Action.REPLAY_STEP, 99, arg="3"))),
                       (w.carla, encode(Tap(Action.REPLAY_STEP, 1, arg="3")))):
        refused = await w.fake.press(user, replay, custom_id=data, forge=True)
        assert refused.response_message is not None and refused.response_message is not replay
        assert refused.response_message.ephemeral, data
    assert "Solo chi ha giocato" in refused.response_message.text or "Only the players" in \
        refused.response_message.text
    assert (replay.text, replay.edits) == before
