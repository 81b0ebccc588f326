"""Whether the coach's reasons are facts that tell the two moves apart, over simulated matches.

A measurement only. It simulates 20 two-player scopa matches and 5 scopone scientifico matches
(seeded, random legal plays at every seat, as `scopa-bot simulate` plays them), WHOLE MATCHES
(about ten seconds of processor time; `--one-round` takes the first round of each, as the unit test
of the same matches does), reviews every play as `scopa-bot review` does, and prints:

- plays with a choice, and how many of them the review calls equivalent;
- per reason code, the plays that lost at least `COSTLY` points;
- how many of those have no real reason (none, or only `better`);
- how many have the same English sentence for the played and the better move (the reason of
  the swapped pair, worded through the catalogue, is the same text).

    python benchmarks/review_reasons.py            # 128 guesses a play, as a review makes
    python benchmarks/review_reasons.py --hints

The target is 0 and 0. With `--hints` it asks instead for a hint (`HINT_SEARCHES` guesses) at
each of the first 24 plays of 3 matches of 2-player scopa, scopone and 2-player escoba, and
prints per game the hints with a choice, their reason codes and the processor time a hint takes
(mean and worst: the machine may be shared). The figures are in docs/ai.md.
"""

from __future__ import annotations

import argparse
import io
import itertools
import statistics
import time
from collections import Counter
from dataclasses import replace

from bot.ai.review import (
    DEFAULT_SEARCHES,
    HINT_SEARCHES,
    Fault,
    hint,
    read_records,
    review_tasks,
    review_turn,
)
from bot.ai.review.facts import reason
from bot.ai.review.replay import turns
from bot.render.review import reason_text
from bot.simulate import simulate

COSTLY = 0.3
MATCHES = (("scopa", 2, 20), ("scopone_scientifico", 4, 5))
HINTED = (("scopa", 2), ("scopone_scientifico", 4), ("escoba", 2))
HINTED_PLAYS = 24
HINTED_MATCHES = 3


def hints(seed: str) -> None:
    """Hints at the first plays of a few matches: their reasons and how long each took."""
    for variant, players in HINTED:
        out = io.StringIO()
        simulate(variant, players, False, HINTED_MATCHES, seed, {}, out)
        times: list[float] = []
        codes: Counter[str] = Counter()
        for number, record in enumerate(read_records(out.getvalue())):
            for turn in itertools.islice(turns(record), HINTED_PLAYS):
                started = time.process_time()
                given = hint((turn.view, f"{seed}/{number}/{turn.round}/{turn.play}", HINT_SEARCHES))
                if given.reason is None:
                    continue
                times.append(time.process_time() - started)
                codes[given.reason.fault.value] += 1
        print(f"{variant}: {len(times)} hints with a choice, mean {1000 * statistics.mean(times):.0f} ms, "
              f"worst {1000 * max(times):.0f} ms")
        print("  " + ", ".join(f"{code} {number}" for code, number in codes.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=DEFAULT_SEARCHES,
                        help="guesses of the hidden cards per play")
    parser.add_argument("--seed", default="reasons")
    parser.add_argument("--one-round", action="store_true", help="the first round of each match only")
    parser.add_argument("--hints", action="store_true", help="time hints and count their reasons instead")
    args = parser.parse_args()
    if args.hints:
        hints(args.seed)
        return
    started = time.process_time()
    for variant, players, count in MATCHES:
        out = io.StringIO()
        options = {"round_limit": "1"} if args.one_round else {}
        simulate(variant, players, False, count, args.seed, options, out)
        choices = equivalent = costly = missing = same = 0
        codes: Counter[str] = Counter()
        for record in read_records(out.getvalue()):
            for task in review_tasks(record, args.searches):
                play = review_turn(task)
                if play.forced:
                    continue
                choices += 1
                if play.reason is not None and play.reason.fault is Fault.EQUIVALENT:
                    equivalent += 1
                if play.loss < COSTLY:
                    continue
                costly += 1
                found = play.reason
                codes[found.fault.value if found else "none"] += 1
                if found is None or found.fault is Fault.BETTER:
                    missing += 1
                    continue
                turn = task[0]
                swapped = replace(play, played=play.best, best=play.played,
                                  reason=reason(turn.view, play.best, play.played, task[1]))
                if reason_text(play, "en", variant) == reason_text(swapped, "en", variant):
                    same += 1
        rounds = "one round each" if args.one_round else "whole"
        print(f"{variant} ({count} matches of {players}, {rounds}, {args.searches} searches a play)")
        print(f"  plays with a choice: {choices}, equivalent: {equivalent}")
        print(f"  plays losing >= {COSTLY}: {costly}")
        for code, number in codes.most_common():
            print(f"    {code}: {number}")
        print(f"  no real reason: {missing}; same sentence for both moves: {same}")
    print(f"({time.process_time() - started:.1f} s of processor time)")


if __name__ == "__main__":
    main()
