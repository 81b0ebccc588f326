"""Two-player scopa games played through `Sessions` as fast as a benchmark asks: each
move the first legal play of the player to move, each finished match followed by a new
one in the same chat."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.sessions import ChatRef, Sessions, UserRef

Measure = Callable[[str, str, int, int], Awaitable[None]]
"""A benchmark of duels on one database: its label, its URL or path, games, rounds."""

Duel = tuple[ChatRef, int, UserRef, UserRef]


async def open_duel(sessions: Sessions, number: int) -> Duel:
    """Duel `number`, started, with a turn limit no benchmark reaches."""
    chat = ChatRef("bench", f"chat-{number}")
    a, b = UserRef("bench", f"a{number}", f"A{number}"), UserRef("bench", f"b{number}", f"B{number}")
    await sessions.settings.set_turn_limit(chat, 3600)
    await sessions.lobby.new_game(chat, a, "scopa")
    await sessions.lobby.join(chat, b)
    return chat, (await sessions.lobby.start(chat, a)).game_id, a, b


async def move_or_rematch(sessions: Sessions, chat: ChatRef, game_id: int, a: UserRef,
                          b: UserRef) -> tuple[int, float | None]:
    """One move (and the seconds its `Sessions.play` took), or once the match is over a new
    match in the chat (None); with the game now played."""
    table = await sessions.queries.table(game_id)
    if table.finished:
        await sessions.lobby.new_game(chat, a, "scopa")
        await sessions.lobby.join(chat, b)
        return (await sessions.lobby.start(chat, a)).game_id, None
    user = a if table.to_play == 0 else b
    hand = await sessions.queries.hand(game_id, user)
    move = hand.choices[0].moves[0].code
    begin = time.perf_counter()
    await sessions.play.play(game_id, user, hand.version, move)
    return game_id, time.perf_counter() - begin


def on_sqlite_and_postgresql(measure: Measure, description: str | None) -> None:
    """`measure` on a temporary SQLite file, then on a throwaway PostgreSQL (or `--postgresql`
    URL), with `--games` duels and `--rounds` from the command line (the caller has the
    project's root on `sys.path`, for the throwaway server of `tests.pg`)."""
    from tests import pg

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--postgresql", metavar="URL", help="a server of your own (used as it is)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure("SQLite", str(Path(folder) / "bench.db"), args.games, args.rounds))
    cluster = None if args.postgresql else pg.start_cluster(durable=True)
    try:
        url = args.postgresql or asyncio.run(cluster.create_database())  # type: ignore[union-attr]
        asyncio.run(measure("PostgreSQL", url, args.games, args.rounds))
    finally:
        if cluster is not None:
            cluster.stop()
