"""The storage contract: what the rest of the bot counts on from a store, checked on
every backend. SQLite always runs; PostgreSQL runs on a throwaway server (tests/pg.py),
skipped with its reason where PostgreSQL is not installed, and failing in CI.

A backend is a name and a way to open the same database again (as a restarted bot,
or a second process, would): another store, an in-memory one say, joins the contract
by adding an entry to BACKENDS.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from bot.engine import to_record
from bot.sessions import ChatRef, Sessions, UserRef
from bot.sessions.ports import SENDS_KEPT, DailyClaimed, Served, StorageFailed
from bot.sessions.records import (
    DailyDeal,
    Deadline,
    DeadlineChange,
    DeadlineKind,
    GameNotes,
    GameStatus,
    MatchKind,
)
from bot.storage import (
    ChatChange,
    ChatRow,
    GameCancel,
    GameRow,
    GameStart,
    LobbyChange,
    MatchFinish,
    MoveCommit,
    NewGame,
    OpenGameExists,
    RatingRow,
    ResultRow,
    ReviewSeatRow,
    SeatHandover,
    SeatRow,
    StaleVersion,
)
from bot.storage.backends import Backend as Kind
from bot.storage.backends import UnsupportedDatabase, describe_database, open_store, parse_database
from bot.storage.postgres import DatabaseUnavailable
from bot.storage.schema import POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS

from .. import pg
from ..sessions_helpers import FakeClock, first_legal, play_to_end
from ..store_helpers import (
    cancel_game,
    commit_move,
    grant_achievement,
    kept_secret,
    move_chat,
    set_deadline,
    set_seat_flags,
    set_seats,
    start_game,
    store_review,
    update_lobby,
)

Opener = Callable[[], Awaitable[Any]]
Counter = Callable[[str], Awaitable[int]]
Script = Callable[[str], Awaitable[None]]


@dataclass
class Backend:
    name: str
    open: Opener
    """Opens (and migrates) the backend's one database; each call gives another store on it."""
    set_schema_version: Callable[[int], Awaitable[None]]
    """Marks the database as migrated to a given schema version, as a newer bot would."""
    clock: FakeClock
    rows: Counter
    """How many rows a table holds: what the store keeps, seen from outside it."""
    script: Script
    """Runs SQL on the database outside any store, as an older bot would have written it."""


async def _sqlite(tmp_path: Path, clock: FakeClock, request: pytest.FixtureRequest
                  ) -> AsyncIterator[tuple[Opener, Callable[[int], Awaitable[None]], Counter, Script]]:
    import sqlite3

    path = tmp_path / "contract.db"

    async def bump(version: int) -> None:
        with sqlite3.connect(path) as database:
            database.execute(f"PRAGMA user_version={version}")

    async def rows(table: str) -> int:
        with sqlite3.connect(path) as database:
            return int(database.execute(f"SELECT count(*) FROM {table}").fetchone()[0])

    async def script(sql: str) -> None:
        with sqlite3.connect(path) as database:
            database.executescript(sql)

    yield (lambda: open_store(f"sqlite:///{path}", clock)), bump, rows, script


async def _postgresql(tmp_path: Path, clock: FakeClock, request: pytest.FixtureRequest
                      ) -> AsyncIterator[tuple[Opener, Callable[[int], Awaitable[None]], Counter, Script]]:
    import asyncpg

    cluster: pg.Cluster = request.getfixturevalue("postgres_cluster")
    url = await cluster.create_database()

    async def bump(version: int) -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("UPDATE schema_version SET version=$1", version)
        finally:
            await conn.close()

    async def rows(table: str) -> int:
        conn = await asyncpg.connect(url)
        try:
            return int(await conn.fetchval(f"SELECT count(*) FROM {table}"))
        finally:
            await conn.close()

    async def script(sql: str) -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    try:
        yield (lambda: open_store(url, clock)), bump, rows, script
    finally:
        await cluster.drop_database(url)


BACKENDS = {"sqlite": _sqlite, "postgresql": _postgresql}


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[pg.Cluster]:
    yield pg.shared_cluster()


@pytest.fixture(params=sorted(BACKENDS))
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    clock = FakeClock()
    opened: list[Any] = []
    setup = BACKENDS[request.param](tmp_path, clock, request)
    open_raw, bump, rows, script = await setup.__anext__()

    async def open_tracked() -> Any:
        store = await open_raw()
        opened.append(store)
        return store

    try:
        yield Backend(request.param, open_tracked, bump, clock, rows, script)
    finally:
        for store in opened:
            await store.close()
        await setup.aclose()


@pytest.fixture
async def store(backend: Backend) -> Any:
    return await backend.open()


# ---- helpers -----------------------------------------------------------------


async def _players(store: Any, *names: str) -> list[int]:
    return [(await store.ensure_player("t", name.lower(), name)).id for name in names]


async def _lobby(store: Any, chat_key: str = "g1", names: tuple[str, ...] = ("Alice", "Bob"),
                 platform: str = "t", home: str | None = None) -> GameRow:
    chat = await store.ensure_chat(platform, chat_key, "Friends", home=home)
    ids = await _players(store, *names)
    game = await store.create_game(chat.id, ids[0], "scopa", {"target": 11}, len(ids), 0,
                                   "napoletane", "seed-1")
    assert await set_seats(store, game.id, [SeatRow(seat, pid, None, True, 0, False)
                                           for seat, pid in enumerate(ids)])
    return await store.get_game(game.id)


async def _running(store: Any, chat_key: str = "g1", deadline: float | None = 2_000_000.0,
                   names: tuple[str, ...] = ("Alice", "Bob"), platform: str = "t",
                   home: str | None = None) -> GameRow:
    game = await _lobby(store, chat_key, names, platform, home)
    seats = (await store.get_game(game.id)).seats
    assert await start_game(store, game.id, {"round": 1, "hands": [[1, 2], [3, 4]]}, seats,
                                  deadline, "turn")
    started = await store.get_game(game.id)
    assert started is not None
    return started


def _move(game: GameRow, version: int | None = None, **changes: Any) -> MoveCommit:
    version = game.version if version is None else version
    fields: dict[str, Any] = {
        "game_id": game.id, "expected_version": version, "state": None, "seat": version % 2,
        "move": f"{version % 10 + 1}D", "by_computer": False, "deadline": 2_000_100.0 + version,
        "deadline_kind": "turn"}
    fields.update(changes)
    return MoveCommit(**fields)


def _finish(game: GameRow, points: tuple[int, int] = (11, 4), scope: tuple[int, int] = (2, 1),
            mus: tuple[float, float] = (27.0, 23.0), line: str | None = None) -> MatchFinish:
    ids = [seat.player_id for seat in game.seats]
    won = (points[0] > points[1], points[1] > points[0])
    results = tuple(ResultRow(seat, ids[seat], seat, points[seat], won[seat], scope[seat], 25.0, mus[seat])
                    for seat in range(2))
    ratings = tuple(RatingRow(ids[seat], "duel", mus[seat], 1.0, 1, int(won[seat])) for seat in range(2)
                    if ids[seat] is not None)
    return MatchFinish(line or json.dumps({"game": game.id}), results, ratings)


async def _finished(store: Any, chat_key: str, names: tuple[str, str] = ("Alice", "Bob"),
                    **finish: Any) -> GameRow:
    game = await _running(store, chat_key, names=names)
    await commit_move(store, _move(game, state={"over": True}, finish=_finish(game, **finish)))
    done = await store.get_game(game.id)
    assert done is not None and done.status == "finished"
    return done


# ---- choosing the backend ------------------------------------------------------


@pytest.mark.parametrize(("address", "kind", "target"), [
    ("scopa.db", Kind.SQLITE, "scopa.db"),
    ("/data/scopa.db", Kind.SQLITE, "/data/scopa.db"),
    ("sqlite:///data/scopa.db", Kind.SQLITE, "data/scopa.db"),
    ("sqlite:////data/scopa.db", Kind.SQLITE, "/data/scopa.db"),
    (":memory:", Kind.SQLITE, ":memory:"),
    ("sqlite://", Kind.SQLITE, ":memory:"),
    ("sqlite:///:memory:", Kind.SQLITE, ":memory:"),
    ("postgresql://scopa@db:5432/scopa", Kind.POSTGRESQL, "postgresql://scopa@db:5432/scopa"),
    ("postgres://scopa:pw@db/scopa", Kind.POSTGRESQL, "postgres://scopa:pw@db/scopa"),
])
def test_the_address_chooses_the_backend(address: str, kind: Kind, target: str) -> None:
    database = parse_database(address)
    assert (database.backend, database.target) == (kind, target)


@pytest.mark.parametrize("address", ["mysql://root:secret@db/scopa", "", "  ", "sqlite:relative.db",
                                     "sqlite://relative.db", "http://example.org/scopa.db"])
def test_any_other_address_is_refused_in_one_line(address: str) -> None:
    with pytest.raises(UnsupportedDatabase) as refused:
        parse_database(address)
    message = str(refused.value)
    assert "\n" not in message and "secret" not in message
    assert "postgresql://user@host:port/db" in message


def test_a_password_in_the_address_is_never_shown() -> None:
    assert describe_database("postgresql://scopa:secret@db:5432/scopa") == "postgresql://scopa:***@db:5432/scopa"
    assert describe_database("postgresql://scopa@db/scopa") == "postgresql://scopa@db/scopa"
    assert describe_database("scopa.db") == "scopa.db"


async def test_an_unreachable_postgresql_server_is_reported_in_one_line() -> None:
    port = pg.free_port()
    with pytest.raises(DatabaseUnavailable) as refused:
        await open_store(f"postgresql://scopa:secret@127.0.0.1:{port}/scopa")
    message = str(refused.value)
    assert "\n" not in message and "secret" not in message and f"127.0.0.1:{port}/scopa" in message


async def test_a_missing_postgresql_database_is_reported_in_one_line(postgres_cluster: pg.Cluster) -> None:
    with pytest.raises(DatabaseUnavailable, match="does not exist"):
        await open_store(postgres_cluster.url("no_such_database"))


