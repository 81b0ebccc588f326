"""The computer levels' targets, measured: 2-player scopa, seat-swapped deals.

Plays medium against easy and hard against medium through the same code as
`scopa-bot arena` and prints a Markdown table for the README. The full run
(500 deals, 1,000 rounds, for hard at the default 300 ms per move) takes
about half an hour on two cores; `--deals-hard 50` gives a rough figure in
a few minutes. `--scale` also plays medium and hard against `greedy`, the
reference player of published Scopa programs (as many deals each again).
"""

from __future__ import annotations

import argparse

from bot.ai.arena import Match, arena


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals-medium", type=int, default=1000, help="deals of medium vs easy")
    parser.add_argument("--deals-hard", type=int, default=500, help="deals of hard vs medium")
    parser.add_argument("--budget", type=float, default=None, metavar="MS", help="hard's ms per move")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="2024")
    parser.add_argument("--scale", action="store_true", help="also medium and hard against greedy")
    args = parser.parse_args()
    budget = None if args.budget is None else args.budget / 1000
    runs = [("medium", "easy", args.deals_medium), ("hard", "medium", args.deals_hard)]
    if args.scale:
        runs += [("medium", "greedy", args.deals_medium), ("hard", "greedy", args.deals_hard)]
    print("| a vs b | rounds | won/lost/tied | margin per round (95% CI) | ms per move a / b "
          "| slowest move a (ms) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for a, b, deals in runs:
        if deals < 1:
            continue
        match = Match(a, b, "scopa", 2, False, {}, args.seed, budget, None)
        s = arena(match, deals, args.workers)
        print(f"| {a} vs {b} | {s['rounds']} | {s['wins']}/{s['losses']}/{s['ties']} | "
              f"{s['margin']:+.2f} ± {s['ci95']:.2f} | {s['ms_per_move_a']:.1f} / {s['ms_per_move_b']:.1f} "
              f"| {s['max_ms_a']:.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
