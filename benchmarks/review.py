"""A match review in the computer players' worker processes, as the bot works it out:
plays reviewed per second, the wall time of the whole review, and how late a 1 ms timer
fires on the event loop meanwhile (what every tap of every chat would wait for).

The match is 2-player scopa to 11 between two `medium` players (seeded, so every run
reviews the same plays), unless `--record` gives one. For comparison, the same review in
this process alone comes first (`--no-alone` skips it).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path
from typing import Any

from latency import milliseconds

from bot.ai import choose_move
from bot.ai.review import DEFAULT_SEARCHES, Review, read_records, review_match
from bot.engine import Game, to_record
from bot.sessions import ComputerPool
from bot.sessions.reviews import review_in_pool


def played_match(seed: str) -> dict[str, Any]:
    game = Game.new("scopa", 2, seed=seed)
    while not game.finished:
        game.apply(choose_move("medium", game.view(game.to_play), f"{seed}/{game.version}"))
    return to_record(game)


def summary(review: Review, seconds: float) -> str:
    plays = len(review.plays)
    choices = sum(not p.forced for p in review.plays)
    accuracy = ", ".join(f"{a:.1f}" for a in review.accuracy)
    return (f"{plays} plays ({choices} with a choice) in {seconds:.2f} s: "
            f"{plays / seconds:.0f} moves reviewed per second; accuracy {accuracy}")


async def in_pool(record: dict[str, Any], searches: int, pool: ComputerPool) -> None:
    await pool.start()
    lags: list[float] = []
    done = asyncio.Event()

    async def probe() -> None:
        while not done.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            lags.append(time.perf_counter() - start - 0.001)

    prober = asyncio.create_task(probe())
    began = time.perf_counter()
    review = await review_in_pool(pool, record, searches)
    seconds = time.perf_counter() - began
    done.set()
    await prober
    print(f"in {pool.workers} worker process(es): {summary(review, seconds)}")
    print(f"event-loop lag meanwhile ({len(lags)} timers): {milliseconds(lags, digits=2, worst=True)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--searches", type=int, default=DEFAULT_SEARCHES,
                        help=f"guesses of the hidden cards per play (default {DEFAULT_SEARCHES})")
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes (default: as the bot, one per core)")
    parser.add_argument("--record", type=Path, help="review the first match of this scopa-record/1 file")
    parser.add_argument("--seed", default="seventy",
                        help="the seed of the match played when no --record (default: 72 plays a player)")
    parser.add_argument("--no-alone", action="store_true", help="skip the review in this process alone")
    args = parser.parse_args()
    if args.record:
        record = read_records(args.record.read_text(encoding="utf-8"), str(args.record))[0]
    else:
        record = played_match(args.seed)
    rounds = len(record["rounds"])
    print(f"{record['variant']}, {record['seats']} players, {rounds} rounds, "
          f"{args.searches} searches per play")
    if not args.no_alone:
        began = time.perf_counter()
        review = review_match(record, args.searches)
        print(f"in this process alone: {summary(review, time.perf_counter() - began)}")
    pool = ComputerPool(args.workers)
    try:
        asyncio.run(in_pool(record, args.searches, pool))
    finally:
        pool.close()


if __name__ == "__main__":
    main()
