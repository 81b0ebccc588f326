"""How fast `hard` searches: positions per second of its alpha-beta, and guesses per second.

The positions are those of seeded rounds played by `medium` (every third move with a choice),
in 2-player scopa and in scopone. For each, `hard` values the moves over a fixed number of
guesses of the hidden cards, once by alpha-beta alone (`hard.METHOD = "search"`: its node
count over the time taken is the positions per second) and once as it plays (`"both"`: the
search and a rollout of each move; guesses per second is what fits in its time budget).
One process, one core; rates per CPU second (the machine is shared), the best of `--turns`.
"""

from __future__ import annotations

import argparse
import random
import time

from bot.ai import choose_move, hard
from bot.engine import Game, SeatView

CONFIGS = (("scopa", 2, False), ("scopone", 4, True))


def positions(variant: str, players: int, teams: bool, seeds: int) -> list[SeatView]:
    found = []
    for seed in range(seeds):
        game = Game.new(variant, players, teams=teams, seed=f"search/{seed}")
        while True:
            view = game.view(game.to_play)
            if game.version % 3 == 0 and len(view.legal_moves) > 1:
                found.append(view)
            if game.apply(choose_move("medium", view, seed)).round_result is not None:
                break
    return found


def measure(views: list[SeatView], method: str, iterations: int) -> tuple[int, int, float]:
    """Nodes searched, guesses finished, CPU seconds."""
    hard.METHOD = method
    nodes = samples = 0
    start = time.process_time()
    for number, view in enumerate(views):
        player = hard.HardPlayer(view, random.Random(number), iterations=iterations)
        player.values()
        nodes += player.nodes
        samples += player.samples
    return nodes, samples, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=4, help="rounds per variant")
    parser.add_argument("--iterations", type=int, default=8, help="guesses per position")
    parser.add_argument("--turns", type=int, default=3, help="runs of each, the best kept")
    args = parser.parse_args()
    for variant, players, teams in CONFIGS:
        views = positions(variant, players, teams, args.seeds)
        searched = played = 0.0
        nodes = 0
        for _ in range(args.turns):
            nodes, _, elapsed = measure(views, "search", args.iterations)
            _, samples, both = measure(views, "both", args.iterations)
            searched = max(searched, nodes / elapsed)
            played = max(played, samples / both)
        print(f"{variant}: {len(views)} positions, alpha-beta {searched:,.0f} positions/s "
              f"({nodes:,} a run); as played {played:,.0f} guesses/s")
    hard.METHOD = "both"


if __name__ == "__main__":
    main()
