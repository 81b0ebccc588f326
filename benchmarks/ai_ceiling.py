"""How far determinised search can go: `hard` shown the hidden cards, against `medium`.

A measurement only (no chat user can reach it). `hard` plays 2-player scopa
against `medium` on seat-swapped deals, as `scopa-bot arena` does, but its
guesses of the hidden cards are replaced by the truth:

- `full`: the other hand and the stock, in the order it will be dealt (one
  guess is then the whole truth, so it searches one);
- `hands`: the other hand only; the stock is shuffled anew for each guess.
- `none`: the ordinary player, for a paired reference on the same deals.

    python benchmarks/ai_ceiling.py --deals 200 --mode full
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from dataclasses import dataclass

from bot.ai import choose_move
from bot.ai.hard import HardPlayer
from bot.engine import Card, Game, SeatView


@dataclass(frozen=True)
class Oracle:
    """Stands in for `Knowledge`: every guess is the true hands (and, in `full`, the true stock)."""

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    full: bool

    @property
    def certain(self) -> bool:
        return self.full

    def sample(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        stock = list(self.stock)
        if not self.full:
            rng.shuffle(stock)
        return [list(hand) for hand in self.hands], stock


def hard_move(game: Game, view: SeatView, seed: str, mode: str, iterations: int | None,
              budget: float | None):
    if mode == "none":
        return choose_move("hard", view, seed, budget, iterations)
    started = time.perf_counter()
    player = HardPlayer(view, random.Random(f"hard/{seed}"), budget, iterations, started)
    player.knowledge = Oracle(tuple(tuple(h) for h in game.hands), tuple(game.stock),  # type: ignore[assignment]
                              mode == "full")
    return player.choose()


def play_round(deal_seed: str, swapped: bool, mode: str, iterations: int | None,
               budget: float | None) -> float:
    game = Game.new("scopa", 2, seed=deal_seed)
    hard_side = 1 if swapped else 0
    while True:
        seat = game.to_play
        view = game.view(seat)
        seed = f"{deal_seed}/{int(swapped)}/{game.version}"
        if game.side_of[seat] == hard_side:
            move = hard_move(game, view, seed, mode, iterations, budget)
        else:
            move = choose_move("medium", view, seed)
        result = game.apply(move).round_result
        if result is not None:
            break
    scores = [score.total for score in result.scores]
    return scores[hard_side] - scores[1 - hard_side]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", default="2024")
    parser.add_argument("--mode", choices=("full", "hands", "none"), default="full")
    parser.add_argument("--iterations", type=int, default=None,
                        help="guesses per move (default: 1 in full, else the time budget)")
    parser.add_argument("--budget", type=float, default=None, metavar="MS")
    args = parser.parse_args()
    iterations = args.iterations
    if iterations is None and args.mode == "full":
        iterations = 1
    budget = None if args.budget is None else args.budget / 1000
    started = time.perf_counter()
    margins = []
    for deal in range(args.deals):
        deal_seed = f"{args.seed}/{deal}"
        first = play_round(deal_seed, False, args.mode, iterations, budget)
        second = play_round(deal_seed, True, args.mode, iterations, budget)
        margins.append((first + second) / 2)
    mean = statistics.mean(margins)
    ci95 = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else 0.0
    print(json.dumps({"mode": args.mode, "deals": args.deals, "rounds": 2 * args.deals,
                      "seed": args.seed, "iterations": iterations, "margin": round(mean, 4),
                      "ci95": round(ci95, 4), "margins": margins,
                      "seconds": round(time.perf_counter() - started, 1)}, separators=(",", ":")))


if __name__ == "__main__":
    main()
