"""Computer players think in worker processes, a worker that dies loses no move,
and one game's computer does not hold up another's."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import Game, Move, SeatView
from bot.sessions import ChatRef, ComputerPool, Sessions, UserRef
from bot.sessions.service import default_chooser
from bot.sessions.thinking import SHORTEST_BUDGET, Chooser

from ..sessions_helpers import ALICE, BOB, CHAT, first_legal, open_memory_sessions, play_to_end


def budget_noted(level: str, view: SeatView, seed: str, budget: float | None = None) -> Move:
    """Plays like `first_legal` and adds the budget it was given to the file named by the seed."""
    with open(seed, "a") as notes:
        notes.write(f"{budget}\n")
    return first_legal(level, view, seed)


def chosen_where(level: str, view: SeatView, seed: str, budget: float | None = None) -> Move:
    """Plays like `first_legal`; with the seed `die:PID`, dies unless it runs in process PID."""
    if seed.startswith("die:") and os.getpid() != int(seed[4:]):
        os._exit(1)
    return first_legal(level, view, seed)


def noted_where(level: str, view: SeatView, seed: str, budget: float | None = None) -> Move:
    """Dies unless it runs in the process named by the seed `PID:FILE`, where it is `budget_noted`."""
    pid, _, notes = seed.partition(":")
    if os.getpid() != int(pid):
        os._exit(1)
    return budget_noted(level, view, notes, budget)


def _view() -> SeatView:
    game = Game.new("scopa", seed=11)
    return game.view(game.to_play)


@pytest.fixture
async def pool() -> AsyncIterator[ComputerPool]:
    """One worker process, started, and closed after the test."""
    started = ComputerPool(workers=1)
    try:
        await started.start()
        yield started
    finally:
        started.close()


async def test_a_match_against_a_computer_thinking_in_another_process(pool: ComputerPool) -> None:
    sessions = await open_memory_sessions(chooser=default_chooser, think=pool.think)
    await sessions.lobby.new_game(CHAT, ALICE, "scopa", {"target": 1})
    await sessions.lobby.add_computer(CHAT, ALICE, "medium")
    game_id = (await sessions.lobby.start(CHAT, ALICE)).game_id
    await play_to_end(sessions, game_id, [ALICE])
    moves = await sessions.store.moves(game_id)
    assert len(moves) >= 36 and any(move.by_computer for move in moves)
    assert all(move.by_computer == (move.seat == 1) for move in moves)
    await sessions.close()


async def test_a_worker_that_dies_loses_no_move(pool: ComputerPool) -> None:
    view = _view()
    first = pool._pool
    move = await pool.think(chosen_where, "easy", view, f"die:{os.getpid()}")
    assert move in view.legal_moves, "chosen again in the bot's own process"
    assert await pool.think(chosen_where, "easy", view, "next") in view.legal_moves
    assert pool._pool is not None and pool._pool is not first, "a new pool took over"


async def test_searches_moved_to_threads_by_a_dead_worker_keep_their_shares(pool: ComputerPool,
                                                                            tmp_path: Path) -> None:
    view = _view()
    notes = tmp_path / "budgets"
    moves = await asyncio.gather(*(pool.think(noted_where, "hard", view, f"{os.getpid()}:{notes}")
                                   for _ in range(3)))
    assert all(move in view.legal_moves for move in moves)
    budgets = notes.read_text().split()
    assert budgets.count("None") == 1, "one search had the worker to itself"
    shared = sorted(float(budget) for budget in budgets if budget != "None")
    assert shared == pytest.approx([0.1, 0.15])


async def test_computers_due_together_share_the_workers(pool: ComputerPool, tmp_path: Path) -> None:
    view = _view()
    notes = tmp_path / "budgets"
    levels = ["hard", "medium", "hard", "hard", "easy", "hard", "hard", "hard"]
    moves = await asyncio.gather(*(pool.think(budget_noted, level, view, str(notes))
                                   for level in levels))
    assert all(move in view.legal_moves for move in moves)
    budgets = notes.read_text().split()
    assert [budgets[1], budgets[4]] == ["None", "None"], "medium and easy answer at once"
    del budgets[4], budgets[1]
    assert budgets[0] == "None", "the first search has the worker to itself"
    shared = [float(budget) for budget in budgets[1:]]
    assert shared == sorted(shared, reverse=True), "the longer the queue, the shorter each search"
    assert shared[0] == pytest.approx(0.15) and shared[-1] == SHORTEST_BUDGET
    notes.unlink()
    await pool.think(budget_noted, "hard", view, str(notes))
    assert notes.read_text().split() == ["None"], "alone again, the full budget"


async def _computer_to_play(sessions: Sessions, chat: ChatRef, person: UserRef) -> int:
    await sessions.lobby.new_game(chat, person, "scopa")
    await sessions.lobby.add_computer(chat, person, "easy")
    game_id = (await sessions.lobby.start(chat, person)).game_id
    if (await sessions.queries.table(game_id)).to_play == 0:
        hand = await sessions.queries.hand(game_id, person)
        await sessions.play.play(game_id, person, hand.version, hand.choices[0].moves[0].code)
    return game_id


async def test_a_computer_thinking_in_one_game_does_not_hold_up_another() -> None:
    release = asyncio.Event()
    slow_seeds: set[str] = set()

    async def think(chooser: Chooser, level: str, view: SeatView, seed: str) -> Move:
        if seed.split("/")[0] in slow_seeds:
            await release.wait()
        return chooser(level, view, seed)

    sessions = await open_memory_sessions(think=think)
    slow = await _computer_to_play(sessions, CHAT, ALICE)
    quick = await _computer_to_play(sessions, ChatRef("test", "group-2", "Others"), BOB)
    slow_row = await sessions.store.get_game(slow)
    assert slow_row is not None
    slow_seeds.add(slow_row.seed)
    versions = {slow: slow_row.version, quick: (await sessions.queries.game(quick)).version}
    due = asyncio.create_task(sessions.scheduler.run_due())
    for _ in range(1000):
        if (await sessions.queries.game(quick)).version > versions[quick]:
            break
        await asyncio.sleep(0)
    assert (await sessions.queries.game(quick)).version == versions[quick] + 1, "played meanwhile"
    assert (await sessions.queries.game(slow)).version == versions[slow], "still thinking"
    release.set()
    assert await due == 2
    assert (await sessions.queries.game(slow)).version == versions[slow] + 1
    await sessions.close()


def _dies_unless_in(task: tuple[int, str]) -> str:
    """Dies unless it runs in the process `task[0]`; else gives `task[1]` back."""
    if os.getpid() != task[0]:
        os._exit(1)
    return task[1]


async def test_work_handed_to_a_worker_that_dies_is_done_in_a_thread(pool: ComputerPool) -> None:
    assert await pool.run(_dies_unless_in, (os.getpid(), "done")) == "done"
    assert await pool.run(str.upper, "and the next work finds a new worker") == \
        "AND THE NEXT WORK FINDS A NEW WORKER"


async def test_a_review_in_the_workers_is_the_review_worked_out_here(pool: ComputerPool) -> None:
    from bot.ai import choose_move
    from bot.ai.review import review_match
    from bot.engine import to_record
    from bot.sessions.reviews import review_in_pool

    game = Game.new("scopa", 2, rules={"round_limit": 1}, seed="pool")
    while not game.finished:
        game.apply(choose_move("medium", game.view(game.to_play), "m"))
    record = to_record(game)
    here = review_match(record, 3)
    assert (await review_in_pool(pool, record, 3)) == here
    assert (await review_in_pool(None, record, 3)) == here
    assert len(here.plays) == 36 and any(p.loss > 0 for p in here.plays)


async def test_a_hint_in_the_workers_is_the_hint_worked_out_here(pool: ComputerPool,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.sessions.lobby.secrets.token_hex", lambda n: "ab" * n)
    in_pool = await open_memory_sessions(pool=pool)
    here = await open_memory_sessions()
    hints = []
    for sessions in (in_pool, here):
        await sessions.lobby.new_game(CHAT, ALICE, "scopa", {"practice": "on"})
        await sessions.lobby.add_computer(CHAT, ALICE, "medium")
        game_id = (await sessions.lobby.start(CHAT, ALICE)).game_id
        if (await sessions.queries.table(game_id)).to_play != 0:
            await sessions.scheduler.run_due()
        view = await sessions.queries.hand(game_id, ALICE)
        given = await sessions.hints.hint(game_id, ALICE, view.version)
        assert any(given.hint.move in choice.moves for choice in view.choices)
        hints.append((view.hand, given.hint))
        await sessions.close()
    assert hints[0] == hints[1], "the same deal gives the same hint in a worker and here"
