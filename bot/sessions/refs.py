"""Who is asking and where, as front-ends name them."""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import language_of
from .names import shown_name

__all__ = ["ChatRef", "UserRef", "language_of"]


@dataclass(frozen=True, slots=True)
class ChatRef:
    platform: str
    key: str
    title: str | None = None
    """As the bot shows it (`names.shown_name`), like a player's name."""
    home: str | None = None
    """What the platform groups the chat under where it splits chats over processes (a
    Discord channel's server id): which process runs the chat's games (`Served`)."""
    thread: str | None = None
    """The part of the chat asked about where a chat has parts of its own (a Telegram forum's
    topic): its games are that part's. The chat itself (its settings, its leaderboard) is
    the same in all of them."""

    def __post_init__(self) -> None:
        if self.title is not None:
            object.__setattr__(self, "title", shown_name(self.title))

    @property
    def place(self) -> str:
        """The thread as stored with a game: '' for the chat itself."""
        return self.thread or ""


@dataclass(frozen=True, slots=True)
class UserRef:
    platform: str
    key: str
    name: str
    """As the bot shows it (`names.shown_name`): isolated for direction, clipped whole."""
    language: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", shown_name(self.name) or self.key)
