"""Moves per second and `Sessions.play` p50/p99 with 200 games at once, as fast as they
can go: SQLite in one process, then PostgreSQL with 1, 2 and 3 bot processes sharing
the games (each process plays its share, one asyncio task per game, its timer loop
running beside them as in the bot).

PostgreSQL runs on a throwaway server on this machine (tests/pg.py) with its default
durability (`--no-fsync` to skip flushing), or on `--postgresql URL` of your own.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

from latency import milliseconds

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from duels import move_or_rematch, open_duel  # noqa: E402

from bot.app import open_sessions, settle_heap  # noqa: E402
from bot.sessions import ChatRef, UserRef  # noqa: E402
from tests import pg  # noqa: E402


async def play(database: str, first: int, games: int, seconds: float,
               start_at: float) -> tuple[int, int, list[float]]:
    """Games `first` to `first + games`, played from `start_at` (wall clock) for `seconds`;
    gives the moves played, matches ended and each `Sessions.play` time."""
    sessions = await open_sessions(database, computer_pace=3600.0)
    pairs = [await open_duel(sessions, number) for number in range(first, first + games)]
    timers = asyncio.create_task(sessions.scheduler.run_forever())
    settle_heap()
    await asyncio.sleep(max(0.0, start_at - time.time()))
    deadline = time.perf_counter() + seconds
    latencies: list[float] = []
    matches = 0

    async def player(chat: ChatRef, game_id: int, a: UserRef, b: UserRef) -> None:
        nonlocal matches
        while time.perf_counter() < deadline:
            game_id, took = await move_or_rematch(sessions, chat, game_id, a, b)
            if took is None:
                matches += 1
            else:
                latencies.append(took)

    await asyncio.gather(*(player(*pair) for pair in pairs))
    timers.cancel()
    await asyncio.gather(timers, return_exceptions=True)
    await sessions.close()
    return len(latencies), matches, latencies


def _process(database: str, first: int, games: int, seconds: float, start_at: float,
             out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    out.put(asyncio.run(play(database, first, games, seconds, start_at)))


def measure(label: str, database: str, games: int, processes: int, seconds: float) -> None:
    start_at = time.time() + 3.0 + games * 0.02
    if processes == 1:
        results = [asyncio.run(play(database, 0, games, seconds, start_at))]
    else:
        context = multiprocessing.get_context("spawn")
        out = context.Queue()
        share = games // processes
        workers = [context.Process(target=_process, args=(database, n * share, share, seconds, start_at, out))
                   for n in range(processes)]
        for worker in workers:
            worker.start()
        results = [out.get() for _ in workers]
        for worker in workers:
            worker.join()
    moves = sum(r[0] for r in results)
    matches = sum(r[1] for r in results)
    latencies = [t for r in results for t in r[2]]
    print(f"{label}: {moves / seconds:,.0f} moves/s with {games} games ({moves} moves, {matches} "
          f"matches ended in {seconds:.0f} s); Sessions.play {milliseconds(latencies)}", flush=True)


async def _fresh(cluster: pg.Cluster) -> str:
    return await cluster.create_database()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--processes", type=int, nargs="*", default=[1, 2, 3])
    parser.add_argument("--postgresql", metavar="URL", help="a server of your own (used as it is)")
    parser.add_argument("--no-fsync", action="store_true", help="the throwaway server does not flush")
    parser.add_argument("--no-sqlite", action="store_true")
    args = parser.parse_args()
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as folder:
            measure("SQLite, 1 process", str(Path(folder) / "bench.db"), args.games, 1, args.seconds)
    cluster = None if args.postgresql else pg.start_cluster(durable=not args.no_fsync)
    try:
        for processes in args.processes:
            url = args.postgresql or asyncio.run(_fresh(cluster))  # type: ignore[arg-type]
            measure(f"PostgreSQL, {processes} process{'es' if processes > 1 else ''}", url, args.games,
                    processes, args.seconds)
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
