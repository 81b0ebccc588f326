"""How long an announcement stays at least once: from the moment `post` says the chat has
the message to the moment the database says it is owed no more. A process killed in
that window leaves it owed, and the next process to look posts it again.

Each announcement is a match end owed by a started duel (stored as a move would store
it), posted through `Sessions.announce` with a `post` that answers at once; timed from
`post`'s answer to the commit of `notice_delivered` (the window), and to the return of
`announce` (the window and the hold's release). PostgreSQL runs on a throwaway server
on this machine (tests/pg.py), or on `--postgresql URL` of your own.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from latency import milliseconds

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from duels import on_sqlite_and_postgresql, open_duel  # noqa: E402

from bot.app import open_sessions  # noqa: E402
from bot.sessions.events import MatchEnded  # noqa: E402
from bot.sessions.notices import dump_notice, notice_key  # noqa: E402


async def measure(label: str, database: str, games: int, rounds: int) -> None:
    sessions = await open_sessions(database, computer_pace=3600.0)
    duels = [await open_duel(sessions, number) for number in range(games)]
    windows: list[float] = []
    announced: list[float] = []
    for _ in range(rounds):
        for chat, game_id, a, b in duels:
            event = MatchEnded(game_id, chat.platform, chat.key, 0, (11, 4), (a.name, b.name))
            await sessions.delivery.refs.set_ref(game_id, notice_key(event), dump_notice(event))
            answered = 0.0

            async def post() -> bool:
                nonlocal answered
                answered = time.perf_counter()
                return True

            assert await sessions.delivery.announce(event, post)
            announced.append(time.perf_counter() - answered)
            await sessions.delivery.refs.set_ref(game_id, notice_key(event), dump_notice(event))
            begin = time.perf_counter()
            await sessions.delivery.notice_delivered(event)
            windows.append(time.perf_counter() - begin)
    await sessions.close()
    print(f"{label}: posted -> owed no more {milliseconds(windows, worst=True)}; "
          f"posted -> announce returned {milliseconds(announced, worst=True)} "
          f"({len(windows)} announcements over {games} games)", flush=True)


def main() -> None:
    on_sqlite_and_postgresql(measure, __doc__)


if __name__ == "__main__":
    main()