async def test_an_sqlite_address_opens_a_working_store() -> None:
    store = await open_store("sqlite://")
    chat = await store.ensure_chat("t", "g1")
    assert await store.get_chat(chat.id) == chat
    await store.close()


# ---- schema ------------------------------------------------------------------


async def test_an_empty_database_is_migrated_and_reopening_keeps_everything(backend: Backend) -> None:
    first = await backend.open()
    game = await _running(first)
    await first.set_ref(game.id, "table", "m-1")
    await first.close()
    for _ in range(2):
        again = await backend.open()
        assert await again.get_game(game.id) == game
        assert await again.get_refs(game.id) == {"table": "m-1"}
        await again.close()


def test_a_closed_store_can_be_closed_again_from_another_event_loop(backend: Backend) -> None:
    """Commands run each step in their own event loop."""
    async def work() -> Any:
        store = await backend.open()
        await _running(store)
        await store.close()
        return store

    store = asyncio.run(work())
    asyncio.run(store.close())


_BEFORE_THREADS = {
    "sqlite": (SQLITE_MIGRATIONS[:5], "PRAGMA user_version=5;"),
    "postgresql": (("CREATE TABLE schema_version (version INTEGER NOT NULL);",
                    *POSTGRES_MIGRATIONS[:3]), "INSERT INTO schema_version VALUES (3);"),
}
"""Each backend's schema as the last bot without threads (forum topics) left it."""


async def test_a_database_from_before_threads_keeps_its_open_game_as_the_chats_own(
        backend: Backend) -> None:
    scripts, version = _BEFORE_THREADS[backend.name]
    await backend.script("\n".join([*scripts, version,
        "INSERT INTO chats (platform, chat_key, created_at) VALUES ('t', 'g1', 1.0);",
        "INSERT INTO players (platform, user_key, display_name, created_at) "
        "VALUES ('t', 'alice', 'Alice', 1.0);",
        "INSERT INTO games (chat_id, creator_id, variant, players, status, seed, created_at, updated_at) "
        "VALUES (1, 1, 'scopa', 2, 'lobby', 'old', 1.0, 1.0);"]))
    store = await backend.open()
    old = await store.open_game(1)
    assert old is not None and (old.seed, old.thread) == ("old", "")
    with pytest.raises(OpenGameExists):
        await store.create_game(1, 1, "scopa", {}, 2, 0, "napoletane", "s")
    in_topic = await store.create_game(1, 1, "scopa", {}, 2, 0, "napoletane", "s", thread="7")
    assert (await store.open_game(1, "7")) == in_topic and in_topic.thread == "7"


async def test_a_database_from_a_newer_bot_is_refused(backend: Backend) -> None:
    await (await backend.open()).close()
    await backend.set_schema_version(999)
    with pytest.raises(RuntimeError, match="newer than this bot"):
        await backend.open()


# ---- chats and players -------------------------------------------------------


async def test_a_chat_is_made_once_and_keeps_its_settings(store: Any) -> None:
    chat = await store.ensure_chat("t", "g1", "Friends", "en")
    assert (chat.language, chat.turn_limit, chat.defaults, chat.title) == ("en", 90, {}, "Friends")
    assert (await store.ensure_chat("t", "g1")).id == chat.id
    assert (await store.ensure_chat("t", "g2")).language == "it"
    assert (await store.ensure_chat("other", "g1")).id != chat.id
    updated = await store.update_chat(chat.id, turn_limit=60, defaults={"variant": "scopone"})
    assert (updated.language, updated.turn_limit, updated.defaults) == ("en", 60, {"variant": "scopone"})
    updated = await store.update_chat(chat.id, language="it")
    assert (updated.language, updated.turn_limit) == ("it", 60)
    assert await store.get_chat(chat.id) == updated
    assert await store.get_chat(chat.id + 1000) is None


async def test_a_renamed_chat_is_stored_under_its_new_title(store: Any) -> None:
    chat = await store.ensure_chat("t", "g1", "Friends")
    await store.ensure_chat("t", "g1", "Old friends")
    stored = await store.get_chat(chat.id)
    assert stored is not None and stored.title == "Old friends"
    assert (await store.ensure_chat("t", "g1")).title == "Old friends", "no title keeps the stored one"


async def test_ensure_chat_gives_the_new_title_at_once(store: Any) -> None:
    await store.ensure_chat("t", "g1", "Friends")
    assert (await store.ensure_chat("t", "g1", "Old friends")).title == "Old friends"


async def test_a_chat_moved_to_a_new_key_takes_its_games_settings_and_leaderboard(store: Any) -> None:
    done = await _finished(store, "g-old", ("Alice", "Bob"))
    chat = await store.update_chat(done.chat_id, language="en", turn_limit=300, defaults={"target": 1})
    running = await _running(store, "g-old")
    moved, old_id = await move_chat(store, "t", "g-old", "g-new")
    assert (moved.id, old_id, moved.chat_key) == (chat.id, chat.id, "g-new")
    assert (moved.language, moved.turn_limit, moved.defaults, moved.title) == ("en", 300, {"target": 1},
                                                                               "Friends")
    assert (await store.ensure_chat("t", "g-new")).id == chat.id
    assert (await store.open_game(chat.id)).id == running.id
    assert [r.display_name for r in await store.leaderboard(chat.id)] == ["Alice", "Bob"]
    await commit_move(store, _move(running))
    assert (await store.get_game(running.id)).version == 1, "the match goes on"
    assert await move_chat(store, "t", "g-old", "g-new") is None, "moved once"
    assert (await store.ensure_chat("t", "g-old")).id != chat.id, "the old key is free"


async def test_a_chat_moved_onto_one_seen_first_is_merged_into_it(store: Any) -> None:
    await _finished(store, "g-old", ("Alice", "Bob"))
    running = await _running(store, "g-old")
    old = await store.update_chat(running.chat_id, language="es", turn_limit=120)
    new = await store.ensure_chat("t", "g-new", "Friends (new)", "en")
    carla, = await _players(store, "Carla")
    lobby = await store.create_game(new.id, carla, "scopa", {}, 2, 0, "napoletane", "s")
    moved, old_id = await move_chat(store, "t", "g-old", "g-new")
    assert (moved.id, old_id, moved.chat_key, moved.title) == (new.id, old.id, "g-new", "Friends (new)")
    assert (moved.language, moved.turn_limit) == ("es", 120), "the group's own settings are kept"
    assert (await store.open_game(new.id)).id == running.id, "the match in play goes on"
    assert (await store.get_game(lobby.id)).status == "cancelled", "one open game per chat"
    assert [r.display_name for r in await store.leaderboard(new.id)] == ["Alice", "Bob"]
    assert await store.get_chat(old.id) is None
    assert [d.game_id for d in await store.running_deadlines()] == [running.id]
    assert await move_chat(store, "t", "g-unknown", "g-new") is None


