"""The files that run the bot watched: the compose file health-checks every bot process and
has Prometheus and Grafana behind the `monitoring` profile; Prometheus scrapes every bot
process of the compose file; the Grafana dashboard asks only for metrics the bot serves."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import metrics

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")


def _services() -> dict[str, str]:
    """Each service of the compose file and its lines (two spaces a level)."""
    found: dict[str, str] = {}
    body = COMPOSE.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    for block in re.split(r"\n(?=  [\w-]+:\n)", "\n" + body):
        name = block.strip().split(":", 1)[0]
        if name:
            found[name] = block
    return found


@pytest.fixture
def served() -> Iterator[set[str]]:
    registry = metrics.enable()
    try:
        yield {family.name for family in registry.collect()}
    finally:
        metrics.disable()


def test_every_bot_process_is_health_checked_by_the_standard_library_alone() -> None:
    template = COMPOSE.split("\nservices:\n", 1)[0]
    assert "SCOPA_METRICS: 0.0.0.0:9108" in template
    assert 'test: ["CMD", "python", "-m", "bot.healthcheck"]' in template
    bots = [name for name, block in _services().items() if "<<: *bot" in block]
    assert len(bots) == 4, bots


def test_prometheus_and_grafana_start_only_with_the_monitoring_profile() -> None:
    services = _services()
    for name in ("prometheus", "grafana"):
        assert "profiles: [monitoring]" in services[name], name
    assert "./deploy/prometheus/prometheus.yml:" in services["prometheus"]
    assert "./deploy/grafana/dashboards:" in services["grafana"]
    assert "./deploy/grafana/provisioning:" in services["grafana"]
    datasource = (ROOT / "deploy/grafana/provisioning/datasources/prometheus.yml").read_text()
    assert "url: http://prometheus:9090" in datasource and "uid: prometheus" in datasource


def test_prometheus_scrapes_every_bot_process_on_its_own_port() -> None:
    config = (ROOT / "deploy/prometheus/prometheus.yml").read_text(encoding="utf-8")
    targets = set(re.findall(r'"([\w-]+):9108"', config))
    bots = {name for name, block in _services().items() if "<<: *bot" in block}
    assert targets == bots


def test_the_dashboard_asks_for_metrics_the_bot_serves(served: set[str]) -> None:
    dashboard = json.loads((ROOT / "deploy/grafana/dashboards/scopa.json").read_text(encoding="utf-8"))
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    assert len(exprs) >= 16 and dashboard["uid"] == "scopa-bot"
    asked = {name for expr in exprs for name in re.findall(r"\bscopa_\w+", expr)}
    unknown = {name for name in asked
               if re.sub(r"_(total|bucket|count|sum)$", "", name) not in served and name not in served}
    assert not unknown, unknown
    for family in ("scopa_games_in_play", "scopa_moves", "scopa_tap_answer_seconds",
                   "scopa_tap_update_seconds", "scopa_messages_waiting", "scopa_telegram_429",
                   "scopa_db_seconds",
                   "scopa_event_loop_lag_seconds", "scopa_computer_turns_waiting", "scopa_reviews_waiting"):
        assert any(name.startswith(family) for name in asked), family
