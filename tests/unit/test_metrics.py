"""The metrics module on its own: nothing counted until enabled; the three paths of its server,
`/healthz` saying 503 once the event loop has not turned for a while; `SCOPA_METRICS` read."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from bot import metrics
from bot.app import Settings
from bot.failures import FatalError
from bot.healthcheck import url as healthcheck_url
from bot.metrics.http import Heartbeat, MetricsServer, parse_address


@pytest.fixture
def counting() -> Iterator[None]:
    metrics.enable()
    try:
        yield
    finally:
        metrics.disable()


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def test_nothing_is_counted_until_enabled() -> None:
    assert not metrics.enabled() and metrics.registry() is None
    metrics.move("telegram", "scopa", by_computer=False)
    metrics.tap_began(1)
    metrics.drawn("telegram", 1)
    metrics.database("statement", metrics.now(), failed=True)
    assert metrics.now() == 0.0


def test_counts_land_in_the_registry_under_one_namespace(counting: None) -> None:
    registry = metrics.registry()
    assert registry is not None
    metrics.move("telegram", "escoba", by_computer=True)
    metrics.tap_began(7)
    metrics.tap("telegram", "play", "ok", metrics.now())
    metrics.drawn("telegram", 7)
    metrics.drawn("telegram", 7)
    metrics.games_in_play({("telegram", "scopa"): 3})
    metrics.games_in_play({("discord", "scopone"): 1})
    value = registry.get_sample_value
    assert value("scopa_moves_total", {"platform": "telegram", "variant": "escoba", "by": "computer"}) == 1
    assert value("scopa_taps_total", {"platform": "telegram", "kind": "play", "outcome": "ok"}) == 1
    assert value("scopa_tap_update_seconds_count", {"platform": "telegram"}) == 1, "once a tap"
    assert value("scopa_games_in_play", {"platform": "telegram", "variant": "scopa"}) is None, "gone"
    assert value("scopa_games_in_play", {"platform": "discord", "variant": "scopone"}) == 1
    names = {m.name for m in registry.collect()}
    assert all(name.startswith("scopa_") for name in names), names


def test_a_refused_command_is_counted_as_refused(counting: None) -> None:
    async def command() -> None:
        metrics.command_began()
        metrics.refused()
        metrics.command("telegram", "cancel")

    asyncio.run(command())
    registry = metrics.registry()
    assert registry is not None
    assert registry.get_sample_value("scopa_commands_total",
                                     {"platform": "telegram", "kind": "cancel", "outcome": "refused"}) == 1


async def test_healthz_says_503_once_the_loop_stops_turning_and_readyz_names_what_fails(
        counting: None) -> None:
    now = [100.0]

    async def checks() -> dict[str, bool]:
        return {"database": False, "telegram": True}

    registry = metrics.registry()
    assert registry is not None
    heart = Heartbeat(asyncio.get_running_loop(), checks, stuck_after=10.0, clock=lambda: now[0])
    server = MetricsServer(("127.0.0.1", 0), registry, heart)
    server.start()
    base = f"http://127.0.0.1:{server.port}"
    try:
        assert await asyncio.to_thread(_get, f"{base}/healthz") == (200, "ok\n")
        status, body = await asyncio.to_thread(_get, f"{base}/readyz")
        assert status == 503 and body == "database: failing\ntelegram: ok\n"
        status, body = await asyncio.to_thread(_get, f"{base}/metrics")
        assert status == 200 and "scopa_process_cpu_seconds_total" in body
        assert (await asyncio.to_thread(_get, f"{base}/other"))[0] == 404
        now[0] += 11.0
        assert (await asyncio.to_thread(_get, f"{base}/healthz"))[0] == 503
        assert await asyncio.to_thread(_get, f"{base}/readyz") == (503, "event loop: failing\n")
    finally:
        await asyncio.to_thread(server.close)


@pytest.mark.parametrize(("text", "address"), [
    ("0.0.0.0:9108", ("0.0.0.0", 9108)), (":9200", ("0.0.0.0", 9200)), ("[::]:9108", ("::", 9108)),
    ("127.0.0.1:9", ("127.0.0.1", 9)),
])
def test_scopa_metrics_is_an_address(text: str, address: tuple[str, int]) -> None:
    assert parse_address(text) == address
    assert Settings.from_env({"SCOPA_METRICS": text}).metrics == address


@pytest.mark.parametrize("text", ["9108", "host:", "host:99999", "host:port"])
def test_a_bad_scopa_metrics_stops_the_bot_in_one_line(text: str) -> None:
    with pytest.raises(FatalError, match="SCOPA_METRICS must be host:port") as caught:
        Settings.from_env({"SCOPA_METRICS": text})
    assert caught.value.exit_code == 2


def test_the_healthcheck_asks_this_machine() -> None:
    assert healthcheck_url("0.0.0.0:9108") == "http://127.0.0.1:9108/healthz"
    assert healthcheck_url("[::]:9108") == "http://[::1]:9108/healthz"
    assert healthcheck_url("10.0.0.5:9200") == "http://10.0.0.5:9200/healthz"


def test_timings_count_as_prometheus_histograms_do() -> None:
    from prometheus_client import CollectorRegistry

    from bot.metrics.timings import Timings

    registry = CollectorRegistry()
    timings = Timings("scopa_x_seconds", "x", (0.1, 1.0), ("op",))
    registry.register(timings)
    for seconds in (0.05, 0.1, 0.5, 3.0):
        timings.observe(seconds, ("read",))
    value = registry.get_sample_value
    assert value("scopa_x_seconds_bucket", {"op": "read", "le": "0.1"}) == 2, "a bound is in its bucket"
    assert value("scopa_x_seconds_bucket", {"op": "read", "le": "1.0"}) == 3
    assert value("scopa_x_seconds_bucket", {"op": "read", "le": "+Inf"}) == 4
    assert value("scopa_x_seconds_count", {"op": "read"}) == 4
    assert value("scopa_x_seconds_sum", {"op": "read"}) == pytest.approx(3.65)
