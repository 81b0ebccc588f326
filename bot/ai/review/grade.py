"""How many points a play gave up, by `hard`'s valuation of every legal move.

The valuation sees what the player saw (their `SeatView`), never the hidden hands. It
draws `searches` guesses of the hidden cards from a generator seeded by the match and the
play, and values every legal move in each same guess (common random numbers: the moves
are compared on the same cards, so the noise of the guesses mostly cancels out of their
difference). A close call, where the best move's edge over the played one is within two
standard errors and that error is over `PRECISION`, gets twice the guesses, up to
`CLOSE_CALL_ROUNDS` times. When the hidden
cards are known and the tree to the end of the round is small (the last hands), the value
is the search's exact count to the end. Otherwise the search stops where the hands now
held end (`HardPlayer.appraise`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from bot.engine import DECK, Move, SeatView

from ..hard import HardPlayer, search_depth
from ..reading import canonical_moves

EXACT_LEAVES = 20_000
"""The largest tree (in leaves) that is searched to the end of the round when the hidden
cards are known."""
CLOSE_CALL_ROUNDS = 3
"""A close call is searched again with twice the guesses at most this many times (at most
8 × `searches` guesses in all)."""
PRECISION = 0.05
"""A loss whose standard error is this small (in points) is known well enough, close call
or not."""
LEAF_CAP = 300
"""The search's tree per guess, in leaves, where the hands are big (scopone, or many
players): a fifth of `hard`'s, for more guesses in the same time."""
DIGITS = 3
"""Losses are kept to a thousandth of a point."""
NOISE = 2.0
"""The search's noise, in standard errors of the best move's edge: where that edge is still under
`NOISE` standard errors (and the error over `PRECISION`) after every close-call round, or under
`EQUAL` points, the two moves are worth the same as far as the search can tell, and the play is
called equivalent, not graded (docs/ai.md)."""
EQUAL = 0.05
"""An edge under this many points (a twentieth of a point) is no edge: two moves that differ only
so little (a fante of coppe or of spade) are equivalent, however sure the search is of it."""


@dataclass(frozen=True, slots=True)
class Grade:
    """The best move by the valuation, and what the played one gives up against it."""

    best: Move
    loss: float
    """Expected points of the round the played move gives up against `best` (0 when it is
    the best, or the only legal move)."""
    choices: int
    """How many legal moves there were."""
    guesses: int
    """How many guesses of the hidden cards the valuation drew (0 for a forced move)."""
    equivalent: Move | None = None
    """A move the valuation put ahead of the played one by less than its noise (`NOISE`): the
    two are equivalent, and the play gives up nothing (`loss` 0, `best` the played move)."""


def grade(view: SeatView, played: Move, seed: str, searches: int, against: Move | None = None,
          close_calls: int = CLOSE_CALL_ROUNDS) -> Grade:
    """Grade `played`, a legal move of `view.seat`, which is to play in `view`: against every
    legal move, or only against the legal move `against` (a hint's move and its runner-up); a
    close call is searched again at most `close_calls` times."""
    if searches < 1:
        raise ValueError("a review needs at least one search per move")
    moves = canonical_moves(view)
    if played not in moves or (against is not None and against not in moves):
        raise ValueError(f"{played} is not a legal move of seat {view.seat} here")
    if against is not None:
        moves = [move for move in moves if move in (played, against)]
    if len(moves) == 1:
        return Grade(played, 0.0, 1, 0)
    player = HardPlayer(view, random.Random(f"review/{seed}"), iterations=searches)
    target = moves.index(played)
    if player.knowledge.certain:
        exact = small_tree(view)
        samples = [player.appraise(moves, to_end=exact)]
    else:
        samples = []
        wanted = searches
        for _ in range(close_calls + 1):
            while len(samples) < wanted:
                samples.append(player.appraise(moves, cap=LEAF_CAP))
            best, loss, error = _compare(samples, target)
            if best == target or loss >= NOISE * error or error <= PRECISION:
                break
            wanted *= 2
    best, loss, error = _compare(samples, target)
    if best != target and (loss < EQUAL or (loss < NOISE * error and error > PRECISION)):
        return Grade(played, 0.0, len(moves), len(samples), moves[best])
    loss = round(loss, DIGITS)
    return Grade(moves[best] if loss > 0 else played, loss, len(moves), len(samples))


def _compare(samples: list[list[float]], target: int) -> tuple[int, float, float]:
    """The move with the best mean value, its mean edge over `target`, and that edge's
    standard error."""
    count = len(samples)
    means = [sum(column) / count for column in zip(*samples, strict=True)]
    best = max(range(len(means)), key=lambda index: (means[index], index == target))
    if means[best] <= means[target]:
        return target, 0.0, 0.0
    edges = [sample[best] - sample[target] for sample in samples]
    edge = sum(edges) / count
    if count < 2:
        return best, edge, 0.0
    spread = sum((value - edge) ** 2 for value in edges) / (count - 1)
    return best, edge, math.sqrt(spread / count)


def small_tree(view: SeatView) -> bool:
    """Whether the tree of every play left in the round has at most `EXACT_LEAVES` leaves."""
    sized = [[DECK[0]] * count for count in view.hand_counts]
    plies = sum(view.hand_counts) + view.stock_count
    return search_depth(view, sized, EXACT_LEAVES) >= plies