async def test_two_stores_told_of_one_move_at_once_move_it_once(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    running = await _running(first, "g-old")
    outcomes = await asyncio.gather(*(move_chat(store, "t", "g-old", "g-new")
                                      for store in (first, second, first, second)))
    moved = [o for o in outcomes if o is not None]
    assert len(moved) == 1 and moved[0][0].id == running.chat_id
    assert (await second.open_game(running.chat_id)).id == running.id


async def test_a_player_is_made_once_and_keeps_their_settings(store: Any) -> None:
    alice = await store.ensure_player("t", "u1", "  Alice  ", "it")
    assert (alice.display_name, alice.platform_language, alice.language) == ("Alice", "it", None)
    assert not (alice.can_dm or alice.dm_pings or alice.is_computer or alice.quiet_turns)
    renamed = await store.ensure_player("t", "u1", "Alice B.")
    assert renamed.id == alice.id and renamed.platform_language == "it", "no language keeps the old one"
    assert (await store.ensure_player("t", "u1", "Alice B.", "en")).platform_language == "en"
    assert (await store.ensure_player("t", "u2", "   ")).display_name == "u2"
    assert len((await store.ensure_player("t", "u3", "x" * 100)).display_name) == 64
    cpu = await store.ensure_player("computer", "easy", "CPU", is_computer=True)
    assert cpu.is_computer
    await store.update_player(alice.id, language="en", can_dm=True)
    await store.update_player(alice.id, dm_pings=True)
    stored = await store.get_player(alice.id)
    assert stored is not None and (stored.language, stored.can_dm, stored.dm_pings) == ("en", True, True)
    await store.update_player(alice.id, quiet_turns=True)
    stored = await store.get_player(alice.id)
    assert stored is not None and stored.quiet_turns and stored.dm_pings, "one setting changes alone"
    assert await store.find_player("t", "u1") == stored
    assert await store.find_player("t", "nobody") is None
    assert await store.get_player(alice.id + 1000) is None


# ---- games -------------------------------------------------------------------


async def test_a_new_game_waits_in_its_lobby_with_its_creator_seated(store: Any, backend: Backend) -> None:
    chat = await store.ensure_chat("t", "g1")
    alice, = await _players(store, "Alice")
    game = await store.create_game(chat.id, alice, "scopone", {"fuori": "on"}, 4, 2, "piacentine", "s")
    assert (game.status, game.open, game.version, game.state) == ("lobby", True, 0, None)
    assert (game.variant, game.options, game.players, game.teams, game.deck_style, game.seed) == (
        "scopone", {"fuori": "on"}, 4, 2, "piacentine", "s")
    assert game.created_at == game.updated_at == backend.clock.now and game.finished_at is None
    assert [(s.seat, s.player_id, s.ready, s.player.display_name if s.player else None)
            for s in game.seats] == [(0, alice, True, "Alice")]
    assert await store.open_game(chat.id) == game == await store.get_game(game.id)
    other = await store.ensure_chat("t", "g2")
    empty = await store.create_game(other.id, alice, "scopa", {}, 2, 0, "napoletane", "s",
                                    creator_seat=False)
    assert empty.seats == ()
    assert await store.get_game(empty.id + 1000) is None


async def test_one_open_game_per_chat(store: Any) -> None:
    game = await _lobby(store)
    with pytest.raises(OpenGameExists) as exists:
        await store.create_game(game.chat_id, game.creator_id, "scopa", {}, 2, 0, "napoletane", "s")
    assert exists.value.game_id == game.id
    assert await store.open_game(game.chat_id) == await store.get_game(game.id)
    assert await start_game(store, game.id, {}, (await store.get_game(game.id)).seats, None, None)
    with pytest.raises(OpenGameExists):
        await store.create_game(game.chat_id, game.creator_id, "scopa", {}, 2, 0, "napoletane", "s")
    assert await cancel_game(store, game.id)
    assert await store.open_game(game.chat_id) is None
    again = await store.create_game(game.chat_id, game.creator_id, "scopa", {}, 2, 0, "napoletane", "s")
    assert again.id != game.id and (await store.open_game(game.chat_id)).id == again.id


async def test_two_stores_creating_a_game_in_one_chat_at_once_make_one(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    chat = await first.ensure_chat("t", "g1")
    alice, = await _players(first, "Alice")
    outcomes = await asyncio.gather(
        *(store.create_game(chat.id, alice, "scopa", {}, 2, 0, "napoletane", f"s{n}")
          for n, store in enumerate((first, second, first, second))), return_exceptions=True)
    made = [o for o in outcomes if isinstance(o, GameRow)]
    refused = [o for o in outcomes if isinstance(o, OpenGameExists)]
    assert len(made) == 1 and len(refused) == 3, outcomes
    assert all(r.game_id == made[0].id for r in refused)


async def test_each_thread_of_a_chat_holds_one_open_game(store: Any) -> None:
    chat = await store.ensure_chat("t", "forum")
    alice, bob = await _players(store, "Alice", "Bob")
    general = await store.create_game(chat.id, alice, "scopa", {}, 2, 0, "napoletane", "s")
    topic = await store.create_game(chat.id, bob, "escoba", {}, 2, 0, "napoletane", "s", thread="7")
    other = await store.create_game(chat.id, alice, "scopa", {}, 2, 0, "napoletane", "s", thread="9")
    assert (general.thread, topic.thread, other.thread) == ("", "7", "9")
    assert len({general.id, topic.id, other.id}) == 3
    with pytest.raises(OpenGameExists) as exists:
        await store.create_game(chat.id, alice, "scopa", {}, 2, 0, "napoletane", "s", thread="7")
    assert exists.value.game_id == topic.id
    assert await store.open_game(chat.id) == general == await store.get_game(general.id)
    assert await store.open_game(chat.id, "7") == topic
    assert await store.open_game(chat.id, "8") is None
    assert await cancel_game(store, topic.id)
    assert await store.open_game(chat.id, "7") is None
    assert (await store.open_game(chat.id, "9")).id == other.id
    again = await store.create_game(chat.id, bob, "scopa", {}, 2, 0, "napoletane", "s", thread="7")
    assert (await store.open_game(chat.id, "7")).id == again.id
    assert [g.id for g in await store.open_games_of_player(alice)] == [general.id, other.id]


async def test_two_stores_creating_a_game_in_one_thread_at_once_make_one(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    chat = await first.ensure_chat("t", "forum")
    alice, = await _players(first, "Alice")
    outcomes = await asyncio.gather(
        *(store.create_game(chat.id, alice, "scopa", {}, 2, 0, "napoletane", f"s{n}", thread=thread)
          for n, (store, thread) in enumerate(((first, "7"), (second, "7"), (first, "9"), (second, "7")))),
        return_exceptions=True)
    made = [o for o in outcomes if isinstance(o, GameRow)]
    refused = [o for o in outcomes if isinstance(o, OpenGameExists)]
    assert sorted(g.thread for g in made) == ["7", "9"] and len(refused) == 2, outcomes
    assert all(r.game_id == next(g.id for g in made if g.thread == "7") for r in refused)


async def test_a_lobby_change_made_on_a_version_the_lobby_has_left_writes_nothing(store: Any) -> None:
    game = await _lobby(store, names=("Alice", "Bob", "Carla"))
    alice, bob, carla = (s.player_id for s in game.seats)
    async with store.unit() as uow:
        uow.add(LobbyChange(game.id, game.version, seats=game.seats[:2], players=4))
    changed = await store.get_game(game.id)
    assert (changed.version, changed.players, [s.player_id for s in changed.seats]) == (
        game.version + 1, 4, [alice, bob])
    with pytest.raises(StaleVersion):
        async with store.unit() as uow:
            uow.add(LobbyChange(game.id, game.version, seats=game.seats, players=3))
    assert await store.get_game(game.id) == changed, "the second change read the lobby before the first"
    with pytest.raises(StaleVersion):
        async with store.unit() as uow:
            uow.add(GameStart(game.id, game.version, {"round": 1}, changed.seats, None, None))
    assert (await store.get_game(game.id)).status == "lobby"
    with pytest.raises(StaleVersion):
        async with store.unit() as uow:
            uow.add(GameCancel(game.id, GameStatus.LOBBY, game.version))
    async with store.unit() as uow:
        uow.add(GameStart(game.id, changed.version, {"round": 1}, changed.seats, 5_000.0, DeadlineKind.TURN))
    started = await store.get_game(game.id)
    assert (started.status, started.version, started.deadline_kind) == ("running", 0, DeadlineKind.TURN)
    for late in (LobbyChange(game.id, changed.version, players=2),
                 GameStart(game.id, changed.version, {"round": 9}, changed.seats, None, None),
                 GameCancel(game.id, GameStatus.LOBBY)):
        with pytest.raises(StaleVersion):
            async with store.unit() as uow:
                uow.add(late)
    assert await store.get_game(game.id) == started
    assert carla not in [s.player_id for s in started.seats]


async def test_a_cancel_keeps_the_options_it_is_given(store: Any) -> None:
    """Who cancelled a game is kept with its options (`GameCancel.options`); a cancel given
    none leaves them as they were."""
    game = await _lobby(store)
    other = await _lobby(store, "g2", names=("Carla", "Dino"))
    async with store.unit() as uow:
        uow.add(GameCancel(game.id, GameStatus.LOBBY, game.version, None,
                           {**game.options, "cancelled_by": 7}))
        uow.add(GameCancel(other.id, GameStatus.LOBBY, other.version))
    cancelled = await store.get_game(game.id)
    assert (cancelled.status, cancelled.options) == ("cancelled", {**game.options, "cancelled_by": 7})
    assert (await store.get_game(other.id)).options == other.options


async def test_a_unit_of_work_writes_all_its_changes_or_none(store: Any) -> None:
    game = await _lobby(store)
    other = await _lobby(store, "g2", names=("Carla", "Dino"))
    with pytest.raises(StaleVersion):
        async with store.unit() as uow:
            uow.add(LobbyChange(game.id, game.version, players=3))
            uow.add(ChatChange(game.chat_id, turn_limit=30))
            uow.add(LobbyChange(other.id, other.version + 5, players=3))
    assert await store.get_game(game.id) == game and (await store.get_chat(game.chat_id)).turn_limit == 90
    with pytest.raises(RuntimeError):
        async with store.unit() as uow:
            uow.add(LobbyChange(game.id, game.version, players=3))
            raise RuntimeError("the use case failed before the end of its unit")
    assert await store.get_game(game.id) == game


async def test_a_rematch_is_made_with_its_seats_in_one_write(store: Any) -> None:
    old = await _finished(store, "g1")
    chat = await store.get_chat(old.chat_id)
    seats = tuple(replace(s, seat=1 - s.seat, player=None) for s in reversed(old.seats))
    async with store.unit() as uow:
        uow.add(NewGame(chat.id, old.creator_id, old.variant, old.options, 2, 0, "napoletane", "again",
                        seats=seats))
    made = await store.get_game(uow.created)
    assert [(s.seat, s.player_id) for s in made.seats] == [(s.seat, s.player_id) for s in seats]
    with pytest.raises(OpenGameExists):
        async with store.unit() as uow:
            uow.add(NewGame(chat.id, old.creator_id, old.variant, old.options, 2, 0, "napoletane", "twice",
                            seats=seats))
    assert [g.id for g in await store.open_games_of_player(old.creator_id)] == [made.id]


async def test_a_seat_handed_to_the_computer_checks_the_games_version(store: Any) -> None:
    game = await _running(store)
    with pytest.raises(StaleVersion):
        async with store.unit() as uow:
            uow.add(SeatHandover(game.id, game.version + 1, 0, True, 9_000.0, DeadlineKind.COMPUTER, True))
    assert await store.get_game(game.id) == game
    async with store.unit() as uow:
        uow.add(SeatHandover(game.id, game.version, 0, True, 9_000.0, DeadlineKind.COMPUTER, True))
    handed = await store.get_game(game.id)
    assert (handed.seats[0].autoplay, handed.deadline, handed.deadline_kind) == (True, 9_000.0, "computer")
    async with store.unit() as uow:
        uow.add(SeatHandover(game.id, game.version, 0, False))
    back = await store.get_game(game.id)
    assert (back.seats[0].autoplay, back.deadline) == (False, 9_000.0), "not its turn: the deadline stays"


async def test_two_changes_to_a_chats_defaults_at_once_both_hold(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    chat = await first.update_chat((await first.ensure_chat("t", "g1")).id, defaults={"target": 16})

    async def change(store: Any, patch: dict[str, Any]) -> None:
        async with store.unit() as uow:
            uow.add(ChatChange(chat.id, defaults_patch=patch))

    await asyncio.gather(change(first, {"variant": "escoba"}), change(second, {"pictures": "off"}))
    assert (await first.get_chat(chat.id)).defaults == {"target": 16, "variant": "escoba", "pictures": "off"}
    await change(second, {"target": None})
    assert (await second.get_chat(chat.id)).defaults == {"variant": "escoba", "pictures": "off"}


async def test_lobby_changes_stop_when_the_game_starts(store: Any) -> None:
    game = await _lobby(store, names=("Alice", "Bob", "Carla"))
    await update_lobby(store, game.id, variant="escoba", options={"target": 21}, players=3, teams=0,
                             deck_style="spagnole")
    changed = await store.get_game(game.id)
    assert (changed.variant, changed.options, changed.players, changed.deck_style) == (
        "escoba", {"target": 21}, 3, "spagnole")
    await update_lobby(store, game.id, players=4)
    assert (await store.get_game(game.id)).variant == "escoba", "what is not given is kept"
    computer = SeatRow(3, None, "hard", True, 0, False)
    await set_seats(store, game.id, [*changed.seats, computer])
    seats = (await store.get_game(game.id)).seats
    assert [s.seat for s in seats] == [0, 1, 2, 3] and seats[3].is_computer and not seats[0].is_computer
    await set_seat_flags(store, game.id, 1, ready=False, waiting_since=1_000_123.5)
    await set_seat_flags(store, game.id, 2, timeouts=2, autoplay=True)
    seats = (await store.get_game(game.id)).seats
    assert (seats[1].ready, seats[2].timeouts, seats[2].autoplay, seats[2].ready) == (False, 2, True, True)
    assert (seats[1].waiting_since, seats[2].waiting_since) == (1_000_123.5, None)
    assert await start_game(store, game.id, {"round": 1}, seats, None, None)
    await update_lobby(store, game.id, variant="scopa")
    started = await store.get_game(game.id)
    assert (started.status, started.variant, started.state) == ("running", "escoba", {"round": 1})
    assert not await start_game(store, game.id, {"round": 9}, seats, None, None), "starts once"
    assert (await store.get_game(game.id)).state == {"round": 1}


async def test_a_players_open_games_across_chats(store: Any) -> None:
    first = await _running(store, "g1")
    second = await _lobby(store, "g2", names=("Carla", "Alice"))
    done = await _finished(store, "g3")
    alice = first.seats[0].player_id
    assert [g.id for g in await store.open_games_of_player(alice)] == [first.id, second.id]
    assert done.id not in [g.id for g in await store.open_games_of_player(alice)]
    carla = second.seats[0].player_id
    assert [g.id for g in await store.open_games_of_player(carla)] == [second.id]


async def test_cancelling_is_done_once_and_keeps_a_running_games_record(store: Any) -> None:
    lobby = await _lobby(store, "g1")
    assert await cancel_game(store, lobby.id)
    assert not await cancel_game(store, lobby.id)
    assert (await store.get_game(lobby.id)).status == "cancelled"
    running = await _running(store, "g2")
    assert await cancel_game(store, running.id, '{"cancelled":true}')
    cancelled = await store.get_game(running.id)
    assert cancelled.status == "cancelled" and cancelled.finished_at is not None and not cancelled.open
    assert await store.records() == ['{"cancelled":true}']
    assert await store.running_deadlines() == []
    with pytest.raises(StaleVersion):
        await commit_move(store, _move(cancelled))


# ---- moves -------------------------------------------------------------------


async def test_a_move_is_stored_once_with_its_number(store: Any, backend: Backend) -> None:
    game = await _running(store)
    backend.clock.advance(3)
    await commit_move(store, _move(game, seat=0, move="7D", by_computer=True))
    after = await store.get_game(game.id)
    assert after.version == 1 and after.state == game.state, "no snapshot keeps the stored one"
    assert (after.deadline, after.deadline_kind, after.updated_at) == (2_000_100.0, "turn", backend.clock.now)
    moves = await store.moves(game.id)
    assert [(m.number, m.seat, m.move, m.by_computer, m.created_at) for m in moves] == [
        (1, 0, "7D", True, backend.clock.now)]
    await commit_move(store, _move(after, state={"round": 2}))
    assert (await store.get_game(game.id)).state == {"round": 2}
    assert [m.number for m in await store.moves(game.id)] == [1, 2]
    assert [m.number for m in await store.moves(game.id, after=1)] == [2]


async def test_a_stale_move_is_refused_and_changes_nothing(store: Any) -> None:
    game = await _running(store)
    await commit_move(store, _move(game))
    before = await store.get_game(game.id)
    for version in (0, 2, 7):
        with pytest.raises(StaleVersion):
            await commit_move(store, _move(game, version, state={"lost": True}, seat_timeouts=3))
        with pytest.raises(StaleVersion):
            await commit_move(store, _move(game, version, state={"lost": True}, rounds=((1, {}, {}),),
                                          finish=_finish(game)))
    assert await store.get_game(game.id) == before
    assert [m.number for m in await store.moves(game.id)] == [1]
    assert await store.round_records(game.id) == [] and await store.results(game.id) == []
    assert await store.records() == []


@pytest.mark.parametrize("last", [False, True], ids=["plain", "last"])
async def test_of_two_moves_at_one_version_one_is_stored(backend: Backend, last: bool) -> None:
    """Two bots on one database (or two taps at once) play on the same version."""
    first, second = await backend.open(), await backend.open()
    game = await _running(first)
    finish = _finish(game) if last else None
    outcomes = await asyncio.gather(
        *(commit_move(store, _move(game, move=f"{n + 1}C", rounds=((1, {"n": n}, {"n": n}),) if last else (),
                                  finish=finish))
          for n, store in enumerate((first, second, first, second))), return_exceptions=True)
    assert sum(o is None for o in outcomes) == 1, outcomes
    assert all(isinstance(o, StaleVersion) for o in outcomes if o is not None)
    assert (await second.get_game(game.id)).version == 1
    moves = await first.moves(game.id)
    assert len(moves) == 1
    if last:
        winner = int(moves[0].move[0]) - 1
        assert await second.round_records(game.id) == [{"n": winner}]
        assert len(await second.results(game.id)) == 2 and len(await second.records()) == 1


async def test_a_move_sets_seat_flags_and_stores_finished_rounds(store: Any) -> None:
    game = await _running(store)
    await commit_move(store, _move(game, seat=1, seat_timeouts=2, seat_autoplay=True))
    seats = (await store.get_game(game.id)).seats
    assert (seats[1].timeouts, seats[1].autoplay, seats[0].timeouts) == (2, True, 0)
    await commit_move(store, _move(game, 1, seat=1, seat_autoplay=False))
    seats = (await store.get_game(game.id)).seats
    assert (seats[1].timeouts, seats[1].autoplay) == (2, False), "a flag not given is kept"
    await commit_move(store, _move(game, 2, rounds=((2, {"totals": [3, 1]}, {"n": 2}),
                                                   (1, {"totals": [1, 0]}, {"n": 1}))))
    assert await store.round_records(game.id) == [{"n": 1}, {"n": 2}]
    await commit_move(store, _move(game, 3, rounds=((2, {"totals": [4, 1]}, {"n": 22}),)))
    assert await store.round_records(game.id) == [{"n": 1}, {"n": 22}]


async def test_the_last_move_finishes_the_match_with_results_ratings_and_record(
        store: Any, backend: Backend) -> None:
    game = await _running(store)
    backend.clock.advance(10)
    await commit_move(store, _move(game, state={"over": True}, finish=_finish(game, line='{"m":1}')))
    done = await store.get_game(game.id)
    assert (done.status, done.open, done.state, done.finished_at) == (
        "finished", False, {"over": True}, backend.clock.now)
    assert await store.open_game(game.chat_id) is None
    assert await store.running_deadlines() == []
    assert await store.records() == ['{"m":1}']
    alice, bob = (seat.player_id for seat in game.seats)
    assert [(r.seat, r.player_id, r.side, r.points, r.won, r.scope, r.rating_before, r.rating_after)
            for r in await store.results(game.id)] == [
        (0, alice, 0, 11, True, 2, 25.0, 27.0), (1, bob, 1, 4, False, 1, 25.0, 23.0)]
    assert await store.ratings([alice, bob, 12345], "duel") == {
        alice: RatingRow(alice, "duel", 27.0, 1.0, 1, 1), bob: RatingRow(bob, "duel", 23.0, 1.0, 1, 0)}
    assert await store.ratings([alice], "team") == {} == await store.ratings([], "duel")
    with pytest.raises(StaleVersion):
        await commit_move(store, _move(done))


async def test_a_move_that_cannot_be_stored_whole_stores_nothing(store: Any) -> None:
    game = await _running(store)
    finish = _finish(game)
    broken = replace(finish, results=(finish.results[0], finish.results[0]))
    with pytest.raises(StaleVersion):
        await commit_move(store, _move(game, state={"over": True}, seat_timeouts=1,
                                      rounds=((1, {}, {}),), finish=broken))
    assert await store.get_game(game.id) == game
    assert await store.moves(game.id) == [] and await store.round_records(game.id) == []
    assert await store.records() == [] and await store.results(game.id) == []
    await commit_move(store, _move(game, state={"over": True}, finish=finish))
    assert len(await store.results(game.id)) == 2


# ---- deadlines ---------------------------------------------------------------


async def test_deadlines_soonest_first_as_every_store_on_the_database_sees_them(backend: Backend) -> None:
    store = await backend.open()
    late = await _running(store, "g1", deadline=3_000.0)
    soon = await _running(store, "g2", deadline=1_000.0, names=("Carla", "Dino"))
    await _running(store, "g3", deadline=None, names=("Ezio", "Fede"))
    assert await store.running_deadlines() == [Deadline(soon.id, 1_000.0, DeadlineKind.TURN, False, 0),
                                               Deadline(late.id, 3_000.0, DeadlineKind.TURN, False, 0)]
    assert await set_deadline(store, soon.id, 0, 5_000.0, DeadlineKind.COMPUTER, warned=True)
    assert not await set_deadline(store, late.id, 4, 500.0, "turn"), "a stale version changes nothing"
    await commit_move(store, _move(late, deadline=2_000.0))
    expected = [Deadline(late.id, 2_000.0, DeadlineKind.TURN, False, 1),
                Deadline(soon.id, 5_000.0, DeadlineKind.COMPUTER, True, 0)]
    assert await store.running_deadlines() == expected
    assert await (await backend.open()).running_deadlines() == expected
    assert await set_deadline(store, late.id, 1, None, None)
    await cancel_game(store, soon.id)
    assert await store.running_deadlines() == [] == await (await backend.open()).running_deadlines()


async def test_a_move_and_another_games_deadline_in_one_unit_are_written_together_or_not_at_all(
        backend: Backend) -> None:
    store = await backend.open()
    moving = await _running(store, "g1", deadline=3_000.0)
    other = await _running(store, "g2", deadline=1_000.0, names=("Carla", "Dino"))
    deadlines = await store.running_deadlines()
    with pytest.raises(StaleVersion):
        async with store.unit() as uow:
            uow.add(_move(moving, deadline=2_000.0))
            uow.add(DeadlineChange(other.id, 4, 5_000.0, DeadlineKind.COMPUTER))
    assert await store.get_game(moving.id) == moving and await store.moves(moving.id) == []
    assert await store.running_deadlines() == deadlines == await (await backend.open()).running_deadlines()
    async with store.unit() as uow:
        uow.add(_move(moving, deadline=2_000.0))
        uow.add(DeadlineChange(other.id, 0, 5_000.0, DeadlineKind.COMPUTER, warned=True))
    expected = [Deadline(moving.id, 2_000.0, DeadlineKind.TURN, False, 1),
                Deadline(other.id, 5_000.0, DeadlineKind.COMPUTER, True, 0)]
    assert await store.running_deadlines() == expected == await (await backend.open()).running_deadlines()
    assert [m.move for m in await store.moves(moving.id)] == ["1D"]


async def test_due_work_is_held_by_one_process_until_it_lets_go_or_its_lease_runs_out(
        backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    due = await _running(one, "g1", deadline=1_000.0)
    await _running(one, "g2", deadline=3_000.0, names=("Carla", "Dino"))
    entry = Deadline(due.id, 1_000.0, DeadlineKind.TURN, False, 0)
    assert await one.claim_due(1_000.0, 0.0, "one", 5.0) == [entry]
    assert await two.claim_due(1_001.0, 0.0, "two", 5.0) == [], "another process holds it"
    assert await one.claim_due(1_002.0, 0.0, "one", 5.0) == [entry], "its holder may take it again"
    assert await two.claim_due(1_006.0, 0.0, "two", 5.0) == [], "taking it again renewed the lease"
    assert await two.claim_due(1_007.0, 0.0, "two", 5.0) == [entry], "a dead holder's lease runs out"
    await one.release_claim(due.id, "one")
    assert await one.claim_due(1_008.0, 0.0, "one", 5.0) == [], "only the holder lets go"
    await two.release_claim(due.id, "two")
    assert await one.claim_due(1_008.0, 0.0, "one", 5.0) == [entry]


async def test_a_turn_is_due_for_its_warning_before_its_deadline_and_once_warned_at_it(
        backend: Backend) -> None:
    store = await backend.open()
    game = await _running(store, "g1", deadline=1_000.0)
    assert await store.claim_due(970.0, 20.0, "one", 5.0) == []
    assert await store.claim_due(980.0, 0.0, "one", 5.0) == [], "no warnings: due at the deadline"
    turn = Deadline(game.id, 1_000.0, DeadlineKind.TURN, False, 0)
    assert await store.claim_due(980.0, 20.0, "one", 5.0) == [turn]
    assert await set_deadline(store, game.id, 0, 1_000.0, "turn", warned=True)
    await store.release_claim(game.id, "one")
    assert await store.claim_due(990.0, 20.0, "two", 5.0) == [], "warned already"
    assert await store.claim_due(1_000.0, 20.0, "two", 5.0) == [replace(turn, warned=True)]
    await commit_move(store, _move(game, deadline=None, deadline_kind=None))
    assert await store.claim_due(9_000.0, 20.0, "three", 5.0) == [], "no deadline, nothing due"


async def test_processes_claiming_at_once_share_out_the_due_games(backend: Backend) -> None:
    stores = [await backend.open() for _ in range(3)]
    names = [(f"A{n}", f"B{n}") for n in range(12)]
    ids = {(await _running(stores[0], f"g{n}", deadline=1_000.0 + n, names=pair)).id
           for n, pair in enumerate(names)}
    rounds = await asyncio.gather(*(store.claim_due(2_000.0, 0.0, f"p{n}", 5.0)
                                    for n, store in enumerate(stores) for _ in range(3)))
    claimed = [entry.game_id for found in rounds for entry in found]
    owners = {entry.game_id: n // 3 for n, found in enumerate(rounds) for entry in found}
    assert set(claimed) == ids
    assert all(claimed.count(game) == 1 or len({owners[game]}) == 1 for game in ids)
    by_owner = [[d.game_id for n, found in enumerate(rounds) if n // 3 == p for d in found] for p in range(3)]
    for first in range(3):
        for second in range(first + 1, 3):
            assert not set(by_owner[first]) & set(by_owner[second]), "a game went to two processes"


async def test_a_process_claims_only_the_due_work_of_the_chats_it_serves(backend: Backend) -> None:
    store = await backend.open()
    server = (10**18 >> 22) * 4
    on_shard = {n: str(((server + n) << 22) + 7) for n in range(4)}
    assert all(len(home) == 19 for home in on_shard.values()), "as long as Discord's ids are"
    telegram = await _running(store, "-100", deadline=1_000.0, platform="telegram")
    discord = {n: await _running(store, f"c{n}", deadline=1_000.0 + n, names=(f"A{n}", f"B{n}"),
                                 platform="discord", home=on_shard[n]) for n in range(4)}
    unsharded = await _running(store, "c9", deadline=1_009.0, names=("Z", "Y"), platform="discord")

    def ids(found: list[Any]) -> set[int]:
        return {entry.game_id for entry in found}

    assert ids(await store.claim_due(2_000.0, 0.0, "tg", 5.0, Served(frozenset({"telegram"})))) == \
        {telegram.id}
    upper = Served(frozenset({"discord"}), 4, frozenset({2, 3}))
    assert ids(await store.claim_due(2_000.0, 0.0, "d23", 5.0, upper)) == \
        {discord[2].id, discord[3].id, unsharded.id}, "shards 2-3 of 4, and a chat of no known server"
    assert ids(await store.claim_due(2_000.0, 0.0, "all", 5.0)) == {discord[0].id, discord[1].id}


async def test_a_chat_keeps_its_home_once_told(store: Any) -> None:
    assert (await store.ensure_chat("discord", "c1")).home is None
    assert (await store.ensure_chat("discord", "c1", home="4194304")).home == "4194304"
    assert (await store.ensure_chat("discord", "c1", "general")).home == "4194304", "no home keeps it"
    assert (await store.get_chat((await store.ensure_chat("discord", "c1")).id)).home == "4194304"


async def test_each_message_is_held_by_one_process_until_it_lets_go_or_its_lease_runs_out(
        backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    game = await _running(one, "g1")
    assert await one.hold_message(game.id, "table", "one", 1_000.0, 10.0)
    assert not await two.hold_message(game.id, "table", "two", 1_001.0, 10.0), "another holds it"
    assert await two.hold_message(game.id, "hand:7", "two", 1_001.0, 10.0), "each message on its own"
    assert await one.hold_message(game.id, "table", "one", 1_005.0, 10.0), "its holder renews it"
    assert not await two.hold_message(game.id, "table", "two", 1_012.0, 10.0), "renewed until 1,015"
    assert await two.hold_message(game.id, "table", "two", 1_015.0, 10.0), "a dead holder's lease ran out"
    await one.release_message(game.id, "table", "one")
    assert not await one.hold_message(game.id, "table", "one", 1_016.0, 10.0), "only the holder lets go"
    await two.release_message(game.id, "table", "two")
    assert await one.hold_message(game.id, "table", "one", 1_016.0, 10.0)
    assert not await one.hold_message(game.id + 99, "table", "one", 1_016.0, 10.0), "no such game"


async def test_a_message_wanted_while_held_is_drawn_again_by_its_holder_before_it_lets_go(
        backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    game = await _running(one, "g1")
    assert await two.mark_message(game.id, "table", "two", 1_000.0) is None, "nobody holds it"
    assert await one.hold_message(game.id, "table", "one", 1_000.0, 10.0)
    assert await one.mark_message(game.id, "table", "one", 1_001.0) is None, "not the holder's own"
    assert await two.mark_message(game.id, "table", "two", 1_001.0) == 1_010.0
    assert await one.hold_message(game.id, "table", "one", 1_002.0, 10.0), "renewed, still wanted"
    assert not await one.release_message(game.id, "table", "one"), "draw it again first"
    assert not await two.hold_message(game.id, "table", "two", 1_003.0, 10.0), "still held"
    assert await one.release_message(game.id, "table", "one")
    assert await two.hold_message(game.id, "table", "two", 1_003.0, 10.0)
    assert await one.mark_message(game.id, "table", "one", 1_005.0) == 1_013.0
    assert await one.mark_message(game.id, "table", "one", 1_020.0) is None, "a lease run out is no hold"
    assert await one.hold_message(game.id, "table", "one", 1_020.0, 10.0)
    assert await one.release_message(game.id, "table", "one"), "the dead holder's mark is gone"


async def test_a_chats_messages_are_counted_for_every_process_in_one_window(backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    assert await one.take_send("telegram:-1", 1_000.0, 2, 60.0) == 0.0
    assert await two.take_send("telegram:-1", 1_010.0, 2, 60.0) == 0.0
    assert await one.take_send("telegram:-1", 1_020.0, 2, 60.0) == 40.0, "until the first is a minute old"
    assert await two.take_send("telegram:-2", 1_020.0, 2, 60.0) == 0.0, "each chat its own window"
    assert await two.take_send("telegram:-1", 1_060.0, 2, 60.0) == 0.0
    assert await one.take_send("telegram:-1", 1_061.0, 2, 60.0) == 9.0, "a refused one was not counted"


async def test_a_message_on_its_way_counts_as_late_as_it_may_go_until_it_is_settled(backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    assert await one.take_send("telegram:-1", 1_000.0, 2, 60.0, 1_030.0) == 0.0
    assert await two.take_send("telegram:-1", 1_001.0, 2, 60.0, 1_031.0) == 0.0
    assert await one.take_send("telegram:-1", 1_070.0, 2, 60.0) == 20.0, "counted from when it may go"
    await one.settle_send("telegram:-1", 1_030.0, 1_000.5)
    assert await two.take_send("telegram:-1", 1_070.0, 2, 60.0) == 0.0, "counted from when it went"
    await two.settle_send("telegram:-1", 1_031.0, None)
    assert await one.take_send("telegram:-1", 1_071.0, 2, 60.0) == 0.0, "one that never went counts no more"
    assert await one.take_send("telegram:-1", 1_072.0, 2, 60.0) == 58.0
    await one.settle_send("telegram:-1", 1_234.0, 1_100.0)  # nothing counted then: nothing changes
    assert await one.take_send("telegram:-1", 1_072.0, 2, 60.0) == 58.0


async def test_a_quiet_chats_counts_are_forgotten_by_the_next_message_anywhere(backend: Backend) -> None:
    store = await backend.open()
    for n in range(30):
        assert await store.take_send(f"telegram:-{n}", 1_000.0 + n, 20, 60.0) == 0.0
    assert await backend.rows("chat_sends") == 30
    assert await store.take_send("telegram:-99", 1_065.0, 20, 60.0) == 0.0
    assert await backend.rows("chat_sends") == 31, "another chat's minute may be counted longer"
    assert await store.take_send("telegram:-99", 1_000.0 + SENDS_KEPT + 5, 20, 60.0) == 0.0
    assert await backend.rows("chat_sends") == 31 - 6, "the six counts older than SENDS_KEPT"
    assert await store.take_send("telegram:-99", 1_140.0 + SENDS_KEPT, 20, 60.0) == 0.0
    assert await backend.rows("chat_sends") == 5, "twenty of the other chats' at a time"
    assert await store.take_send("telegram:-99", 1_141.0 + SENDS_KEPT, 20, 60.0) == 0.0
    assert await backend.rows("chat_sends") == 2, "only the last minute's"


async def test_a_count_over_a_second_keeps_another_names_minute(backend: Backend) -> None:
    """The bot's second and a group's minute counted in one store: the short window's calls
    drop none of the minute's counts (three processes once sent 44 in a group's minute)."""
    store = await backend.open()
    assert await store.take_send("telegram:-1", 1_000.0, 2, 62.0) == 0.0
    assert await store.take_send("telegram:-1", 1_001.0, 2, 62.0) == 0.0
    for n in range(40):
        assert await store.take_send("telegram:bot", 1_002.0 + n, 30, 1.1) == 0.0
    assert await store.take_send("telegram:-1", 1_050.0, 2, 62.0) == 12.0


# ---- message references --------------------------------------------------------


async def test_message_references_are_kept_per_game(store: Any) -> None:
    first = await _running(store, "g1")
    second = await _running(store, "g2", names=("Carla", "Dino"))
    await store.set_ref(first.id, "table", "100")
    await store.set_ref(first.id, "hand:0", "101")
    await store.set_ref(second.id, "table", "200")
    await store.set_ref(first.id, "table", "102")
    await store.set_ref(first.id, "hand:0", None)
    await store.set_ref(first.id, "never-set", None)
    assert await store.get_refs(first.id) == {"table": "102"}
    assert await store.get_refs(second.id) == {"table": "200"}
    assert await store.get_refs(second.id + 1000) == {}


async def test_notes_written_in_one_unit_are_all_kept_or_none(store: Any) -> None:
    """An owed notice and the mark that it is owed: never one without the other."""
    game = await _running(store, "g1")
    await store.set_ref(game.id, "review:line", "due")
    async with store.unit() as uow:
        uow.add(GameNotes(game.id, (("notice:3:review:", "{}"), ("review:line", "owed"), ("gone", None))))
    assert await store.get_refs(game.id) == {"notice:3:review:": "{}", "review:line": "owed"}
    with pytest.raises(StaleVersion):
        async with store.unit() as uow:
            uow.add(GameNotes(game.id, (("notice:9:other", "{}"), ("review:line", "again"))))
            uow.add(GameCancel(game.id, GameStatus.LOBBY))
    assert await store.get_refs(game.id) == {"notice:3:review:": "{}", "review:line": "owed"}



async def test_a_move_stores_what_it_owes_the_chat_with_it_or_not_at_all(store: Any) -> None:
    first = await _running(store, "g1")
    second = await _running(store, "g2", names=("Carla", "Dino"))
    await store.set_ref(first.id, "table", "100")
    owed = (("notice:1:round:0001", "{}"), ("notice:2:match", "{}"))
    with pytest.raises(StaleVersion):
        await commit_move(store, _move(first, 5, refs=owed))
    assert await store.refs_with_prefix("notice:") == []
    await commit_move(store, _move(first, refs=owed))
    await commit_move(store, _move(second, refs=owed[:1]))
    assert await store.refs_with_prefix("notice:") == [
        (first.id, "notice:1:round:0001", "{}"), (first.id, "notice:2:match", "{}"),
        (second.id, "notice:1:round:0001", "{}")]
    await store.set_ref(first.id, "notice:1:round:0001", None)
    assert [key for _, key, _ in await store.refs_with_prefix("notice:")] == [
        "notice:2:match", "notice:1:round:0001"]
    assert await store.refs_with_prefix("notice:9") == []
    assert (await store.get_refs(first.id))["table"] == "100"


# ---- results and reports -------------------------------------------------------


async def test_leaderboards_rank_by_rating_in_a_chat_or_everywhere(store: Any) -> None:
    await _finished(store, "g1", ("Alice", "Bob"), mus=(30.0, 20.0), scope=(3, 1))
    await _finished(store, "g1", ("Alice", "Bob"), points=(2, 11), mus=(28.0, 24.0), scope=(0, 4))
    await _finished(store, "g2", ("Carla", "Dino"), mus=(40.0, 10.0))
    await _running(store, "g3", names=("Ezio", "Alice"))
    board = await store.leaderboard((await store.ensure_chat("t", "g1")).id)
    assert [(r.display_name, r.rating, r.games, r.wins, r.scope, r.win_rate) for r in board] == [
        ("Alice", 25.0, 2, 1, 3, 0.5), ("Bob", 21.0, 2, 1, 5, 0.5)]
    everywhere = await store.leaderboard(None)
    assert [r.display_name for r in everywhere] == ["Carla", "Alice", "Bob", "Dino"]
    assert [r.display_name for r in await store.leaderboard(None, limit=2)] == ["Carla", "Alice"]
    assert await store.leaderboard(None, "duel") == everywhere, "every rating here is a duel's"
    unrated = await store.leaderboard(None, "team")
    assert {r.display_name for r in unrated} == {"Alice", "Bob", "Carla", "Dino"}
    assert all(r.rating == 0.0 for r in unrated)


async def test_computers_are_left_off_leaderboards_and_named_cpu_in_recent_matches(
        store: Any, backend: Backend) -> None:
    game = await _lobby(store, "g1")
    assert await set_seats(store, game.id, [game.seats[0], SeatRow(1, None, "easy", True, 0, False)])
    assert await start_game(store, game.id, {"round": 1}, (await store.get_game(game.id)).seats, None, None)
    game = await store.get_game(game.id)
    await commit_move(store, _move(game, finish=_finish(game)))
    assert [r.display_name for r in await store.leaderboard(game.chat_id)] == ["Alice"]
    recent = await store.recent_matches(game.chat_id)
    assert [(m.game_id, m.variant, m.players) for m in recent] == [
        (game.id, "scopa", (("Alice", 11, True), ("CPU", 4, False)))]


async def test_player_stats_count_finished_matches(store: Any) -> None:
    first = await _finished(store, "g1", mus=(30.0, 20.0), scope=(3, 1))
    await _finished(store, "g2", points=(5, 11), mus=(28.0, 22.0), scope=(1, 2))
    await _running(store, "g3")
    alice = first.seats[0].player_id
    stats = await store.player_stats(alice)
    assert {k: stats[k] for k in ("games", "wins", "scope", "points")} == {
        "games": 2, "wins": 1, "scope": 4, "points": 16}
    assert stats["ratings"] == {"duel": {"rating": 25.0, "mu": 28.0, "sigma": 1.0, "games": 1, "wins": 0}}
    assert stats["win_kinds"] == {}
    nobody, = await _players(store, "Zeno")
    assert await store.player_stats(nobody) == {"games": 0, "wins": 0, "scope": 0, "points": 0,
                                                "win_kinds": {}, "ratings": {}, "reviewed": 0,
                                                "accuracy": None, "practice": 0, "dailies": 0}


async def test_a_review_is_kept_once_with_the_match_and_averaged_into_stats(
        store: Any, backend: Backend) -> None:
    first = await _finished(store, "g1", line='{"m":1}')
    second = await _finished(store, "g2")
    alice, bob = (seat.player_id for seat in first.seats)
    assert await store.match_record(first.id) == '{"m":1}'
    assert await store.match_review(first.id) is None
    assert await store.match_record(12345) is None and await store.match_review(12345) is None
    assert await store_review(store, first.id, '{"review":1}',
                                    [ReviewSeatRow(0, alice, 90.0), ReviewSeatRow(1, bob, 40.0)])
    assert not await store_review(store, first.id, '{"review":2}', [ReviewSeatRow(0, alice, 10.0)])
    assert await store.match_review(first.id) == '{"review":1}'
    assert await backend.rows("review_seats") == 2
    assert await store_review(store, second.id, '{"review":3}',
                                    [ReviewSeatRow(0, alice, 70.0), ReviewSeatRow(1, None, 99.0)])
    alice_stats, bob_stats = await store.player_stats(alice), await store.player_stats(bob)
    assert (alice_stats["reviewed"], alice_stats["accuracy"]) == (2, pytest.approx(80.0))
    assert (bob_stats["reviewed"], bob_stats["accuracy"]) == (1, pytest.approx(40.0))
    reopened = await backend.open()
    try:
        assert await reopened.match_review(second.id) == '{"review":3}'
    finally:
        await reopened.close()


async def test_a_players_last_finished_match_wherever_played_and_the_matches_not_reviewed(
        store: Any, backend: Backend) -> None:
    backend.clock.advance(60)
    first = await _finished(store, "g1")
    backend.clock.advance(60)
    second = await _finished(store, "g2", names=("Alice", "Carla"))
    backend.clock.advance(60)
    await _running(store, "g3")
    computers = await _lobby(store, "g4")
    assert await set_seats(store, computers.id, [SeatRow(0, None, "easy", True, 0, False),
                                                 SeatRow(1, None, "hard", True, 0, False)])
    assert await start_game(store, computers.id, {"round": 1}, (await store.get_game(computers.id)).seats,
                            None, None)
    computers = await store.get_game(computers.id)
    await commit_move(store, _move(computers, finish=_finish(computers)))
    alice, bob = (seat.player_id for seat in first.seats)
    nobody, = await _players(store, "Zeno")
    assert await store.last_finished_game(alice) == second.id
    assert await store.last_finished_game(bob) == first.id
    assert await store.last_finished_game(nobody) is None
    assert await store.unreviewed_matches(0.0, 10) == [first.id, second.id]
    assert await store.unreviewed_matches(second.finished_at, 10) == [second.id]
    assert await store.unreviewed_matches(0.0, 1) == [first.id]
    assert await store_review(store, first.id, '{"review":1}', [ReviewSeatRow(0, alice, 50.0)])
    assert await store.unreviewed_matches(0.0, 10) == [second.id]


async def test_reviewed_matches_of_a_chat_or_a_player_latest_first_never_a_deal_of_the_day(
        store: Any, backend: Backend) -> None:
    backend.clock.advance(60)
    first = await _finished(store, "g1")
    backend.clock.advance(60)
    second = await _finished(store, "g1", names=("Alice", "Carla"))
    backend.clock.advance(60)
    elsewhere = await _finished(store, "g2", names=("Alice", "Dino"))
    unreviewed = await _finished(store, "g1")
    playing = await _running(store, "g3")
    daily = await _daily_played(store, "g1", "Alice", (11, 2), 1)
    alice, bob = (seat.player_id for seat in first.seats)
    for game in (first, second, elsewhere, playing, daily):
        assert await store_review(store, game.id, '{"review":1}', [ReviewSeatRow(0, alice, 50.0)])
    chat = first.chat_id
    assert await store.reviewed_matches(chat, None, 10) == [second.id, first.id]
    assert await store.reviewed_matches(chat, None, 1) == [second.id]
    assert await store.reviewed_matches(None, alice, 10) == [elsewhere.id, second.id, first.id]
    assert await store.reviewed_matches(chat, bob, 10) == [first.id]
    assert await store.reviewed_matches(elsewhere.chat_id, bob, 10) == []
    assert unreviewed.id not in await store.reviewed_matches(None, None, 10)


def _daily_deal(chat: ChatRow, ids: list[int], day: str, thread: str = "") -> DailyDeal:
    """The deal of `day` of the first of `ids` against the second, asked for in `chat`."""
    seats = tuple(SeatRow(seat, pid, None, True, 0, False) for seat, pid in enumerate(ids))
    return DailyDeal(NewGame(chat.id, ids[0], "scopa", {"target": 11}, 2, 0, "napoletane", "seed-1", thread,
                             seats), {"round": 1, "hands": [[1, 2], [3, 4]]}, 2_000_000.0, DeadlineKind.TURN,
                     day, chat.id)


async def _daily_dealt(store: Any, chat_key: str, name: str, day: str) -> GameRow:
    """`name`'s deal of `day` in `chat_key` against a second seat, dealt and claimed in one write."""
    chat = await store.ensure_chat("t", chat_key, "Friends")
    async with store.unit() as uow:
        uow.add(_daily_deal(chat, await _players(store, name, f"Rival of {name}"), day))
    return await store.get_game(uow.created)


async def _daily_played(store: Any, chat_key: str, name: str, points: tuple[int, int], moves: int,
                        day: str = "2026-11-25") -> GameRow:
    """`name` plays the deal of `day` in `chat_key` against a second seat, making `moves` plays
    before the second seat's play ends the match."""
    game = await _daily_dealt(store, chat_key, name, day)
    for _ in range(moves):
        game = await store.get_game(game.id)
        await commit_move(store, _move(game, seat=0))
    game = await store.get_game(game.id)
    await commit_move(store, _move(game, seat=1, state={"over": True}, finish=_finish(game, points=points)))
    return game


async def test_the_deal_of_the_day_is_claimed_once_and_ranked_by_margin_then_fewer_moves(
        store: Any) -> None:
    day = "2026-11-25"
    anna = await _daily_played(store, "g1", "Anna", (11, 4), moves=6)
    await _daily_played(store, "g1", "Bruno", (11, 4), moves=4)
    await _daily_played(store, "p-carla", "Carla", (11, 9), moves=3)
    await _daily_played(store, "p-dino", "Dino", (5, 11), moves=2)
    await _finished(store, "g1", ("Carla", "Bob"))
    await _daily_dealt(store, "p-ezio", "Ezio", day)
    anna_id = anna.seats[0].player_id
    with pytest.raises(DailyClaimed):
        async with store.unit() as uow:
            uow.add(_daily_deal(await store.ensure_chat("t", "p-anna", "Anna"),
                                await _players(store, "Anna", "Rival of Anna"), day))
    assert await store.daily_game(day, anna_id) == anna.id
    assert await store.daily_game("2026-11-26", anna_id) is None
    everyone = await store.daily_board(day, None)
    assert [(r.display_name, r.margin, r.moves) for r in everyone] == [
        ("Bruno", 7, 4), ("Anna", 7, 6), ("Carla", 2, 3), ("Dino", -6, 2)]
    group = await store.daily_board(day, anna.chat_id)
    assert [r.display_name for r in group] == ["Bruno", "Anna", "Carla"], "Carla sat in one of its games"
    assert [r.display_name for r in await store.daily_board(day, None, limit=1)] == ["Bruno"]
    assert await store.daily_board("2026-11-24", None) == []


async def test_a_deal_of_the_day_is_dealt_and_claimed_in_one_write_or_not_at_all(
        store: Any, backend: Backend) -> None:
    ids = await _players(store, "Anna", "Rival")
    home = await store.ensure_chat("t", "p-anna", "Anna")
    group = await store.ensure_chat("t", "g1", "Friends")
    seats = (SeatRow(0, ids[0], None, True, 0, False), SeatRow(1, ids[1], "hard", True, 0, False))

    def deal(thread: str = "") -> DailyDeal:
        return DailyDeal(NewGame(home.id, ids[0], "scopa", {"target": 11}, 2, 0, "napoletane", "s", thread,
                                 seats), {"round": 1}, 1_500.0, DeadlineKind.TURN, "2026-11-25", group.id)

    async with store.unit() as uow:
        uow.add(deal())
    dealt = await store.get_game(uow.created)
    assert (dealt.status, dealt.version, dealt.state, dealt.deadline) == ("running", 0, {"round": 1}, 1_500.0)
    assert await store.daily_game("2026-11-25", ids[0]) == dealt.id and await store.is_daily(dealt.id)
    assert await store.running_deadlines() == [Deadline(dealt.id, 1_500.0, DeadlineKind.TURN, False, 0)]
    games = await backend.rows("games")
    with pytest.raises(DailyClaimed):
        async with store.unit() as uow:
            uow.add(deal(thread="elsewhere"))
    with pytest.raises(OpenGameExists):
        async with store.unit() as uow:
            uow.add(deal())
    assert (await backend.rows("games"), await backend.rows("daily_plays")) == (games, 1), "nothing written"


async def test_a_secret_is_kept_once_for_every_store_on_the_database(store: Any, backend: Backend) -> None:
    assert await kept_secret(store, "daily", "first") == "first"
    assert await kept_secret(store, "daily", "second") == "first"
    other = await backend.open()
    assert await kept_secret(other, "daily", "third") == "first", "another process gets the same"
    assert await kept_secret(other, "other", "own") == "own"
    assert await backend.rows("secrets") == 2


async def test_player_stats_count_federal_wins_by_kind(store: Any) -> None:
    first = await _finished(store, "g1", points=(8, 0), line=json.dumps({"win_kind": "tripla"}))
    await _finished(store, "g2", points=(8, 5), line=json.dumps({"win_kind": "semplice"}))
    await _finished(store, "g3", points=(2, 8), line=json.dumps({"win_kind": "doppia"}))
    await _finished(store, "g4", points=(11, 3))
    alice, bob = (seat.player_id for seat in first.seats)
    assert (await store.player_stats(alice))["win_kinds"] == {"tripla": 1, "semplice": 1}
    assert (await store.player_stats(bob))["win_kinds"] == {"doppia": 1}


async def test_recent_matches_newest_first(store: Any, backend: Backend) -> None:
    games = []
    for n in range(4):
        backend.clock.advance(60)
        games.append(await _finished(store, "g1", points=(11, n)))
    await _finished(store, "g2")
    recent = await store.recent_matches(games[0].chat_id, limit=3)
    assert [m.game_id for m in recent] == [g.id for g in reversed(games)][:3]
    assert [m.finished_at for m in recent] == [g.finished_at for g in reversed(games)][:3]
    assert recent[0].players == (("Alice", 11, True), ("Bob", 3, False))
    assert await store.recent_matches((await store.ensure_chat("t", "empty")).id) == []


async def test_records_are_exported_in_the_order_games_were_made(store: Any) -> None:
    first = await _running(store, "g1")
    second = await _running(store, "g2", names=("Carla", "Dino"))
    await commit_move(store, _move(second, finish=_finish(second, line="second")))
    await cancel_game(store, first.id, "first")
    await _lobby(store, "g3")
    assert await store.records() == ["first", "second"]


# ---- a whole match ---------------------------------------------------------------


async def test_a_match_played_through_sessions_is_stored_whole(backend: Backend) -> None:
    store = await backend.open()
    sessions = Sessions(store, clock=backend.clock, computer_pace=0.0, chooser=first_legal)
    chat = ChatRef("test", "group-1", "Friends")
    alice, bob = UserRef("test", "u1", "Alice", "it"), UserRef("test", "u2", "Bob", "en")
    await sessions.lobby.new_game(chat, alice, "scopa")
    await sessions.lobby.join(chat, bob)
    game_id = (await sessions.lobby.start(chat, alice)).game_id
    await play_to_end(sessions, game_id, [alice, bob])
    game = await sessions.queries.stored_game(game_id)
    assert game is not None and game.winner is not None
    reopened = await backend.open()
    row = await reopened.get_game(game_id)
    assert row.status == "finished" and len(await reopened.moves(game_id)) == row.version
    assert [json.loads(line) for line in await reopened.records()] == [to_record(game)]
    assert await reopened.round_records(game_id) == to_record(game)["rounds"]
    assert {r.display_name for r in await reopened.leaderboard(row.chat_id)} == {"Alice", "Bob"}


async def test_a_database_lost_while_running_is_a_storage_failure(store: Any, backend: Backend) -> None:
    game = await _running(store)
    if backend.name == "sqlite":
        store._db.execute("PRAGMA query_only=1")
    else:
        await store.pool.close()
    with pytest.raises(StorageFailed):
        await commit_move(store, _move(game))
    with pytest.raises(StorageFailed):
        await store.set_ref(game.id, "table", "1")
    if backend.name == "sqlite":
        store._db.execute("PRAGMA query_only=0")
        assert [m.number for m in await store.moves(game.id)] == [], "nothing half stored"


async def test_a_players_finished_matches_say_how_they_count_and_achievements_are_kept_once(
        store: Any, backend: Backend) -> None:
    first = await _running(store, "g1")
    alice, bob = (seat.player_id for seat in first.seats)
    earned = ((alice, "first_scopa"),)
    await commit_move(store, _move(first, state={"over": True},
                                  finish=replace(_finish(first, line='{"m":1}'), achievements=earned)))
    backend.clock.advance(60)
    practice = await _lobby(store, "g2")
    assert await update_lobby(store, practice.id, options={"target": 11, "practice": True})
    assert await start_game(store, practice.id, {"round": 1}, practice.seats, None, None)
    practice = await store.get_game(practice.id)
    await commit_move(store, _move(practice, state={"over": True}, finish=replace(
        _finish(practice, points=(4, 11), line='{"m":2}'),
        achievements=((alice, "first_scopa"), (bob, "comeback")))))
    backend.clock.advance(60)
    home = await store.ensure_chat("t", "p-alice", "Alice")
    seats = (SeatRow(0, alice, None, True, 0, False), SeatRow(1, None, "hard", True, 0, False))
    async with store.unit() as uow:
        uow.add(DailyDeal(NewGame(home.id, alice, "scopone", {"target": 11}, 2, 0, "napoletane", "s",
                                  "", seats), {"round": 1}, 1_500.0, DeadlineKind.TURN, "2026-11-25",
                          first.chat_id))
    daily = await store.get_game(uow.created)
    await commit_move(store, _move(daily, state={"over": True}, finish=_finish(daily, line='{"m":3}')))
    await _running(store, "g3")
    played = [(m.game_id, m.seat, m.variant, m.kind, m.won, m.finished_at, m.record)
              for m in await store.played_matches(alice)]
    assert played == [
        (first.id, 0, "scopa", MatchKind.COUNTED, True, 1_000_000.0, '{"m":1}'),
        (practice.id, 0, "scopa", MatchKind.PRACTICE, False, 1_000_060.0, '{"m":2}'),
        (daily.id, 0, "scopone", MatchKind.DAILY, True, 1_000_120.0, '{"m":3}')]
    assert [m.seat for m in await store.played_matches(bob)] == [1, 1]
    assert await store.played_matches(12345) == []
    kept = await store.achievements([alice, bob])
    assert [(a.player_id, a.code, a.game_id, a.earned_at) for a in kept] == [
        (alice, "first_scopa", first.id, 1_000_000.0), (bob, "comeback", practice.id, 1_000_060.0)], \
        "Alice's first stays where she earned it"
    assert [a.code for a in await store.achievements([bob])] == ["comeback"]
    assert await store.achievements([]) == [] and await backend.rows("achievements") == 2


# ---- monthly seasons -------------------------------------------------------------


async def _against_computer(store: Any, chat_key: str, won: bool) -> GameRow:
    game = await _lobby(store, chat_key, ("Alice", "Bob"))
    assert await set_seats(store, game.id, [game.seats[0], SeatRow(1, None, "easy", True, 0, False)])
    assert await start_game(store, game.id, {"round": 1}, (await store.get_game(game.id)).seats, None, None)
    game = await store.get_game(game.id)
    await commit_move(store, _move(game, finish=_finish(game, points=(11, 4) if won else (4, 11))))
    return game


async def test_season_results_are_the_rated_matches_finished_in_the_period(store: Any,
                                                                           backend: Backend) -> None:
    start = backend.clock.now
    first = await _finished(store, "g1", ("Alice", "Bob"))
    backend.clock.advance(60.0)
    vs_computer = await _against_computer(store, "g1", won=False)
    backend.clock.advance(60.0)
    elsewhere = await _finished(store, "g2", ("Carla", "Alice"), points=(3, 11))
    await _running(store, "g3", names=("Ezio", "Alice"))
    end = backend.clock.now + 1.0
    backend.clock.advance(10.0)
    await _finished(store, "g1", ("Alice", "Bob"))
    alice, bob = first.seats[0].player_id, first.seats[1].player_id
    chat = first.chat_id
    results = await store.season_results(start, end, chat)
    assert [(r.game_id, r.player_id, r.name, r.won, r.computer, r.chat_id) for r in results] == [
        (first.id, alice, "Alice", True, False, chat), (first.id, bob, "Bob", False, False, chat),
        (vs_computer.id, alice, "Alice", False, True, chat)]
    assert results[0].finished_at == start
    everywhere = await store.season_results(start, end, None)
    assert [(r.game_id, r.name, r.won) for r in everywhere[3:]] == [
        (elsewhere.id, "Alice", True), (elsewhere.id, "Carla", False)]
    assert await store.season_results(end + 100.0, end + 200.0, None) == []


async def test_a_season_is_closed_in_each_chat_once_by_one_owner_at_a_time(store: Any,
                                                                           backend: Backend) -> None:
    start = backend.clock.now
    one = await _finished(store, "g1")
    two = await _finished(store, "g2", ("Carla", "Dino"))
    await _against_computer(store, "g3", won=True)
    end = backend.clock.now + 1.0
    now = end + 3600.0
    claimed = await store.claim_season_closes("2026-11", start, end, "p1", now, 60.0, None)
    assert [c.id for c in claimed] == sorted([one.chat_id, two.chat_id, claimed[2].id])
    other = await backend.open()
    assert await other.claim_season_closes("2026-11", start, end, "p2", now, 60.0, None) == [], "all held"
    await store.season_closed(one.chat_id, "2026-11", "p1", True)
    await store.season_closed(two.chat_id, "2026-11", "p1", False)
    assert [c.id for c in await other.claim_season_closes("2026-11", start, end, "p2", now, 60.0, None)] == [
        two.chat_id], "let go: another takes it; the third is still held"
    later = now + 61.0
    again = await other.claim_season_closes("2026-11", start, end, "p2", later, 60.0, None)
    assert one.chat_id not in [c.id for c in again], "closed for good"
    assert len(again) == 2, "a lease run out is taken by another"
    await store.season_closed(claimed[2].id, "2026-11", "p1", True)
    assert (await store.claim_season_closes("2026-11", start, end, "p1", later, 60.0, None)) == [], \
        "an owner that lost its lease closes nothing"
    assert [c.id for c in await store.claim_season_closes("2026-12", start, end, "p1", later, 60.0,
                                                           Served(frozenset({"x"})))] == [], "not served"
    assert await backend.rows("season_closes") == 3


async def test_a_chat_has_one_open_tournament_written_over_its_version(store: Any,
                                                                     backend: Backend) -> None:
    chat = await store.ensure_chat("telegram", "-900", "Torneo")
    first = await store.open_tournament(chat.id, '{"n": 0}', backend.clock.now)
    assert first is not None
    other = await backend.open()
    assert await other.open_tournament(chat.id, "{}", backend.clock.now) is None, "one open per chat"
    row = await other.chat_tournament(chat.id)
    assert (row.id, row.status, row.version, row.state) == (first, "signup", 0, '{"n": 0}')
    assert await store.save_tournament(first, 0, "running", '{"n": 1}', backend.clock.now)
    assert not await other.save_tournament(first, 0, "running", '{"n": 2}', backend.clock.now), \
        "a second writer over the same version writes nothing"
    assert [r.state for r in await other.running_tournaments()] == ['{"n": 1}']
    assert await other.save_tournament(first, 1, "finished", '{"n": 3}', backend.clock.now)
    assert await store.chat_tournament(chat.id) is None
    assert (await store.tournament(first)).status == "finished"
    assert await store.open_tournament(chat.id, "{}", backend.clock.now) is not None, "finished: a new one"
    assert await backend.rows("tournaments") == 2


async def test_a_tournament_won_is_granted_once_of_two_processes(store: Any, backend: Backend) -> None:
    final = await _finished(store, "g-final")
    alice = final.seats[0].player_id
    other = await backend.open()
    assert await grant_achievement(store, alice, "tournament_won:7", final.id, backend.clock.now)
    assert not await grant_achievement(other, alice, "tournament_won:7", final.id, backend.clock.now), \
        "the same tournament's is kept once"
    assert await grant_achievement(other, alice, "tournament_won:8", final.id, backend.clock.now)
    kept = await store.achievements([alice])
    assert [(a.code, a.game_id) for a in kept] == [("tournament_won:7", final.id),
                                                   ("tournament_won:8", final.id)]
