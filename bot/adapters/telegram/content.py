"""What the outbox sends: messages, their pictures, the slots that show them, and how
Telegram's refusals read."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol

from telegram.error import BadRequest

from ...sessions import HandedOver
from .keyboards import Keyboard

log = logging.getLogger(__name__)

CAPTION_LIMIT = 1024
PHOTO_PREFIX = "photo:"
"""A slot's ref is the message id, with this prefix when the message is a photo, and with a
shared store a space and the fingerprint of what it shows."""


@dataclass(frozen=True, slots=True)
class Picture:
    """A photo drawn by the outbox's painter only when it must be uploaded: `scene` (a frozen
    scene of `bot.pictures`, so that an unchanged picture compares equal and costs nothing)
    in `lang`, under `caption` (HTML, at most 1,024 characters once parsed)."""

    scene: Hashable
    lang: str
    caption: str


@dataclass(frozen=True, slots=True)
class Content:
    """A message: `text` (HTML) with its buttons; with a `picture`, a photo whose caption is the
    picture's, and `text` what the message says when it cannot be a photo."""

    text: str
    keyboard: Keyboard = ()
    picture: Picture | None = None
    silent: bool = False
    """Sent without ringing (`disable_notification`); edits never ring."""
    keeps: tuple[tuple[str, str], ...] = ()
    """Notes of the game (ref, value) written once the message shows this content: what a
    drawing told, for the next to go on from (`recap`)."""


Render = Callable[[], Awaitable[Content | None]]
Painter = Callable[[Picture], Awaitable[bytes]]
Hold = Callable[[int, str, Callable[[bool], Awaitable[bool]]], Awaitable["bool | HandedOver"]]
"""Draws one of a game's messages one process at a time (`sessions.delivery.draw_message`)."""


@dataclass(frozen=True, slots=True)
class Slotted:
    """What a game's refs say of a slot: its message, whether that is a photo, and the
    fingerprint of what it shows (None: not known)."""

    message_id: int | None = None
    photo: bool = False
    shows: str | None = None

    @staticmethod
    def parse(value: str | None) -> Slotted:
        if not value:
            return Slotted()
        kept, _, shows = value.partition(" ")
        photo = kept.startswith(PHOTO_PREFIX)
        try:
            return Slotted(int(kept.removeprefix(PHOTO_PREFIX)), photo, shows or None)
        except ValueError:
            log.warning("unreadable message reference %r", value[:40])
            return Slotted()

    def value(self) -> str:
        kept = f"{PHOTO_PREFIX if self.photo else ''}{self.message_id}"
        return f"{kept} {self.shows}" if self.shows else kept


@dataclass(frozen=True, slots=True)
class Target:
    """A message that is edited in place: by id, or kept under `ref` in a game's refs."""

    chat_id: int
    game_id: int | None = None
    ref: str = ""
    message_id: int | None = None
    thread: int | None = field(default=None, compare=False)
    """The forum topic a new message of the slot goes to (None: the chat, or General); the
    slot is the same whichever its caller named."""
    photo: bool = field(default=False, compare=False)
    """Whether the message named by `message_id` is a photo (edited as one, not sent anew)."""


class PhotoFailed(Exception):
    """A photo could not be drawn or sent; the message is sent as text instead."""

    def __init__(self, reason: str, *, no_rights: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.no_rights = no_rights


class Superseded(Exception):
    """A newer drawing of the same slot is waiting; this one is not worth retrying."""


class GaveUp(Exception):
    """Telegram could not be reached after every attempt, or answered with an error retrying
    cannot mend."""


def is_not_modified(exc: BadRequest) -> bool:
    return "not modified" in exc.message.lower()


def lost_topic(exc: BadRequest) -> str | None:
    """How a forum topic refuses the bot: "closed" or "deleted"; None for any other refusal."""
    text = exc.message.lower()
    if "topic_closed" in text:
        return "closed"
    if "message thread not found" in text or "topic_deleted" in text:
        return "deleted"
    return None


def is_gone(exc: BadRequest) -> bool:
    text = exc.message.lower()
    return any(s in text for s in ("message to edit not found", "message can't be edited",
                                   "message_id_invalid", "message not found"))


class Refusals(Protocol):
    """What the outbox does when a chat refuses the bot (`Outbox` does it for its parts)."""

    moved: dict[int, int]

    async def forbidden(self, chat_id: int) -> None: ...

    async def topic_lost(self, chat_id: int, thread: int, how: str) -> None: ...

    async def chat_moved(self, old_id: int, new_id: int) -> None: ...

    def took(self, chat_id: int, thread: int | None) -> None:
        """The chat (and its topic) took a message: it refuses the bot no more."""
        ...
