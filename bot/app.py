"""Wiring: one store, one sessions layer, its timer loop, and the front-ends asked for.

Configuration comes only from the environment; tokens are never logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

from . import metrics
from .failures import FatalError
from .metrics.http import parse_address
from .observing import observing
from .redact import mask_secret
from .sessions import ComputerPool, Served, Sessions
from .sessions.owners import parse_owners
from .sessions.ports import StorageFailed
from .storage.backends import (
    AnyStore,
    Backend,
    DatabaseUnavailable,
    UnsupportedDatabase,
    describe_database,
    open_store,
    parse_database,
)
from .storage.health import StorageUnavailable, check_sqlite
from .storage.pg_retry import OUTAGE_LIMIT, set_patience

log = logging.getLogger(__name__)

DEFAULT_DB = "scopa.db"


class FrontEnd(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def failure(self) -> FatalError:
        """Returns only when the front-end cannot go on (e.g. its token was revoked)."""
        ...

    async def reachable(self) -> bool:
        """Whether the platform answers now (for `/readyz`)."""
        ...


@dataclass(frozen=True, slots=True)
class Settings:
    database: str
    telegram_token: str | None
    telegram_api_base: str | None
    telegram_webhook_url: str | None
    telegram_listen: str | None
    discord_token: str | None
    discord_api_base: str | None = None
    discord_shards: tuple[int, ...] | None = None
    """The gateway shards this process runs (with `discord_shard_count`); None: all of them."""
    discord_shard_count: int | None = None
    telegram_workers: int = 1
    """Processes taking Telegram's updates for one token: Telegram's flood limits hold for
    the token, so each process keeps to its share of them."""
    database_patience: float = OUTAGE_LIMIT
    """Seconds a PostgreSQL server may stay away (restarting, failing over) before the bot
    stops; meanwhile users are told to try again in a moment."""
    metrics: tuple[str, int] | None = None
    """Where `/metrics`, `/healthz` and `/readyz` are served (`SCOPA_METRICS`); None: nowhere."""
    owners: frozenset[tuple[str, str]] = frozenset()
    """(platform, user id) of the bot's owners (`SCOPA_OWNERS`), who have its owner commands."""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)

        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        return cls(
            database=get("SCOPA_DB") or DEFAULT_DB,
            telegram_token=get("TELEGRAM_TOKEN"),
            telegram_api_base=get("TELEGRAM_API_BASE"),
            telegram_webhook_url=get("TELEGRAM_WEBHOOK_URL"),
            telegram_listen=get("TELEGRAM_LISTEN"),
            discord_token=get("DISCORD_TOKEN"),
            discord_api_base=get("DISCORD_API_BASE"),
            discord_shards=parse_shards(get("DISCORD_SHARDS")),
            discord_shard_count=parse_shard_count(get("DISCORD_SHARD_COUNT")),
            telegram_workers=parse_workers(get("TELEGRAM_WORKERS")),
            database_patience=parse_patience(get("SCOPA_DB_PATIENCE")),
            metrics=parse_metrics(get("SCOPA_METRICS")),
            owners=parse_owner_ids(get("SCOPA_OWNERS")),
        ).checked()

    def checked(self) -> Settings:
        """These settings, or `FatalError` (exit code 2) saying in one line what is wrong."""
        shards, count = self.discord_shards, self.discord_shard_count
        if shards is not None and count is None:
            raise FatalError("--shards (DISCORD_SHARDS) needs --shard-count (DISCORD_SHARD_COUNT): "
                             "the number of shards all processes run together", exit_code=2)
        if self.telegram_workers > 1 and not self.telegram_webhook_url:
            raise FatalError("TELEGRAM_WORKERS is for webhook mode (TELEGRAM_WEBHOOK_URL): Telegram "
                             "gives its updates to one long-polling process only", exit_code=2)
        if shards is not None and count is not None and max(shards) >= count:
            raise FatalError(f"shard {max(shards)} does not exist with {count} shards "
                             f"(they are numbered 0 to {count - 1})", exit_code=2)
        return self

    def mask_tokens(self) -> None:
        """From now on no output of this process shows either token."""
        for token in (self.telegram_token, self.discord_token):
            if token:
                mask_secret(token)
        with contextlib.suppress(ValueError):
            password = urlsplit(self.database).password
            if password and len(password) >= 8:
                # a shorter one would mask common words of the log along with it
                mask_secret(password)

    def __repr__(self) -> str:
        hidden = {True: "<set>", False: "<unset>"}
        shards = "" if self.discord_shards is None else \
            f", discord_shards={list(self.discord_shards)}/{self.discord_shard_count}"
        return (f"Settings(database={describe_database(self.database)!r}, "
                f"telegram_token={hidden[bool(self.telegram_token)]}, "
                f"discord_token={hidden[bool(self.discord_token)]}{shards})")


