"""`hard`: determinised alpha-beta search under the seat's imperfect information.

Each iteration draws the hidden hands from the player's own generator,
consistent with the seat's view (lay-downs rule out ranks a player would
have had to capture with), and values every legal move in that guess twice:
by alpha-beta to a depth whose tree stays near `LEAF_CAP` leaves (on into the
next deal, drawn from the guessed stock, when the hands are small), leaves
scored by the evaluator's expected round points plus the scopa the next
player is likely to make on the table left; and by a rollout to the end of
the round with medium's rules for every seat. The move with the best mean
over the guesses is played. The search walks the engine's own game state, made
from the view and the guess (`game_from_view`), with `apply` and `undo`: the
rules it looks ahead with are the rules the match is played by. Every move keeps within the time budget: the
search checks the clock as it goes and drops an unfinished guess. Partners
maximise the same side's margin; every other side is assumed to play against us.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Sequence
from typing import Final

from bot.engine import Card, Game, Move, SeatView, game_from_view
from bot.engine.game import HAND_SIZE

from .evaluate import Evaluator, margin
from .knowledge import Knowledge
from .medium import MediumPlayer
from .reading import canonical_moves
from .rollout import RolloutPolicy, play_out

DEFAULT_BUDGET = 0.3
LEAF_CAP = 1500
SCOPA_THREAT = 1.1
TIE_BREAK = 1e-3
SAFETY = 0.8
METHOD = "both"
CHECK_EVERY: Final = 64
_INF: Final = math.inf


class _OutOfTime(Exception):
    pass


def search_depth(view: SeatView, hands: list[list[Card]], cap: int | None = None) -> int:
    """The most plies whose full tree has about `cap` leaves or fewer.

    The count goes on into the next deal (as many cards as the stock gives)
    when the hands now held are small enough for it.
    """
    if cap is None:
        cap = LEAF_CAP
    sizes = [len(hand) for hand in hands]
    seats = view.seats
    seat = view.to_play
    stock = view.stock_count
    leaves = 1
    depth = 0
    while True:
        if not sum(sizes):
            if not stock:
                break
            dealt = min(HAND_SIZE * seats, stock)
            stock -= dealt
            sizes = [0] * seats
            for turn in range(dealt):
                sizes[(view.dealer + 1 + turn) % seats] += 1
            continue
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
                 iterations: int | None = None, started: float | None = None) -> None:
        self.started = time.perf_counter() if started is None else started
        self.view = view
        self.rng = rng
        self.budget = DEFAULT_BUDGET if time_budget is None else time_budget
        self.iterations = iterations
        self.knowledge = Knowledge.of(view)
        self.evaluator = Evaluator(view)
        self.side = view.side
        self.side_of = view.side_of
        self.samples = 0
        self.deadline = math.inf
        self.nodes = 0
        self.policy = RolloutPolicy(view)
        sides = len(view.sides)
        self._no_scope = [0] * sides
        self._threat = SCOPA_THREAT / (sides - 1)
        """What an opponent's likely scopa takes off the margin (`margin` shares it out)."""
        self._margins: dict[tuple[int, ...], float] = {}

    def values(self) -> dict[Move, float] | None:
        """Mean value of each legal move over the guesses drawn; None if no guess was finished in time."""
        view = self.view
        moves = canonical_moves(view)
        totals = dict.fromkeys(moves, 0.0)
        limit = self.iterations
        if self.knowledge.certain:
            limit = 1
        timed = self.iterations is None
        start = time.perf_counter()
        if timed:
            self.deadline = self.started + SAFETY * self.budget
        while True:
            hands, game = self._guess()
            try:
                values = self._sample_values(game, hands, moves)
            except _OutOfTime:
                break
            for move, value in zip(moves, values, strict=True):
                totals[move] += value
            self.samples += 1
            if limit is not None and self.samples >= limit:
                break
            if timed:
                now = time.perf_counter()
                if now + (now - start) / self.samples > self.deadline:
                    break
        if not self.samples:
            return None
        return {move: total / self.samples for move, total in totals.items()}

    def appraise(self, moves: Sequence[Move], to_end: bool = False, cap: int | None = None) -> list[float]:
        """Each of `moves`' value in points of margin in one new guess of the hidden cards,
        whatever the time: the search alone, to the end of the hands now held or as deep as
        `cap` leaves (default `LEAF_CAP`) allow when they are big, leaves scored as in play
        (the round's expected points and the scopa the next player is likely to make); with
        `to_end`, to the end of the round, where the count is exact.

        Stopping where the hands end leaves the next deals to the evaluator's expectations
        rather than to one guessed stock: the values differ less from guess to guess (about
        half the spread of `choose`'s values), which a review needs more than depth."""
        hands, game = self._guess()
        self.samples += 1
        if to_end:
            depth = sum(len(hand) for hand in hands) + len(game.stock)
        else:
            depth = min(sum(len(hand) for hand in hands), search_depth(self.view, hands, cap))
        values = []
        for move in moves:
            game.apply(move)
            values.append(self._search(game, depth - 1, -_INF, _INF))
            game.undo()
        return values

    def _guess(self) -> tuple[list[list[Card]], Game]:
        """A guess of the hidden cards (and the stock), consistent with the view, and the game
        it makes: one that stops at the end of the round, left unscored (the search values it)."""
        hands, stock = self.knowledge.sample(self.rng)
        game = game_from_view(self.view, hands, stock)
        game.auto_deal = False
        game.scores_rounds = False
        return hands, game

    def _sample_values(self, game: Game, hands: list[list[Card]], moves: list[Move]) -> list[float]:
        """Each move's value in one guess; raises _OutOfTime past the deadline."""
        values = []
        depth = search_depth(self.view, hands) if METHOD in ("search", "both") else 0
        for move in moves:
            value = 0.0
            if METHOD in ("rollout", "both"):
                game.apply(move)
                played = play_out(game, self.policy)
                value += margin(self.evaluator.points(game.side_taken, game.side_scope), self.side)
                for _ in range(played + 1):
                    game.undo()
                self._tick()
            if METHOD in ("search", "both"):
                game.apply(move)
                value += self._search(game, depth - 1, -_INF, _INF)
                game.undo()
            values.append(value)
        return values

    def _tick(self) -> None:
        if time.perf_counter() > self.deadline:
            raise _OutOfTime

    def choose(self) -> Move:
        moves = canonical_moves(self.view)
        if len(moves) == 1:
            return moves[0]
        hints = MediumPlayer(self.view).scores()
        collecting = gc.isenabled()
        gc.disable()
        try:
            values = self.values()
        finally:
            # Free the search's caches before collection resumes: a collection
            # over the objects they hold took up to 40 ms past the search's end.
            self.evaluator.clear()
            self._margins = {}
            if collecting:
                gc.enable()
        if values is None:
            return max(moves, key=lambda m: hints[m])
        return max(moves, key=lambda m: values[m] + TIE_BREAK * hints[m])

    def _leaf(self, game: Game) -> float:
        """The margin the position promises: the round's expected points of the cards taken and
        the scope made (margins add up, so the first part is kept per set of piles), plus the
        scopa the player to move can make on the table left."""
        taken = game.side_taken
        key = tuple(taken)
        value = self._margins.get(key)
        if value is None:
            value = self._margins[key] = margin(self.evaluator.points(taken, self._no_scope), self.side)
        value += margin(game.side_scope, self.side)
        if not game.round_over and game.can_sweep():
            value += SCOPA_THREAT if self.side_of[game.to_play] == self.side else -self._threat
        return value

    def _search(self, game: Game, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if not self.nodes % CHECK_EVERY and time.perf_counter() > self.deadline:
            raise _OutOfTime
        if depth <= 0 or game.round_over:
            return self._leaf(game)
        moves = game.search_moves()
        ours = self.side_of[game.to_play] == self.side
        best = -_INF if ours else _INF
        if depth == 1:
            for move in moves:
                self.nodes += 1
                game.apply(move)
                value = self._leaf(game)
                game.undo()
                if value > best if ours else value < best:
                    best = value
                    if ours:
                        alpha = max(alpha, value)
                    else:
                        beta = min(beta, value)
                    if alpha >= beta:
                        break
            return best
        if ours:
            for move in moves:
                game.apply(move)
                value = self._search(game, depth - 1, alpha, beta)
                game.undo()
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return best
        for move in moves:
            game.apply(move)
            value = self._search(game, depth - 1, alpha, beta)
            game.undo()
            if value < best:
                best = value
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        break
        return best
