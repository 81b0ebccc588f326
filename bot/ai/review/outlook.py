"""What two moves lead to, part by part of the round's scoring, as the search sees it.

A reason that no single card gives (`facts.reason`) is read from the search itself. In the same
guesses of the hidden cards (drawn from what the player saw, seeded), each move is followed down
the search's principal line, every seat playing the move the search values best for its side, as
deep as the review's search looks (to the round's end where it is exact). Where the line stops,
each scoring part is valued as the search values it (`evaluate`): the chance of winning cards,
denari, primiera, settebello…, and the scope made (with the scopa the next player can make on the
table left). The line also tells who takes the table's leftovers when it reaches the round's end,
and in a team game what the partner does on their next play (the line goes on for that, shallow).
The means over the guesses tell which part the better move gains on, or what it lets the partner do.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from bot.engine import SETTEBELLO, Game, Move, SeatView
from bot.engine.cards import ASSO_BELLO, RE_BELLO

from ..evaluate import (
    ALL_CARDS,
    DENARI,
    SEVENS,
    _sevens_chances,
    _sweep_all,
    majority,
    napola,
    primiera_chances,
)
from ..hard import SCOPA_THREAT, HardPlayer, search_depth
from .grade import LEAF_CAP, small_tree

GUESSES = 32
"""Guesses per outlook: a chance read from them has a standard error under 0.09, and less on
the difference between the two moves, which are followed in the same guesses."""
PARTNER_DEPTH = 2
"""How deep the search looks at each play the line takes past its own depth, to reach the
partner's next play."""


@dataclass(frozen=True, slots=True)
class Outlook:
    """The means over the guesses after one move."""

    own: dict[str, float]
    """Per scoring part, the points the player's side expects where the line stops: for a
    one-point part (cards, denari, primiera, settebello…) the chance of winning it; for scope,
    the scope made from now on."""
    others: dict[str, float]
    """The same for the other sides, on average per side."""
    last_take: float
    """The chance that the player's side takes the table's leftovers, as the last to take."""
    leftover: float
    """How many cards are left on the table at the round's end, on average (0 where the line
    stops before it)."""
    partner_sweep: float
    """The chance that the partner (a team game) makes a scopa on their next play."""
    partner_settebello: float
    """The chance that the partner takes the settebello on their next play."""

    def edge(self, part: str) -> float:
        """The part's points for the player's side less the other sides' (what a player maximises)."""
        return self.own[part] - self.others[part]


def outlooks(view: SeatView, moves: list[Move], seed: str, guesses: int = GUESSES) -> list[Outlook]:
    """The outlook after each of `moves` (legal moves of `view.seat`), in the same guesses."""
    player = HardPlayer(view, random.Random(f"outlook/{seed}"), iterations=guesses)
    exact = player.knowledge.certain and small_tree(view)
    count = 1 if player.knowledge.certain else guesses
    partners = frozenset(seat for seat in view.sides[view.side] if seat != view.seat)
    baseline = [sum(view.scope[seat] for seat in seats) for seats in view.sides]
    sums: list[list[float]] = [[] for _ in moves]
    for _ in range(count):
        hands, game = player._guess()
        if exact:
            depth = sum(len(hand) for hand in hands) + len(game.stock)
        else:
            depth = min(sum(len(hand) for hand in hands), search_depth(view, hands, LEAF_CAP))
        for index, move in enumerate(moves):
            row = _follow(player, game, move, depth, partners, baseline)
            sums[index] = row if not sums[index] else [a + b for a, b in zip(sums[index], row, strict=True)]
    parts = _part_names(player)
    found = []
    for row in sums:
        means = [value / count for value in row]
        found.append(Outlook(dict(zip(parts, means[:len(parts)], strict=True)),
                             dict(zip(parts, means[len(parts):2 * len(parts)], strict=True)),
                             *means[-4:]))
    return found


