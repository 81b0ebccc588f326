"""The HTTP server Telegram posts updates to in webhook mode.

python-telegram-bot's own server (Tornado's, in `Updater.start_webhook`) reads a
request's whole body, up to 100 MB, before it looks at the secret header: a few
forged posts of 60 MB at once cost a worker hundreds of megabytes. This one reads
the headers first. A request without the secret Telegram was given (`setWebhook`'s
`secret_token`) is refused (403), and one announcing a body over `MAX_BODY` (413),
before a byte of its body is read; a body sent without a length is read up to
`MAX_BODY` and no further. An update is at most a few kilobytes (a message of 4,096
characters with its entities). Accepted updates go to the application's update
queue, as PTB's server puts them (its documented way of serving a webhook oneself).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging

from aiohttp import web
from telegram import Bot, Update

log = logging.getLogger(__name__)

MAX_BODY = 1 << 20
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
LINGER = 2.0
"""Seconds a refused request's unread body is still taken (and dropped) after the answer,
so that its sender reads the answer rather than a reset connection."""


class WebhookServer:
    def __init__(self, bot: Bot, updates: asyncio.Queue[object], path: str, secret: str,
                 max_body: int = MAX_BODY) -> None:
        self.bot = bot
        self.updates = updates
        self.path = "/" + path.strip("/")
        self.secret = secret
        self.max_body = max_body
        self._runner: web.AppRunner | None = None

    async def start(self, host: str, port: int) -> None:
        app = web.Application(client_max_size=self.max_body)
        app.router.add_post(self.path, self._receive)
        runner = web.AppRunner(app, access_log=None, lingering_time=LINGER)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _receive(self, request: web.Request) -> web.Response:
        if not hmac.compare_digest(request.headers.get(SECRET_HEADER, "").encode(), self.secret.encode()):
            log.debug("a webhook request from %s without the secret refused", request.remote)
            return web.Response(status=403)
        if request.content_length is not None and request.content_length > self.max_body:
            log.info("a webhook request of %d bytes refused", request.content_length)
            return web.Response(status=413)
        if request.content_type != "application/json":
            return web.Response(status=415)
        try:
            data = json.loads(await request.read())
            update = Update.de_json(data, self.bot)
        except web.HTTPRequestEntityTooLarge:
            log.info("a webhook request over %d bytes refused", self.max_body)
            return web.Response(status=413)
        except Exception:
            log.warning("a webhook request that is no update refused", exc_info=True)
            return web.Response(status=400)
        await self.updates.put(update)
        return web.Response(status=200)
