"""Computer turns in many chats at once: how long each waits, and what the
event loop feels meanwhile, with computers thinking in threads (as the
terminal game does) and in worker processes (as the bot does).

Every game is one person against a `hard` computer. The person plays as soon
as their turn comes; the computer's turn is due at once (no pacing pause), so
every game keeps a search running or queued. Figures:

- from due to played: from the moment a computer's turn is due to the commit of
  its move (the search's 300 ms included);
- loop lag: how late a 1 ms timer fires while all of this goes on, which every
  tap of every chat would wait for too.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from latency import milliseconds

from bot.app import open_sessions
from bot.sessions import ChatRef, ComputerPool, MovePlayed, Sessions, UserRef
from bot.sessions.events import Event


async def run(games: int, seconds: float, database: Path, pool: ComputerPool | None) -> None:
    options = {"think": pool.think} if pool else {}
    sessions: Sessions = await open_sessions(str(database), computer_pace=0.0, **options)
    waits: list[float] = []
    due: dict[int, float] = {}

    async def listen(event: Event) -> None:
        if isinstance(event, MovePlayed) and event.by_computer and event.game_id in due:
            waits.append(time.perf_counter() - due.pop(event.game_id))

    sessions.bus.subscribe(listen)
    people = []
    for number in range(games):
        chat = ChatRef("bench", f"chat-{number}")
        person = UserRef("bench", f"p{number}", f"P{number}")
        await sessions.lobby.new_game(chat, person, "scopa")
        await sessions.lobby.add_computer(chat, person, "hard")
        people.append((chat, person, (await sessions.lobby.start(chat, person)).game_id))
    timers = asyncio.create_task(sessions.scheduler.run_forever())
    began = time.perf_counter()
    end = began + seconds
    lags: list[float] = []

    async def probe() -> None:
        while time.perf_counter() < end:
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            lags.append(time.perf_counter() - start - 0.001)

    async def person_plays(chat: ChatRef, person: UserRef, game_id: int) -> None:
        while time.perf_counter() < end:
            table = await sessions.queries.table(game_id)
            if table.finished:
                await sessions.lobby.new_game(chat, person, "scopa")
                await sessions.lobby.add_computer(chat, person, "hard")
                game_id = (await sessions.lobby.start(chat, person)).game_id
                continue
            if table.to_play == 0:
                hand = await sessions.queries.hand(game_id, person)
                await sessions.play.play(game_id, person, hand.version, hand.choices[0].moves[0].code)
                due.setdefault(game_id, time.perf_counter())
            else:
                await asyncio.sleep(0.005)

    await asyncio.gather(probe(), *(person_plays(*seat) for seat in people))
    elapsed = time.perf_counter() - began
    timers.cancel()
    await asyncio.gather(timers, return_exceptions=True)
    await sessions.close()
    where = f"{pool.workers} worker process(es)" if pool else "threads"
    print(f"{games} games, computers in {where}: {len(waits)} computer moves in {elapsed:.1f} s "
          f"({len(waits) / elapsed:.1f}/s); from due to played: "
          f"{milliseconds(waits, digits=1, worst=True)}; "
          f"loop lag: {milliseconds(lags, digits=1, worst=True)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes (default: as the bot, one per core)")
    parser.add_argument("--no-threads", action="store_true", help="skip the run with threads")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if not args.no_threads:
            asyncio.run(run(args.games, args.seconds, Path(folder) / "threads.db", None))
        pool = ComputerPool(args.workers)
        try:
            asyncio.run(_with_pool(args, Path(folder) / "processes.db", pool))
        finally:
            pool.close()


async def _with_pool(args: argparse.Namespace, database: Path, pool: ComputerPool) -> None:
    await pool.start()
    await run(args.games, args.seconds, database, pool)


if __name__ == "__main__":
    main()
