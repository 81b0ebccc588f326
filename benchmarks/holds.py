"""What holding a message costs one bot process: `Sessions.draw_message` around a drawing
that does nothing, against calling the drawing straight, p50/p99, next to one
`Sessions.play` on the same database. On SQLite no other process draws, so the hold is
skipped; on PostgreSQL each drawing holds the message, and lets it go, in the database.

PostgreSQL runs on a throwaway server on this machine (tests/pg.py), or on
`--postgresql URL` of your own.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from latency import milliseconds

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from duels import move_or_rematch, on_sqlite_and_postgresql, open_duel  # noqa: E402

from bot.app import open_sessions  # noqa: E402


async def measure(label: str, database: str, games: int, rounds: int) -> None:
    sessions = await open_sessions(database, computer_pace=3600.0)
    duels = [await open_duel(sessions, number) for number in range(games)]

    async def nothing(first: bool) -> bool:
        return first

    straight: list[float] = []
    held: list[float] = []
    plays: list[float] = []
    for _ in range(rounds):
        for n, (chat, game_id, a, b) in enumerate(duels):
            begin = time.perf_counter()
            await nothing(True)
            straight.append(time.perf_counter() - begin)
            begin = time.perf_counter()
            await sessions.delivery.draw_message(game_id, "table", nothing)
            held.append(time.perf_counter() - begin)
            game_id, took = await move_or_rematch(sessions, chat, game_id, a, b)
            duels[n] = (chat, game_id, a, b)
            if took is not None:
                plays.append(took)
    await sessions.close()
    extra = sorted(held)[len(held) // 2] - sorted(straight)[len(straight) // 2]
    print(f"{label}: draw_message {milliseconds(held)} (straight {milliseconds(straight, digits=4)}); "
          f"a hold adds {extra * 1000:.2f} ms at p50; Sessions.play {milliseconds(plays)} "
          f"({len(held)} drawings over {games} games)", flush=True)


def main() -> None:
    on_sqlite_and_postgresql(measure, __doc__)


if __name__ == "__main__":
    main()
