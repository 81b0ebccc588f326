"""python-telegram-bot's HTTP transport over aiohttp instead of httpx.

Every tap costs the bot a few Bot API requests (the answer, two hands, the
table), so the cost of one request is most of the cost of a tap. Measured
against a local Bot API server on the project's 2-core machine, PTB's httpx
transport spends about 1 ms of CPU per request (2 ms with twenty in flight,
and more when `sniffio` is not installed, as httpcore then retries that
import on every request); aiohttp, already installed for discord.py, about
0.2 ms. This is the `BaseRequest` interface PTB documents for such a swap.
Parameters go as a JSON body (one of the Bot API's documented encodings, and
cheaper to build than a form), files as multipart/form-data.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import aiohttp
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.request import BaseRequest, RequestData

from ... import metrics
from .identity import PLATFORM

if TYPE_CHECKING:
    from telegram._utils.types import ODVInput


_JSON = {"Content-Type": "application/json"}
OK = 200
UNAUTHORIZED = 401
TOO_MANY_REQUESTS = 429


class InvalidApiUrl(TelegramError):
    """The Bot API prefix and the token make no valid URL (the prefix must end in `/bot`)."""


def _count(url: str, status: int) -> None:
    """A message sent or edited (the Bot API's send* and edit* methods), or a 429."""
    method = url.rpartition("/")[2].lower()
    if status == OK and method.startswith(("send", "edit")):
        metrics.message(PLATFORM, edited=method.startswith("edit"))
    elif status == TOO_MANY_REQUESTS:
        metrics.flood(method)


def _pick(value: ODVInput[float], default: float | None) -> float | None:
    return default if value is BaseRequest.DEFAULT_NONE else value  # type: ignore[return-value]


class AiohttpRequest(BaseRequest):
    """One aiohttp session with a pool of `pool_size` keep-alive connections.

    Timeouts mean what they mean for PTB: `connect_timeout` to open a
    connection, `pool_timeout` to wait for a free one, `read_timeout` between
    bytes of the answer (PTB adds the long-polling time for getUpdates).
    aiohttp has no write timeout; requests here are small.
    """

    def __init__(self, *, pool_size: int = 256, connect_timeout: float | None = 10.0,
                 read_timeout: float | None = 15.0, pool_timeout: float | None = 10.0,
                 on_unauthorized: Callable[[], None] | None = None) -> None:
        self.on_unauthorized = on_unauthorized
        """Called when the Bot API answers 401: the token was revoked or replaced."""
        self._pool_size = pool_size
        self._connect_timeout = connect_timeout
        self._read_timeout = read_timeout
        self._pool_timeout = pool_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                headers={"User-Agent": self.USER_AGENT})

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        connect = _pick(connect_timeout, self._connect_timeout)
        pool = _pick(pool_timeout, self._pool_timeout)
        waits = [t for t in (pool, connect) if t is not None]
        timeout = aiohttp.ClientTimeout(connect=sum(waits) if waits else None, sock_connect=connect,
                                        sock_read=_pick(read_timeout, self._read_timeout))
        data: Any = None
        headers = None
        if request_data is not None and request_data.contains_files:
            form = aiohttp.FormData()
            for name, value in request_data.json_parameters.items():
                form.add_field(name, value)
            for name, (filename, content, mimetype) in request_data.multipart_data.items():
                form.add_field(name, content, filename=filename, content_type=mimetype)
            data = form
        elif request_data is not None:
            data = json.dumps(request_data.parameters, ensure_ascii=False).encode()
            headers = _JSON
        try:
            async with self._session.request(method, url, data=data, headers=headers,
                                             timeout=timeout) as response:
                body = await response.read()
        except (TimeoutError, aiohttp.ServerTimeoutError) as exc:
            raise TimedOut from exc
        except aiohttp.InvalidURL:
            raise InvalidApiUrl("the Bot API prefix makes no valid URL") from None
        except aiohttp.ClientError as exc:
            raise NetworkError(f"aiohttp.{type(exc).__name__}") from exc
        if response.status == UNAUTHORIZED and self.on_unauthorized is not None:
            self.on_unauthorized()
        if metrics.enabled():
            _count(url, response.status)
        return response.status, body
