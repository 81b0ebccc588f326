"""The sessions layer over a real SQLite file: restarts, stored rounds, old databases."""


from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.engine import dump_game, to_record
from bot.sessions import (
    ChatRef,
    MovePlayed,
    Refused,
    SeatAutoplay,
    Sessions,
    TurnWarning,
)
from bot.storage import SqliteStore

from ..sessions_helpers import (
    ALICE,
    BOB,
    CARLA,
    CHAT,
    DINO,
    FakeClock,
    open_sessions,
    play_one,
    play_to_end,
    recorded,
    start_duel,
    started,
)


async def test_turn_timer_warns_plays_for_the_absent_and_survives_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    sessions, game_id = await started(tmp_path / "s.db", clock)
    s = sessions  # type: ignore[assignment]
    await s.close()

    clock.advance(75)
    restarted = await open_sessions(tmp_path / "s.db", clock)
    seen = recorded(restarted)
    assert await restarted.scheduler.run_due() == 1
    assert any(isinstance(e, TurnWarning) for e in seen)
    clock.advance(20)
    assert await restarted.scheduler.run_due() == 1
    played = [e for e in seen if isinstance(e, MovePlayed)]
    assert played and played[0].timed_out
    # Both players are away: the seat that timed out first reaches 3 at the 5th expiry.
    for _ in range(4):
        assert not any(isinstance(e, SeatAutoplay) for e in seen)
        clock.advance(91)
        await restarted.scheduler.run_due()
    autoplay = [e for e in seen if isinstance(e, SeatAutoplay)]
    assert autoplay and autoplay[0].on and autoplay[0].seat == played[0].seat
    row = await restarted.store.get_game(game_id)
    assert row is not None and any(seat.autoplay for seat in row.seats)
    user = ALICE if autoplay[0].player_id == row.seats[0].player_id else BOB
    await restarted.play.set_autoplay(game_id, user, False)
    row = await restarted.store.get_game(game_id)
    assert row is not None and not any(seat.autoplay for seat in row.seats)
    await restarted.close()


async def test_state_in_database_resumes_exactly(tmp_path: Path) -> None:
    """Past two round ends: the database alone gives back the same game, finished
    rounds and their breakdowns included (to 31 points, so two rounds never end the match)."""
    s = await open_sessions(tmp_path / "s.db")
    game_id = await start_duel(s, options={"target": 31})
    assert (await s.queries.stored_game(game_id)).rules.target == 31
    for _ in range(80):
        await play_one(s, game_id, choice=-1)
    live = s.games.cached(game_id)
    assert live is not None
    assert len(live.results) == 2, "two rounds of 2-player scopa are 72 plays"
    await s.close()
    store = await SqliteStore.open(tmp_path / "s.db")
    row = await store.get_game(game_id)
    assert row is not None and row.version == 80
    game = await Sessions(store).queries.stored_game(game_id)
    assert game is not None and game.version == 80 and len(await store.moves(game_id)) == 80
    assert dump_game(game) == dump_game(live)
    await store.close()


async def test_a_finished_match_stores_every_round_and_loads_without_replay(tmp_path: Path) -> None:
    sessions, game_id = await started(tmp_path / "s.db")
    s = sessions  # type: ignore[assignment]
    await play_to_end(s, game_id, [ALICE, BOB])
    await s.close()
    store = await SqliteStore.open(tmp_path / "s.db")
    row = await store.get_game(game_id)
    assert row is not None and row.state is not None and row.state["version"] == row.version
    game = await Sessions(store).queries.stored_game(game_id)
    assert game is not None and game.winner is not None
    rounds = await store.round_records(game_id)
    assert rounds == to_record(game)["rounds"] and len(rounds) == len(game.results) >= 2
    assert [json.loads(line) for line in await store.records()] == [to_record(game)]
    await store.close()