def parse_owner_ids(text: str | None) -> frozenset[tuple[str, str]]:
    try:
        return parse_owners(text)
    except ValueError as exc:
        raise FatalError(str(exc), exit_code=2) from None


def parse_shards(text: str | None) -> tuple[int, ...] | None:
    """`0-3`, `4,5,6` or `0-3,8`: the shard ids, in order; `FatalError` for anything else."""
    if text is None:
        return None
    shards: set[int] = set()
    try:
        for part in text.split(","):
            first, dash, last = part.strip().partition("-")
            low, high = int(first), int(last) if dash else int(first)
            if low < 0 or high < low:
                raise ValueError(part)
            shards.update(range(low, high + 1))
    except ValueError:
        raise FatalError(f"shards must look like 0-3 or 0,1,2, not {text[:40]!r}", exit_code=2) from None
    return tuple(sorted(shards))


def parse_workers(text: str | None) -> int:
    if text is None:
        return 1
    if not text.isdigit() or int(text) < 1:
        raise FatalError(f"TELEGRAM_WORKERS must be a whole number from 1, not {text[:40]!r}",
                         exit_code=2)
    return int(text)


def parse_patience(text: str | None) -> float:
    if text is None:
        return OUTAGE_LIMIT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < 86400:
        raise FatalError(f"SCOPA_DB_PATIENCE must be a number of seconds above 0, not {text[:40]!r}",
                         exit_code=2)
    return seconds


def parse_metrics(text: str | None) -> tuple[str, int] | None:
    if text is None:
        return None
    try:
        return parse_address(text)
    except ValueError:
        raise FatalError(f"SCOPA_METRICS must be host:port (0.0.0.0:9108), not {text[:40]!r}",
                         exit_code=2) from None


