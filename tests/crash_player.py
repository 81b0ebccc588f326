"""Plays both seats of the open game in a database as fast as it can, printing
each committed version; the crash test kills it with SIGKILL mid-match."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tests.sessions_helpers import ALICE, BOB, CHAT, open_sessions


async def main(path: str) -> None:
    sessions = await open_sessions(Path(path))
    game_id = await sessions.queries.open_game_id(CHAT)
    assert game_id is not None
    while True:
        table = await sessions.queries.table(game_id)
        if table.finished:
            print("finished", flush=True)
            return
        user = ALICE if table.to_play == 0 else BOB
        hand = await sessions.queries.hand(game_id, user)
        await sessions.play.play(game_id, user, hand.version, hand.choices[0].moves[0].code)
        print(f"committed {hand.version + 1}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
