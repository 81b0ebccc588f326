"""/newgame in a player's private chat (`Asker.home`): a lobby of theirs alone, every other seat
the computer's at the level asked for, its buttons theirs alone, its rematch right there."""

from __future__ import annotations

import pytest

from bot.sessions import ChatRef, Reason, Refused, Sessions, UserRef
from bot.sessions.replies import Done, Refusal
from bot.sessions.tap import Action, Asker, Tap

from ..sessions_helpers import ALICE, BOB, play_to_end

HOME = ChatRef(ALICE.platform, "dm-alice", ALICE.name)


def alone(user: UserRef = ALICE, home: ChatRef = HOME) -> Asker:
    return Asker(user, None, home=home)


async def test_newgame_at_home_seats_the_computer_at_the_level_asked(memory_sessions: Sessions) -> None:
    reply = await memory_sessions.taps.new_game(alone(), line="scopone level=difficile")
    assert isinstance(reply, Done) and reply.game_id is not None
    lobby = await memory_sessions.queries.lobby(HOME)
    assert lobby.full and not lobby.waiting
    assert lobby.turn_limit == 0, "no move clock: nobody waits for the player, nobody plays for them"
    computers = [seat for seat in lobby.seats if seat is not None and seat.is_computer]
    assert len(computers) == 3 and {seat.level for seat in computers} == {"hard"}


async def test_a_level_not_offered_is_refused_and_opens_nothing(memory_sessions: Sessions) -> None:
    with pytest.raises(Refused) as refused:
        await memory_sessions.taps.new_game(alone(), line="level=impossible")
    assert refused.value.reason is Reason.OPTION_VALUE and refused.value.params["option"] == "level"
    assert await memory_sessions.queries.open_game_id(HOME) is None


async def test_only_the_owner_starts_it_and_the_rematch_opens_at_home(memory_sessions: Sessions) -> None:
    opened = await memory_sessions.taps.new_game(alone(), line="scopa target=11 level=easy")
    assert isinstance(opened, Done) and opened.game_id is not None
    game_id = opened.game_id
    assert game_id is not None
    bob_home = ChatRef(BOB.platform, "dm-bob", BOB.name)
    other = await memory_sessions.taps.handle(alone(BOB, bob_home), Tap(Action.START, game_id))
    assert isinstance(other, Refusal), "a button of someone else's private lobby does nothing"
    assert not isinstance(await memory_sessions.taps.handle(alone(), Tap(Action.START, game_id)), Refusal)
    await play_to_end(memory_sessions, game_id, [ALICE])
    rematch = await memory_sessions.taps.handle(alone(), Tap(Action.REMATCH, game_id))
    assert rematch == Done(), "no word of a group: the lobby is here"
    again = await memory_sessions.queries.open_game_id(HOME)
    assert again is not None and again != game_id
