"""Who is asking and where, as front-ends name them."""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import language_of

__all__ = ["ChatRef", "UserRef", "language_of"]


@dataclass(frozen=True, slots=True)
class ChatRef:
    platform: str
    key: str
    title: str | None = None
    home: str | None = None
    """What the platform groups the chat under where it splits chats over processes (a
    Discord channel's server id): which process runs the chat's games (`Served`)."""


@dataclass(frozen=True, slots=True)
class UserRef:
    platform: str
    key: str
    name: str
    language: str | None = None
