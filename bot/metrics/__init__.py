"""What a process counts for whoever hosts it: Prometheus metrics, all named `scopa_...`.

Nothing is counted until `enable` (done by `bot.app` when `SCOPA_METRICS` is set): until
then every call here returns at once, so the places that count cost a global lookup.
The metrics live in a registry of their own (`registry()`), served by `bot.metrics.http`.

The rest of the bot calls the functions of this module only; the engine never does, and
this module imports nothing of the bot.
"""

from __future__ import annotations

import contextvars
import time
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, disable_created_metrics
from prometheus_client.process_collector import ProcessCollector

from .timings import Timings

NAMESPACE = "scopa"

QUICK = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0)
"""Seconds for what a player waits on: a tap's answer, the drawing it causes."""
DATABASE = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 6.0)
SLOW = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)
"""Seconds for work in the background: a computer's turn, a review."""
LAG = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


@dataclass
class _Instruments:
    registry: CollectorRegistry
    games: Gauge
    moves: Counter
    taps: Counter
    commands: Counter
    tap_answer: Timings
    tap_update: Timings
    sent: Counter
    edited: Counter
    waiting: Gauge
    waited: Timings
    flood: Counter
    db_seconds: Timings
    db_errors: Counter
    computer_waiting: Gauge
    computer_seconds: Timings
    reviews_waiting: Gauge
    review_seconds: Timings
    loop_lag: Timings
    waiting_now: dict[str, int] = field(default_factory=dict)
    """Messages waiting for a place, by platform (`messages_waiting` reads it)."""
    children: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    """Labelled series already made, by (metric, labels): `labels()` takes a lock each time."""

    def child(self, metric: Counter | Gauge, *labels: str) -> Any:
        key = (id(metric), *labels)
        found = self.children.get(key)
        if found is None:
            found = self.children[key] = metric.labels(*labels)
        return found


def _instruments() -> _Instruments:
    registry = CollectorRegistry(auto_describe=True)
    ProcessCollector(namespace=NAMESPACE, registry=registry)

    def counter(name: str, doc: str, labels: tuple[str, ...] = ()) -> Counter:
        return Counter(name, doc, labels, namespace=NAMESPACE, registry=registry)

    def gauge(name: str, doc: str, labels: tuple[str, ...] = ()) -> Gauge:
        return Gauge(name, doc, labels, namespace=NAMESPACE, registry=registry)

    def histogram(name: str, doc: str, buckets: tuple[float, ...],
                  labels: tuple[str, ...] = ()) -> Timings:
        timings = Timings(f"{NAMESPACE}_{name}", doc, buckets, labels)
        registry.register(timings)
        return timings

    return _Instruments(
        registry=registry,
        games=gauge("games_in_play", "Matches being played, in the whole database", ("platform", "variant")),
        moves=counter("moves", "Moves this process stored", ("platform", "variant", "by")),
        taps=counter("taps", "Button taps answered", ("platform", "kind", "outcome")),
        commands=counter("commands", "Commands answered", ("platform", "kind", "outcome")),
        tap_answer=histogram("tap_answer_seconds", "From a tap's arrival to its answer", QUICK,
                             ("platform",)),
        tap_update=histogram("tap_update_seconds",
                             "From a tap's arrival to the first message it changed, sent or edited",
                             QUICK, ("platform",)),
        sent=counter("messages_sent", "New messages sent", ("platform",)),
        edited=counter("messages_edited", "Messages edited in place", ("platform",)),
        waiting=gauge("messages_waiting", "Messages waiting for a place within the flood limits",
                      ("platform",)),
        waited=histogram("message_wait_seconds", "How long a message waited for a place within the limits",
                         QUICK, ("platform",)),
        flood=counter("telegram_429", "Telegram's 429 answers (flood control)", ("method",)),
        db_seconds=histogram("db_seconds", "Database calls, from asking to the answer", DATABASE, ("op",)),
        db_errors=counter("db_errors", "Database calls that failed", ("op",)),
        computer_waiting=gauge("computer_turns_waiting", "Computer turns thought or queued"),
        computer_seconds=histogram("computer_turn_seconds", "A computer turn, queue included", SLOW),
        reviews_waiting=gauge("reviews_waiting", "Match reviews being made or waiting for their turn"),
        review_seconds=histogram("review_seconds", "A match review, queue included", SLOW),
        loop_lag=histogram("event_loop_lag_seconds", "How late the event loop ran a timer", LAG),
    )


_live: _Instruments | None = None
_tapped: dict[int, float] = {}
"""Games tapped whose drawing since has not been counted yet: when the first such tap came."""
TAPS_KEPT = 10_000
"""Games kept in `_tapped` at most (a tap whose game is never drawn again is not kept for ever)."""
_command: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("scopa_command", default=None)
"""The outcome of the command or tap being handled, so far."""


def enable() -> CollectorRegistry:
    """Start counting (once per process); the registry to serve."""
    global _live
    if _live is None:
        disable_created_metrics()  # type: ignore[no-untyped-call]  # the library leaves it unannotated
        _live = _instruments()
    return _live.registry


