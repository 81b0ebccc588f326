"""A match review in the computer players' worker processes, as the bot works it out:
plays reviewed per second, the wall time of the whole review, and how late a 1 ms timer
fires on the event loop meanwhile (what every tap of every chat would wait for).

The match is 2-player scopa to 11 between two `medium` players (seeded, so every run
reviews the same plays), unless `--record` gives one. For comparison, the same review in
this process alone comes first (`--no-alone` skips it).

`--ended N` times instead what the bot does when N matches end at once: N groups of two people
play 2-player scopa to 11 through the sessions (SQLite, the worker pool, reviews made as matches
end), each up to its last play; then the N last plays are made together. It prints, from each
match's last play to its review stored (a Review tap then answers with it at once), p50 and p99;
the event loop's lag meanwhile; how long players of the `ASKERS` matches queued last wait for
theirs when they tap Review, one 0.5 s after the end, the next two seconds later and so on, while
the queue is being made; and what reading a review back for a tap takes.

    python benchmarks/review.py --ended 20 --no-alone
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from latency import milliseconds

from bot.ai import choose_move
from bot.ai.review import DEFAULT_SEARCHES, Review, read_records, review_match
from bot.engine import Game, to_record
from bot.sessions import ChatRef, ComputerPool, Sessions, UserRef
from bot.sessions.records import Change, NewReview
from bot.sessions.reviews import review_in_pool
from bot.storage.sqlite_store import SqliteStore

ASKERS = 5
"""With `--ended`: players of the matches queued last who tap Review, two seconds apart, while the
queue is being made."""


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


class Prober:
    """How late a 1 ms timer fires on the event loop, until stopped."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._done = asyncio.Event()
        self._task = asyncio.create_task(self._probe())

    async def _probe(self) -> None:
        while not self._done.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            self.lags.append(time.perf_counter() - start - 0.001)

    async def stop(self) -> list[float]:
        self._done.set()
        await self._task
        return self.lags


def percentiles(seconds: Iterable[float]) -> str:
    ordered = sorted(seconds)
    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]
    return f"p50 {at(0.5):.2f} s, p99 {at(0.99):.2f} s, slowest {ordered[-1]:.2f} s"


async def _to_the_last_play(sessions: Sessions, game_id: int, people: tuple[UserRef, UserRef]
                            ) -> tuple[UserRef, int, str]:
    """Play match `game_id` (each person's first legal move) up to its last play, made not."""
    game = await sessions.queries.stored_game(game_id)
    assert game is not None
    while True:
        move = game.view(game.to_play).legal_moves[0]
        probe = game.copy()
        probe.apply(move)
        user = people[game.to_play]
        if probe.finished:
            return user, game.version, move.code
        await sessions.play.play(game_id, user, game.version, move.code)
        game.apply(move)


async def ended_together(count: int, searches: int, pool: ComputerPool) -> None:
    await pool.start()
    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "review.db")
        ready: dict[int, float] = {}
        all_ready = asyncio.Event()
        storing = store._commit_changes

        async def timed(changes: tuple[Change, ...]) -> int | None:
            try:
                return await storing(changes)
            finally:
                for review in changes:
                    if isinstance(review, NewReview):
                        ready[review.game_id] = time.perf_counter()
                if len(ready) == count:
                    all_ready.set()

        store._commit_changes = timed  # type: ignore[method-assign]
        sessions = Sessions(store, pool=pool, review_searches=searches, review_at_end=True,
                            computer_pace=0.0)
        try:
            last: dict[int, tuple[UserRef, int, str]] = {}
            people: dict[int, tuple[UserRef, UserRef]] = {}
            for n in range(count):
                chat = ChatRef("bench", f"group-{n}", f"Group {n}")
                pair = UserRef("bench", f"a{n}", "Anna"), UserRef("bench", f"b{n}", "Bruno")
                await sessions.lobby.new_game(chat, pair[0], "scopa", {"target": 11})
                await sessions.lobby.join(chat, pair[1])
                game_id = (await sessions.lobby.start(chat, pair[0])).game_id
                people[game_id] = pair
                last[game_id] = await _to_the_last_play(sessions, game_id, pair)
            print(f"{count} matches of 2-player scopa to 11 played to their last play; "
                  f"{searches} searches per play")
            ended: dict[int, float] = {}

            async def end(game_id: int) -> None:
                user, version, code = last[game_id]
                await sessions.play.play(game_id, user, version, code)
                ended[game_id] = time.perf_counter()

            async def asked_late(game_id: int, after: float) -> float:
                """A player of a match queued late taps Review `after` seconds after the end."""
                await asyncio.sleep(after)
                start = time.perf_counter()
                await sessions.reviews.review(game_id, people[game_id][0])
                return time.perf_counter() - start

            prober = Prober()
            began = time.perf_counter()
            late = list(last)[-ASKERS:][::-1]
            askers = [asyncio.create_task(asked_late(game_id, 0.5 + 2 * n)) for n, game_id in enumerate(late)]
            await asyncio.gather(*(end(game_id) for game_id in last))
            await all_ready.wait()
            waited = [await asker for asker in askers]
            lags = await prober.stop()
            total = time.perf_counter() - began
            waits = [ready[game_id] - ended[game_id] for game_id in last]
            print(f"from match end to review ready, {count} matches ending together in "
                  f"{pool.workers} worker process(es): {percentiles(waits)}; all in {total:.1f} s")
            print(f"event-loop lag meanwhile ({len(lags)} timers): "
                  f"{milliseconds(lags, digits=2, worst=True)}")
            each = ", ".join(f"{w:.2f}" for w in waited)
            print(f"players of the {len(late)} matches queued last, tapping Review 0.5, 2.5, … s after the "
                  f"end (the last queued first), have theirs after {each} s: {percentiles(waited)}")
            taps = []
            for game_id, pair in people.items():
                start = time.perf_counter()
                found = await sessions.reviews.review(game_id, pair[0])
                taps.append(time.perf_counter() - start)
                assert not found.fresh
            print(f"a Review tap then reads it back: {milliseconds(taps, digits=2, worst=True)}")
        finally:
            await sessions.close()


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
    parser.add_argument("--ended", type=int, default=0,
                        help="time N matches ending at once, reviewed as the bot does (e.g. 20)")
    args = parser.parse_args()
    if args.ended:
        pool = ComputerPool(args.workers)
        try:
            asyncio.run(ended_together(args.ended, args.searches, pool))
        finally:
            pool.close()
        return
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
