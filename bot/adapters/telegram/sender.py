"""Requests to the Bot API for the outbox: each message paced as it goes, photos with a text
fallback, flood waits and network errors retried."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Protocol, TypeVar

from telegram import InputFile, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TelegramError

from ... import metrics
from .content import (
    Content,
    GaveUp,
    Painter,
    PhotoFailed,
    Picture,
    Superseded,
    is_gone,
    is_not_modified,
    lost_topic,
)
from .identity import PLATFORM
from .keyboards import markup_dict
from .limits import retry_seconds
from .pacing import Pacer

log = logging.getLogger(__name__)

_T = TypeVar("_T")
_NO_PREVIEW = {"is_disabled": True}
PHOTO_NAME = "picture.jpg"


class ApiBot(Protocol):
    async def do_api_request(self, endpoint: str, api_kwargs: dict[str, Any]) -> Any: ...


def never() -> bool:
    return False


class Sender:
    """One request at a time as the outbox asks for it. `closed` says the outbox is closing:
    nothing more is retried then."""

    def __init__(self, bot: ApiBot, pacer: Pacer, painter: Painter | None, *, max_attempts: int = 10,
                 backoff_cap: float = 30.0, closed: Callable[[], bool] = never,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.bot = bot
        self.pacer = pacer
        self.painter = painter
        self.max_attempts = max_attempts
        self.backoff_cap = backoff_cap
        self.closed = closed
        self.sleep = sleep
        self.no_photos: set[int] = set()
        """Chats that refused a photo for want of rights: text from then on."""
        self.uploaded = 0
        """Bytes of photos uploaded."""

    async def call(self, method: str, params: dict[str, Any]) -> Any:
        """A Bot API call whose answer is used raw, counted in the group's window as it goes.

        PTB's typed methods turn every answer into a Message object, which is a
        third of the cost of an edit and thrown away here. Its do_api_request
        warns when given the name of a method it wraps; Bot API method names
        are case-insensitive, so the lower-case name reaches the same method.
        The rate limiter and PTB's error mapping apply as for any call.
        """
        if not metrics.enabled():
            async with self.pacer.sending(int(params["chat_id"]), method):
                return await self.bot.do_api_request(method, api_kwargs=params)
        began = metrics.wait_began(PLATFORM)
        waiting = True
        try:
            async with self.pacer.sending(int(params["chat_id"]), method):
                waiting = False
                metrics.wait_ended(PLATFORM, began)
                return await self.bot.do_api_request(method, api_kwargs=params)
        finally:
            if waiting:
                metrics.wait_ended(PLATFORM, began)

    # ---- one request each ------------------------------------------------------------

    @staticmethod
    def _params(chat_id: int, content: Content, thread: int | None = None) -> dict[str, Any]:
        params: dict[str, Any] = {"chat_id": chat_id, "text": content.text, "parse_mode": ParseMode.HTML,
                                  "link_preview_options": _NO_PREVIEW}
        if thread is not None:
            params["message_thread_id"] = thread
        if content.keyboard:
            params["reply_markup"] = markup_dict(content.keyboard)
        return params

    @staticmethod
    def _photo_params(chat_id: int, content: Content, thread: int | None = None) -> dict[str, Any]:
        assert content.picture is not None
        params: dict[str, Any] = {"chat_id": chat_id, "caption": content.picture.caption,
                                  "parse_mode": ParseMode.HTML}
        if thread is not None:
            params["message_thread_id"] = thread
        if content.keyboard:
            params["reply_markup"] = markup_dict(content.keyboard)
        return params

    async def send(self, chat_id: int, content: Content, reply_to: int | None = None,
                   thread: int | None = None) -> int:
        """Send a new message (in forum topic `thread`); its id."""
        params = self._params(chat_id, content, thread)
        if content.silent:
            params["disable_notification"] = True
        if reply_to:
            params["reply_parameters"] = {"message_id": reply_to, "allow_sending_without_reply": True}
        result = await self.call("sendmessage", params)
        return int(result["message_id"])

    async def edit(self, chat_id: int, message_id: int, content: Content) -> None:
        await self.call("editmessagetext", {**self._params(chat_id, content), "message_id": message_id})

    async def send_photo(self, chat_id: int, data: bytes, content: Content, thread: int | None = None) -> int:
        """sendPhoto with the picture uploaded in the request (multipart/form-data)."""
        params = self._photo_params(chat_id, content, thread)
        if content.silent:
            params["disable_notification"] = True
        params["photo"] = InputFile(data, filename=PHOTO_NAME)
        result = await self.call("sendphoto", params)
        self.uploaded += len(data)
        return int(result["message_id"])

    async def edit_media(self, chat_id: int, message_id: int, data: bytes, content: Content) -> None:
        """editMessageMedia: a new picture (and caption) for the same message."""
        params = self._photo_params(chat_id, content)
        media = InputMediaPhoto(data, caption=params.pop("caption"), parse_mode=params.pop("parse_mode"),
                                filename=PHOTO_NAME)
        await self.call("editmessagemedia", {**params, "message_id": message_id, "media": media})
        self.uploaded += len(data)

    async def edit_caption(self, chat_id: int, message_id: int, content: Content) -> None:
        """editMessageCaption: the same picture, another caption or other buttons."""
        await self.call("editmessagecaption",
                        {**self._photo_params(chat_id, content), "message_id": message_id})

    async def delete(self, chat_id: int, message_id: int) -> None:
        """Best effort: an old message left behind is only clutter."""
        try:
            await self.call("deletemessage", {"chat_id": chat_id, "message_id": message_id})
        except TelegramError as exc:
            log.info("could not delete message %s in %s: %s", message_id, chat_id, exc.message)

    # ---- photos, with text where they fail ---------------------------------------------

    def photos_for(self, chat_id: int) -> bool:
        return self.painter is not None and chat_id not in self.no_photos

    async def draw(self, picture: Picture) -> bytes:
        assert self.painter is not None
        try:
            return await self.painter(picture)
        except Exception as exc:
            log.exception("drawing a picture failed")
            raise PhotoFailed(f"drawing failed: {exc!r}") from exc

    async def photo_call(self, chat_id: int, call: Callable[[], Awaitable[_T]],
                         superseded: Callable[[], bool] = never) -> _T:
        """An upload; a refusal that text would not get (no right to send photos, a bad file)
        or an upload that keeps failing is a `PhotoFailed`."""
        try:
            return await self.retrying(chat_id, call, superseded)
        except BadRequest as exc:
            if is_not_modified(exc) or is_gone(exc) or lost_topic(exc):
                raise
            if "not enough rights" in exc.message.lower():
                self.no_photos.add(chat_id)
            raise PhotoFailed(exc.message, no_rights=chat_id in self.no_photos) from exc
        except GaveUp as exc:
            raise PhotoFailed("the upload kept failing") from exc

    async def new_message(self, chat_id: int, content: Content, photo: bool, thread: int | None = None,
                          superseded: Callable[[], bool] = never) -> int:
        """A new message of `content`: its photo (`photo`) or its text."""
        if not photo:
            return await self.retrying(chat_id, partial(self.send, chat_id, content, thread=thread),
                                       superseded)
        assert content.picture is not None
        data = await self.draw(content.picture)
        return await self.photo_call(chat_id, partial(self.send_photo, chat_id, data, content, thread),
                                     superseded)

    async def post(self, chat_id: int, content: Content, reply_to: int | None = None,
                   thread: int | None = None) -> int:
        """A new message: a photo when it has a picture and the chat takes photos, its text
        otherwise or when the photo fails."""
        if content.picture is not None and self.photos_for(chat_id):
            try:
                return await self.new_message(chat_id, content, True, thread)
            except PhotoFailed as failed:
                log.warning("could not post a photo to %s (%s); sending it as text", chat_id, failed.reason)
        return await self.retrying(chat_id, partial(self.send, chat_id, content, reply_to, thread))

    async def edit_photo(self, chat_id: int, message_id: int, content: Content, before: Content | None,
                         superseded: Callable[[], bool] = never) -> None:
        """The photo of `content` in place of `before`'s: the same picture with another caption
        or other buttons costs no upload."""
        picture = content.picture
        assert picture is not None
        shown = before.picture if before is not None else None
        if shown is not None and (shown.scene, shown.lang) == (picture.scene, picture.lang):
            await self.retrying(chat_id, partial(self.edit_caption, chat_id, message_id, content), superseded)
            return
        data = await self.draw(picture)
        await self.photo_call(chat_id, partial(self.edit_media, chat_id, message_id, data, content),
                              superseded)

    # ---- retries -------------------------------------------------------------------

    async def retrying(self, chat_id: int, call: Callable[[], Awaitable[_T]],
                       superseded: Callable[[], bool] = never) -> _T:
        """`call` until it works; RetryAfter is waited out, network errors backed off. Each try
        takes a place of its own in the group's minute (one lost on the way back may have
        reached the group).

        Raises Forbidden and BadRequest at once (retrying cannot help), Superseded
        when a newer drawing is waiting, GaveUp after `max_attempts` network errors.
        """
        failures = 0
        while True:
            try:
                return await call()
            except (BadRequest, Forbidden, ChatMigrated):
                raise
            except RetryAfter as exc:
                wait = retry_seconds(exc) + 0.05
                log.info("flood control in chat %s: waiting %.1f s", chat_id, wait)
            except NetworkError as exc:
                failures += 1
                if failures >= self.max_attempts:
                    log.warning("giving up on chat %s after %d network errors: %s", chat_id,
                                failures, exc.message)
                    raise GaveUp from exc
                wait = min(self.backoff_cap, 0.25 * 2 ** (failures - 1))
                log.info("network error for chat %s (%s); retrying in %.1f s", chat_id, exc.message, wait)
            except TelegramError as exc:
                log.warning("Telegram error for chat %s: %s", chat_id, exc.message)
                raise GaveUp from exc
            if self.closed():
                raise GaveUp
            if superseded():
                raise Superseded
            await self.sleep(wait)
