"""The deal of the day on each database (SQLite, PostgreSQL): dealing it and claiming the day are
one write, so a process killed (SIGKILL) at any step of /daily leaves nothing half-done and the
next /daily deals the day's cards, once; what older versions left stuck is repaired at start;
the day's seed is keyed with the secret the database keeps, the same for every process and
every restart, so the date alone tells nothing of the deal."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Game, Move, Rules, SeatView
from bot.sessions import ChatRef, Reason, Refused, Sessions, UserRef
from bot.sessions.daily import DAILY_TARGET
from bot.sessions.ports import StorageAway
from bot.sessions.records import DailyDeal, GameStatus, NewGame, SeatRow
from bot.storage.backends import open_store

from .. import pg
from ..crash_daily import killed_asking_for_the_daily
from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, FakeClock, first_legal, play_to_end
from ..store_helpers import kept_secret

NOON = datetime(2026, 11, 25, 12, 0, tzinfo=UTC).timestamp()
DAY = date(2026, 11, 25)

NewDatabase = Callable[[], Awaitable[str]]


def private(user: UserRef) -> ChatRef:
    return ChatRef(user.platform, user.key, user.name)


def date_alone(day: date) -> str:
    """The seed a day's deal had when it came from the date alone: anyone could work it out."""
    return hashlib.sha256(f"daily:{day.isoformat()}".encode()).hexdigest()[:16]


@pytest.fixture(params=["sqlite", "postgresql"])
async def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[NewDatabase]:
    """Makes empty databases of the kind the test runs on; each call gives another's address."""
    cluster = pg.shared_cluster() if request.param == "postgresql" else None
    numbers = itertools.count()
    made: list[str] = []

    async def new() -> str:
        if cluster is None:
            return f"sqlite:///{tmp_path / f'daily-{next(numbers)}.db'}"
        made.append(await cluster.create_database())
        return made[-1]

    yield new
    for url in made:
        assert cluster is not None
        await cluster.drop_database(url)


async def sessions_on(url: str, clock: FakeClock, chooser: Any = first_legal) -> Sessions:
    """A bot process on the database at `url`."""
    return Sessions(await open_store(url, clock), clock=clock, computer_pace=0.0, chooser=chooser)


