"""The replay's buttons carry the match and the play on both platforms; nothing else is taken."""

from __future__ import annotations

import pytest

from bot.adapters.discord import custom_ids
from bot.adapters.telegram import callbacks
from bot.sessions import Reason
from bot.sessions.replay import ReplayStep
from bot.sessions.replies import Refusal
from bot.sessions.tap import Action, Asker, Tap

from ..sessions_helpers import ALICE, BOB, CARLA, open_memory_sessions, play_to_end, start_duel

CODECS = {"telegram": (callbacks.encode, callbacks.decode), "discord": (custom_ids.encode, custom_ids.decode)}


@pytest.mark.parametrize("name", CODECS)
def test_a_step_travels_with_its_match(name: str) -> None:
    encode, decode = CODECS[name]
    for tap in (Tap(Action.REPLAY, 123456789), Tap(Action.REPLAY_STEP, 7, arg="0"),
                Tap(Action.REPLAY_STEP, 999_999_999, arg="9999")):
        assert decode(encode(tap)) == tap
    assert decode(encode(Tap(Action.REPLAY_STEP, 7, arg="41"))).step == 41  # type: ignore[union-attr]
    assert Tap(Action.REPLAY, 7).step == 0


@pytest.mark.parametrize("name", CODECS)
def test_forged_steps_are_refused(name: str) -> None:
    encode, decode = CODECS[name]
    good = encode(Tap(Action.REPLAY_STEP, 12, arg="3"))
    head = good[:-1]
    for forged in (head + "-1", head + "03", head + "10000", head + "x", head + "3.5", head + " 3",
                   head + "", good + ":1", good + "|1", head + "٣", good.replace("12", "012"),
                   good.replace("12", "1234567890"), encode(Tap(Action.REPLAY, 12)) + head[-1] + "3"):
        assert decode(forged) is None, forged
    for bad in (None, 12, b"v|12", ["v", 12], "", "v" * 200):
        assert decode(bad) is None
    with pytest.raises(ValueError):
        encode(Tap(Action.REPLAY_STEP, 12, arg="12345"))
    with pytest.raises(ValueError):
        encode(Tap(Action.REPLAY_STEP, 12, arg="x"))


async def test_a_tap_on_a_step_shows_it_to_a_player_and_refuses_anyone_else() -> None:
    sessions = await open_memory_sessions()
    game_id = await start_duel(sessions, options={"target": 1})
    await play_to_end(sessions, game_id, [ALICE, BOB])
    opened = await sessions.taps.handle(Asker(ALICE), Tap(Action.REPLAY, game_id))
    assert isinstance(opened, ReplayStep) and opened.step == 0
    later = await sessions.taps.handle(Asker(ALICE), Tap(Action.REPLAY_STEP, game_id, arg="5"))
    assert isinstance(later, ReplayStep) and later.step == 5
    stranger = await sessions.taps.handle(Asker(CARLA), Tap(Action.REPLAY_STEP, game_id, arg="5"))
    assert isinstance(stranger, Refusal) and stranger.refused.reason is Reason.NOT_YOUR_REVIEW
    stale = await sessions.taps.handle(Asker(ALICE), Tap(Action.REPLAY_STEP, game_id, arg="9999"))
    assert isinstance(stale, Refusal) and stale.refused.reason is Reason.STALE

