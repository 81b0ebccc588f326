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
    thread: str | None = None
    """The part of the chat asked about where a chat has parts of its own (a Telegram forum's
    topic): its games are that part's. The chat itself (its settings, its leaderboard) is
    the same in all of them."""

    @property
    def place(self) -> str:
        """The thread as stored with a game: '' for the chat itself."""
        return self.thread or ""


@dataclass(frozen=True, slots=True)
class UserRef:
    platform: str
    key: str
    name: str
    language: str | None = None
