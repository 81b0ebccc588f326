"""Refused requests write nothing, and nobody can keep a lobby from starting."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.app import FRONT_ENDS, Settings, serve
from bot.failures import FatalError
from bot.render.round import breakdown_text
from bot.render.words import failure_text, refusal_text
from bot.sessions import AchievementsEarned, LobbyUpdated, MatchEnded, Reason, Refused, RoundEnded, Sessions
from bot.sessions.lobby import WAITING_SEAT
from bot.sessions.ports import StorageFailed

from ..sessions_helpers import (
    ALICE,
    BOB,
    CARLA,
    CHAT,
    FakeClock,
    open_memory_sessions,
    open_sessions,
    play_to_end,
    recorded,
    start_duel,
)


async def test_a_refused_computer_writes_nothing() -> None:
    sessions = await open_memory_sessions()
    await sessions.lobby.new_game(CHAT, ALICE, "scopa")
    await sessions.lobby.join(CHAT, BOB)
    with pytest.raises(Refused) as full:
        await sessions.lobby.add_computer(CHAT, ALICE, "hard")
    assert full.value.reason is Reason.GAME_FULL
    assert await sessions.queries.find_player("computer", "hard") is None
    await sessions.lobby.start(CHAT, ALICE)
    with pytest.raises(Refused):
        await sessions.lobby.add_computer(CHAT, ALICE, "easy")
    assert await sessions.queries.find_player("computer", "easy") is None


async def test_a_player_who_never_opens_the_private_chat_holds_a_seat_for_three_minutes() -> None:
    clock = FakeClock()
    sessions = await open_memory_sessions(clock)
    seen = recorded(sessions)
    await sessions.lobby.new_game(CHAT, ALICE, "scopa")
    await sessions.lobby.join(CHAT, BOB, ready=False)
    with pytest.raises(Refused) as waiting:
        await sessions.lobby.start(CHAT, ALICE)
    assert waiting.value.reason is Reason.SEAT_WAITING
    assert "held for 3 minutes" in refusal_text(waiting.value, "en")
    clock.advance(WAITING_SEAT - 1)
    with pytest.raises(Refused):
        await sessions.lobby.join(CHAT, CARLA)
    clock.advance(1)
    seen.clear()
    with pytest.raises(Refused) as empty:
        await sessions.lobby.start(CHAT, ALICE)
    assert empty.value.reason is Reason.SEATS_EMPTY
    assert any(isinstance(e, LobbyUpdated) for e in seen), "the lobby shows the freed seat"
    assert [s.name for s in (await sessions.queries.lobby(CHAT)).seats if s] == ["Alice"]
    await sessions.lobby.join(CHAT, CARLA)
    assert (await sessions.lobby.start(CHAT, ALICE)).status == "running"


async def test_a_waiting_seat_is_freed_on_time_by_another_process_after_later_lobby_changes(
        tmp_path: Path) -> None:
    clock = FakeClock()
    one = await open_sessions(tmp_path / "s.db", clock)
    two = await open_sessions(tmp_path / "s.db", clock)
    try:
        await one.lobby.new_game(CHAT, ALICE, "scopa")
        await one.lobby.join(CHAT, BOB, ready=False)
        clock.advance(WAITING_SEAT - 10)
        await one.lobby.set_option(CHAT, ALICE, "target", 21)
        clock.advance(10)
        await two.lobby.join(CHAT, CARLA)
        assert [s.name for s in (await two.queries.lobby(CHAT)).seats if s] == ["Alice", "Carla"]
        assert (await one.lobby.start(CHAT, ALICE)).status == "running"
    finally:
        await one.close()
        await two.close()


async def test_the_creator_keeps_their_own_seat_while_waiting() -> None:
    clock = FakeClock()
    sessions = await open_memory_sessions(clock)
    await sessions.lobby.new_game(CHAT, ALICE, "scopa", ready=False)
    clock.advance(2 * WAITING_SEAT)
    await sessions.lobby.join(CHAT, BOB)
    assert [s.name for s in (await sessions.queries.lobby(CHAT)).seats if s] == ["Alice", "Bob"]


async def test_a_round_end_and_a_match_end_are_owed_until_a_front_end_posts_them(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "s.db")
    game_id = await start_duel(sessions, options={"target": 1})
    await play_to_end(sessions, game_id, [ALICE, BOB])
    await sessions.close()

    restarted = await open_sessions(tmp_path / "s.db")
    owed = await restarted.delivery.owed_notices(CHAT.platform)
    feats = [e for e in owed if isinstance(e, AchievementsEarned)]
    assert len(feats) <= 1 and owed[len(owed) - len(feats):] == feats, "a match's achievements, once, last"
    told = owed[:len(owed) - len(feats)]
    assert [type(e) for e in told] == [RoundEnded] * (len(told) - 1) + [MatchEnded]
    assert [e.result.number for e in told if isinstance(e, RoundEnded)] == list(range(1, len(told)))
    end = told[-1]
    assert isinstance(end, MatchEnded) and end.game_id == game_id and end.winner in (0, 1)
    assert "Alice" in " ".join(end.side_names)
    assert "End of round 1" in breakdown_text(owed[0], "en")  # type: ignore[arg-type]
    assert await restarted.delivery.owed_notices("discord") == []
    for event in owed:
        await restarted.delivery.notice_delivered(event)
    assert await restarted.delivery.owed_notices(CHAT.platform) == []


class _Member:
    """A front-end whose one user asks for a new game once the database has failed."""

    def __init__(self, sessions: Sessions, settings: Settings) -> None:
        self.sessions = sessions
        self.refused: list[BaseException] = []
        self._asking: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.sessions.store._db.execute("PRAGMA query_only=1")  # type: ignore[attr-defined]
        self._asking = asyncio.create_task(self._ask())

    async def _ask(self) -> None:
        try:
            await self.sessions.lobby.new_game(CHAT, ALICE, "scopa")
        except StorageFailed as exc:
            self.refused.append(exc)

    async def stop(self) -> None:
        assert self._asking is not None
        await self._asking

    async def failure(self) -> FatalError:
        await asyncio.Event().wait()
        raise AssertionError("never")

    async def reachable(self) -> bool:
        return True


async def test_a_database_failing_while_running_stops_the_bot_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fronts: list[_Member] = []

    def member(sessions: Sessions, settings: Settings) -> _Member:
        fronts.append(_Member(sessions, settings))
        return fronts[-1]

    monkeypatch.setitem(FRONT_ENDS, "member", member)  # type: ignore[arg-type]
    settings = Settings(str(tmp_path / "s.db"), None, None, None, None, None)
    with pytest.raises(FatalError) as stopped:
        await serve(["member"], settings)
    assert stopped.value.exit_code == 1 and "the database failed" in str(stopped.value)
    assert "\n" not in str(stopped.value)
    assert "trouble" in failure_text(fronts[0].refused[0], "en")
