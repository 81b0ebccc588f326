"""Computer players: `easy` (random), `medium` (rules of thumb), `hard` (search).

Every player sees only one seat's view, and its randomness comes from a
`random.Random` seeded with the seed it is given, so its choice depends on
nothing else (and, for `hard` under a time budget, on how far it got).
"""

from __future__ import annotations

import random
import time

from bot.engine import Move, SeatView

from .hard import DEFAULT_BUDGET, HardPlayer
from .medium import MediumPlayer
from .reading import canonical_moves

LEVELS = ("easy", "medium", "hard")
SEARCHING = frozenset({"hard"})
"""The levels that think for their whole time budget; the others answer at once."""

__all__ = ["DEFAULT_BUDGET", "LEVELS", "SEARCHING", "choose_move"]


def choose_move(level: str, view: SeatView, seed: int | str, time_budget: float | None = None,
                iterations: int | None = None) -> Move:
    """The move `level` plays for `view.seat`, which must be the seat to play.

    `time_budget` (seconds, default 0.3) bounds the `hard` search; with
    `iterations` it searches exactly that many guesses of the hidden cards
    instead, whatever the time, so that its choice is reproducible.
    """
    started = time.perf_counter()
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}; levels: {', '.join(LEVELS)}")
    if not view.legal_moves:
        raise ValueError(f"seat {view.seat} has no move to make now")
    moves = canonical_moves(view)
    rng = random.Random(f"{level}/{seed}")
    if level == "easy":
        return moves[rng.randrange(len(moves))]
    if len(moves) == 1:
        return moves[0]
    if level == "medium":
        return MediumPlayer(view).choose(rng)
    return HardPlayer(view, rng, time_budget, iterations, started).choose()
