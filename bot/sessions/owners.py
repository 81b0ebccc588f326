"""The owners' tools, and who may use them: /botstatus, /notice, /block and /unblock.

Owners are named by platform user id (`SCOPA_OWNERS=telegram:123,discord:456`). Their
commands work only in their private chat with the bot (a Telegram private chat, a Discord
DM); anyone else, or an owner anywhere else, gets what an unknown command gets (`command`
gives None, and the front-end answers nothing). A blocked user's commands and taps are
refused with one plain answer everywhere (`admit`, and every command through `Sessions.handle`): the
block is kept with the data, so it holds across processes and restarts.

Each process writes a heartbeat with its event loop's lag (`keep_beating`), which /botstatus
reads for every process on the database; a notice is stored with the chats it is owed to,
and each chat's is claimed by one process at a time and posted through the front-end that
serves the chat (`keep_delivering`), so each chat gets it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sized
from dataclasses import dataclass
from datetime import UTC, datetime

from .. import metrics
from .log_context import about
from .ports import Heartbeat, NoticeDelivery, OwnerStore, Served, StoreStatus
from .refs import UserRef
from .refusals import Reason, Refused
from .say import Say

log = logging.getLogger(__name__)

OWNER_COMMANDS = ("botstatus", "notice", "block", "unblock")
"""Commands of the owners alone: in no public command list or help."""
PLATFORMS = ("telegram", "discord")
BEAT_EVERY = 10.0
"""Seconds between two heartbeats of a process."""
ALIVE_WITHIN = 3 * BEAT_EVERY
"""A process whose last heartbeat is older is shown as silent."""
FORGET_AFTER = 86_400.0
"""Heartbeats older than this are dropped."""
LAG_PROBE = 0.5
"""Seconds between two measures of the event loop's lag."""
NOTICE_LEASE = 120.0
"""Seconds a process holds a chat's notice while posting it; another tries after."""
NOTICES_EVERY = 5.0
"""Seconds between two looks for notices owed to the chats a process serves."""
NOTICE_LIMIT = 1000
"""Characters a notice may have (Telegram and Discord both take it in one message)."""


def parse_owners(text: str | None) -> frozenset[tuple[str, str]]:
    """`telegram:123,discord:456` as (platform, user id) pairs; ValueError saying what is wrong."""
    owners: set[tuple[str, str]] = set()
    for part in (text or "").replace(";", ",").split(","):
        item = part.strip()
        if not item:
            continue
        platform, colon, key = item.partition(":")
        platform, key = platform.strip().lower(), key.strip()
        if not colon or platform not in PLATFORMS or not key.isdigit():
            raise ValueError(f"SCOPA_OWNERS takes platform:id pairs, as telegram:123,discord:456, "
                             f"not {item[:40]!r}")
        owners.add((platform, key))
    return frozenset(owners)


@dataclass(frozen=True, slots=True)
class ProcessStatus:
    process: str
    platforms: str
    alive: bool
    seen_ago: float
    lag: float
    up_for: float


@dataclass(frozen=True, slots=True)
class BotStatus:
    """What /botstatus shows: the store's counts, the processes, the database, the queues."""

    store: StoreStatus
    processes: tuple[ProcessStatus, ...]
    database_ms: float
    """How long the database took to answer the status's question."""
    announcements_owed: int
    """Round ends, match ends and reviews committed but not yet posted."""

    @property
    def alive(self) -> tuple[ProcessStatus, ...]:
        return tuple(p for p in self.processes if p.alive)

    @property
    def silent(self) -> int:
        return sum(not p.alive for p in self.processes)


OwnerAnswer = BotStatus | Say


