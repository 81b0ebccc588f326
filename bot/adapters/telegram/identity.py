"""Who and where, from Telegram's objects to the sessions layer's references."""

from __future__ import annotations

import re

from telegram import Chat, MaybeInaccessibleMessage, User

from ...sessions import ChatRef, UserRef

PLATFORM = "telegram"

_JOIN_PAYLOAD = re.compile(r"j([1-9][0-9]{0,11})")


def user_ref(user: User) -> UserRef:
    return UserRef(PLATFORM, str(user.id), user.full_name or user.username or str(user.id),
                   user.language_code)


def chat_ref(chat: Chat, topic: int | None = None) -> ChatRef:
    """The chat, and in a forum the topic asked in (its games are that topic's)."""
    return ChatRef(PLATFORM, str(chat.id), chat.title or chat.full_name,
                   thread=str(topic) if topic is not None else None)


def topic_of(message: MaybeInaccessibleMessage | None) -> int | None:
    """The forum topic a message is in; None outside forums and in General, whose messages
    carry no topic (a reply elsewhere may carry a `message_thread_id` of its own)."""
    if message is None or not message.chat.is_forum or not getattr(message, "is_topic_message", False):
        return None
    return getattr(message, "message_thread_id", None)


def topic_id(thread: str | None) -> int | None:
    """A game's topic (`ChatRef.thread`) as Telegram's `message_thread_id`."""
    try:
        return int(thread) if thread else None
    except ValueError:
        return None


def is_group(chat: Chat) -> bool:
    return chat.type in (Chat.GROUP, Chat.SUPERGROUP)


def join_payload(game_id: int) -> str:
    """The /start payload of the deep link that completes a join (A-Z, a-z, 0-9, _ and -)."""
    return f"j{game_id}"


def parse_join_payload(payload: str) -> int | None:
    match = _JOIN_PAYLOAD.fullmatch(payload)
    return int(match.group(1)) if match else None


def private_link(bot_username: str, game_id: int) -> str:
    return f"https://t.me/{bot_username}?start={join_payload(game_id)}"


def message_link(chat_id: int, message_id: int, username: str | None = None) -> str | None:
    """A t.me link to a message: public groups by name, supergroups by internal id."""
    if username:
        return f"https://t.me/{username}/{message_id}"
    text = str(chat_id)
    if text.startswith("-100"):
        return f"https://t.me/c/{text[4:]}/{message_id}"
    return None
