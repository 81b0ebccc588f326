"""A paired comparison of two settings of `hard` against `medium`, on the same deals.

Each setting is a list of NAME=VALUE pairs for module constants of `bot.ai`
(for example `hard.SAFETY=0.8` or `hard.LEAF_CAP=3000`). Both play
the same seat-swapped deals with the same seeds, so the difference of their
margins per deal is measured with much less noise than either margin:

    python benchmarks/ai_compare.py --deals 150 --seed 7 --iterations 20 \\
        --new hard.LEAF_CAP=3000 --old hard.LEAF_CAP=1500

One process, one core. Prints each margin and the difference with its 95%
confidence interval (over the deals), and the ms per move of each.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import statistics

from bot.ai.arena import Match, play_deals


def apply(settings: list[str]) -> dict[tuple[str, str], object]:
    """Set the constants; returns their previous values."""
    before = {}
    for pair in settings:
        name, value = pair.split("=", 1)
        module_name, attr = name.rsplit(".", 1)
        module = importlib.import_module(f"bot.ai.{module_name}")
        old = getattr(module, attr)
        before[(module_name, attr)] = old
        setattr(module, attr, type(old)(value) if not isinstance(old, bool) else value in ("1", "true", "on"))
    return before


def restore(before: dict[tuple[str, str], object]) -> None:
    for (module_name, attr), value in before.items():
        setattr(importlib.import_module(f"bot.ai.{module_name}"), attr, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", default="7")
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--budget", type=float, default=None, metavar="MS")
    parser.add_argument("--new-iterations", type=int, default=None,
                        help="guesses per move for the new setting (default: --iterations)")
    parser.add_argument("--new-budget", type=float, default=None, metavar="MS",
                        help="ms per move for the new setting (default: --budget)")
    parser.add_argument("--new", nargs="*", default=[])
    parser.add_argument("--old", nargs="*", default=[])
    args = parser.parse_args()
    budget = None if args.budget is None else args.budget / 1000
    old_match = Match("hard", "medium", "scopa", 2, False, {}, str(args.seed), budget, args.iterations)
    new_budget = budget if args.new_budget is None else args.new_budget / 1000
    new_iterations = args.iterations if args.new_iterations is None else args.new_iterations
    new_match = Match("hard", "medium", "scopa", 2, False, {}, str(args.seed), new_budget, new_iterations)
    results = {}
    for label, settings in (("new", args.new), ("old", args.old)):
        match = new_match if label == "new" else old_match
        before = apply(settings)
        try:
            results[label] = play_deals(match, list(range(args.deals)))
        finally:
            restore(before)
    diffs = [a - b for a, b in zip(results["new"].margins, results["old"].margins, strict=True)]
    summary: dict[str, object] = {"deals": args.deals, "seed": args.seed, "iterations": args.iterations,
                                  "new_iterations": new_iterations, "new": args.new, "old": args.old}
    for label, tally in results.items():
        margins = tally.margins
        summary[label + "_margin"] = round(statistics.mean(margins), 4)
        summary[label + "_ci95"] = round(1.96 * statistics.stdev(margins) / math.sqrt(len(margins)), 4)
        summary[label + "_ms"] = round(1000 * tally.seconds["a"] / max(tally.moves["a"], 1), 2)
        summary[label + "_max_ms"] = round(1000 * tally.slowest["a"], 1)
    summary["diff"] = round(statistics.mean(diffs), 4)
    summary["diff_ci95"] = round(1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)), 4)
    print(json.dumps(summary, separators=(",", ":")))


if __name__ == "__main__":
    main()
