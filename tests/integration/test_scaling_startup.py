"""Choosing PostgreSQL with SCOPA_DB: the bot opens it, says in one line (password hidden)
when it cannot, and never shows the password in its settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import Settings, open_sessions
from bot.failures import FatalError
from bot.storage.postgres import PostgresStore

from .. import pg
from ..sessions_helpers import ALICE, BOB, play_to_end, start_duel

ROOT = Path(__file__).resolve().parents[2]


async def test_an_unreachable_postgresql_is_one_line_without_the_password() -> None:
    port = pg.free_port()
    with pytest.raises(FatalError) as failed:
        await open_sessions(f"postgresql://scopa:hunter2@127.0.0.1:{port}/scopa")
    message = str(failed.value)
    assert "\n" not in message and "hunter2" not in message
    assert f"postgresql://scopa:***@127.0.0.1:{port}/scopa" in message
    assert failed.value.exit_code == 1, "a supervisor restarts the bot once the server is back"


@pytest.mark.parametrize("address", ["mysql://db/scopa", "sqlite:scopa.db"])
async def test_an_address_of_no_known_kind_is_a_configuration_error(address: str) -> None:
    with pytest.raises(FatalError, match="SCOPA_DB") as failed:
        await open_sessions(address)
    assert failed.value.exit_code == 2 and "\n" not in str(failed.value)


async def test_a_sqlite_file_is_still_checked_before_starting(tmp_path: object) -> None:
    with pytest.raises(FatalError, match="folder"):
        await open_sessions(str(tmp_path))


def test_the_settings_never_show_the_databases_password() -> None:
    settings = Settings.from_env({"SCOPA_DB": "postgresql://bot:s3cret@db:5432/scopa"})
    assert "s3cret" not in repr(settings) and "postgresql://bot:***@db:5432/scopa" in repr(settings)


async def test_scopa_db_naming_postgresql_plays_a_whole_match_there(postgres_url: str) -> None:
    sessions = await open_sessions(postgres_url)
    try:
        assert isinstance(sessions.store, PostgresStore)
        game_id = await start_duel(sessions)
        await play_to_end(sessions, game_id, [ALICE, BOB])
    finally:
        await sessions.close()
    again = await open_sessions(postgres_url)
    try:
        assert (await again.queries.game(game_id)).status.value == "finished"
    finally:
        await again.close()


def test_webhook_workers_share_telegrams_flood_limits() -> None:
    from bot.adapters.telegram import TelegramFrontEnd
    from bot.adapters.telegram.limits import MessagesRateLimiter
    from bot.app import telegram_front_end
    from bot.sessions import Sessions

    from ..fakes.memory_store import MemoryStore

    settings = Settings.from_env({"TELEGRAM_TOKEN": "123:abc", "TELEGRAM_WORKERS": "3",
                                  "TELEGRAM_WEBHOOK_URL": "https://bot.example.org/telegram"})
    assert settings.telegram_workers == 3
    front = telegram_front_end(Sessions(MemoryStore()), settings)  # type: ignore[arg-type]
    assert isinstance(front, TelegramFrontEnd)
    assert front.outbox.group_rate == (20 / 3, 60.0), "each group's 20 a minute, shared by three"
    shared = MemoryStore()
    shared.shared = True  # type: ignore[misc]
    front = telegram_front_end(Sessions(shared), settings)  # type: ignore[arg-type]
    assert isinstance(front, TelegramFrontEnd)
    assert front.outbox.group_rate == (20, 60.0), "counted in the shared database for all three"
    limiter = front.application.bot.rate_limiter
    assert isinstance(limiter, MessagesRateLimiter) and len(limiter.windows) == 2, (
        "the bot's 30 a second counted in the shared database too")
    assert limiter.window.limit == 30


@pytest.mark.parametrize(("env", "says"), [
    ({"TELEGRAM_WORKERS": "3"}, "webhook mode"),
    ({"TELEGRAM_WORKERS": "0", "TELEGRAM_WEBHOOK_URL": "https://x/y"}, "whole number"),
])
def test_several_workers_need_a_webhook_and_a_count(env: dict[str, str], says: str) -> None:
    with pytest.raises(FatalError, match=says) as failed:
        Settings.from_env(env)
    assert failed.value.exit_code == 2


def _compose_services() -> dict[str, tuple[str, dict[str, str]]]:
    """Each service of docker-compose.yml: its command line and its own environment (the
    file is plain enough to read line by line: two spaces a level)."""
    services: dict[str, tuple[str, dict[str, str]]] = {}
    name, field, command, env = "", "", "", {}
    lines = (ROOT / "docker-compose.yml").read_text().split("services:\n", 1)[1].splitlines()
    for line in [*lines, "end:"]:
        depth, text = len(line) - len(line.lstrip(" ")), line.strip()
        if not text or text.startswith("#"):
            continue
        if depth <= 2:
            if name:
                services[name] = (command, env)
            if depth == 0:
                break
            name, field, command, env = text.rstrip(":"), "", "", {}
        elif depth == 4:
            field, _, value = text.partition(":")
            command += value if field == "command" else ""
        elif field == "command":
            command += text
        elif field == "environment" and depth == 6 and not text.startswith("<<"):
            key, _, value = text.partition(":")
            env[key] = value.strip().strip('"')
    return services


def test_the_compose_file_tells_each_telegram_worker_how_many_share_the_token() -> None:
    services = _compose_services()
    workers = {name: env for name, (command, env) in services.items() if '"telegram"' in command}
    assert len(workers) == 2 and "postgres" in services and "webhook" in services
    for name, env in workers.items():
        assert env.get("TELEGRAM_WORKERS") == str(len(workers)), name
        settings = Settings.from_env({**env, "TELEGRAM_TOKEN": "123:abc"})
        assert settings.telegram_workers == len(workers) and settings.telegram_webhook_url
    proxy = services["webhook"][0]
    assert all(f"{name}:8443" in proxy for name in workers), "the proxy hands updates to every worker"
