"""Computer players think in worker processes, and a worker that dies loses no move."""

from __future__ import annotations

import os
from pathlib import Path

from bot.engine import Game, Move, SeatView
from bot.sessions import ComputerPool
from bot.sessions.service import default_chooser

from .sessions_helpers import ALICE, CHAT, first_legal, open_sessions, play_to_end


def chosen_where(level: str, view: SeatView, seed: str) -> Move:
    """Plays like `first_legal`; with the seed `die:PID`, dies unless it runs in process PID."""
    if seed.startswith("die:") and os.getpid() != int(seed[4:]):
        os._exit(1)
    return first_legal(level, view, seed)


def _view() -> SeatView:
    game = Game.new("scopa", seed=11)
    return game.view(game.to_play)


async def test_a_match_against_a_computer_thinking_in_another_process(tmp_path: Path) -> None:
    pool = ComputerPool(workers=1)
    try:
        await pool.start()
        sessions = await open_sessions(tmp_path / "s.db", chooser=default_chooser,
                                       think=pool.think)
        await sessions.new_game(CHAT, ALICE, "scopa", {"target": 1})
        await sessions.add_computer(CHAT, ALICE, "medium")
        game_id = (await sessions.start(CHAT, ALICE)).game_id
        await play_to_end(sessions, game_id, [ALICE])
        moves = await sessions.store.moves(game_id)
        assert len(moves) >= 36 and any(move.by_computer for move in moves)
        assert all(move.by_computer == (move.seat == 1) for move in moves)
        await sessions.store.close()
    finally:
        pool.close()


async def test_a_worker_that_dies_loses_no_move() -> None:
    pool = ComputerPool(workers=1)
    view = _view()
    try:
        await pool.start()
        first = pool._pool
        move = await pool.think(chosen_where, "easy", view, f"die:{os.getpid()}")
        assert move in view.legal_moves, "chosen again in the bot's own process"
        assert await pool.think(chosen_where, "easy", view, "next") in view.legal_moves
        assert pool._pool is not None and pool._pool is not first, "a new pool took over"
    finally:
        pool.close()
