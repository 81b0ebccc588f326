"""Webhook mode against real HTTP requests: a post without the secret, or announcing a body over
1 MB, is refused before its body is read; a body without a length is read no further than 1 MB."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import aiohttp
import pytest

from bot.adapters.telegram.front_end import webhook_secret
from bot.adapters.telegram.webhook import MAX_BODY, SECRET_HEADER

from ..fakes.telegram_server import FakeTelegramServer
from ..telegram_helpers import running_bot

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

BIG = 60 * 1024 * 1024


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _answer_to_headers(port: int, headers: dict[str, str]) -> str:
    """The status line the server answers a POST with `headers` whose body never comes: it
    answers only if it decided on the headers alone."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        lines = [f"{name}: {value}" for name, value in
                 {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json", **headers}.items()]
        writer.write(("POST /telegram/hook HTTP/1.1\r\n" + "\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        return (await asyncio.wait_for(reader.readline(), 5)).decode().strip()
    finally:
        writer.close()


async def test_big_or_forged_posts_are_refused_before_they_are_read(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice")
        port = _free_port()
        url = f"http://127.0.0.1:{port}/telegram/hook"
        async with running_bot(tg, tmp_path / "bot.db", webhook_url=url, listen=f"127.0.0.1:{port}"):
            secret = webhook_secret(tg.token)
            assert tg.webhook is not None and tg.webhook.secret_token == secret
            big = await _answer_to_headers(port, {SECRET_HEADER: secret, "Content-Length": str(BIG)})
            assert big.startswith("HTTP/1.1 413"), big
            forged = await _answer_to_headers(port, {"Content-Length": str(BIG)})
            assert forged.startswith("HTTP/1.1 403"), forged
            wrong = await _answer_to_headers(port, {SECRET_HEADER: secret[:-1] + "x",
                                                    "Content-Length": "90"})
            assert wrong.startswith("HTTP/1.1 403"), wrong

            async def endless() -> object:
                chunk = b" " * 65536
                for _ in range(BIG // len(chunk)):
                    yield chunk

            async with aiohttp.ClientSession() as http:
                try:
                    async with http.post(url, data=endless(), headers={
                            SECRET_HEADER: secret, "Content-Type": "application/json"}) as answer:
                        status = answer.status
                except aiohttp.ClientError:
                    status = None
                assert status in (413, None), "a body without a length is cut off at the limit"
                chat = {"id": alice.id, "type": "private", "first_name": "A"}
                update = {"update_id": 1, "message": {"message_id": 1, "date": 0, "chat": chat,
                                                      "from": alice.to_api(), "text": "x" * (MAX_BODY // 2)}}
                async with http.post(url, data=json.dumps(update).encode(), headers={
                        SECRET_HEADER: secret, "Content-Type": "application/json"}) as answer:
                    assert answer.status == 200, "an update under the limit is taken"

            tg.user_starts_bot(alice)
            await tg.wait_for_message(alice, contains="Scopa")