def _follow(player: HardPlayer, game: Game, move: Move, depth: int, partners: frozenset[int],
            baseline: list[int]) -> list[float]:
    """One guess: `move` and the principal line after it, as a row of own parts, other parts,
    then last take, leftover, partner's scopa, partner's settebello."""
    outcome = game.apply(move)
    applied = 1
    remaining = depth - 1
    parts: list[float] | None = None
    partner_sweep = partner_settebello = 0.0
    waiting = bool(partners)
    while not game.round_over and (remaining > 0 or waiting):
        if remaining <= 0 and parts is None:
            parts = _parts(player, game, baseline)
        outcome = game.apply(_principal(player, game, remaining - 1 if remaining > 0 else PARTNER_DEPTH))
        applied += 1
        remaining -= 1
        play = outcome.play
        if waiting and play.seat in partners:
            waiting = False
            partner_sweep, partner_settebello = float(play.scopa), float(SETTEBELLO in play.captured)
    if parts is None:
        parts = _parts(player, game, baseline)
    last = leftover = 0.0
    if game.round_over and outcome.leftover_seat is not None:
        last = float(player.side_of[outcome.leftover_seat] == player.side)
        leftover = float(len(outcome.leftover))
    for _ in range(applied):
        game.undo()
    return [*parts, last, leftover, partner_sweep, partner_settebello]


def _principal(player: HardPlayer, game: Game, depth: int) -> Move:
    """The move the search values best for the side to play, searching `depth` plies after it."""
    ours = player.side_of[game.to_play] == player.side
    chosen, value = None, -math.inf if ours else math.inf
    for move in game.search_moves():
        game.apply(move)
        found = player._search(game, depth, -math.inf, math.inf)
        game.undo()
        if (found > value) if ours else (found < value):
            chosen, value = move, found
    assert chosen is not None
    return chosen


def _part_names(player: HardPlayer) -> list[str]:
    evaluator = player.evaluator
    names = ["cards", "coins", "settebello", "sevens" if evaluator.escoba and evaluator.sevens_primiera
             else "primiera", "scope"]
    for name, on in (("re_bello", evaluator.re_bello), ("asso_bello", evaluator.asso_bello),
                     ("napola", evaluator.napola), ("sevens", evaluator.sevens_point)):
        if on:
            names.append(name)
    return names


def _parts(player: HardPlayer, game: Game, baseline: list[int]) -> list[float]:
    """Each part's expected points where the line stops, as `Evaluator` counts them: the
    player's side's, then the other sides' mean (in the order of `_part_names`)."""
    evaluator = player.evaluator
    taken = game.side_taken
    held = 0
    for mask in taken:
        held |= mask
    remaining = ALL_CARDS & ~held
    coins = majority([(m & DENARI).bit_count() for m in taken], (remaining & DENARI).bit_count())
    if evaluator.sevens_primiera:
        primiera = _sevens_chances(taken, remaining, evaluator.sixes_tiebreak)
    else:
        primiera = primiera_chances(taken, remaining)
    if evaluator.escoba:
        coins = [a + b for a, b in zip(coins, _sweep_all(taken, remaining, DENARI), strict=True)]
        if evaluator.sevens_primiera:
            every = _sweep_all(taken, remaining, SEVENS)
            primiera = [a + 2 * b for a, b in zip(primiera, every, strict=True)]
    scope = [float(made - before) for made, before in zip(game.side_scope, baseline, strict=True)]
    if not game.round_over and game.can_sweep():
        scope[player.side_of[game.to_play]] += SCOPA_THREAT
    values = [majority([m.bit_count() for m in taken], remaining.bit_count()), coins,
              [float(bool(m & SETTEBELLO.bit)) for m in taken], primiera, scope]
    for on, counted in ((evaluator.re_bello, [float(bool(m & RE_BELLO.bit)) for m in taken]),
                        (evaluator.asso_bello, [float(bool(m & ASSO_BELLO.bit)) for m in taken]),
                        (evaluator.napola, [float(napola(m)) for m in taken])):
        if on:
            values.append(counted)
    if evaluator.sevens_point:
        values.append(majority([(m & SEVENS).bit_count() for m in taken], (remaining & SEVENS).bit_count()))
    side = player.side
    others = len(taken) - 1
    return [part[side] for part in values] + [(sum(part) - part[side]) / others for part in values]
