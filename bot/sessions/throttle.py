"""How often a chat's commands are answered in the chat itself.

Telegram lets a bot post about 20 messages a minute in one group; a member
repeating /help or /rules could use all of them and hold back the game's own
messages. The same command (with the same arguments) from the same user is answered once every
`repeat_after` seconds, and a group gets at most `chat_replies` command
answers a `window`; past that, answers go to the asker's private chat."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum


class CommandReply(Enum):
    IN_CHAT = "in_chat"
    PRIVATELY = "privately"
    NOT_AGAIN = "not_again"
    """The same user asked the same thing a moment ago: the first answer stands."""


@dataclass
class CommandThrottle:
    repeat_after: float = 10.0
    chat_replies: int = 6
    window: float = 60.0
    clock: Callable[[], float] = time.monotonic
    _answered: dict[tuple[str, str, str], float] = field(default_factory=dict)
    _replies: dict[str, deque[float]] = field(default_factory=dict)

    def answer(self, chat: str, user: str, command: str) -> CommandReply:
        """Where `user`'s `command` in group `chat` is answered (and count it)."""
        now = self.clock()
        key = (chat, user, command)
        last = self._answered.get(key)
        if last is not None and now - last < self.repeat_after:
            return CommandReply.NOT_AGAIN
        self._answered[key] = now
        if len(self._answered) > 4096:
            self._forget(now)
        replies = self._replies.setdefault(chat, deque())
        while replies and now - replies[0] >= self.window:
            replies.popleft()
        if len(replies) >= self.chat_replies:
            return CommandReply.PRIVATELY
        replies.append(now)
        return CommandReply.IN_CHAT

    def _forget(self, now: float) -> None:
        self._answered = {k: at for k, at in self._answered.items() if now - at < self.repeat_after}
        self._replies = {c: r for c, r in self._replies.items() if r and now - r[-1] < self.window}