def parse_shard_count(text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdigit() or int(text) < 1:
        raise FatalError(f"the shard count must be a whole number from 1, not {text[:40]!r}",
                         exit_code=2)
    return int(text)


async def open_sessions(database: str, patience: float = OUTAGE_LIMIT, **options: object) -> Sessions:
    """The sessions layer over the database `database` names (an SQLite file, or
    `postgresql://...`), checked first: a database the bot cannot use is a `FatalError`
    in one line, its password hidden, before any user is answered. A PostgreSQL server
    lost later is waited for `patience` seconds (`storage.pg_retry`)."""
    return Sessions(await open_checked_store(database, patience), **options)  # type: ignore[arg-type]


async def open_checked_store(database: str, patience: float = OUTAGE_LIMIT) -> AnyStore:
    """The store under `open_sessions`."""
    try:
        target = parse_database(database)
        if target.backend is Backend.SQLITE:
            check_sqlite(target.target)
        store = await open_store(database)
        set_patience(store, patience)
    except UnsupportedDatabase as exc:
        raise FatalError(f"SCOPA_DB: {exc}", exit_code=2) from None
    except (StorageUnavailable, DatabaseUnavailable) as exc:
        raise FatalError(str(exc)) from None
    except RuntimeError as exc:
        # a schema newer than this bot
        raise FatalError(str(exc), exit_code=2) from None
    return store


def telegram_front_end(sessions: Sessions, settings: Settings) -> FrontEnd:
    from .adapters.telegram import TelegramFrontEnd

    assert settings.telegram_token
    workers = settings.telegram_workers
    if workers == 1:
        return TelegramFrontEnd(sessions, settings.telegram_token, api_base=settings.telegram_api_base,
                                webhook_url=settings.telegram_webhook_url,
                                listen=settings.telegram_listen)
    from telegram.constants import FloodLimit

    from .adapters.telegram.limits import MessagesRateLimiter
    from .adapters.telegram.outbox import RING_RATE

    # A shared store counts the bot's and each group's messages for all processes; otherwise
    # each keeps to its share.
    share = 1 if sessions.delivery.shared else workers
    overall = MessagesRateLimiter(FloodLimit.MESSAGES_PER_SECOND / share, max_retries=3)
    per_group = FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP / share
    return TelegramFrontEnd(sessions, settings.telegram_token, api_base=settings.telegram_api_base,
                            webhook_url=settings.telegram_webhook_url, listen=settings.telegram_listen,
                            rate_limiter=overall, group_rate=(per_group, 60.0),
                            ring_rate=max(1, RING_RATE // workers))


def discord_front_end(sessions: Sessions, settings: Settings) -> FrontEnd:
    from .adapters.discord import DiscordFrontEnd

    assert settings.discord_token
    shards = settings.discord_shards
    return DiscordFrontEnd(sessions, settings.discord_token, api_base=settings.discord_api_base,
                           shard_count=settings.discord_shard_count,
                           shard_ids=None if shards is None else list(shards),
                           # the process that runs shard 0 registers the slash commands
                           sync_commands=shards is None or 0 in shards)


FRONT_ENDS: dict[str, Callable[[Sessions, Settings], FrontEnd]] = {
    "telegram": telegram_front_end,
    "discord": discord_front_end,
}
"""Front-ends by the name of the platform whose chats they serve."""


def served_by(names: list[str], settings: Settings) -> Served:
    """The chats a process running front-ends `names` serves: their platforms', and of
    Discord's, those of the servers on its shards. Due work of other chats (a computer's
    turn in a Discord game, for a process running only Telegram) is left to the
    processes that can show it."""
    count = settings.discord_shard_count if "discord" in names else None
    shards = settings.discord_shards if settings.discord_shards is not None else \
        tuple(range(count or 0))
    return Served(frozenset(names), count, frozenset(shards))


def settle_heap() -> None:
    """Leave everything alive after start-up (modules, classes, the chat libraries)
    out of all later garbage collections.

    A full collection otherwise walks all of it while every game waits: in the
    sessions benchmark the longest pauses went from 45-60 ms to 18-31 ms."""
    gc.collect()
    gc.freeze()


async def serve(names: list[str], settings: Settings,
                stop: Callable[[], Awaitable[None]] | None = None) -> None:
    """Run the named front-ends and the timer loop until SIGINT/SIGTERM (or `stop` returns).

    A front-end that cannot go on (a refused token, a gateway closed for good) stops
    everything and its `FatalError` is raised once all is closed; a signal during the
    start (say, while Telegram cannot be reached) stops at once."""
    settings.mask_tokens()
    stopping = asyncio.Event()
    _on_signals(stopping.set)
    if settings.metrics is not None:
        metrics.enable()
    computers = ComputerPool()
    try:
        await computers.start()
        store = await open_checked_store(settings.database, settings.database_patience)
        sessions = Sessions(store, think=computers.think, pool=computers)
    except BaseException:
        computers.close()
        raise
    sessions.delivery.serve(served_by(names, settings))
    driver = asyncio.create_task(sessions.scheduler.run_forever(), name="timers")
    sessions.owners.name(settings.owners)
    beating = asyncio.create_task(sessions.owners.keep_beating(names), name="heartbeat")
    started: list[FrontEnd] = []
    platforms: dict[str, Callable[[], Awaitable[bool]]] = {}
    observed = contextlib.AsyncExitStack()
    try:
        if settings.metrics is not None:
            await observed.enter_async_context(observing(settings.metrics, store, sessions, names, platforms))
        for name in names:
            front = FRONT_ENDS[name](sessions, settings)
            started.append(front)
            if not await _unless_stopping(front.start(), stopping):
                return
            platforms[name] = front.reachable
            log.info("%s front-end started", name)
        settle_heap()
        ends: list[Awaitable[Any]] = [stopping.wait(), sessions.failure(), driver,
                                      *(front.failure() for front in started)]
        if stop is not None:
            ends.append(stop())
        try:
            failure = await _first(ends)
        except StorageFailed as failed:
            failure = failed
        if isinstance(failure, StorageFailed):
            raise FatalError(f"the database failed ({failure}); no game was half changed: "
                             "start the bot again once it is back") from failure
        if isinstance(failure, FatalError):
            raise failure
    finally:
        for front in reversed(started):
            with contextlib.suppress(Exception):
                await front.stop()
        driver.cancel()
        beating.cancel()
        await asyncio.gather(driver, beating, return_exceptions=True)
        await observed.aclose()
        await sessions.close()
        await asyncio.to_thread(computers.close)


async def _unless_stopping(work: Awaitable[None], stopping: asyncio.Event) -> bool:
    """Run `work` unless `stopping` is set first (then cancel it); True if it finished."""
    task = asyncio.ensure_future(work)
    waiter = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
    if task.done():
        task.result()
        return True
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    return False


async def _first(awaitables: list[Awaitable[Any]]) -> Any:
    """The result of whichever of `awaitables` finishes first; the others are cancelled."""
    tasks = [asyncio.ensure_future(a) for a in awaitables]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        return next(iter(done)).result()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _on_signals(callback: Callable[[], None]) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, callback)
