"""Metrics and health for whoever hosts the bot (`SCOPA_METRICS`): the real `scopa-bot
telegram` process against the fake Bot API on a PostgreSQL server of the test's own. A
match played there shows in `/metrics` (read with a plain HTTP client) as its moves, its
taps' latencies and the messages sent and edited, as many as the fake Telegram took;
`/healthz` answers 200 while the process runs, and so does the Docker image's HEALTHCHECK
command; `/readyz` answers 503 while the database is stopped and 200 once it is back."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from .. import pg
from ..fakes.telegram_server import FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import answered, bot_messages, match_over, play_until_over, shown

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

cluster = pytest.fixture(scope="module")(pg.own_durable_cluster)
"""A server of this module's own, as its test stops it."""


def _get(url: str) -> tuple[int, str]:
    """A plain GET: the status and the body, 5xx included."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


async def _until_status(url: str, status: int, timeout: float, what: str) -> str:
    deadline = time.monotonic() + timeout
    last: tuple[int, str] | None = None
    while time.monotonic() < deadline:
        try:
            last = await asyncio.to_thread(_get, url)
        except OSError:
            last = None
        if last is not None and last[0] == status:
            return last[1]
        await asyncio.sleep(0.2)
    raise AssertionError(f"{what}: {url} answered {last}, not {status}")


def _samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def _total(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    wanted = set(labels.items())
    return sum(value for (sample, have), value in samples.items() if sample == name and wanted <= have)


@pytest.fixture
async def database(cluster: pg.Cluster) -> AsyncIterator[str]:
    url = await cluster.create_database()
    yield url
    if not (cluster.data / "postmaster.pid").exists():
        cluster.restart()


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer() as server:
        yield server


def _launch(tg: FakeTelegramServer, url: str, metrics: str, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "SCOPA_"))}
    env.update({"TELEGRAM_TOKEN": tg.token, "TELEGRAM_API_BASE": tg.base_url, "SCOPA_DB": url,
                "SCOPA_METRICS": metrics, "PYTHONUNBUFFERED": "1"})
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "bot", "telegram"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)


def healthcheck_command() -> list[str]:
    """The Dockerfile's HEALTHCHECK command, in its exec form."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    found = re.search(r"^HEALTHCHECK\b.*?\bCMD\s+(.+)$", text, re.MULTILINE)
    assert found is not None, "the image has a HEALTHCHECK"
    command = found.group(1).strip()
    if command.startswith("["):
        return [part.strip().strip('"') for part in command.strip("[]").split(",")]
    return shlex.split(command)


def _check_health(metrics: str) -> int:
    """Run the image's HEALTHCHECK here (its `python` this interpreter), with `SCOPA_METRICS`."""
    command = healthcheck_command()
    if command[0] == "python":
        command = [sys.executable, *command[1:]]
    env = {**os.environ, "SCOPA_METRICS": metrics}
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=30).returncode


