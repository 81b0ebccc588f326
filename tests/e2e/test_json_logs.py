"""`SCOPA_LOG=json`: the real process writes one JSON object a line (time, level, process, game,
chat, event, message), the token masked as in plain lines; a wrong `SCOPA_LOG` or
`SCOPA_OWNERS` stops the bot with one line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aiohttp import web

from ..fakes.telegram_server import FakeTelegramServer
from .test_startup_failures import SECRET, TOKEN, Bot, http_server

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

KEYS = {"time", "level", "process", "game", "chat", "event", "message"}


def _objects(lines: list[str]) -> list[dict[str, object]]:
    objects = [json.loads(line) for line in lines if line.strip()]
    for line in objects:
        assert set(line) >= KEYS, line
    return objects


async def test_every_line_is_a_json_object_and_the_token_stays_masked(tmp_path: Path) -> None:
    async def bad_gateway(request: web.Request) -> web.Response:
        return web.Response(status=502, content_type="text/html",
                            text=f"<html><h1>502 Bad Gateway</h1><p>{request.path}</p></html>")

    async with http_server(bad_gateway) as url:
        bot = Bot("telegram", {"TELEGRAM_TOKEN": TOKEN, "TELEGRAM_API_BASE": f"{url}/bot",
                               "SCOPA_LOG": "json"}, tmp_path / "bot.db")
        await bot.wait_for(lambda out: out.count("cannot reach Telegram") >= 2)
        assert await bot.stop() == 0
    assert TOKEN not in bot.output and SECRET not in bot.output
    lines = _objects(bot.lines)
    reaching = [line for line in lines if "cannot reach Telegram" in str(line["message"])]
    assert reaching and all(line["level"] == "warning" for line in reaching)
    assert f"{url}/bot" in str(reaching[0]["message"])
    assert str(reaching[0]["time"]).endswith("+00:00")
    assert len({line["process"] for line in lines}) == 1


async def test_a_running_bot_logs_its_start_as_json(tmp_path: Path) -> None:
    async with FakeTelegramServer(token=TOKEN) as tg:
        bot = Bot("telegram", {"TELEGRAM_TOKEN": TOKEN, "TELEGRAM_API_BASE": tg.base_url,
                               "SCOPA_LOG": "json", "SCOPA_OWNERS": "telegram:1"}, tmp_path / "bot.db")
        try:
            await bot.wait_for(lambda out: "front-end started" in out)
        finally:
            assert await bot.stop() == 0
    started = next(line for line in _objects(bot.lines) if line["message"] == "telegram front-end started")
    assert started["level"] == "info" and started["event"] == "bot.app"
    assert started["game"] is None and started["chat"] is None


@pytest.mark.parametrize(("env", "says"), [
    ({"SCOPA_LOG": "xml"}, "scopa-bot: SCOPA_LOG must be text or json, not 'xml'"),
    ({"SCOPA_OWNERS": "telegram:alice"}, "scopa-bot: SCOPA_OWNERS takes platform:id pairs"),
])
async def test_a_wrong_setting_is_one_line_and_exit_code_2(tmp_path: Path, env: dict[str, str],
                                                           says: str) -> None:
    bot = Bot("telegram", {"TELEGRAM_TOKEN": TOKEN, **env}, tmp_path / "bot.db")
    assert await bot.exit_code() == 2
    assert len(bot.lines) == 1 and bot.lines[0].startswith(says), bot.output
