"""What one call into the metrics costs, off (SCOPA_METRICS unset) and on: the calls a tap makes
(`benchmarks/telegram_taps.py --metrics on` prints how many of each a tap makes), each timed over
many repetitions, the best of five rounds.

    python benchmarks/metrics_calls.py
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import metrics

ROUNDS = 5
CALLS = 100_000


def database() -> None:
    metrics.database("statement", metrics.now())


def message() -> None:
    metrics.wait_ended("telegram", metrics.wait_began("telegram"))
    metrics.message("telegram", edited=True)


def tap() -> None:
    began = metrics.now()
    metrics.tap_began(7)
    metrics.tap("telegram", "play", "ok", began)
    metrics.drawn("telegram", 7)


def move() -> None:
    metrics.move("telegram", "scopa", by_computer=False)


def best(call: Callable[[], None]) -> float:
    """Microseconds a call, the best round."""
    fastest = float("inf")
    for _ in range(ROUNDS):
        began = time.perf_counter()
        for _ in range(CALLS):
            call()
        fastest = min(fastest, time.perf_counter() - began)
    return fastest / CALLS * 1e6


def main() -> None:
    calls = {"a database call": database, "a message (its wait and its count)": message,
             "a tap (arrival, answer, first update)": tap, "a move": move}
    off = {name: best(call) for name, call in calls.items()}
    metrics.enable()
    on = {name: best(call) for name, call in calls.items()}
    for name in calls:
        print(f"{name}: {off[name]:.2f} µs off, {on[name]:.2f} µs on")


if __name__ == "__main__":
    main()
