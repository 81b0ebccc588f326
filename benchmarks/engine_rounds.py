"""Random-play full rounds per second, scoring included, one process, beside a yardstick.

Three loops take turns, a few times each, so that the machine's swings reach them alike:
- engine: 2-player scopa rounds dealt, played to the end by two players choosing uniformly
  among the legal moves (through the public legal_moves/apply API, every move validated)
  and scored;
- engine, no undo: the same with games made by `Game.new(..., undo=False)`, which keep no
  undo records;
- playout: the same games played by the engine's own random play (`playout.play_to_end`, one
  call a match, the moves drawn as `randrange` draws them), as `simulate` plays;
- simulate: `scopa-bot simulate`'s matches with a `scopa-record/1` line written for each;
- yardstick: the same game written as simply as possible in plain Python
  (benchmarks/yardstick.py).
Prints each one's best rounds per CPU second (the machine is shared: CPU time leaves out
the time other processes had the core) and the engine's and simulate's ratio to the
yardstick, which stays steadier than the rates themselves.
"""

from __future__ import annotations

import argparse
import io
import random
import time
from collections.abc import Callable

from yardstick import rounds_per_second as yardstick_rate

from bot.engine import COMPILED, Game
from bot.engine.playout import play_to_end
from bot.simulate import simulate


def _rounds_per_second(seconds: float, seed: int, undo: bool,
                       play: Callable[[Game, random.Random], int]) -> float:
    """Matches of 2-player scopa dealt one after another, each played to its end by `play`,
    which gives the rounds it played."""
    rng = random.Random(seed)
    rounds = 0
    games = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        game = Game.new("scopa", 2, seed=f"{seed}-{games}", undo=undo)
        games += 1
        rounds += play(game, rng)
    return rounds / (time.process_time() - start)


def _through_the_api(game: Game, rng: random.Random) -> int:
    rounds = 0
    while not game.finished:
        moves = game.legal_moves()
        outcome = game.apply(moves[int(rng.random() * len(moves))])
        if outcome.round_result is not None:
            rounds += 1
    return rounds


def _played_out(game: Game, rng: random.Random) -> int:
    play_to_end(game, rng)
    return len(game.results)


def engine_rate(seconds: float, seed: int, undo: bool = True) -> float:
    return _rounds_per_second(seconds, seed, undo, _through_the_api)


def engine_rate_without_undo(seconds: float, seed: int) -> float:
    return engine_rate(seconds, seed, undo=False)


def playout_rate(seconds: float, seed: int) -> float:
    return _rounds_per_second(seconds, seed, False, _played_out)


def simulate_rate(seconds: float, seed: int) -> float:
    rounds = 0
    batch = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        summary = simulate("scopa", 2, False, 20, f"{seed}/{batch}", {}, io.StringIO())
        rounds += summary.rounds
        batch += 1
    return rounds / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="per turn of each loop")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    loops = {"engine": engine_rate, "no undo": engine_rate_without_undo, "playout": playout_rate,
             "simulate": simulate_rate, "yardstick": yardstick_rate}
    for loop in loops.values():
        loop(0.3, args.seed)
    best = dict.fromkeys(loops, 0.0)
    for turn in range(args.turns):
        for name, loop in loops.items():
            best[name] = max(best[name], loop(args.seconds, args.seed + turn))
    form = "compiled" if COMPILED else "pure Python"
    yardstick = best["yardstick"]
    print(f"engine: {best['engine']:,.0f} random-play 2-player scopa rounds/s "
          f"({best['engine'] / yardstick:.2f}x the yardstick, one core, {form})")
    print(f"engine, no undo: {best['no undo']:,.0f} rounds/s "
          f"({best['no undo'] / yardstick:.2f}x the yardstick)")
    print(f"playout: {best['playout']:,.0f} rounds/s "
          f"({best['playout'] / yardstick:.2f}x the yardstick)")
    print(f"simulate: {best['simulate']:,.0f} rounds/s with records "
          f"({best['simulate'] / yardstick:.2f}x the yardstick)")
    print(f"yardstick: {yardstick:,.0f} rounds/s")


if __name__ == "__main__":
    main()
