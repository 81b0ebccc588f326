"""Moves per second and latency of each store's unit of work of one move, with many games at once
(one asyncio task per game, all in one process, each committing its moves one after
another as fast as the store takes them).

A move commits as the sessions commit it: no snapshot, a deadline, now and then the
finished rounds, and the match's results, ratings and record at its last move.
SQLite runs on a file in a temporary folder. PostgreSQL runs on the server named by
--postgresql, or else on a throwaway server started like the tests' (tests/pg.py),
with PostgreSQL's default durability (every commit flushed) unless --no-fsync.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from latency import milliseconds

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.sessions.records import DeadlineKind, GameCancel, GameStart, GameStatus, NewGame  # noqa: E402
from bot.storage import MatchFinish, MoveCommit, RatingRow, ResultRow, SeatRow  # noqa: E402
from bot.storage.backends import open_store  # noqa: E402
from tests import pg  # noqa: E402

ROUND = 36
"""Plays in a round of two-player scopa."""


async def _games(store: Any, games: int) -> list[tuple[int, int, int]]:
    """Running duels, one per chat: (game id, first player, second player)."""
    started = []
    for number in range(games):
        chat = await store.ensure_chat("bench", f"chat-{number}")
        a = (await store.ensure_player("bench", f"a{number}", f"A{number}")).id
        b = (await store.ensure_player("bench", f"b{number}", f"B{number}")).id
        seats = (SeatRow(0, a, None, True, 0, False), SeatRow(1, b, None, True, 0, False))
        async with store.unit() as uow:
            uow.add(NewGame(chat.id, a, "scopa", {}, 2, 0, "napoletane", f"seed-{number}", "", seats))
        game_id = uow.created
        async with store.unit() as uow:
            uow.add(GameStart(game_id, 0, {"round": 1, "table": list(range(40))}, seats, time.time() + 90,
                              DeadlineKind.TURN))
        started.append((game_id, a, b))
    return started


def _commit(game_id: int, a: int, b: int, version: int, last: bool) -> MoveCommit:
    number = version + 1
    rounds = ((number // ROUND, {"totals": [number // ROUND, 0]}, {"plays": ROUND}),) \
        if number % ROUND == 0 else ()
    finish = None
    if last:
        finish = MatchFinish(
            f'{{"game":{game_id}}}',
            (ResultRow(0, a, 0, 11, True, 2, 25.0, 27.0), ResultRow(1, b, 1, 6, False, 1, 25.0, 23.0)),
            (RatingRow(a, "duel", 27.0, 8.0, 1, 1), RatingRow(b, "duel", 23.0, 8.0, 1, 0)))
    return MoveCommit(game_id, version, {"over": True} if last else None, version % 2,
                      f"{version % 10 + 1}D", False, time.time() + 90, "turn", rounds=rounds,
                      finish=finish)


async def run(name: str, url: str, games: int, moves: int) -> None:
    """First every game's moves at once, then (on new games) one move at a time."""
    store = await open_store(url)
    latencies: list[float] = []

    async def commit(game_id: int, a: int, b: int, version: int) -> None:
        move = _commit(game_id, a, b, version, version == moves - 1)
        begin = time.perf_counter()
        async with store.unit() as uow:
            uow.add(move)
        latencies.append(time.perf_counter() - begin)

    async def play(game_id: int, a: int, b: int) -> None:
        for version in range(moves):
            await commit(game_id, a, b, version)

    async def in_turn(games: list[tuple[int, int, int]]) -> None:
        for version in range(moves):
            for game in games:
                await commit(*game, version)

    for how in ("at once", "one move at a time"):
        started = await _games(store, games)
        latencies.clear()
        begin = time.perf_counter()
        if how == "at once":
            await asyncio.gather(*(play(*game) for game in started))
        else:
            await in_turn(started)
        elapsed = time.perf_counter() - begin
        async with store.unit() as uow:
            for game_id, _, _ in started:
                if (await store.get_game(game_id)).status == GameStatus.RUNNING:
                    uow.add(GameCancel(game_id, GameStatus.RUNNING))
        print(f"{name}, {games} games {how}: {len(latencies) / elapsed:,.0f} moves/s "
              f"({len(latencies)} moves in {elapsed:.1f} s); a move's unit "
              f"{milliseconds(latencies, worst=True)}")
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=80, help="moves per game (the last ends it)")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--postgresql", metavar="URL",
                        help="an empty PostgreSQL database to use instead of a throwaway server")
    parser.add_argument("--no-fsync", action="store_true",
                        help="the throwaway server skips flushing commits, as in the tests")
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(run("sqlite (WAL, synchronous=NORMAL)", str(Path(folder) / "bench.db"),
                            args.games, args.moves))
    if args.backend in ("postgresql", "both"):
        if args.postgresql:
            asyncio.run(run("postgresql", args.postgresql, args.games, args.moves))
            return
        cluster = pg.start_cluster(durable=not args.no_fsync)
        try:
            url = asyncio.run(cluster.create_database())
            durability = "fsync off" if args.no_fsync else "default durability, fsync on"
            asyncio.run(run(f"postgresql (throwaway server, {durability})", url, args.games, args.moves))
        finally:
            cluster.stop()


if __name__ == "__main__":
    main()