def test_the_images_healthcheck_calls_healthz_with_the_standard_library_alone() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^ENV\b[^#]*SCOPA_METRICS=0\.0\.0\.0:\d+", text, re.MULTILINE | re.DOTALL), \
        "the image serves the metrics by default"
    command = healthcheck_command()
    assert command[:3] == ["python", "-m", "bot.healthcheck"], command
    source = (ROOT / "bot" / "healthcheck.py").read_text(encoding="utf-8")
    assert "/healthz" in source
    imported = set(re.findall(r"^(?:from|import) ([\w.]+)", source, re.MULTILINE))
    assert imported <= {"__future__", "os", "sys", "urllib.error", "urllib.request"}, imported


async def test_a_match_shows_in_the_metrics_and_readyz_follows_the_database(
        tg: FakeTelegramServer, cluster: pg.Cluster, database: str, tmp_path: Path) -> None:
    port = pg.free_port()
    address = f"127.0.0.1:{port}"
    base = f"http://{address}"
    alice: FakeUser = tg.add_user("Alice")
    tg.user_starts_bot(alice)
    log = tmp_path / "bot.log"
    bot = _launch(tg, database, address, log)
    try:
        await _until_status(f"{base}/healthz", 200, 60, "the bot's health")
        await _until_status(f"{base}/readyz", 200, 60, "the bot ready")
        assert await asyncio.to_thread(_check_health, address) == 0, "the image's HEALTHCHECK passes"

        tg.user_sends(alice, alice, "/newgame scopa rounds=1 level=easy")
        lobby: FakeMessage = await tg.wait_for(
            lambda: next((m for m in bot_messages(tg, alice) if "(computer, easy)" in shown(m)), None),
            30, what="the lobby with the computer")
        assert not (await answered(tg, tg.tap(alice, lobby, alice, "Start"))).show_alert
        taps = await play_until_over(tg, alice, [alice], timeout=30)
        assert match_over(tg, alice) is not None

        conn = await asyncpg.connect(database)
        try:
            stored = int(await conn.fetchval("SELECT count(*) FROM moves"))
        finally:
            await conn.close()

        def seen() -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
            return _samples(_get(f"{base}/metrics")[1])

        sent = sum(1 for c in tg.calls if c.ok and c.method.lower().startswith("send"))
        await tg.wait_for(lambda: _total(seen(), "scopa_messages_sent_total") >= sent, 10,
                          what="every message sent counted")
        samples = seen()
        assert all(name.startswith("scopa_") for name, _ in samples), "one namespace"
        assert _total(samples, "scopa_moves_total", platform="telegram", variant="scopa") == stored > 0
        assert _total(samples, "scopa_moves_total", by="player") > 0
        assert _total(samples, "scopa_moves_total", by="computer") > 0
        plays = [r for r in taps.records if r.data.startswith("p")]
        assert _total(samples, "scopa_taps_total", kind="play", outcome="ok") == len(plays)
        assert _total(samples, "scopa_tap_answer_seconds_count", platform="telegram") >= len(taps.records) + 1
        assert _total(samples, "scopa_tap_answer_seconds_bucket", le="+Inf") >= len(taps.records) + 1
        assert _total(samples, "scopa_tap_update_seconds_count", platform="telegram") >= len(plays)
        assert _total(samples, "scopa_commands_total", kind="newgame", outcome="ok") == 1
        assert _total(samples, "scopa_messages_sent_total", platform="telegram") == sent
        edited = sum(1 for c in tg.calls if c.ok and c.method.lower().startswith("edit"))
        assert _total(samples, "scopa_messages_edited_total", platform="telegram") == edited > 0
        assert _total(samples, "scopa_db_seconds_count") > stored
        assert _total(samples, "scopa_event_loop_lag_seconds_count") > 0
        assert _total(samples, "scopa_process_cpu_seconds_total") > 0

        cluster.halt()
        body = await _until_status(f"{base}/readyz", 503, 30, "not ready while the database is stopped")
        assert "database: failing" in body and "telegram: ok" in body
        assert (await asyncio.to_thread(_get, f"{base}/healthz"))[0] == 200, "alive all the same"
        cluster.restart()
        await _until_status(f"{base}/readyz", 200, 30, "ready once the database is back")
        assert bot.poll() is None, "the bot stayed up"
    finally:
        bot.send_signal(signal.SIGTERM)
        try:
            bot.wait(30)
        except subprocess.TimeoutExpired:
            bot.kill()
            bot.wait()
    assert await asyncio.to_thread(_check_health, address) == 1, "no answer: unhealthy"
    output = log.read_text(errors="replace")
    assert not re.search(r" (ERROR|CRITICAL) bot\.", output), output


def test_a_metrics_port_taken_stops_the_bot_in_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "SCOPA_"))}
        env.update({"TELEGRAM_TOKEN": "123:abc", "TELEGRAM_API_BASE": "http://127.0.0.1:1/bot",
                    "SCOPA_DB": str(tmp_path / "bot.db"), "SCOPA_METRICS": f"127.0.0.1:{port}"})
        done = subprocess.run([sys.executable, "-m", "bot", "telegram"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == \
        f"scopa-bot: SCOPA_METRICS: cannot listen on 127.0.0.1:{port} (Address already in use)"
    assert "Traceback" not in done.stderr + done.stdout