def disable() -> None:
    """Stop counting (tests that enabled it)."""
    global _live
    _live = None
    _tapped.clear()


def enabled() -> bool:
    return _live is not None


def registry() -> CollectorRegistry | None:
    return None if _live is None else _live.registry


def now() -> float:
    """A start for the functions taking `began` (0.0, and nothing to read, when not counting)."""
    return time.perf_counter() if _live is not None else 0.0


# ---- games -----------------------------------------------------------------------------


def games_in_play(counts: dict[tuple[str, str], int]) -> None:
    """The matches in play by (platform, variant), as the database has them."""
    live = _live
    if live is None:
        return
    live.children = {k: v for k, v in live.children.items() if k[0] != id(live.games)}
    live.games.clear()
    for (platform, variant), count in counts.items():
        live.child(live.games, platform, variant).set(count)


def move(platform: str, variant: str, by_computer: bool) -> None:
    live = _live
    if live is not None:
        live.child(live.moves, platform, variant, "computer" if by_computer else "player").inc()


# ---- taps, commands, messages ------------------------------------------------------------


def tap_began(game_id: int | None) -> None:
    """A tap on game `game_id` arrived: the next drawing of one of its messages (`drawn`) is
    counted as its update; `refused` and `failed` mark it until `tap` counts it."""
    if _live is None:
        return
    _command.set(["ok"])
    if game_id is None:
        return
    if len(_tapped) >= TAPS_KEPT:
        _tapped.clear()
    _tapped.setdefault(game_id, time.perf_counter())


def drawn(platform: str, game_id: int | None) -> None:
    """A message of game `game_id` (its table, a hand) was sent or edited to show it anew."""
    live = _live
    if live is None or game_id is None:
        return
    began = _tapped.pop(game_id, None)
    if began is not None:
        live.tap_update.observe(time.perf_counter() - began, (platform,))


def tap(platform: str, kind: str, outcome: str | None, began: float) -> None:
    """A tap answered (`outcome`: ok, refused, failed, late; None: as marked since `tap_began`),
    `began` from `now()`."""
    live = _live
    if live is not None:
        marked = _command.get()
        said = outcome or (marked[0] if marked else "ok")
        live.child(live.taps, platform, kind, said).inc()
        live.tap_answer.observe(time.perf_counter() - began, (platform,))


def command_began() -> None:
    """A command arrived: `refused` marks it, `command` counts it."""
    if _live is not None:
        _command.set(["ok"])


def refused() -> None:
    """The command or tap being handled was refused (it changed nothing)."""
    outcome = _command.get()
    if outcome:
        outcome[0] = "refused"


def failed() -> None:
    """The command or tap being handled failed (the user was told)."""
    outcome = _command.get()
    if outcome:
        outcome[0] = "failed"


def command(platform: str, kind: str, failed: bool = False) -> None:
    live = _live
    if live is not None:
        outcome = _command.get()
        said = "failed" if failed else outcome[0] if outcome else "ok"
        live.child(live.commands, platform, kind, said).inc()


def message(platform: str, edited: bool) -> None:
    """A message sent (or edited)."""
    live = _live
    if live is not None:
        live.child(live.edited if edited else live.sent, platform).inc()


def flood(method: str) -> None:
    """Telegram answered 429 to `method`."""
    live = _live
    if live is not None:
        live.child(live.flood, method).inc()


def wait_began(platform: str) -> float:
    """A message starts waiting for a place within the limits (every message passes here: the
    number waiting is a plain count, read by the gauge when scraped)."""
    live = _live
    if live is None:
        return 0.0
    waiting = live.waiting_now
    if platform not in waiting:
        waiting[platform] = 0
        live.child(live.waiting, platform).set_function(lambda: waiting[platform])
    waiting[platform] += 1
    return time.perf_counter()


def wait_ended(platform: str, began: float) -> None:
    live = _live
    if live is not None:
        live.waiting_now[platform] -= 1
        live.waited.observe(time.perf_counter() - began, (platform,))


# ---- the database, the queues, the loop ------------------------------------------------------


def database(op: str, began: float, failed: bool = False) -> None:
    """A database call `op` (read, write, transaction, report) that began at `now()`."""
    live = _live
    if live is None:
        return
    live.db_seconds.observe(time.perf_counter() - began, (op,))
    if failed:
        live.child(live.db_errors, op).inc()


def computer_turn_began() -> float:
    live = _live
    if live is None:
        return 0.0
    live.computer_waiting.inc()
    return time.perf_counter()


def computer_turn_ended(began: float) -> None:
    live = _live
    if live is not None:
        live.computer_waiting.dec()
        live.computer_seconds.observe(time.perf_counter() - began)


def review_began() -> float:
    live = _live
    if live is None:
        return 0.0
    live.reviews_waiting.inc()
    return time.perf_counter()


def review_ended(began: float) -> None:
    live = _live
    if live is not None:
        live.reviews_waiting.dec()
        live.review_seconds.observe(time.perf_counter() - began)


def loop_lag(seconds: float) -> None:
    live = _live
    if live is not None:
        live.loop_lag.observe(seconds)