async def test_a_database_from_before_team_counts_reads_its_teams_as_two(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    s = await open_sessions(path)
    lobby = await s.lobby.new_game(CHAT, ALICE, "scopa", {"players": 4, "teams": "on"})
    await s.close()
    with sqlite3.connect(path) as database:
        database.execute("UPDATE games SET teams = 1")
        database.execute("ALTER TABLE seats DROP COLUMN waiting_since")
        database.execute("ALTER TABLE players DROP COLUMN quiet_turns")
        database.execute("DROP TABLE claims")
        database.execute("DROP TABLE message_holds")
        database.execute("DROP TABLE chat_sends")
        database.execute("DROP TABLE secrets")
        database.execute("DROP TABLE erasures")
        database.execute("DROP TABLE achievements")
        database.execute("DROP TABLE season_closes")
        database.execute("DROP TABLE tournaments")
        database.execute("DROP INDEX games_finished")
        database.execute("DROP INDEX games_chat_finished")
        for table in ("notice_deliveries", "owner_notices", "heartbeats", "blocked_users"):
            database.execute(f"DROP TABLE IF EXISTS {table}")
        database.execute("DROP TABLE daily_plays")
        database.execute("DROP TABLE review_seats")
        database.execute("DROP TABLE reviews")
        database.execute("ALTER TABLE chats DROP COLUMN home")
        database.execute("DROP INDEX games_one_open_per_thread")
        database.execute("ALTER TABLE games DROP COLUMN thread")
        database.execute("CREATE UNIQUE INDEX games_one_open_per_chat ON games(chat_id) "
                         "WHERE status IN ('lobby', 'running')")
        database.execute("PRAGMA user_version = 2")
    s = await open_sessions(path)
    assert (await s.queries.lobby_of(lobby.game_id)).teams == 2
    await s.close()


async def test_a_chat_chooses_pictures_or_text_and_new_games_still_open(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "s.db")
    assert (await sessions.queries.chat(CHAT)).pictures, "pictures by default"
    await sessions.settings.set_chat_defaults(CHAT, {"variant": "escoba"})
    settings = await sessions.settings.set_pictures(CHAT, False)
    assert not settings.pictures and settings.defaults["variant"] == "escoba"
    lobby = await sessions.lobby.new_game(CHAT, ALICE)
    assert lobby.variant == "escoba"
    with pytest.raises(Refused):
        await sessions.settings.set_pictures(CHAT, "off")  # type: ignore[arg-type]
    assert not (await sessions.queries.chat(CHAT)).pictures


async def _deadlines_on_disk(path: Path) -> list[tuple[int, float, str, bool, int]]:
    other = await SqliteStore.open(path)
    try:
        return await other.running_deadlines()
    finally:
        await other.close()


async def test_timer_deadlines_kept_in_memory_match_the_database(tmp_path: Path) -> None:
    """The timer loop reads deadlines from memory; every change that reaches the
    database (start, move, warning, autoplay, cancel, match end) reaches it too."""
    clock = FakeClock()
    path = tmp_path / "s.db"
    sessions, first = await started(path, clock)
    s = sessions  # type: ignore[assignment]
    assert await s.store.running_deadlines() == await _deadlines_on_disk(path)
    other_chat = ChatRef("test", "group-2", "Others")
    second = await start_duel(s, other_chat, CARLA, DINO)
    clock.advance(5)
    await play_one(s, first)
    clock.advance(75)
    assert await s.scheduler.run_due() == 2, "both games warn their player"
    memory = await s.store.running_deadlines()
    assert memory == await _deadlines_on_disk(path)
    assert [entry.game_id for entry in memory] == [second, first] and all(e.warned for e in memory)
    clock.advance(12)
    assert await s.scheduler.run_due() == 1, "the second game's turn expires first"
    await s.play.set_autoplay(first, ALICE, True)
    assert await s.store.running_deadlines() == await _deadlines_on_disk(path)
    await s.lobby.cancel(other_chat, CARLA)
    assert [e.game_id for e in await s.store.running_deadlines()] == [first]
    await play_to_end(s, first, [ALICE, BOB])
    assert await s.store.running_deadlines() == [] == await _deadlines_on_disk(path)
    await s.close()
