"""Every legal move valued exactly, where the position is one of full information.

When the cards a player cannot see can lie in one way only (two players and the stock
empty: the other hand is every card not yet seen), nothing is guessed: `hard`'s alpha-beta
searches the whole tree of the plays left in the round, each side playing its best, and
counts the round's points at its end. A round's last hands are small (three cards each at
most in 2-player scopa), so the tree is too.
"""

from __future__ import annotations

import random

from bot.engine import Move, SeatView

from .hard import HardPlayer
from .reading import canonical_moves
from .review.grade import grade

TIE = 1e-9
"""Two exact values closer than this are the same value."""


def exact_values(view: SeatView) -> dict[Move, float] | None:
    """Each legal move of the seat to play, in `canonical_moves` order, with the margin in
    points of the round it leads to with best play on every side; None where some hidden
    card could lie in more than one place."""
    player = HardPlayer(view, random.Random(0), iterations=1)
    if not player.knowledge.certain:
        return None
    moves = canonical_moves(view)
    return dict(zip(moves, player.appraise(moves, to_end=True), strict=True))


def best_moves(values: dict[Move, float]) -> list[Move]:
    """The moves whose value is the best one, in the order given."""
    top = max(values.values())
    return [move for move, value in values.items() if value >= top - TIE]


AnswerTask = tuple[SeatView, Move, str, int]
"""A move chosen in a puzzle to value: the position, the move, the seed and the searches of the
review that graded the play."""


def as_good_as_best(task: AnswerTask) -> bool:
    """Whether the chosen move gives up nothing against the best, graded as the review graded
    the play: the same guesses of the hidden cards (the review's seed and searches), so the
    values agree with the review's; a move within the search's noise of the best counts as
    good as it (`grade`'s equivalence)."""
    view, chosen, seed, searches = task
    return grade(view, chosen, seed, searches).loss == 0
