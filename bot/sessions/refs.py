"""Who is asking and where, as front-ends name them."""

from __future__ import annotations

from dataclasses import dataclass


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


def language_of(code: str | None, fallback: str = "it") -> str:
    """`it` for an Italian language code, `en` for any other, fallback for none."""
    if not code:
        return fallback
    return "it" if code.lower().startswith("it") else "en"
