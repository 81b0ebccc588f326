"""`hard`: determinised alpha-beta search under the seat's imperfect information.

Each iteration draws the hidden hands from the player's own generator,
consistent with the seat's view (lay-downs rule out ranks a player would
have had to capture with), and searches every legal move in that guess with
alpha-beta to the end of the hands now held (the next deal is not looked
into), or to a depth that keeps the search small in variants with big hands.
Leaves are scored by the evaluator's expected round points, plus the scopa
the next player is likely to make on the table left. The move with the best
mean over the guesses is played. Partners maximise the same side's margin;
every other side is assumed to play against us.
"""

from __future__ import annotations

import math
import random
import time

from bot.engine import Card, Move, SeatView

from .evaluate import Evaluator, margin
from .knowledge import Knowledge
from .medium import MediumPlayer, holds_any
from .sim import Position, SimMove, sweep_ranks

DEFAULT_BUDGET = 0.3
LEAF_CAP = 900
SCOPA_THREAT = 1.1
TIE_BREAK = 1e-3
_INF = math.inf


def search_depth(view: SeatView, hands: list[list[Card]], cap: int = LEAF_CAP) -> int:
    """The most plies (within the hands now held) whose full tree has about `cap` leaves or fewer."""
    sizes = [len(hand) for hand in hands]
    seat = view.to_play
    leaves = 1
    depth = 0
    seats = view.seats
    while sum(sizes):
        if not sizes[seat]:
            seat = (seat + 1) % seats
            continue
        leaves *= sizes[seat]
        if leaves > cap and depth >= 2:
            break
        sizes[seat] -= 1
        depth += 1
        seat = (seat + 1) % seats
    return depth


class HardPlayer:
    def __init__(self, view: SeatView, rng: random.Random, time_budget: float | None = None,
                 iterations: int | None = None) -> None:
        self.view = view
        self.rng = rng
        self.budget = DEFAULT_BUDGET if time_budget is None else time_budget
        self.iterations = iterations
        self.knowledge = Knowledge.of(view)
        self.evaluator = Evaluator(view)
        self.side = view.side
        self.side_of = view.side_of
        self.samples = 0

    def values(self) -> dict[Move, float]:
        """Mean search value of each legal move over the guesses drawn."""
        view = self.view
        moves = list(view.legal_moves)
        totals = dict.fromkeys(moves, 0.0)
        start = time.perf_counter()
        limit = self.iterations
        if self.knowledge.certain:
            limit = 1
        samples = 0
        while True:
            hands, stock = self.knowledge.sample(self.rng)
            position = Position(view, hands, stock)
            depth = search_depth(view, hands)
            for move in moves:
                undo = position.play(move)
                totals[move] += self._search(position, depth - 1, -_INF, _INF)
                position.undo(undo)
            samples += 1
            if limit is not None:
                if samples >= limit:
                    break
                continue
            elapsed = time.perf_counter() - start
            if elapsed + elapsed / samples > self.budget:
                break
        self.samples = samples
        return {move: total / samples for move, total in totals.items()}

    def choose(self) -> Move:
        moves = self.view.legal_moves
        if len(moves) == 1:
            return moves[0]
        values = self.values()
        hints = MediumPlayer(self.view).scores()
        return max(moves, key=lambda m: values[m] + TIE_BREAK * hints[m])

    def _leaf(self, position: Position) -> float:
        points = self.evaluator.points(position.taken, position.scope)
        if position.finished:
            return margin(points, self.side)
        table = position.table
        if table:
            sweeping = sweep_ranks(tuple([c.rank for c in table]), position.mode)
            if sweeping:
                seat = position.to_play
                if position.boundary:
                    stock = position.stock
                    wanted = sum(1 for c in stock if c.rank in sweeping)
                    chance = holds_any(len(stock), wanted, min(3, len(stock)))
                else:
                    chance = 1.0 if any(c.rank in sweeping for c in position.hands[seat]) else 0.0
                last_play = position.in_hands == 1 and not position.stock
                if chance and not last_play:
                    points[self.side_of[seat]] += chance * SCOPA_THREAT
        return margin(points, self.side)

    def _search(self, position: Position, depth: int, alpha: float, beta: float) -> float:
        if depth <= 0 or position.boundary or position.finished:
            return self._leaf(position)
        moves = position.moves()
        if len(moves) > 1:
            moves.sort(key=_capture_size, reverse=True)
        if self.side_of[position.to_play] == self.side:
            best = -_INF
            for move in moves:
                undo = position.play(move)
                value = self._search(position, depth - 1, alpha, beta)
                position.undo(undo)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return best
        best = _INF
        for move in moves:
            undo = position.play(move)
            value = self._search(position, depth - 1, alpha, beta)
            position.undo(undo)
            if value < best:
                best = value
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        break
        return best


def _capture_size(move: SimMove) -> int:
    return len(move[1])
