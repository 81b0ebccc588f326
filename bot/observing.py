"""Wiring the metrics into a running bot (`SCOPA_METRICS`): the server of `/metrics`,
`/healthz` and `/readyz`, the readiness checks (the database, each platform), the count of
games in play, and the moves this process stores, heard from the sessions' events."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping

from . import metrics
from .failures import FatalError
from .metrics.http import serving
from .sessions import Sessions
from .sessions.events import Event, MovePlayed
from .storage.probes import database_answers, games_in_play
from .storage.sql_store import SqlStore

log = logging.getLogger(__name__)

COUNT_GAMES_EVERY = 15.0
"""Seconds between two counts of the games in play (one grouped query)."""
REACHABLE_WITHIN = 3.0

Reachable = Callable[[], Awaitable[bool]]


@contextlib.asynccontextmanager
async def observing(address: tuple[str, int], store: SqlStore, sessions: Sessions, names: list[str],
                    platforms: Mapping[str, Reachable]) -> AsyncIterator[None]:
    """Serve the metrics while inside. `platforms`: how to ask each front-end started so far
    whether its platform answers; one of `names` not started yet is not ready."""
    registry = metrics.enable()

    async def checks() -> dict[str, bool]:
        verdicts = {"database": await database_answers(store)}
        for name in names:
            reachable = platforms.get(name)
            verdicts[name] = reachable is not None and await _in_time(reachable)
        return verdicts

    async def moved(event: Event) -> None:
        if isinstance(event, MovePlayed):
            metrics.move(event.platform, event.variant, event.by_computer)

    sessions.bus.subscribe(moved)
    counting = asyncio.create_task(_count_games(store), name="count-games")
    try:
        async with contextlib.AsyncExitStack() as stack:
            try:
                await stack.enter_async_context(serving(address, registry, checks))
            except OSError as exc:
                raise FatalError(f"SCOPA_METRICS: cannot listen on {address[0]}:{address[1]} "
                                 f"({exc.strerror or exc})", exit_code=2) from None
            yield
    finally:
        counting.cancel()
        await asyncio.gather(counting, return_exceptions=True)


async def _in_time(reachable: Reachable) -> bool:
    try:
        async with asyncio.timeout(REACHABLE_WITHIN):
            return await reachable()
    except Exception:
        return False


async def _count_games(store: SqlStore) -> None:
    while True:
        try:
            metrics.games_in_play(await games_in_play(store))
        except Exception as exc:
            log.debug("counting the games in play failed: %s", exc)
        await asyncio.sleep(COUNT_GAMES_EVERY)
