"""Moves per second and latency of applying a move through sessions + SQLite,
with many games running at once (one asyncio task per game, all in one process).

The sessions' timer loop runs beside the games, as in the bot: it wakes after
every move to look for the next deadline. Each move is a full `Sessions.play`
call: checks, engine validation, one SQLite transaction (WAL) checking the
version and storing the move (and, when the match ends, the final state, every
round and the results), cache update, events.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from duels import move_or_rematch, open_duel
from latency import milliseconds

from bot.app import open_sessions, settle_heap
from bot.sessions import ChatRef, UserRef


async def run(games: int, seconds: float, database: Path, rate: float | None = None,
              arrivals: str = "even") -> None:
    """Play for `seconds`; with `rate`, each game moves at rate/games per second (offered load).

    `even` arrivals keep every game in step (a move every games/rate seconds, the
    games spread evenly over that interval), so all games end their rounds and
    matches together; `poisson` makes each player's pause random (exponential, the
    same mean), like people who do not play in step."""
    sessions = await open_sessions(str(database), computer_pace=3600.0)
    pairs = [await open_duel(sessions, number) for number in range(games)]
    timers = asyncio.create_task(sessions.scheduler.run_forever())
    settle_heap()
    latencies: list[float] = []
    late: list[float] = []
    deadline = time.perf_counter() + seconds

    interval = games / rate if rate else 0.0
    matches = 0

    async def player(chat: ChatRef, game_id: int, a: UserRef, b: UserRef, offset: float) -> None:
        nonlocal matches
        pauses = random.Random(game_id)
        due = time.perf_counter() + offset
        while time.perf_counter() < deadline:
            if interval:
                due += pauses.expovariate(1 / interval) if arrivals == "poisson" else interval
                pause = due - time.perf_counter()
                if pause > 0:
                    await asyncio.sleep(pause)
            game_id, took = await move_or_rematch(sessions, chat, game_id, a, b)
            if took is None:
                matches += 1
                continue
            latencies.append(took)
            if interval:
                late.append(time.perf_counter() - due)

    begin = time.perf_counter()
    await asyncio.gather(*(player(*pair, interval * i / games) for i, pair in enumerate(pairs)))
    elapsed = time.perf_counter() - begin
    timers.cancel()
    await asyncio.gather(timers, return_exceptions=True)
    await sessions.close()
    load = f"offered {rate:,.0f} moves/s, {arrivals} arrivals" if rate else "as fast as possible"
    print(f"sessions ({load}): {len(latencies) / elapsed:,.0f} moves/s sustained with {games} games at once "
          f"({len(latencies)} moves and {matches} matches ended in {elapsed:.1f} s); latency "
          f"{milliseconds(latencies)}")
    if late:
        print(f"  counted from the moment each move was due (waits for the event loop included): "
              f"{milliseconds(late)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="long enough for matches to end and new ones to start (about 15 s)")
    parser.add_argument("--rate", type=float, default=2000.0,
                        help="offered moves per second for the latency runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.games, args.seconds, Path(folder) / "saturated.db"))
        for arrivals in ("even", "poisson"):
            asyncio.run(run(args.games, args.seconds, Path(folder) / f"{arrivals}.db", args.rate,
                            arrivals))


if __name__ == "__main__":
    main()
