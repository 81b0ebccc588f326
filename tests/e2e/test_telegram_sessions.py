"""Sessions-layer behaviour the Telegram adapter relies on."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sessions import Reason, Refused

from ..sessions_helpers import ALICE, BOB, CHAT, open_sessions


async def test_a_creator_who_cannot_be_written_to_waits_until_ready(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "s.db")
    try:
        lobby = await sessions.lobby.new_game(CHAT, ALICE, "scopa", ready=False)
        assert [s.name for s in lobby.waiting] == ["Alice"]
        assert (await sessions.queries.lobby(CHAT)).waiting == lobby.waiting
        await sessions.lobby.join(CHAT, BOB)
        with pytest.raises(Refused) as waiting:
            await sessions.lobby.start(CHAT, ALICE)
        assert waiting.value.reason is Reason.SEAT_WAITING
        lobby = await sessions.lobby.join(CHAT, ALICE, ready=True, game_id=lobby.game_id)
        assert not lobby.waiting
        table = await sessions.lobby.start(CHAT, ALICE)
        assert table.status == "running"
    finally:
        await sessions.close()
