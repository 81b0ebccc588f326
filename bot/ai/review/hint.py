"""A hint: the move `hard` would play now, and one reason for it, from the player's own view.

`hard` values every legal move over a fixed number of guesses of the hidden cards (seeded,
so the same position and seed give the same hint), and the reason is the fact that sets its
move apart from the runner-up (`facts.reason`, the same facts a review words): a scopa, a
table the other move would leave to be swept, the settebello, sevens, the primiera, denari,
cards, a card laid safe; else what the search's lines after both moves show: in a team game the
partner's chance of a scopa or of the settebello on their next play ("it sets up your partner:
after it they sweep the table 38% of the time, after lay down R🪙 0%"), the last capture, or the
scoring part the move wins more often. Where the review's valuation finds the runner-up as good
within its noise, the reason is `EQUIVALENT`. A hand with one legal move gets no reason (and the
sessions refuse a hint there: the hand offers none).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine import Move, SeatView

from ..hard import TIE_BREAK, HardPlayer
from ..medium import MediumPlayer
from ..reading import canonical_moves
from .facts import Fault, Reason, reason
from .grade import grade

HINT_SEARCHES = 24
"""Guesses of the hidden cards per hint: under a fifth of a second of search in the worst position measured
(docs/ai.md), well within a button's answer window."""

HINT_CLOSE_CALLS = 1
"""A hint's close call (is the runner-up as good?) is searched again once at most, with twice the
guesses, where a review's is searched again three times (`grade.CLOSE_CALL_ROUNDS`): a button's
answer cannot wait for 8 × the guesses. Still unsure after that, the hint says either will do."""

HintTask = tuple[SeatView, str, int]
"""What a worker needs for a hint: the player's view, the seed, the searches."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The move to play and why: `reason` compares it with `other`, the next best move;
    both are None when the move is the only legal one."""

    move: Move
    other: Move | None
    reason: Reason | None
    choices: int


def hint(task: HintTask) -> Hint:
    """The hint for `view.seat`, which is to play in the task's view."""
    view, seed, searches = task
    if searches < 1:
        raise ValueError("a hint needs at least one search")
    moves = canonical_moves(view)
    if len(moves) == 1:
        return Hint(moves[0], None, None, 1)
    player = HardPlayer(view, random.Random(f"hint/{seed}"), iterations=searches)
    values = player.values()
    hints = MediumPlayer(view).scores()
    if values is None:
        ranked = sorted(moves, key=lambda m: hints[m], reverse=True)
    else:
        ranked = sorted(moves, key=lambda m: values[m] + TIE_BREAK * hints[m], reverse=True)
    best, other = ranked[0], ranked[1]
    if _equivalent(view, best, other, seed, searches):
        return Hint(best, other, Reason(Fault.EQUIVALENT, cards=(other.card,)), len(moves))
    return Hint(best, other, reason(view, other, best, f"hint/{seed}"), len(moves))


def _equivalent(view: SeatView, best: Move, other: Move, seed: str, searches: int) -> bool:
    """Whether the review's valuation, comparing the two moves alone, finds the runner-up worth as
    much as the best move within its noise (`grade.NOISE`), or worth more: then the hint says
    either will do."""
    graded = grade(view, other, f"hint/{seed}", searches, against=best, close_calls=HINT_CLOSE_CALLS)
    return graded.equivalent is not None or graded.loss == 0
