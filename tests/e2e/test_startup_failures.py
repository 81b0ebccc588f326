"""`scopa-bot telegram` and `scopa-bot discord` when the token or the network is wrong:
one plain line, the right exit code, and the token in no output at all."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from aiohttp import web

from ..fakes.telegram_server import FakeTelegramServer

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "987654:AAE-leaky_Secret-token0123456789"
SECRET = TOKEN.split(":")[1]

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


class Bot:
    """`python -m bot NAME` with `env`, its standard output and error kept together."""

    def __init__(self, name: str, env: dict[str, str], db: Path) -> None:
        clean = {k: v for k, v in os.environ.items()
                 if not k.startswith(("TELEGRAM_", "DISCORD_", "SCOPA_"))}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", name], cwd=ROOT,
            env={**clean, **env, "SCOPA_DB": str(db), "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._reader = asyncio.ensure_future(asyncio.to_thread(self._read))

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    async def wait_for(self, predicate: Callable[[str], bool], timeout: float = 30.0) -> None:
        async def poll() -> None:
            while not predicate(self.output):
                if self.process.poll() is not None and self._reader.done():
                    raise AssertionError(f"the bot ended first:\n{self.output}")
                await asyncio.sleep(0.05)

        await asyncio.wait_for(poll(), timeout)

    async def exit_code(self, timeout: float = 60.0) -> int:
        code = await asyncio.wait_for(asyncio.to_thread(self.process.wait), timeout)
        await self._reader
        return code

    async def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return await self.exit_code()


def assert_plain(output: str) -> None:
    assert TOKEN not in output and SECRET not in output, output
    assert "Traceback" not in output, output


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@asynccontextmanager
async def http_server(handler: Callable[[web.Request], web.StreamResponse]) -> AsyncIterator[str]:
    """A loopback HTTP server answering every request with `handler`; yields its URL."""
    app = web.Application()
    app.router.add_route("*", "/{path:.*}", handler)  # type: ignore[arg-type]
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def test_a_refused_telegram_token_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        bot = Bot("telegram", {"TELEGRAM_TOKEN": TOKEN, "TELEGRAM_API_BASE": tg.base_url},
                  tmp_path / "bot.db")
        assert await bot.exit_code() == 2
    assert_plain(bot.output)
    assert bot.lines[-1].startswith("scopa-bot: Telegram refused the token in TELEGRAM_TOKEN")


async def test_a_telegram_token_revoked_while_running_stops_the_bot_with_exit_code_2(
        tmp_path: Path) -> None:
    async with FakeTelegramServer(token=TOKEN) as tg:
        alice = tg.add_user("Alice")
        bot = Bot("telegram", {"TELEGRAM_TOKEN": TOKEN, "TELEGRAM_API_BASE": tg.base_url},
                  tmp_path / "bot.db")
        try:
            await bot.wait_for(lambda out: "is running" in out)
            tg.token = "987654:another-token"
            tg.user_starts_bot(alice)
            assert await bot.exit_code() == 2
        finally:
            if bot.process.poll() is None:
                bot.process.kill()
    assert_plain(bot.output)
    assert bot.lines[-1].startswith("scopa-bot: Telegram no longer accepts the token")


async def test_an_error_page_that_repeats_the_path_never_shows_the_token(tmp_path: Path) -> None:
    async def bad_gateway(request: web.Request) -> web.Response:
        return web.Response(status=502, content_type="text/html",
                            text=f"<html><h1>502 Bad Gateway</h1><p>{request.path}</p></html>")

    async with http_server(bad_gateway) as url:
        bot = Bot("telegram", {"TELEGRAM_TOKEN": TOKEN, "TELEGRAM_API_BASE": f"{url}/bot"},
                  tmp_path / "bot.db")
        await bot.wait_for(lambda out: out.count("cannot reach Telegram") >= 2)
        assert await bot.stop() == 0
    assert_plain(bot.output)
    assert f"cannot reach Telegram at {url}/bot" in bot.output


async def test_an_unreachable_telegram_is_retried_with_one_line_each_time(tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{free_port()}/bot"
    bot = Bot("telegram", {"TELEGRAM_TOKEN": TOKEN, "TELEGRAM_API_BASE": base}, tmp_path / "bot.db")
    await bot.wait_for(lambda out: out.count("cannot reach Telegram") >= 2)
    assert await bot.stop() == 0
    assert_plain(bot.output)
    tries = [line for line in bot.lines if "cannot reach Telegram" in line]
    assert "retrying in 1 s" in tries[0] and "retrying in 2 s" in tries[1]


async def test_an_api_base_without_bot_names_the_variable_to_fix(tmp_path: Path) -> None:
    bot = Bot("telegram", {"TELEGRAM_TOKEN": TOKEN, "TELEGRAM_API_BASE": "http://127.0.0.1:1"},
              tmp_path / "bot.db")
    assert await bot.exit_code() == 2
    assert_plain(bot.output)
    assert bot.lines[-1].startswith("scopa-bot: TELEGRAM_API_BASE makes no valid Bot API URL")


async def test_a_refused_discord_token_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    seen: list[str] = []

    async def unauthorized(request: web.Request) -> web.Response:
        seen.append(request.headers.get("Authorization", ""))
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    async with http_server(unauthorized) as url:
        bot = Bot("discord", {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": f"{url}/api/v10"},
                  tmp_path / "bot.db")
        assert await bot.exit_code() == 2
    assert seen == [f"Bot {TOKEN}"], "the token really was sent, and only to the API"
    assert_plain(bot.output)
    assert bot.lines[-1].startswith("scopa-bot: Discord refused the token in DISCORD_TOKEN")


async def test_an_unreachable_discord_is_retried_with_one_line_each_time(tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{free_port()}/api/v10"
    bot = Bot("discord", {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": base}, tmp_path / "bot.db")
    await bot.wait_for(lambda out: out.count("cannot reach Discord") >= 2)
    assert await bot.stop() == 0
    assert_plain(bot.output)