class LagMeter:
    """The event loop's lag: how late a sleep of `LAG_PROBE` wakes, worst since last read for
    /botstatus, and each measure for the metrics (`scopa_event_loop_lag_seconds`): one meter
    for both, so the two never disagree."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.monotonic = monotonic
        self.worst = 0.0
        self.last = 0.0

    async def run(self) -> None:
        while True:
            began = self.monotonic()
            await asyncio.sleep(LAG_PROBE)
            late = max(0.0, self.monotonic() - began - LAG_PROBE)
            self.last, self.worst = late, max(self.worst, late)
            metrics.loop_lag(late)

    def take(self) -> float:
        worst, self.worst = max(self.worst, self.last), 0.0
        return worst


class Owners:
    def __init__(self, store: OwnerStore, clock: Callable[[], float],
                 owed_notices: Callable[[str], Awaitable[Sized]],
                 served: Callable[[], Served | None],
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
                 process: str = "") -> None:
        """`owed_notices`: the announcements owed to a platform's chats (`Notices.owed`);
        `served`: the chats this process serves, asked when notices are delivered."""
        self.owed_notices = owed_notices
        self.served = served
        self.store = store
        self.clock = clock
        self.sleep = sleep
        self.process = process
        self.owners: frozenset[tuple[str, str]] = frozenset()
        self.started_at = clock()
        self.lag = LagMeter()
        self._notice_added = asyncio.Event()

    def name(self, owners: Iterable[tuple[str, str]]) -> None:
        """The owners, as (platform, user id) pairs (`parse_owners`)."""
        self.owners = frozenset(owners)

    def is_owner(self, user: UserRef) -> bool:
        return (user.platform, user.key) in self.owners

    # ---- blocked users ------------------------------------------------------------

    async def blocked(self, user: UserRef) -> bool:
        """Asked of the store each time (one indexed lookup), so that a block made by any process
        holds in every other at once."""
        return await self.store.is_blocked(user.platform, user.key)

    async def admit(self, user: UserRef) -> None:
        """Raise `Refused(BLOCKED)` if `user` is blocked: nothing they ask is done."""
        if not self.is_owner(user) and await self.blocked(user):
            raise Refused(Reason.BLOCKED)

    # ---- the commands -------------------------------------------------------------

    async def command(self, user: UserRef, private: bool, name: str, words: str) -> OwnerAnswer | None:
        """Owner command `name` (without its slash) with the `words` after it, asked by `user`
        in their private chat (`private`) or not; None when it is not theirs to use there: the
        front-end then answers as it answers a command it does not know."""
        if name not in OWNER_COMMANDS or not private or not self.is_owner(user):
            return None
        by = f"{user.platform}:{user.key}"
        words = " ".join(words.split()) if name != "notice" else words.strip()
        if name == "botstatus":
            return await self.status()
        if name == "notice":
            return await self._notice(by, words)
        return await self._block(user, by, words, name == "block")

    async def status(self) -> BotStatus:
        now = self.clock()
        day = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        began = time.perf_counter()
        store = await self.store.store_status(day.timestamp(), now)
        database_ms = (time.perf_counter() - began) * 1000
        beats = await self.store.heartbeats()
        owed = 0
        for platform in PLATFORMS:
            owed += len(await self.owed_notices(platform))
        return BotStatus(store, tuple(_process(beat, now) for beat in beats), database_ms, owed)

    async def _notice(self, by: str, text: str) -> Say:
        if not text:
            return Say("owners.notice.empty")
        if len(text) > NOTICE_LIMIT:
            return Say("owners.notice.long", {"count": NOTICE_LIMIT})
        _, chats = await self.store.add_notice(text, by, self.clock())
        self._notice_added.set()
        log.info("notice from %s owed to %d chats", by, chats, extra={"event": "owner.notice"})
        return Say("owners.notice.sent", {"count": chats})

    async def _block(self, user: UserRef, by: str, words: str, block: bool) -> Say:
        verb = "block" if block else "unblock"
        target = _target(words, user.platform)
        if target is None:
            return Say(f"owners.{verb}.usage")
        shown = f"{target[0]}:{target[1]}"
        if block and target in self.owners:
            return Say("owners.block.owner", {"user": shown})
        if block:
            changed = await self.store.block_user(*target, by, self.clock())
        else:
            changed = await self.store.unblock_user(*target)
        log.info("%s %s %s", by, "blocked" if block else "unblocked", shown, extra={"event": f"owner.{verb}"})
        return Say(f"owners.{verb}.{'done' if changed else 'already'}", {"user": shown})

    # ---- the heartbeat and the notices' delivery -----------------------------------

    async def beat(self, platforms: str) -> None:
        """Note in the store that this process is alive, with its loop's worst lag of late."""
        now = self.clock()
        await self.store.beat(self.process, platforms, self.started_at, now, self.lag.take(),
                              now - FORGET_AFTER)

    async def keep_beating(self, platforms: Iterable[str]) -> None:
        """Measure the loop's lag and beat every `BEAT_EVERY` seconds until cancelled; then the
        heartbeat is dropped, so that a process stopped on purpose is not shown as silent."""
        names = ",".join(platforms)
        meter = asyncio.create_task(self.lag.run(), name="loop-lag")
        try:
            while True:
                try:
                    await self.beat(names)
                except Exception:
                    log.warning("could not write this process's heartbeat", exc_info=True)
                await self.sleep(BEAT_EVERY)
        finally:
            meter.cancel()
            await asyncio.gather(meter, return_exceptions=True)
            with contextlib.suppress(Exception):
                await self.store.beat(self.process, names, self.started_at, 0.0, 0.0,
                                      self.clock() - FORGET_AFTER)

    async def deliver_notices(self, platform: str, served: Served | None,
                              post: Callable[[NoticeDelivery], Awaitable[bool | None]]) -> int:
        """Post the notices owed to `platform`'s chats this process serves, each claimed first
        so that no other process posts it too. `post` answers True once the notice is in the
        chat, None when the chat refuses the bot for good (it is owed no more either), False to
        try again later. How many were posted."""
        taken = Served(frozenset({platform}), served.shard_count, served.shards) if served is not None \
            else Served(frozenset({platform}))
        posted = 0
        for owed in await self.store.claim_notices(self.process, self.clock(), NOTICE_LEASE, taken):
            with about(chat=f"{owed.platform}:{owed.chat_key}", event="owner.notice"):
                try:
                    went = await post(owed)
                except Exception:
                    log.warning("could not post notice %d in chat %s", owed.notice_id, owed.chat_key,
                                exc_info=True)
                    went = False
            await self.store.notice_done(owed.notice_id, owed.chat_id, self.process, went is not False)
            posted += bool(went)
        return posted

    async def keep_delivering(self, platform: str,
                              post: Callable[[NoticeDelivery], Awaitable[bool | None]]) -> None:
        """`deliver_notices` every `NOTICES_EVERY` seconds, and at once after a notice was sent
        through this process, until cancelled."""
        while True:
            try:
                await self.deliver_notices(platform, self.served(), post)
            except Exception:
                log.warning("could not look for the notices owed to %s", platform, exc_info=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._notice_added.wait(), NOTICES_EVERY)
            self._notice_added.clear()


_MENTION = re.compile(r"^<@!?(\d+)>$")


def _target(words: str, platform: str) -> tuple[str, str] | None:
    """The user `/block` names: `platform:id`, or an id (a Discord mention too) on the asker's
    own platform."""
    if not words or " " in words:
        return None
    mention = _MENTION.match(words)
    if mention:
        words = mention.group(1)
    named, colon, key = words.partition(":")
    if colon:
        platform, words = named.lower(), key
    if platform not in PLATFORMS or not words.isdigit() or len(words) > 30:
        return None
    return platform, words


def _process(beat: Heartbeat, now: float) -> ProcessStatus:
    ago = max(0.0, now - beat.seen_at)
    return ProcessStatus(beat.process, beat.platforms, ago <= ALIVE_WITHIN, ago, beat.lag,
                         max(0.0, now - beat.started_at))
