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


@dataclass(frozen=True, slots=True)
class UserRef:
    platform: str
    key: str
    name: str
    language: str | None = None