def cards(sessions_hand: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(map(str, sessions_hand.hand)), tuple(map(str, sessions_hand.table))


# ---- killed at every step ------------------------------------------------------------------


async def test_a_process_killed_at_any_step_of_daily_leaves_the_next_daily_the_days_deal_once(
        new_database: NewDatabase) -> None:
    steps = 0
    for step in itertools.count():
        url = await new_database()
        said = killed_asking_for_the_daily(url, step)
        sessions = await sessions_on(url, FakeClock(NOON))
        try:
            start = await sessions.daily.start(CHAT, private(ALICE), ALICE)
            assert start.resumed == (said == "dealt"), f"step {step}: {said}"
            game_id = start.table.game_id
            bob = await sessions.daily.start(CHAT, private(BOB), BOB)
            assert cards(await sessions.queries.hand(game_id, ALICE)) == cards(
                await sessions.queries.hand(bob.table.game_id, BOB)), "the day's deal"
            await play_to_end(sessions, game_id, [ALICE])
            assert [g.id for g in await sessions.queries.games_of(ALICE)] == [], "no second deal left open"
            with pytest.raises(Refused) as again:
                await sessions.daily.start(CHAT, private(ALICE), ALICE)
            assert again.value.reason is Reason.DAILY_PLAYED, "played once, and only then"
            board = await sessions.queries.daily_board(None)
            assert [line.name for line in board.lines] == [ALICE.name]
        finally:
            await sessions.close()
        if said == "dealt":
            break
        steps += 1
    assert steps >= 5, "the player, the chats, the computer, the key and the deal are each a step"


# ---- what older versions left stuck ----------------------------------------------------------


async def _lobby(store: Any, platform: str, chat_key: str, creator: Any, thread: str = "",
                 seats: tuple[SeatRow, ...] | None = None, seed: str = "seed") -> int:
    chat = await store.ensure_chat(platform, chat_key, "somewhere")
    async with store.unit() as uow:
        uow.add(NewGame(chat.id, creator.id, "scopa", {"target": DAILY_TARGET}, 2, 0, "napoletane", seed,
                        thread, seats))
    assert uow.created is not None
    return uow.created


async def test_a_stuck_daily_and_lobbies_nobody_can_play_are_repaired_at_start(
        new_database: NewDatabase) -> None:
    url = await new_database()
    clock = FakeClock(NOON)
    store = await open_store(url, clock)
    alice = await store.ensure_player(ALICE.platform, ALICE.key, ALICE.name)
    computer = await store.ensure_player("computer", "hard", "CPU hard", is_computer=True)
    group = await store.ensure_chat(CHAT.platform, CHAT.key, CHAT.title)
    # As /daily wrote it when stopped after its claim: the lobby, then the claim, never dealt.
    stuck = await _lobby(store, ALICE.platform, ALICE.key, alice, seed=date_alone(DAY),
                         seats=(SeatRow(0, alice.id, None, True, 0, False),
                                SeatRow(1, computer.id, "hard", True, 0, False)))
    assert await store._change("INSERT INTO daily_plays (day, player_id, chat_id, game_id) "
                               "VALUES (?, ?, ?, ?)", (DAY.isoformat(), alice.id, group.id, stuck)) == 1
    # As Rematch under a finished deal of the day wrote it: a lobby in a Telegram private chat,
    # and one in a player's deal-of-the-day place of a Discord channel.
    bruno = await store.ensure_player("telegram", "42", "Bruno")
    telegram_private = await _lobby(store, "telegram", "42", bruno)
    dina = await store.ensure_player("discord", "43", "Dina")
    discord_place = await _lobby(store, "discord", "777", dina, thread="daily-43")
    # Lobbies that can be played stay: a Telegram group's, a Discord channel's, a terminal's.
    kept = [await _lobby(store, "telegram", "-100", bruno), await _lobby(store, "discord", "777", dina),
            await _lobby(store, "terminal", "me", await store.ensure_player("terminal", "me", "me"))]
    await store.close()

    started = await asyncio.gather(*(open_store(url, clock) for _ in range(3)))
    try:
        for game_id in (stuck, telegram_private, discord_place):
            assert (await started[0].get_game(game_id)).status is GameStatus.CANCELLED
        assert [(await started[1].get_game(game_id)).status for game_id in kept] == [GameStatus.LOBBY] * 3
        assert await started[2].daily_game(DAY.isoformat(), alice.id) is None, "the undealt claim dropped"
        again = await open_store(url, clock)
        started.append(again)
        assert [(await again.get_game(game_id)).status for game_id in kept] == [GameStatus.LOBBY] * 3
        sessions = Sessions(again, clock=clock, computer_pace=0.0, chooser=first_legal)
        start = await sessions.daily.start(CHAT, private(ALICE), ALICE)
        assert not start.resumed and (await again.get_game(start.table.game_id)).status is GameStatus.RUNNING
        await play_to_end(sessions, start.table.game_id, [ALICE])
        assert [line.name for line in (await sessions.queries.daily_board(CHAT)).lines] == [ALICE.name]
    finally:
        for opened in started:
            await opened.close()


# ---- a deal nobody knows before the day ------------------------------------------------------


async def test_the_days_deal_and_the_computers_replies_come_from_the_databases_secret_not_the_date(
        new_database: NewDatabase, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    url = await new_database()
    seeds: list[str] = []

    def chooser(level: str, view: SeatView, seed: str, budget: float | None = None) -> Move:
        seeds.append(seed)
        return first_legal(level, view, seed, budget)

    clock = FakeClock(NOON)
    one, two = await sessions_on(url, clock, chooser), await sessions_on(url, clock, chooser)
    try:
        alice, bob = await asyncio.gather(one.daily.start(CHAT, private(ALICE), ALICE),
                                          two.daily.start(CHAT, private(BOB), BOB))
        dealt = cards(await one.queries.hand(alice.table.game_id, ALICE))
        assert dealt == cards(await two.queries.hand(bob.table.game_id, BOB)), "one deal for every process"
        rules = Rules.from_options("scopa", {"target": DAILY_TARGET})
        by_date = Game.new("scopa", 2, rules=rules, seed=date_alone(DAY)).view(0)
        assert dealt != (tuple(map(str, by_date.hand)), tuple(map(str, by_date.table)))
        seed = (await one.store.get_game(alice.table.game_id)).seed
        assert seed != date_alone(DAY)
        assert seed == (await two.store.get_game(bob.table.game_id)).seed
        await two.close()
        await play_to_end(one, alice.table.game_id, [ALICE])
        assert seeds and all(s.startswith(f"{seed}/") for s in seeds), "the computer searches from it"
        key = await kept_secret(one.store, "daily", "another")
    finally:
        await one.close()
        await two.close()
    restarted = await sessions_on(url, clock)
    try:
        carla = await restarted.daily.start(CHAT, private(CARLA), CARLA)
        assert cards(
                await restarted.queries.hand(carla.table.game_id, CARLA)) == dealt, "the same after a restart"
        assert await kept_secret(restarted.store, "daily", "another") == key
    finally:
        await restarted.close()
    assert key not in caplog.text, "the secret is never logged"


async def test_daily_asked_in_two_processes_at_once_deals_one_game_and_gives_it_to_both(
        new_database: NewDatabase) -> None:
    url = await new_database()
    clock = FakeClock(NOON)
    one, two = await sessions_on(url, clock), await sessions_on(url, clock)
    try:
        first, second = await asyncio.gather(one.daily.start(CHAT, private(ALICE), ALICE),
                                             two.daily.start(CHAT, private(ALICE), ALICE))
        assert first.table.game_id == second.table.game_id, "one deal"
        assert sorted([first.resumed, second.resumed]) == [False, True], "the other process gives it back"
        assert [g.id for g in await one.queries.games_of(ALICE)] == [first.table.game_id]
    finally:
        await one.close()
        await two.close()


async def test_a_daily_stored_but_answered_one_moment_is_given_back_when_asked_again(
        new_database: NewDatabase) -> None:
    """The deal's write reached the database but its answer was lost (a PostgreSQL server gone
    while committing): the player is told "one moment", and their retry gets the deal."""
    url = await new_database()
    sessions = await sessions_on(url, FakeClock(NOON))
    store: Any = sessions.store
    stored = store._commit_changes

    async def answer_lost(changes: Any) -> Any:
        answers = await stored(changes)
        if any(isinstance(change, DailyDeal) for change in changes):
            raise StorageAway("the connection was lost while committing", maybe_stored=True)
        return answers

    try:
        store._commit_changes = answer_lost
        with pytest.raises(StorageAway):
            await sessions.daily.start(CHAT, private(ALICE), ALICE)
        store._commit_changes = stored
        retried = await sessions.daily.start(CHAT, private(ALICE), ALICE)
        assert retried.resumed, "the deal that was stored, not 'already played'"
        await play_to_end(sessions, retried.table.game_id, [ALICE])
        assert [line.name for line in (await sessions.queries.daily_board(CHAT)).lines] == [ALICE.name]
    finally:
        await sessions.close()
