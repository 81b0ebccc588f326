"""Refused requests write nothing, and nobody can keep a lobby from starting."""

from __future__ import annotations

import pytest

from bot.sessions import Reason, Refused

from .sessions_helpers import ALICE, BOB, CHAT, open_memory_sessions


async def test_a_refused_computer_writes_nothing() -> None:
    sessions = await open_memory_sessions()
    await sessions.new_game(CHAT, ALICE, "scopa")
    await sessions.join(CHAT, BOB)
    with pytest.raises(Refused) as full:
        await sessions.add_computer(CHAT, ALICE, "hard")
    assert full.value.reason is Reason.GAME_FULL
    assert await sessions.find_player("computer", "hard") is None
    await sessions.start(CHAT, ALICE)
    with pytest.raises(Refused):
        await sessions.add_computer(CHAT, ALICE, "easy")
    assert await sessions.find_player("computer", "easy") is None
