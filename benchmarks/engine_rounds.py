"""Random-play full 2-player scopa rounds per second, scoring included, one process.

Each round is dealt, played to the end by two players choosing uniformly among
the legal moves (through the public legal_moves/apply API, every move
validated) and scored. Prints rounds per second.
"""

from __future__ import annotations

import argparse
import random
import time

from bot.engine import COMPILED, Game


def run(seconds: float, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    rounds = 0
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = Game.new("scopa", 2, seed=f"{seed}-{games}")
        games += 1
        while not game.finished:
            moves = game.legal_moves()
            outcome = game.apply(moves[int(rng.random() * len(moves))])
            if outcome.round_result is not None:
                rounds += 1
    return rounds, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(0.5, args.seed)
    rounds, elapsed = run(args.seconds, args.seed)
    print(f"engine: {rounds / elapsed:,.0f} random-play 2-player scopa rounds/s "
          f"({rounds} rounds in {elapsed:.1f} s, one core, {'compiled' if COMPILED else 'pure Python'})")


if __name__ == "__main__":
    main()
