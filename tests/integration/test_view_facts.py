"""The facts a front-end draws, read from the views alone and kept with the game: who cancelled
it, and which player's cards the computer played and why, the same after a restart."""

from __future__ import annotations

from pathlib import Path

from bot.sessions import MovePlayed, SeatAutoplay, Sessions
from bot.sessions.views import PlayedFor, TableView

from ..sessions_helpers import ALICE, BOB, CHAT, FakeClock, open_sessions, play_one, recorded, started


def seat_of(table: TableView, seat: int) -> PlayedFor | None:
    return next(s.played_for for s in table.seats if s.seat == seat)


async def test_who_cancelled_a_match_is_told_after_a_restart(tmp_path: Path) -> None:
    sessions, game_id = await started(tmp_path / "s.db")
    await sessions.lobby.cancel(CHAT, BOB, is_admin=True)
    assert (await sessions.queries.game(game_id)).cancelled_by == "Bob"
    await sessions.close()

    restarted = await open_sessions(tmp_path / "s.db")
    summary = await restarted.queries.game(game_id)
    assert summary.cancelled_by == "Bob"
    assert "cancelled_by" not in summary.options
    await restarted.close()


async def test_a_lobby_closed_by_nobody_names_no_one(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "s.db")
    await sessions.lobby.new_game(CHAT, ALICE, "scopa")
    game_id = await sessions.queries.open_game_id(CHAT)
    assert game_id is not None
    await sessions.lobby.abandon(CHAT)
    assert (await sessions.queries.game(game_id)).cancelled_by is None
    await sessions.close()


async def timer_plays(sessions: Sessions, clock: FakeClock) -> MovePlayed:
    seen = recorded(sessions)
    while not any(isinstance(e, MovePlayed) for e in seen):
        clock.advance(91)
        await sessions.scheduler.run_due()
    return next(e for e in seen if isinstance(e, MovePlayed))


async def test_a_turn_the_timer_played_is_told_after_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    sessions, game_id = await started(tmp_path / "s.db", clock)
    played = await timer_plays(sessions, clock)
    assert played.timed_out
    table = await sessions.queries.table(game_id)
    assert table.timed_out and seat_of(table, played.seat) is PlayedFor.TIMEOUT
    await sessions.close()

    restarted = await open_sessions(tmp_path / "s.db", clock)
    table = await restarted.queries.table(game_id)
    assert table.timed_out and seat_of(table, played.seat) is PlayedFor.TIMEOUT
    away = ALICE if played.seat == 0 else BOB
    assert (await restarted.queries.hand(game_id, away)).played_for is PlayedFor.TIMEOUT
    here = BOB if away is ALICE else ALICE
    assert (await restarted.queries.hand(game_id, here)).played_for is None

    # The other player plays: the table's last play is theirs, the away player's stays told.
    await play_one(restarted, game_id, first=here)
    table = await restarted.queries.table(game_id)
    assert not table.timed_out and seat_of(table, played.seat) is PlayedFor.TIMEOUT
    # The away player plays again themselves: nothing is played for them any more.
    await play_one(restarted, game_id, first=away)
    table = await restarted.queries.table(game_id)
    assert seat_of(table, played.seat) is None
    assert (await restarted.queries.hand(game_id, away)).played_for is None
    await restarted.close()


async def test_the_seat_handed_to_the_computer_is_told_apart_from_the_timer(tmp_path: Path) -> None:
    clock = FakeClock()
    sessions, game_id = await started(tmp_path / "s.db", clock)
    seen = recorded(sessions)
    while not any(isinstance(e, SeatAutoplay) for e in seen):
        clock.advance(91)
        await sessions.scheduler.run_due()
    handed = next(e for e in seen if isinstance(e, SeatAutoplay))
    last = [e for e in seen if isinstance(e, MovePlayed)][-1]
    assert last.seat == handed.seat and last.timed_out
    table = await sessions.queries.table(game_id)
    assert table.timed_out, "the play that handed the seat over was the timer's"
    await sessions.close()

    restarted = await open_sessions(tmp_path / "s.db", clock)
    seen = recorded(restarted)
    while not any(isinstance(e, MovePlayed) and e.seat == handed.seat for e in seen):
        clock.advance(91)
        await restarted.scheduler.run_due()
    table = await restarted.queries.table(game_id)
    if table.last_plays and table.last_plays[-1].seat == handed.seat:
        assert not table.timed_out
    assert seat_of(table, handed.seat) is PlayedFor.AUTOPLAY
    await restarted.close()


async def test_a_rematch_of_a_cancelled_match_carries_its_rules_not_who_cancelled(tmp_path: Path) -> None:
    sessions, game_id = await started(tmp_path / "s.db")
    await sessions.lobby.cancel(CHAT, ALICE)
    lobby = await sessions.lobby.rematch(game_id, BOB)
    assert "cancelled_by" not in lobby.options
    assert (await sessions.queries.game(lobby.game_id)).cancelled_by is None
    await sessions.close()
