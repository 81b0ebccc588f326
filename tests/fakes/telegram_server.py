"""A strict fake of the Telegram Bot API, served over HTTP for offline tests.

The real python-telegram-bot ``Application`` talks to it exactly as it talks to
api.telegram.org (``ApplicationBuilder().base_url(server.base_url)``), while the
test plays the users with Python calls (:meth:`FakeTelegramServer.user_sends`,
:meth:`FakeTelegramServer.press_button`, ...) and reads back what the bot did
(:meth:`FakeTelegramServer.messages`, :meth:`FakeTelegramServer.wait_for`, ...).

It refuses what Telegram refuses, with Telegram's own error texts: HTML is parsed
by a port of tdlib's ``parse_html`` (same messages, same byte offsets), an edit
that changes nothing, callback data over 64 bytes, a private chat the user never
opened or has blocked, a callback query answered twice or too late, getUpdates
while a webhook is set or while another getUpdates is waiting. It is stricter
than Telegram in one place: an inline button with several actions is refused,
where Telegram silently keeps one of them.

Photos are modelled as Telegram treats them (sendPhoto with an upload,
editMessageMedia, editMessageCaption): a caption is at most 1,024 characters,
editMessageText on a photo and editMessageMedia or editMessageCaption on a
text message are refused, and a group whose permissions forbid photos refuses
them.

Forums (``add_group(..., forum=True)``) have topics made with :meth:`FakeTelegramServer.create_topic`:
a topic's id is the id of its ``forum_topic_created`` service message, and its messages carry
``message_thread_id`` and ``is_topic_message``; a message sent without ``message_thread_id``
lands in General, whose messages carry neither (General's own id is never valid). Sending to a
topic that does not exist (or was deleted, :meth:`FakeTelegramServer.delete_topic`) is refused
with "message thread not found", and to a closed one (:meth:`FakeTelegramServer.close_topic`)
with TOPIC_CLOSED unless the bot is an administrator. Editing a message in a closed topic is
refused the same way: Telegram does not document it, and the fake takes the stricter reading.
A basic group can be upgraded to a supergroup (``upgrade_group``): every request
naming its old id is then refused with Telegram's 400 and ``migrate_to_chat_id``, and the
bot gets the two service messages. Anyone can see a public supergroup (one with a
username) and tap the buttons of its messages without joining it; ``getChatMember`` says
who is in a group (``left``, ``kicked``, ``restricted`` with ``is_member``).
Not modelled: other media and downloading files, inline mode, payments, channels,
Markdown entities (Markdown and MarkdownV2 texts are stored as sent, without
entities), entity auto-detection (URLs, mentions) in the bot's own messages, the
history a supergroup takes over from its basic group.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import math
import re
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypeVar
from urllib.parse import parse_qs, urlsplit

import aiohttp
from aiohttp import web

T = TypeVar("T")
JSONDict = dict[str, Any]

DEFAULT_TOKEN = "7000000001:AAFakeTokenForOfflineTests_01234567"

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
MESSAGE_TO_EDIT_NOT_FOUND = "Bad Request: message to edit not found"
MESSAGE_TO_DELETE_NOT_FOUND = "Bad Request: message to delete not found"
MESSAGE_CANT_BE_EDITED = "Bad Request: message can't be edited"
MESSAGE_CANT_BE_DELETED = "Bad Request: message can't be deleted"
MESSAGE_ID_MISSING = "Bad Request: message identifier is not specified"
NO_TEXT_TO_EDIT = "Bad Request: there is no text in the message to edit"
NO_CAPTION_TO_EDIT = "Bad Request: there is no caption in the message to edit"
NO_MEDIA_TO_EDIT = "Bad Request: there is no media in the message to edit"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
NO_PHOTO = "Bad Request: there is no photo in the request"
NO_DOCUMENT = "Bad Request: there is no document in the request"
WRONG_FILE = "Bad Request: wrong remote file identifier specified: Wrong string length"
MEDIA_JSON = "Bad Request: can't parse InputMedia JSON object"
IMAGE_PROCESS_FAILED = "Bad Request: IMAGE_PROCESS_FAILED"
NO_PHOTO_RIGHTS = "Bad Request: not enough rights to send photos to the chat"
MAX_CAPTION_LENGTH = 1024
REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
CHAT_NOT_FOUND = "Bad Request: chat not found"
THREAD_NOT_FOUND = "Bad Request: message thread not found"
TOPIC_CLOSED = "Bad Request: TOPIC_CLOSED"
GENERAL_TOPIC_ID = 1
"""The id of a forum's General topic: never a valid message_thread_id (General's messages have none)."""
TOPIC_ICON_COLOR = 7322096
MIGRATED = "Bad Request: group chat was upgraded to a supergroup chat"
CHAT_ID_EMPTY = "Bad Request: chat_id is empty"
USER_NOT_FOUND = "Bad Request: user not found"
TEXT_EMPTY = "Bad Request: message text is empty"
TEXT_MUST_BE_NON_EMPTY = "Bad Request: message must be non-empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
CANT_PARSE_ENTITIES = "Bad Request: can't parse entities: "
CANT_PARSE_MARKUP = "Bad Request: can't parse reply keyboard markup JSON object"
CANT_PARSE_BUTTON = "Bad Request: can't parse inline keyboard button: "
NOT_ARRAY_OF_ARRAYS = (
    'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
)
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
BUTTON_URL_INVALID = "Bad Request: BUTTON_URL_INVALID"
BUTTON_TEXT_INVALID = "Bad Request: BUTTON_TEXT_INVALID"
MARKUP_TOO_LONG = "Bad Request: reply markup is too long"
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
CALLBACK_TEXT_TOO_LONG = "Bad Request: MESSAGE_TOO_LONG"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BLOCKED = "Forbidden: bot was blocked by the user"
CONFLICT_WEBHOOK = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)
CONFLICT_POLLING = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
)

MAX_TEXT_LENGTH = 4096
MAX_CALLBACK_DATA_BYTES = 64
MAX_CALLBACK_ANSWER_LENGTH = 200
MAX_BUTTONS = 100

ALL_UPDATE_TYPES = frozenset({
    "message", "edited_message", "channel_post", "edited_channel_post", "business_connection",
    "business_message", "edited_business_message", "deleted_business_messages", "message_reaction",
    "message_reaction_count", "inline_query", "chosen_inline_result", "callback_query", "shipping_query",
    "pre_checkout_query", "purchased_paid_media", "poll", "poll_answer", "my_chat_member", "chat_member",
    "chat_join_request", "chat_boost", "removed_chat_boost",
})
# Telegram's default when allowed_updates was never given (or given as an empty list).
DEFAULT_UPDATE_TYPES = ALL_UPDATE_TYPES - {"chat_member", "message_reaction", "message_reaction_count"}

_BUTTON_ACTIONS = (
    "url", "callback_data", "web_app", "login_url", "switch_inline_query", "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat", "copy_text", "callback_game", "pay",
)
_BUTTON_DECORATIONS = ("style", "icon_custom_emoji_id")
_COMMAND_SCOPES = frozenset({
    "default", "all_private_chats", "all_group_chats", "all_chat_administrators", "chat",
    "chat_administrators", "chat_member",
})
_CHAT_ACTIONS = frozenset({
    "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
    "upload_document", "choose_sticker", "find_location", "record_video_note", "upload_video_note",
})
_ADMIN_RIGHTS: JSONDict = {
    "can_be_edited": False, "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
    "can_manage_video_chats": True, "can_restrict_members": True, "can_promote_members": False,
    "can_change_info": True, "can_invite_users": True, "can_post_stories": True, "can_edit_stories": True,
    "can_delete_stories": True, "can_pin_messages": True, "can_manage_topics": False,
}
_RESTRICTED_RIGHTS = (
    "can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos", "can_send_videos",
    "can_send_video_notes", "can_send_voice_notes", "can_send_polls", "can_send_other_messages",
    "can_add_web_page_previews", "can_change_info", "can_invite_users", "can_pin_messages",
    "can_manage_topics", "can_edit_tag", "can_react_to_messages",
)
_NO_GIFTS: JSONDict = {
    "unlimited_gifts": False, "limited_gifts": False, "unique_gifts": False, "premium_subscription": False,
    "gifts_from_channels": False,
}
_START_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")
_BOT_COMMAND = re.compile(r"(?<![\w/<>])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w/<>])")
_TRIMMED = " \t\n\r"


class ApiError(Exception):
    """An error answer of the Bot API; the HTTP status is the error code, like Telegram's."""

    def __init__(self, code: int, description: str, *, retry_after: float | None = None,
                 migrate_to_chat_id: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id

    def body(self) -> JSONDict:
        body: JSONDict = {"ok": False, "error_code": self.code, "description": self.description}
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        if self.migrate_to_chat_id is not None:
            body["parameters"] = {"migrate_to_chat_id": self.migrate_to_chat_id}
        return body


def _busiest(times: list[float], period: float) -> int:
    """The most of `times` within any `period` seconds."""
    ordered = sorted(times)
    start, best = 0, 0
    for end, at in enumerate(ordered):
        while ordered[start] <= at - period:
            start += 1
        best = max(best, end - start + 1)
    return best


def too_many_requests(retry_after: float) -> ApiError:
    """A 429 answer. Telegram sends whole seconds; a fraction is allowed here to keep tests fast."""
    value: float = int(retry_after) if float(retry_after).is_integer() else retry_after
    return ApiError(429, f"Too Many Requests: retry after {value}", retry_after=value)


class SimulationError(Exception):
    """A simulated user tried something a real Telegram client would not let them do."""


class ButtonNotFound(SimulationError, LookupError):
    """The message has no such button (any more)."""


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram's entity offsets."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


# --- HTML, ported from tdlib's parse_html (td/telegram/MessageEntity.cpp) ---------------------------

_HTML_SPACE = frozenset(" \t\r\n\v\0")
_HTML_TAGS = frozenset({
    "a", "b", "strong", "i", "em", "s", "strike", "del", "u", "ins", "tg-spoiler", "tg-emoji", "span", "pre",
    "code", "blockquote",
})
_SIMPLE_ENTITIES = {
    "i": "italic", "em": "italic", "b": "bold", "strong": "bold", "s": "strikethrough",
    "strike": "strikethrough", "del": "strikethrough", "u": "underline", "ins": "underline",
    "tg-spoiler": "spoiler", "span": "spoiler",
}
_NAMED_ENTITIES = {"lt": ord("<"), "gt": ord(">"), "amp": ord("&"), "quot": ord('"')}
_DIGITS = frozenset("0123456789")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_ENTITY_PRIORITY = {
    "bot_command": 50, "bold": 90, "italic": 91, "code": 20, "pre": 11, "text_link": 49, "text_mention": 49,
    "underline": 92, "strikethrough": 93, "blockquote": 0, "expandable_blockquote": 0, "spoiler": 94,
    "custom_emoji": 99,
}


def _char_at(text: str, index: int) -> str:
    """tdlib reads a NUL-terminated string: past the end there is always a '\\0'."""
    return text[index] if index < len(text) else "\0"


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8", "surrogatepass"))


def _decode_html_entity(text: str, pos: int) -> tuple[int, int]:
    """The code point of the entity at ``text[pos] == '&'`` and the index after it; code 0 if none."""
    end = pos + 1
    code = 0
    if _char_at(text, pos + 1) == "#":
        end += 1
        if _char_at(text, pos + 2) == "x":
            end += 1
            while _char_at(text, end) in _HEX_DIGITS:
                code = code * 16 + int(text[end], 16)
                end += 1
        else:
            while _char_at(text, end) in _DIGITS:
                code = code * 10 + int(text[end])
                end += 1
        if code == 0 or code >= 0x10FFFF or end - pos >= 10:
            return 0, pos
    else:
        while _char_at(text, end).isascii() and _char_at(text, end).isalpha():
            end += 1
        code = _NAMED_ENTITIES.get(text[pos + 1 : end], 0)
        if code == 0:
            return 0, pos
    if _char_at(text, end) == ";":
        end += 1
    return code, end


@dataclass
class _OpenTag:
    name: str
    argument: str
    offset: int
    output_index: int
    expandable: bool


def _link_user_id(url: str) -> int | None:
    match = re.fullmatch(r"tg:(?://)?user\?id=(\d+)", url.strip())
    return int(match.group(1)) if match else None


def _checked_link(url: str) -> str | None:
    url = url.strip()
    if not url or any(c.isspace() for c in url):
        return None
    if "://" not in url and not url.lower().startswith(("tg:", "ton:")):
        url = f"http://{url}"
    parts = urlsplit(url)
    if parts.scheme.lower() in ("http", "https"):
        return url if parts.hostname else None
    return url if parts.scheme.lower() in ("tg", "ton", "tonsite") else None


def _close_entity(tag: _OpenTag, end: int, output: list[str], entities: list[JSONDict]) -> None:
    span: JSONDict = {"offset": tag.offset, "length": end - tag.offset}
    last = entities[-1] if entities else None
    same_span = last is not None and last["offset"] == span["offset"] and last["length"] == span["length"]
    if tag.name in _SIMPLE_ENTITIES:
        entities.append({"type": _SIMPLE_ENTITIES[tag.name], **span})
    elif tag.name == "tg-emoji":
        if not tag.argument.isdigit() or int(tag.argument) == 0:
            raise ApiError(400, CANT_PARSE_ENTITIES + "Invalid custom emoji identifier specified")
        entities.append({"type": "custom_emoji", **span, "custom_emoji_id": tag.argument})
    elif tag.name == "a":
        url = tag.argument or "".join(output[tag.output_index :])
        user_id = _link_user_id(url)
        checked = _checked_link(url)
        if user_id is not None:
            user = {"id": user_id, "is_bot": False, "first_name": ""}
            entities.append({"type": "text_mention", **span, "user": user})
        elif checked is not None:
            entities.append({"type": "text_link", **span, "url": checked})
    elif tag.name == "pre":
        if last is not None and same_span and last["type"] == "code" and last.get("language"):
            last["type"] = "pre"
        else:
            entities.append({"type": "pre", **span})
    elif tag.name == "code":
        if last is not None and same_span and last["type"] == "pre" and tag.argument:
            last["language"] = tag.argument
        else:
            entities.append({"type": "code", **span, "language": tag.argument})
    else:
        entities.append({"type": "expandable_blockquote" if tag.expandable else "blockquote", **span})


def _sort_entities(entities: list[JSONDict]) -> list[JSONDict]:
    return sorted(entities, key=lambda e: (e["offset"], -e["length"], _ENTITY_PRIORITY.get(e["type"], 50)))


def parse_html(source: str) -> tuple[str, list[JSONDict]]:
    """The text Telegram shows and its entities, or ApiError with Telegram's "can't parse entities" text."""
    output: list[str] = []
    entities: list[JSONDict] = []
    stack: list[_OpenTag] = []
    utf16 = 0
    has_surrogate = False
    i = 0

    def fail(message: str) -> ApiError:
        return ApiError(400, CANT_PARSE_ENTITIES + message)

    def at(index: int) -> str:
        return _char_at(source, index)

    def where(index: int) -> str:
        return f"at byte offset {_byte_offset(source, index)}"

    def skip_spaces(index: int) -> int:
        while at(index) != "\0" and at(index) in _HTML_SPACE:
            index += 1
        return index

    while i < len(source):
        char = source[i]
        if char == "&":
            code, end = _decode_html_entity(source, i)
            if code:
                output.append(chr(code))
                utf16 += 2 if code > 0xFFFF else 1
                has_surrogate = has_surrogate or 0xD800 <= code <= 0xDFFF
                i = end
                continue
        if char != "<":
            output.append(char)
            utf16 += 2 if ord(char) > 0xFFFF else 1
            i += 1
            continue

        begin = i
        i += 1
        if at(i) != "/":
            while at(i) not in _HTML_SPACE and at(i) != ">":
                i += 1
            if at(i) == "\0":
                raise fail(f"Unclosed start tag {where(begin)}")
            name = source[begin + 1 : i].lower()
            if name not in _HTML_TAGS:
                raise fail(f'Unsupported start tag "{name}" {where(begin)}')
            argument = ""
            expandable = False
            while at(i) != ">":
                i = skip_spaces(i)
                if at(i) == ">":
                    break
                attribute_begin = i
                while at(i) not in _HTML_SPACE and at(i) not in "=>":
                    i += 1
                attribute = source[attribute_begin:i]
                if not attribute:
                    raise fail(f'Empty attribute name in the tag "{name}" {where(begin)}')
                i = skip_spaces(i)
                if at(i) != "=":
                    if name == "blockquote" and attribute.lower() == "expandable":
                        expandable = True
                        continue
                    declaration = f'declaration of an attribute of the tag "{name}"'
                    raise fail(f"Expected equal sign in {declaration} {where(begin)}")
                i = skip_spaces(i + 1)
                if at(i) == "\0":
                    raise fail(f'Unclosed start tag "{name}" {where(begin)}')
                if at(i) not in "'\"":
                    token_begin = i
                    while (at(i).isascii() and at(i).isalnum()) or at(i) in (".", "-"):
                        i += 1
                    value = source[token_begin:i].lower()
                    if at(i) not in _HTML_SPACE and at(i) != ">":
                        raise fail(f"Unexpected end of name token {where(token_begin)}")
                else:
                    quote = at(i)
                    i += 1
                    chars: list[str] = []
                    while at(i) != quote and at(i) != "\0":
                        if at(i) == "&":
                            code, end = _decode_html_entity(source, i)
                            if code:
                                chars.append(chr(code))
                                i = end
                                continue
                        chars.append(at(i))
                        i += 1
                    if at(i) == quote:
                        i += 1
                    value = "".join(chars)
                if at(i) == "\0":
                    raise fail(f"Unclosed start tag {where(begin)}")
                if name == "a" and attribute == "href":
                    argument = value
                elif name == "code" and attribute == "class" and value.startswith("language-"):
                    argument = value.removeprefix("language-")
                elif name == "span" and attribute == "class" and value.startswith("tg-"):
                    argument = value.removeprefix("tg-")
                elif name == "tg-emoji" and attribute == "emoji-id":
                    argument = value
            if name == "span" and argument != "spoiler":
                raise fail(f'Tag "span" must have class "tg-spoiler" {where(begin)}')
            stack.append(_OpenTag(name, argument, utf16, len(output), expandable))
            i += 1
            continue

        if not stack:
            raise fail(f"Unexpected end tag {where(begin)}")
        while at(i) not in _HTML_SPACE and at(i) != ">":
            i += 1
        end_name = source[begin + 2 : i].lower()
        i = skip_spaces(i)
        if at(i) != ">":
            raise fail(f"Unclosed end tag {where(begin)}")
        tag = stack[-1]
        if end_name and end_name != tag.name:
            raise fail(f'Unmatched end tag {where(begin)}, expected "</{tag.name}>", found "</{end_name}>"')
        if utf16 > tag.offset:
            _close_entity(tag, utf16, output, entities)
        stack.pop()
        i += 1

    if stack:
        raise fail(f'Can\'t find end tag corresponding to start tag "{stack[-1].name}"')
    if has_surrogate:
        raise ApiError(400, CANT_PARSE_ENTITIES + "Text contains invalid Unicode characters after decoding "
                       "HTML entities, check for unmatched surrogate code units")
    for entity in entities:
        if entity["type"] == "code":
            entity.pop("language", None)
    return "".join(output), _sort_entities(entities)


def _trim(text: str, entities: list[JSONDict]) -> tuple[str, list[JSONDict]]:
    """Telegram drops leading and trailing whitespace and shortens the entities with it."""
    left = text.lstrip(_TRIMMED)
    lead = utf16_len(text) - utf16_len(left)
    result = left.rstrip(_TRIMMED)
    total = utf16_len(result)
    if lead == 0 and result == text:
        return text, entities
    kept: list[JSONDict] = []
    for entity in entities:
        start = max(0, entity["offset"] - lead)
        end = min(total, entity["offset"] + entity["length"] - lead)
        if end > start:
            kept.append({**entity, "offset": start, "length": end - start})
    return result, kept


def bot_command_entities(text: str) -> list[JSONDict]:
    """The bot_command entities Telegram attaches to a user's message (``/cmd`` and ``/cmd@SomeBot``)."""
    return [
        {"type": "bot_command", "offset": utf16_len(text[: m.start()]), "length": utf16_len(m.group())}
        for m in _BOT_COMMAND.finditer(text)
    ]


def _valid_button_url(url: str) -> bool:
    if not url or any(c.isspace() for c in url):
        return False
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme.lower() in ("http", "https"):
        return bool(parts.hostname) and ("." in parts.hostname or parts.hostname == "localhost")
    return parts.scheme.lower() in ("tg", "ton")


# --- state ----------------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    """A Telegram account; ``started``/``blocked`` describe its private chat with the bot."""

    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started: bool = False
    blocked: bool = False

    def to_api(self) -> JSONDict:
        data: JSONDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data


@dataclass(eq=False)
class FakeChat:
    """A private chat (``id`` is the user's id) or a group; ``members`` maps user ids to their status."""

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    user: FakeUser | None = None
    members: dict[int, str] = field(default_factory=dict)
    bot_status: str = "member"
    messages: dict[int, FakeMessage] = field(default_factory=dict, repr=False)
    next_message_id: int = 1
    permissions: JSONDict = field(default_factory=dict)
    """A group's default member rights (``ChatPermissions``); absent rights are granted."""
    is_forum: bool = False
    topics: dict[int, FakeTopic] = field(default_factory=dict)
    """A forum's topics by id (the id of the message that created them); deleted ones are gone."""

    def bot_may_post_in(self, thread: int | None) -> bool:
        topic = self.topics.get(thread) if thread is not None else None
        return topic is None or not topic.closed or self.bot_status == "administrator"
    restricted: dict[int, bool] = field(default_factory=dict)
    """Of the members whose status is ``restricted``, whether each is still a member."""
    migrated_to: int | None = None
    """A basic group upgraded to a supergroup: the supergroup's id."""

    @property
    def photos_allowed(self) -> bool:
        if self.is_private or self.bot_status == "administrator":
            return True
        media = self.permissions.get("can_send_media_messages", True)
        return bool(self.permissions.get("can_send_photos", media))

    @property
    def is_private(self) -> bool:
        return self.type == "private"

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")

    def is_member(self, user: FakeUser) -> bool:
        if self.is_private:
            return self.user is user
        status = self.members.get(user.id)
        return status in ("creator", "administrator", "member") or (
            status == "restricted" and self.restricted.get(user.id, True))

    @property
    def is_public(self) -> bool:
        """A supergroup with a username: anyone can open it and see its messages, and tap their
        buttons, without joining it (only a supergroup has a username)."""
        return self.type == "supergroup" and self.username is not None

    def sees(self, user: FakeUser) -> bool:
        return self.is_member(user) or self.is_public

    def is_admin(self, user: FakeUser) -> bool:
        return self.members.get(user.id) in ("creator", "administrator")

    @property
    def bot_present(self) -> bool:
        return self.is_private or self.bot_status in ("member", "administrator")

    def to_api(self) -> JSONDict:
        if self.is_private and self.user is not None:
            data: JSONDict = {"id": self.id, "first_name": self.user.first_name}
            if self.user.last_name:
                data["last_name"] = self.user.last_name
            if self.user.username:
                data["username"] = self.user.username
            data["type"] = "private"
            return data
        data = {"id": self.id, "title": self.title or "", "type": self.type}
        if self.username:
            data["username"] = self.username
        if self.is_forum:
            data["is_forum"] = True
        return data


@dataclass(eq=False)
class FakeTopic:
    """A forum topic: its id is the id of its ``forum_topic_created`` message."""

    id: int
    name: str
    closed: bool = False


@dataclass(frozen=True)
class MessageVersion:
    """What a message looked like before an edit."""

    text: str | None
    entities: list[JSONDict]
    reply_markup: JSONDict | None
    source_text: str | None
    parse_mode: str | None
    edit_date: int | None


@dataclass(eq=False)
class FakeMessage:
    """A message as Telegram stores it: ``text`` and ``entities`` after parsing, ``source_text`` as sent.

    ``reply_markup`` is the inline keyboard (what Telegram echoes back); a reply keyboard,
    force-reply or keyboard removal the bot sent is kept in ``other_markup``.
    ``delivered`` is False for a group message the bot could not see (privacy mode).
    """

    chat: FakeChat = field(repr=False)
    message_id: int
    sender: FakeUser
    date: int
    text: str | None
    entities: list[JSONDict] = field(default_factory=list)
    source_text: str | None = None
    parse_mode: str | None = None
    reply_markup: JSONDict | None = None
    other_markup: JSONDict | None = None
    reply_to: FakeMessage | None = field(default=None, repr=False)
    service: JSONDict = field(default_factory=dict)
    edit_date: int | None = None
    history: list[MessageVersion] = field(default_factory=list, repr=False)
    deleted: bool = False
    deleted_at: float | None = None
    silent: bool = False
    """Sent with `disable_notification`: it rang nobody's phone."""
    sent_at: float = field(default_factory=time.time)
    delivered: bool = True
    photo: JSONDict | None = None
    """For a photo: the upload as received (``upload`` file name, ``size`` in bytes, ``data`` the
    bytes); ``caption`` and ``caption_entities`` are its text."""
    caption: str | None = None
    caption_entities: list[JSONDict] = field(default_factory=list)
    photo_history: list[JSONDict] = field(default_factory=list, repr=False)
    document: JSONDict | None = None
    """For a file: the upload as received (``upload`` file name, ``size``, ``data``)."""
    thread: int | None = None
    """The forum topic the message is in; None in General and outside forums."""

    @property
    def from_bot(self) -> bool:
        return self.sender.is_bot

    @property
    def keyboard(self) -> list[list[JSONDict]]:
        return [list(row) for row in (self.reply_markup or {}).get("inline_keyboard", [])]

    @property
    def buttons(self) -> list[JSONDict]:
        return [button for row in self.keyboard for button in row]

    @property
    def button_texts(self) -> list[str]:
        return [button["text"] for button in self.buttons]

    @property
    def callback_data(self) -> list[str]:
        return [button["callback_data"] for button in self.buttons if "callback_data" in button]

    @property
    def edit_count(self) -> int:
        return len(self.history)

    def to_api(self, *, with_reply: bool = True) -> JSONDict:
        data: JSONDict = {
            "message_id": self.message_id,
            "from": self.sender.to_api(),
            "chat": self.chat.to_api(),
            "date": self.date,
        }
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.thread is not None:
            data["message_thread_id"] = self.thread
            data["is_topic_message"] = True
        if with_reply and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = copy.deepcopy(self.entities)
        if self.photo is not None:
            unique = f"photo-{self.chat.id}-{self.message_id}-{len(self.photo_history)}"
            data["photo"] = [{"file_id": unique, "file_unique_id": unique, "width": 800, "height": 600,
                              "file_size": self.photo.get("size", 0)}]
            if self.caption is not None:
                data["caption"] = self.caption
                if self.caption_entities:
                    data["caption_entities"] = copy.deepcopy(self.caption_entities)
        if self.document is not None:
            unique = f"document-{self.chat.id}-{self.message_id}"
            data["document"] = {"file_id": unique, "file_unique_id": unique,
                                "file_name": self.document.get("upload"), "file_size": self.document["size"]}
            if self.caption is not None:
                data["caption"] = self.caption
        if self.reply_markup is not None:
            data["reply_markup"] = copy.deepcopy(self.reply_markup)
        data.update(copy.deepcopy(self.service))
        return data


@dataclass(eq=False)
class CallbackRecord:
    """A button tap and how the bot answered it. Times are ``time.monotonic()`` values."""

    id: str
    user: FakeUser
    chat: FakeChat = field(repr=False)
    message_id: int
    data: str
    forged: bool
    created_at: float
    fetched_at: float | None = None
    answered_at: float | None = None
    answer_text: str | None = None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None

    @property
    def answered(self) -> bool:
        return self.answered_at is not None

    @property
    def answer_delay(self) -> float | None:
        """Seconds from the bot fetching the update to its answerCallbackQuery."""
        if self.answered_at is None or self.fetched_at is None:
            return None
        return self.answered_at - self.fetched_at


@dataclass(frozen=True)
class ApiCall:
    method: str
    params: JSONDict
    status: int
    description: str | None
    at: float

    @property
    def ok(self) -> bool:
        return self.status == 200


@dataclass
class WebhookState:
    url: str
    secret_token: str | None
    allowed_updates: list[str] | None
    max_connections: int
    last_error_date: int | None = None
    last_error_message: str | None = None
    delivered: int = 0


@dataclass(eq=False)
class _QueuedUpdate:
    update_id: int
    kind: str
    payload: JSONDict
    created_at: float
    callback: CallbackRecord | None = None
    fetched_at: float | None = None

    def to_api(self) -> JSONDict:
        return {"update_id": self.update_id, self.kind: copy.deepcopy(self.payload)}


@dataclass
class _Injection:
    remaining: int
    methods: frozenset[str] | None
    error: ApiError


@dataclass(frozen=True)
class _Described:
    """A result that Telegram accompanies with a "description" (e.g. "Webhook was set")."""

    result: Any
    description: str


class _Params:
    """Request parameters: JSON values, or strings from a query string or form (JSON-encoded objects)."""

    def __init__(self, raw: JSONDict) -> None:
        self.raw = raw

    def present(self, name: str) -> bool:
        return self.raw.get(name) is not None

    def text(self, name: str) -> str | None:
        value = self.raw.get(name)
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        return json.dumps(value)

    def integer(self, name: str, *, error: str | None = None) -> int | None:
        value = self.raw.get(name)
        if value is None:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
            return int(value)
        raise ApiError(400, error or f'Bad Request: field "{name}" must be a valid Number')

    def number(self, name: str) -> float | None:
        value = self.raw.get(name)
        if value is None:
            return None
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ApiError(400, f'Bad Request: field "{name}" must be a valid Number') from None

    def flag(self, name: str) -> bool:
        value = self.raw.get(name)
        if isinstance(value, str):
            return value.strip().lower() in ("true", "1")
        return bool(value)

    def json(self, name: str, *, error: str | None = None) -> Any:
        value = self.raw.get(name)
        if not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except ValueError:
            raise ApiError(400, error or f"Bad Request: can't parse {name} JSON object") from None


Handler: TypeAlias = Callable[[_Params], Awaitable[Any]]
ChatRef: TypeAlias = FakeChat | FakeUser | int


def _image_size(data: bytes) -> JSONDict:
    """An uploaded file's width and height when it is a picture (none when it is not)."""
    from io import BytesIO

    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(BytesIO(data)) as image:
            return {"width": image.width, "height": image.height}
    except (UnidentifiedImageError, OSError):
        return {}


def _mentions(message: FakeMessage, user: FakeUser) -> bool:
    """Whether a message mentions `user` (a text mention or their @username): that rings them."""
    for entity in [*message.entities, *message.caption_entities]:
        if entity.get("type") == "text_mention" and entity.get("user", {}).get("id") == user.id:
            return True
        if entity.get("type") == "text_link" and _link_user_id(entity.get("url", "")) == user.id:
            return True
    text = message.text or message.caption or ""
    return bool(user.username) and f"@{user.username}" in text


class FakeTelegramServer:
    """The fake Bot API server plus the simulation of users, groups and their taps.

    Use ``async with FakeTelegramServer() as tg:`` (or ``await start()`` / ``await stop()``),
    then point the bot at ``tg.base_url`` / ``tg.base_file_url`` with ``tg.token``.
    Everything runs on the test's event loop; simulation methods are plain (sync) calls.

    ``privacy_mode``: in groups the bot only gets commands meant for it, replies to its own
    messages and service messages, unless it is an admin (BotFather's default).
    ``flood_control``: 429 beyond 30 messages a second overall or 20 a minute in one group
    (``global_flood_limit``, ``group_flood_limit``). Off by default.
    ``callback_answer_timeout``: seconds after a tap during which answerCallbackQuery works
    (None: no limit). ``allow_local_webhooks``: accept ``http://127.0.0.1:<any port>`` webhooks,
    where Telegram wants HTTPS on port 443, 80, 88 or 8443.
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "ScopaTestBot",
        bot_first_name: str = "Scopa Test Bot",
        privacy_mode: bool = True,
        flood_control: bool = False,
        callback_answer_timeout: float | None = 15.0,
        allow_local_webhooks: bool = True,
    ) -> None:
        bot_id, _, secret = token.partition(":")
        if not bot_id.isdigit() or not secret:
            raise ValueError("a bot token looks like '<bot id>:<secret>'")
        self.token = token
        self.bot = FakeUser(id=int(bot_id), first_name=bot_first_name, username=bot_username, is_bot=True)
        self.privacy_mode = privacy_mode
        self.flood_control = flood_control
        self.group_flood_limit: tuple[int, float] = (20, 60.0)
        self.global_flood_limit: tuple[int, float] = (30, 1.0)
        self.callback_answer_timeout = callback_answer_timeout
        self.allow_local_webhooks = allow_local_webhooks
        self.webhook_retry_delay = 0.2

        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.callbacks: list[CallbackRecord] = []
        self.my_commands: dict[tuple[str, int | None, int | None, str], list[JSONDict]] = {}
        self.bot_texts: dict[tuple[str, str], str] = {}
        self.webhook: WebhookState | None = None
        self.calls: list[ApiCall] = []
        self.request_counts: Counter[str] = Counter()
        self.rate_limited_counts: Counter[str] = Counter()
        self.group_sends: dict[int, list[float]] = {}
        """Per group, when each accepted send or edit went (``time.monotonic()``)."""
        self.bot_sends: list[float] = []
        """When each request Telegram counts against the bot's 30 a second arrived (a new message
        anywhere, an edit in a group), accepted or refused (``time.monotonic()``)."""
        self.confirmed_update_id = 0
        self.closed = False
        self.logged_out = False

        self._callbacks_by_id: dict[str, CallbackRecord] = {}
        self._updates: list[_QueuedUpdate] = []
        self._update_ids = itertools.count(720_000_001)
        self._user_ids = itertools.count(1_000_001)
        self._group_ids = itertools.count(1)
        self._query_ids = itertools.count(4_300_000_000_000_000_001, 7919)
        self._allowed_updates: frozenset[str] = DEFAULT_UPDATE_TYPES
        self._poll_generation = 0
        self._changed = asyncio.Event()
        self._injections: list[_Injection] = []
        self._sent_at: deque[float] = deque()
        self._sent_at_chat: dict[int, deque[float]] = {}
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._closing = False
        self._webhook_task: asyncio.Task[None] | None = None
        self._methods: dict[str, tuple[str, Handler]] = {
            name.lower(): (name, handler) for name, handler in self._handlers().items()
        }

    # --- lifecycle ---------------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/file/bot{token}/{path:.*}", self._handle_file)
        self._runner = web.AppRunner(app, handler_cancellation=True, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = int(self._runner.addresses[0][1])
        self._closing = False
        self._webhook_task = asyncio.create_task(self._webhook_loop(), name="fake-telegram-webhook")

    async def stop(self) -> None:
        """Ends pending long polls at once (empty result), then closes the server."""
        self._closing = True
        self._notify()
        if self._webhook_task is not None:
            self._webhook_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._webhook_task
            self._webhook_task = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegramServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("the fake Telegram server is not started")
        return self._port

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """For ``ApplicationBuilder().base_url(...)``: PTB appends the token, then ``/<method>``."""
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.url}/file/bot"

    def method_url(self, method: str) -> str:
        return f"{self.base_url}{self.token}/{method}"

    @property
    def bot_username(self) -> str:
        return self.bot.username or ""

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"

    @staticmethod
    def start_payload(link: str) -> tuple[str, str] | None:
        """``(bot username, payload)`` of a ``t.me/<bot>?start=<payload>`` link, else None."""
        parts = urlsplit(link if "://" in link else f"https://{link}")
        if parts.hostname not in ("t.me", "telegram.me", "www.t.me"):
            return None
        payload = parse_qs(parts.query).get("start")
        username = parts.path.strip("/")
        if not payload or not username or "/" in username:
            return None
        return username, payload[0]

    # --- simulation: people and chats -------------------------------------------------------------

    def add_user(
        self,
        first_name: str,
        *,
        user_id: int | None = None,
        username: str | None = None,
        last_name: str | None = None,
        language_code: str | None = "en",
    ) -> FakeUser:
        uid = next(self._user_ids) if user_id is None else user_id
        if uid <= 0 or uid in self.users or uid == self.bot.id:
            raise SimulationError(f"user id {uid} is taken or invalid")
        user = FakeUser(uid, first_name, username, last_name, language_code)
        self.users[uid] = user
        self.chats[uid] = FakeChat(id=uid, type="private", user=user)
        return user

    def add_group(
        self,
        title: str,
        *,
        members: Iterable[FakeUser] = (),
        admins: Iterable[FakeUser] = (),
        owner: FakeUser | None = None,
        chat_id: int | None = None,
        supergroup: bool = True,
        username: str | None = None,
        bot_is_admin: bool = False,
        forum: bool = False,
    ) -> FakeChat:
        """A group the bot is already in; ``admins`` and ``owner`` need not be repeated in ``members``.
        A ``forum`` (a supergroup with topics) starts with General alone."""
        if forum and not supergroup:
            raise SimulationError("only a supergroup can be a forum")
        if chat_id is None:
            n = next(self._group_ids)
            chat_id = -(1_001_234_000_000 + n) if supergroup else -(4_123_000_000 + n)
        if chat_id >= 0 or chat_id in self.chats:
            raise SimulationError(f"group id {chat_id} is taken or invalid")
        chat = FakeChat(
            id=chat_id,
            type="supergroup" if supergroup else "group",
            title=title,
            username=username,
            bot_status="administrator" if bot_is_admin else "member",
            is_forum=forum,
            next_message_id=GENERAL_TOPIC_ID + 1 if forum else 1,
        )
        if owner is not None:
            chat.members[owner.id] = "creator"
        for user in admins:
            chat.members.setdefault(user.id, "administrator")
        for user in members:
            chat.members.setdefault(user.id, "member")
        self.chats[chat_id] = chat
        self._notify()
        return chat

    def private_chat(self, user: FakeUser) -> FakeChat:
        return self.chats[user.id]

    def get_chat(self, chat: ChatRef) -> FakeChat:
        """A chat by object, by id, or a user's private chat by the user."""
        if isinstance(chat, FakeChat):
            return chat
        if isinstance(chat, FakeUser):
            return self.chats[chat.id]
        try:
            return self.chats[chat]
        except KeyError:
            raise SimulationError(f"no chat {chat}") from None

    def user_joins(self, chat: ChatRef, user: FakeUser) -> FakeMessage:
        group = self._group(chat)
        if group.members.get(user.id) == "restricted":
            group.restricted[user.id] = True
        else:
            group.members[user.id] = "member"
        service = {"new_chat_members": [user.to_api()]}
        return self._user_service_message(group, user, service)

    def user_leaves(self, chat: ChatRef, user: FakeUser) -> FakeMessage:
        group = self._group(chat)
        if not group.is_member(user):
            raise SimulationError(f"{user.first_name} is not in {group.title}")
        if group.members[user.id] == "restricted":
            group.restricted[user.id] = False
        else:
            del group.members[user.id]
        return self._user_service_message(group, user, {"left_chat_member": user.to_api()})

    def create_topic(self, chat: ChatRef, user: FakeUser, name: str) -> int:
        """``user`` opens a topic in a forum; its id (that of its ``forum_topic_created`` message)."""
        forum = self._forum(chat)
        if not 1 <= len(name) <= 128:
            raise SimulationError("a topic's name has 1-128 characters")
        if not forum.is_member(user):
            raise SimulationError(f"{user.first_name} is not a member of {forum.title}")
        message = self._store_message(forum, user, None, [], service={
            "forum_topic_created": {"name": name, "icon_color": TOPIC_ICON_COLOR}})
        message.thread = message.message_id
        forum.topics[message.message_id] = FakeTopic(message.message_id, name)
        message.delivered = forum.bot_present
        if message.delivered:
            self._enqueue("message", message.to_api())
        return message.message_id

    def close_topic(self, chat: ChatRef, thread: int, by: FakeUser) -> None:
        """An administrator closes a topic: only administrators may post in it from now on."""
        forum, topic = self._topic(chat, thread)
        if not forum.is_admin(by):
            raise SimulationError(f"{by.first_name} may not close topics")
        topic.closed = True
        self._user_service_message(forum, by, {"forum_topic_closed": {}}, thread=thread)

    def reopen_topic(self, chat: ChatRef, thread: int, by: FakeUser) -> None:
        forum, topic = self._topic(chat, thread)
        if not forum.is_admin(by):
            raise SimulationError(f"{by.first_name} may not reopen topics")
        topic.closed = False
        self._user_service_message(forum, by, {"forum_topic_reopened": {}}, thread=thread)

    def delete_topic(self, chat: ChatRef, thread: int) -> None:
        """An administrator deletes a topic with all its messages (the bot is not told)."""
        forum, _ = self._topic(chat, thread)
        del forum.topics[thread]
        now = time.time()
        for message in forum.messages.values():
            if message.thread == thread and not message.deleted:
                message.deleted, message.deleted_at = True, now
        self._notify()
    def upgrade_group(self, chat: ChatRef, by: FakeUser | None = None) -> FakeChat:
        """A basic group becomes a supergroup, with a new id (Telegram upgrades a group when an
        admin gives it a username, or turns on a setting only supergroups have). Its members and
        the bot move over; every request naming the old id is refused from now on with 400 and
        ``parameters.migrate_to_chat_id``; the bot gets the two service messages, one with
        ``migrate_to_chat_id`` in the old group and one with ``migrate_from_chat_id`` in the new.
        Not modelled: the history the supergroup takes over (its messages start afresh)."""
        group = self._group(chat)
        if group.type != "group" or group.migrated_to is not None:
            raise SimulationError(f"{group.title} is not a basic group")
        sender = by or next((self.users[uid] for uid, status in group.members.items()
                             if status in ("creator", "administrator", "member")), self.bot)
        new = FakeChat(id=-(1_001_234_000_000 + next(self._group_ids)), type="supergroup",
                       title=group.title, members=dict(group.members), bot_status=group.bot_status,
                       permissions=dict(group.permissions), restricted=dict(group.restricted))
        self.chats[new.id] = new
        self._user_service_message(group, sender, {"migrate_to_chat_id": new.id})
        group.migrated_to = new.id
        self._user_service_message(new, sender, {"migrate_from_chat_id": group.id})
        return new

    def ban_user(self, chat: ChatRef, user: FakeUser, by: FakeUser | None = None) -> FakeMessage:
        """An admin removes ``user`` from the group and bans them (status ``kicked``)."""
        group = self._group(chat)
        group.members[user.id] = "kicked"
        group.restricted.pop(user.id, None)
        return self._user_service_message(group, by or user, {"left_chat_member": user.to_api()})

    def restrict_user(self, chat: ChatRef, user: FakeUser, *, is_member: bool) -> None:
        """An admin restricts ``user`` (status ``restricted``); ``is_member`` False: a user who was
        restricted and then left, whom Telegram still reports with the restrictions."""
        group = self._group(chat)
        group.members[user.id] = "restricted"
        group.restricted[user.id] = is_member

    def remove_bot(self, chat: ChatRef, by: FakeUser | None = None) -> None:
        """Someone kicks the bot out of a group: sends fail with 403 from now on."""
        group = self._group(chat)
        old = group.bot_status
        group.bot_status = "kicked"
        self._enqueue_my_chat_member(group, by or self.bot, old, "kicked")

    def user_sends(
        self, chat: ChatRef, user: FakeUser, text: str, *, reply_to: int | FakeMessage | None = None,
        thread: int | None = None,
    ) -> FakeMessage:
        """The user types ``text`` (in a forum's topic ``thread``; None: General); the bot gets a
        message update if Telegram would deliver it.

        Group messages are stored even when privacy mode hides them from the bot
        (then ``delivered`` is False). Commands get ``bot_command`` entities.
        """
        if thread is not None:
            forum, topic = self._topic(chat, thread)
            if topic.closed and not forum.is_admin(user):
                raise SimulationError(f"topic {thread} is closed: {user.first_name} cannot write in it")
        target = self.get_chat(chat)
        if target.migrated_to is not None:
            raise SimulationError(f"{target.title} is now the supergroup {target.migrated_to}")
        if not text.strip():
            raise SimulationError("Telegram clients do not send empty messages")
        if len(text) > MAX_TEXT_LENGTH:
            raise SimulationError("Telegram clients split messages over 4096 characters")
        if target.is_private:
            if target.user is not user:
                raise SimulationError(f"{user.first_name} cannot write in another user's chat with the bot")
            if user.blocked:
                raise SimulationError(f"{user.first_name} blocked the bot; user_starts_bot() unblocks it")
            user.started = True
        elif not target.is_member(user):
            raise SimulationError(f"{user.first_name} is not a member of {target.title}")
        replied = self._sim_message(target, reply_to) if reply_to is not None else None
        message = self._store_message(target, user, text, bot_command_entities(text), reply_to=replied,
                                      thread=thread)
        message.delivered = self._bot_sees(target, message)
        if message.delivered:
            self._enqueue("message", message.to_api())
        return message

    def user_starts_bot(self, user: FakeUser, payload: str | None = None) -> FakeMessage:
        """The user taps Start (through ``t.me/<bot>?start=<payload>`` if a payload is given)."""
        if payload is not None and not _START_PAYLOAD.fullmatch(payload):
            raise SimulationError(f"Telegram drops the start payload {payload!r} (1-64 of A-Z a-z 0-9 _ -)")
        chat = self.private_chat(user)
        if user.blocked:
            user.blocked = False
            self._enqueue_my_chat_member(chat, user, "kicked", "member")
        user.started = True
        return self.user_sends(chat, user, "/start" if payload is None else f"/start {payload}")

    def user_blocks_bot(self, user: FakeUser) -> None:
        if user.blocked:
            return
        user.blocked = True
        self._enqueue_my_chat_member(self.private_chat(user), user, "member", "kicked")

    def press_button(
        self, chat: ChatRef, message: int | FakeMessage, user: FakeUser, callback_data: str
    ) -> CallbackRecord:
        """The user taps the button with this data; raises ButtonNotFound unless the message shows it now."""
        target = self.get_chat(chat)
        shown = self._sim_message(target, message)
        if shown.deleted:
            raise ButtonNotFound(f"message {shown.message_id} in chat {target.id} was deleted")
        if not target.sees(user) or target.migrated_to is not None:
            raise SimulationError(f"{user.first_name} cannot see chat {target.id}")
        if callback_data not in shown.callback_data:
            raise ButtonNotFound(
                f"no button with callback_data {callback_data!r} on message {shown.message_id} "
                f"in chat {target.id}; it has {shown.callback_data!r}"
            )
        return self._callback(target, shown.message_id, shown, user, callback_data, forged=False)

    def tap(self, chat: ChatRef, message: int | FakeMessage, user: FakeUser, label: str) -> CallbackRecord:
        """Presses the first button whose text contains ``label``."""
        button = self.find_button(chat, message, label)
        if "callback_data" not in button:
            raise SimulationError(f"button {button['text']!r} has no callback data: {button}")
        return self.press_button(chat, message, user, button["callback_data"])

    def forge_callback(
        self, chat: ChatRef, message: int | FakeMessage, user: FakeUser, data: str
    ) -> CallbackRecord:
        """A callback query with any data, as from a stale client or a hand-crafted request.

        The message need not exist (then the update carries an inaccessible message, date 0).
        """
        target = self.get_chat(chat)
        message_id = message.message_id if isinstance(message, FakeMessage) else message
        return self._callback(target, message_id, target.messages.get(message_id), user, data, forged=True)

    # --- reading the state --------------------------------------------------------------------------

    def message(self, chat: ChatRef, message_id: int) -> FakeMessage:
        return self._sim_message(self.get_chat(chat), message_id)

    def messages(
        self, chat: ChatRef, *, include_deleted: bool = False, from_bot: bool | None = None
    ) -> list[FakeMessage]:
        """The chat's messages in order; ``from_bot`` True/False keeps only the bot's/the users'."""
        return [
            message
            for _, message in sorted(self.get_chat(chat).messages.items())
            if (include_deleted or not message.deleted) and (from_bot is None or message.from_bot == from_bot)
        ]

    def topic_messages(self, chat: ChatRef, thread: int | None, *, from_bot: bool | None = True
                       ) -> list[FakeMessage]:
        """The visible messages of one topic (None: General), by default the bot's."""
        return [m for m in self.messages(chat, from_bot=from_bot) if m.thread == thread]

    def last_message(self, chat: ChatRef, *, from_bot: bool | None = True) -> FakeMessage | None:
        """The newest visible message, by default the bot's (so a user's own command never matches)."""
        found = self.messages(chat, from_bot=from_bot)
        return found[-1] if found else None

    def buttons(self, chat: ChatRef, message: int | FakeMessage) -> list[JSONDict]:
        target = self.get_chat(chat)
        return self._sim_message(target, message).buttons

    def find_button(self, chat: ChatRef, message: int | FakeMessage, text_substring: str) -> JSONDict:
        buttons = self.buttons(chat, message)
        for button in buttons:
            if text_substring in button["text"]:
                return button
        texts = [button["text"] for button in buttons]
        raise ButtonNotFound(f"no button containing {text_substring!r}; the buttons are {texts!r}")

    def callback(self, query_id: str) -> CallbackRecord:
        return self._callbacks_by_id[query_id]

    def get_commands(self, *, scope: JSONDict | None = None, language_code: str = "") -> list[JSONDict]:
        """The commands set for exactly this scope and language (no fallback, like getMyCommands)."""
        return copy.deepcopy(self.my_commands.get(self._scope_key(scope, language_code), []))

    @property
    def pending_updates(self) -> list[JSONDict]:
        return [update.to_api() for update in self._updates]

    def calls_to(self, method: str) -> list[ApiCall]:
        return [call for call in self.calls if call.method.lower() == method.lower()]

    def busiest_minute(self, chat: ChatRef, period: float = 60.0) -> int:
        """The most sends and edits the group got in any 60 seconds (or `period`)."""
        return _busiest(self.group_sends.get(self._group(chat).id, []), period)

    def busiest_second(self, period: float = 1.0) -> int:
        """The most requests counted against the bot's 30 a second (`bot_sends`) that arrived in
        any one second (or `period`), refused ones included."""
        return _busiest(self.bot_sends, period)

    def set_permissions(self, chat: ChatRef, **rights: bool) -> None:
        """A group's default member rights, e.g. ``can_send_photos=False`` (the bot is a member)."""
        self._group(chat).permissions.update(rights)

    def reset_counters(self) -> None:
        self.calls.clear()
        self.request_counts.clear()
        self.rate_limited_counts.clear()

    async def wait_for(
        self, predicate: Callable[[], T], timeout: float = 5.0, *, what: str | None = None
    ) -> T:
        """Waits until ``predicate()`` is truthy and returns its value; TimeoutError after ``timeout``.

        The predicate is re-checked whenever the fake's state changes and at least every 50 ms.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                label = what or getattr(predicate, "__name__", "condition")
                raise TimeoutError(f"fake Telegram: gave up after {timeout}s waiting for {label}")
            await self._wait_change(min(remaining, 0.05))

    async def wait_for_message(
        self,
        chat: ChatRef,
        *,
        contains: str | None = None,
        after: int | FakeMessage = 0,
        from_bot: bool | None = True,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """The first message newer than ``after`` (a message id) saying ``contains`` (text or caption)."""
        after_id = after.message_id if isinstance(after, FakeMessage) else after

        def find() -> FakeMessage | None:
            for message in self.messages(chat, from_bot=from_bot):
                said = message.text or message.caption or ""
                if message.message_id > after_id and (contains is None or contains in said):
                    return message
            return None

        chat_id = self.get_chat(chat).id
        return await self.wait_for(find, timeout, what=f"a message containing {contains!r} in chat {chat_id}")

    # --- failure injection ------------------------------------------------------------------------

    def storm_429(self, count: int, *, retry_after: float = 1, methods: Iterable[str] | None = None) -> None:
        """The next ``count`` requests (of ``methods`` if given) get 429 with this retry_after."""
        self._inject(count, too_many_requests(retry_after), methods)

    def fail_next(
        self, count: int, *, error_code: int, description: str, methods: Iterable[str] | None = None
    ) -> None:
        """The next ``count`` requests (of ``methods`` if given) get this error, e.g. 502 "Bad Gateway"."""
        self._inject(count, ApiError(error_code, description), methods)

    def clear_failures(self) -> None:
        self._injections.clear()

    def _inject(self, count: int, error: ApiError, methods: Iterable[str] | None) -> None:
        names = None if methods is None else frozenset(m.lower() for m in methods)
        if count > 0:
            self._injections.append(_Injection(count, names, error))

    def _take_injection(self, method: str) -> None:
        for injection in self._injections:
            if injection.methods is None or method.lower() in injection.methods:
                injection.remaining -= 1
                if injection.remaining <= 0:
                    self._injections.remove(injection)
                raise injection.error

    # --- HTTP -------------------------------------------------------------------------------------

    def _handlers(self) -> dict[str, Handler]:
        return {
            "getMe": self._get_me,
            "logOut": self._log_out,
            "close": self._close,
            "getUpdates": self._get_updates,
            "setWebhook": self._set_webhook,
            "deleteWebhook": self._delete_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "setMyDescription": self._bot_text_setter("description", 512),
            "getMyDescription": self._bot_text_getter("description"),
            "setMyShortDescription": self._bot_text_setter("short_description", 120),
            "getMyShortDescription": self._bot_text_getter("short_description"),
            "setMyName": self._bot_text_setter("name", 64),
            "getMyName": self._bot_text_getter("name"),
            "sendMessage": self._send_message,
            "editMessageText": self._edit_message_text,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "sendPhoto": self._send_photo,
            "sendDocument": self._send_document,
            "editMessageMedia": self._edit_message_media,
            "editMessageCaption": self._edit_message_caption,
            "deleteMessage": self._delete_message,
            "answerCallbackQuery": self._answer_callback_query,
            "sendChatAction": self._send_chat_action,
            "getChat": self._get_chat,
            "getChatMember": self._get_chat_member,
            "getChatAdministrators": self._get_chat_administrators,
            "getChatMemberCount": self._get_chat_member_count,
            "leaveChat": self._leave_chat,
        }

    async def _handle(self, request: web.Request) -> web.Response:
        requested = request.match_info["method"]
        entry = self._methods.get(requested.lower())
        name = entry[0] if entry else requested
        self.request_counts[name] += 1
        raw: JSONDict = {}
        try:
            if request.match_info["token"] != self.token:
                raise ApiError(401, "Unauthorized")
            if entry is None:
                raise ApiError(404, "Not Found")
            raw = await self._read_params(request)
            self._take_injection(name)
            result = await entry[1](_Params(raw))
        except ApiError as error:
            if error.code == 429:
                self.rate_limited_counts[name] += 1
            self.calls.append(ApiCall(name, raw, error.code, error.description, time.monotonic()))
            return web.json_response(error.body(), status=error.code)
        body: JSONDict = {"ok": True}
        if isinstance(result, _Described):
            body["result"] = result.result
            body["description"] = result.description
        else:
            body["result"] = result
        self.calls.append(ApiCall(name, raw, 200, None, time.monotonic()))
        return web.json_response(body)

    async def _handle_file(self, request: web.Request) -> web.Response:
        return web.json_response({"ok": False, "error_code": 404, "description": "Not Found"}, status=404)

    @staticmethod
    async def _read_params(request: web.Request) -> JSONDict:
        params: JSONDict = dict(request.query)
        if not request.body_exists:
            return params
        if request.content_type == "application/json":
            try:
                body = json.loads(await request.text() or "{}")
            except ValueError:
                raise ApiError(400, "Bad Request: can't parse JSON object") from None
            if not isinstance(body, dict):
                raise ApiError(400, "Bad Request: JSON object expected")
            params.update(body)
        elif request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            for key, value in (await request.post()).items():
                if isinstance(value, web.FileField):
                    data = value.file.read()
                    params[key] = {"upload": value.filename, "size": len(data), "data": data,
                                   **_image_size(data)}
                else:
                    params[key] = value
        return params

    # --- Bot API methods ------------------------------------------------------------------------

    async def _get_me(self, p: _Params) -> JSONDict:
        return {
            **self.bot.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _log_out(self, p: _Params) -> bool:
        self.logged_out = True
        return True

    async def _close(self, p: _Params) -> bool:
        self.closed = True
        return True

    async def _get_updates(self, p: _Params) -> list[JSONDict]:
        """Long polling: waits up to ``timeout`` s for an update; ``offset`` confirms older ones.

        A newer getUpdates ends a waiting one with 409, like Telegram does.
        """
        if self.webhook is not None:
            raise ApiError(409, CONFLICT_WEBHOOK)
        offset = p.integer("offset") or 0
        limit = min(max(p.integer("limit") or 100, 1), 100)
        timeout = min(max(p.number("timeout") or 0.0, 0.0), 50.0)
        if p.present("allowed_updates"):
            self._set_allowed_updates(p.json("allowed_updates"))
        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()
        if offset > 0:
            self._confirm_before(offset)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if generation != self._poll_generation:
                raise ApiError(409, CONFLICT_POLLING)
            batch = self._updates[offset:][:limit] if offset < 0 else self._updates[:limit]
            remaining = deadline - loop.time()
            if batch or self._closing or remaining <= 0:
                break
            await self._wait_change(remaining)
        now = time.monotonic()
        for update in batch:
            self._mark_fetched(update, now)
        return [update.to_api() for update in batch]

    async def _set_webhook(self, p: _Params) -> _Described:
        url = p.text("url") or ""
        if not url:
            return await self._delete_webhook(p)
        parts = urlsplit(url)
        local = parts.hostname in ("127.0.0.1", "localhost", "::1")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        if not (local and self.allow_local_webhooks):
            if parts.scheme != "https":
                raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
            if (parts.port or 443) not in (80, 88, 443, 8443):
                raise ApiError(
                    400, "Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
                )
        secret = p.text("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        allowed = p.json("allowed_updates") if p.present("allowed_updates") else None
        if allowed is not None:
            self._set_allowed_updates(allowed)
        if p.flag("drop_pending_updates"):
            self._drop_pending()
        same = self.webhook is not None and self.webhook.url == url
        max_connections = p.integer("max_connections") or 40
        self.webhook = WebhookState(url, secret, allowed, max_connections)
        self._notify()
        return _Described(True, "Webhook is already set" if same else "Webhook was set")

    async def _delete_webhook(self, p: _Params) -> _Described:
        if p.flag("drop_pending_updates"):
            self._drop_pending()
        existed = self.webhook is not None
        self.webhook = None
        self._notify()
        return _Described(True, "Webhook was deleted" if existed else "Webhook is already deleted")

    async def _get_webhook_info(self, p: _Params) -> JSONDict:
        info: JSONDict = {
            "url": "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }
        if self.webhook is not None:
            info["url"] = self.webhook.url
            info["max_connections"] = self.webhook.max_connections
            if self.webhook.allowed_updates is not None:
                info["allowed_updates"] = self.webhook.allowed_updates
            if self.webhook.last_error_date is not None:
                info["last_error_date"] = self.webhook.last_error_date
                info["last_error_message"] = self.webhook.last_error_message
        return info

    async def _set_my_commands(self, p: _Params) -> bool:
        if not p.present("commands"):
            raise ApiError(400, 'Bad Request: parameter "commands" is required')
        commands = p.json("commands")
        if not isinstance(commands, list):
            raise ApiError(400, 'Bad Request: field "commands" must be an Array')
        if len(commands) > 100:
            raise ApiError(400, "Bad Request: too many commands specified")
        stored: list[JSONDict] = []
        for command in commands:
            if not isinstance(command, dict):
                raise ApiError(400, "Bad Request: BotCommand must be an Object")
            name, description = command.get("command"), command.get("description")
            if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_]{1,32}", name):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
            stored.append({"command": name, "description": description})
        key = self._scope_key(p.json("scope"), p.text("language_code") or "")
        if stored:
            self.my_commands[key] = stored
        else:
            self.my_commands.pop(key, None)
        self._notify()
        return True

    async def _get_my_commands(self, p: _Params) -> list[JSONDict]:
        key = self._scope_key(p.json("scope"), p.text("language_code") or "")
        return copy.deepcopy(self.my_commands.get(key, []))

    async def _delete_my_commands(self, p: _Params) -> bool:
        self.my_commands.pop(self._scope_key(p.json("scope"), p.text("language_code") or ""), None)
        self._notify()
        return True

    def _bot_text_setter(self, kind: str, limit: int) -> Handler:
        async def setter(p: _Params) -> bool:
            value = p.text(kind) or ""
            if len(value) > limit:
                raise ApiError(400, f"Bad Request: bot {kind.replace('_', ' ')} is too long")
            language = self._language_code(p.text("language_code") or "")
            if value:
                self.bot_texts[(kind, language)] = value
            else:
                self.bot_texts.pop((kind, language), None)
            return True

        return setter

    def _bot_text_getter(self, kind: str) -> Handler:
        async def getter(p: _Params) -> JSONDict:
            language = self._language_code(p.text("language_code") or "")
            fallback = self.bot.first_name if kind == "name" else ""
            return {kind: self.bot_texts.get((kind, language), self.bot_texts.get((kind, ""), fallback))}

        return getter

    @staticmethod
    def _rings(message: FakeMessage, p: _Params) -> FakeMessage:
        """A new message notifies the chat's members unless sent with `disable_notification`."""
        message.silent = p.flag("disable_notification")
        return message

    def rings(self, user: FakeUser, *, since: float = 0.0) -> list[FakeMessage]:
        """The bot's messages that rang `user`'s phone (after `since`, a `time.time()`): new
        private messages, and new group messages that mention them, unless sent silently.
        Edits ring nobody. Deleted messages count: they rang before they went."""
        rang = [m for m in self.messages(user, include_deleted=True, from_bot=True)
                if not m.silent and m.sent_at >= since]
        for chat in self.chats.values():
            if chat.is_group:
                rang += [m for m in self.messages(chat, include_deleted=True, from_bot=True)
                         if not m.silent and m.sent_at >= since and _mentions(m, user)]
        return rang

    async def _send_message(self, p: _Params) -> JSONDict:
        chat = self._chat_param(p)
        text, entities, parse_mode = self._text_param(p)
        markup, other_markup = self._markup_param(p, inline_only=False)
        reply_to = self._reply_param(p, chat)
        self._check_can_write(chat)
        thread = self._thread_param(p, chat)
        self._check_flood(chat)
        message = self._store_message(
            chat,
            self.bot,
            text,
            entities,
            source_text=p.text("text"),
            parse_mode=parse_mode,
            reply_markup=markup,
            other_markup=other_markup,
            reply_to=reply_to,
            thread=thread,
        )
        return self._rings(message, p).to_api()

    async def _edit_message_text(self, p: _Params) -> JSONDict:
        chat, message_id = self._edit_target(p)
        text, entities, parse_mode = self._text_param(p)
        markup, _ = self._markup_param(p, inline_only=True)
        message = self._editable(chat, message_id)
        if message.photo is not None:
            raise ApiError(400, NO_TEXT_TO_EDIT)
        if message.text == text and message.entities == entities and message.reply_markup == markup:
            raise ApiError(400, NOT_MODIFIED)
        self._check_flood(chat, edit=True)
        self._edit(message, text, entities, markup, source_text=p.text("text"), parse_mode=parse_mode)
        return message.to_api()

    async def _send_photo(self, p: _Params) -> JSONDict:
        chat = self._chat_param(p)
        upload = self._upload(p.raw.get("photo"))
        caption, entities, parse_mode = self._caption_param(p.text("caption"), p.text("parse_mode"))
        markup, other_markup = self._markup_param(p, inline_only=False)
        reply_to = self._reply_param(p, chat)
        self._check_can_write(chat)
        thread = self._thread_param(p, chat)
        if not chat.photos_allowed:
            raise ApiError(400, NO_PHOTO_RIGHTS)
        self._check_flood(chat)
        message = self._store_message(chat, self.bot, None, [], reply_markup=markup,
                                      other_markup=other_markup, reply_to=reply_to, thread=thread)
        message.photo, message.caption, message.caption_entities = upload, caption, entities
        message.parse_mode = parse_mode
        return self._rings(message, p).to_api()

    async def _send_document(self, p: _Params) -> JSONDict:
        """A file uploaded with the request (the bot has no file ids to send instead), kept as
        received in `document`, with its caption."""
        chat = self._chat_param(p)
        upload = p.raw.get("document")
        if upload is None or upload == "":
            raise ApiError(400, NO_DOCUMENT)
        if not isinstance(upload, dict) or not upload.get("size"):
            raise ApiError(400, WRONG_FILE)
        caption, entities, parse_mode = self._caption_param(p.text("caption"), p.text("parse_mode"))
        markup, other_markup = self._markup_param(p, inline_only=False)
        reply_to = self._reply_param(p, chat)
        self._check_can_write(chat)
        thread = self._thread_param(p, chat)
        self._check_flood(chat)
        message = self._store_message(chat, self.bot, None, [], reply_markup=markup,
                                      other_markup=other_markup, reply_to=reply_to, thread=thread)
        message.document, message.caption, message.caption_entities = dict(upload), caption, entities
        message.parse_mode = parse_mode
        return self._rings(message, p).to_api()

    async def _edit_message_media(self, p: _Params) -> JSONDict:
        chat, message_id = self._edit_target(p)
        media = p.json("media", error=MEDIA_JSON)
        if not isinstance(media, dict) or media.get("type") != "photo" or not isinstance(
                media.get("media"), str):
            raise ApiError(400, MEDIA_JSON)
        reference = media["media"]
        upload = self._upload(p.raw.get(reference.removeprefix("attach://"))
                              if reference.startswith("attach://") else reference)
        caption, entities, parse_mode = self._caption_param(media.get("caption"), media.get("parse_mode"))
        markup, _ = self._markup_param(p, inline_only=True)
        message = self._photo_message(chat, message_id, NO_MEDIA_TO_EDIT)
        self._check_flood(chat, edit=True)
        message.photo_history.append(message.photo or {})
        self._edit(message, None, [], markup, None, parse_mode)
        message.photo, message.caption, message.caption_entities = upload, caption, entities
        return message.to_api()

    async def _edit_message_caption(self, p: _Params) -> JSONDict:
        chat, message_id = self._edit_target(p)
        caption, entities, parse_mode = self._caption_param(p.text("caption"), p.text("parse_mode"))
        markup, _ = self._markup_param(p, inline_only=True)
        message = self._photo_message(chat, message_id, NO_CAPTION_TO_EDIT)
        if (message.caption, message.caption_entities, message.reply_markup) == (caption, entities, markup):
            raise ApiError(400, NOT_MODIFIED)
        self._check_flood(chat, edit=True)
        photo = message.photo
        self._edit(message, None, [], markup, None, parse_mode)
        message.photo, message.caption, message.caption_entities = photo, caption, entities
        return message.to_api()

    def _photo_message(self, chat: FakeChat, message_id: int, not_a_photo: str) -> FakeMessage:
        self._check_can_write(chat)
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise ApiError(400, MESSAGE_TO_EDIT_NOT_FOUND)
        if not message.from_bot:
            raise ApiError(400, MESSAGE_CANT_BE_EDITED)
        if not chat.bot_may_post_in(message.thread):
            raise ApiError(400, TOPIC_CLOSED)
        if message.photo is None:
            raise ApiError(400, not_a_photo)
        return message

    @staticmethod
    def _upload(value: Any) -> JSONDict:
        """A photo must be a file uploaded with the request (multipart/form-data); the bot never
        has file ids or URLs to send instead."""
        if value is None or value == "":
            raise ApiError(400, NO_PHOTO)
        if not isinstance(value, dict) or not value.get("size"):
            raise ApiError(400, WRONG_FILE)
        if "width" not in value:
            raise ApiError(400, IMAGE_PROCESS_FAILED)
        return dict(value)

    @staticmethod
    def _caption_param(raw: Any, parse_mode: Any) -> tuple[str | None, list[JSONDict], str | None]:
        if raw is None or raw == "":
            return None, [], parse_mode or None
        if not isinstance(raw, str):
            raise ApiError(400, "Bad Request: can't parse caption")
        if parse_mode is not None and str(parse_mode).lower() == "html":
            caption, entities = parse_html(raw)
        else:
            caption, entities = raw, []
        caption, entities = _trim(caption, entities)
        if len(caption) > MAX_CAPTION_LENGTH:
            raise ApiError(400, CAPTION_TOO_LONG)
        return caption or None, entities, parse_mode or None

    async def _edit_message_reply_markup(self, p: _Params) -> JSONDict:
        chat, message_id = self._edit_target(p)
        markup, _ = self._markup_param(p, inline_only=True)
        message = self._editable(chat, message_id)
        if message.reply_markup == markup:
            raise ApiError(400, NOT_MODIFIED)
        self._check_flood(chat, edit=True)
        self._edit(message, message.text, message.entities, markup, message.source_text, message.parse_mode)
        return message.to_api()

    async def _delete_message(self, p: _Params) -> bool:
        chat = self._chat_param(p)
        message_id = p.integer("message_id", error=MESSAGE_ID_MISSING)
        if message_id is None:
            raise ApiError(400, MESSAGE_ID_MISSING)
        self._check_can_write(chat)
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise ApiError(400, MESSAGE_TO_DELETE_NOT_FOUND)
        if not message.from_bot and chat.is_group and chat.bot_status != "administrator":
            raise ApiError(400, MESSAGE_CANT_BE_DELETED)
        message.deleted = True
        message.deleted_at = time.time()
        self._notify()
        return True

    async def _answer_callback_query(self, p: _Params) -> bool:
        query_id = p.text("callback_query_id")
        if not query_id:
            raise ApiError(400, 'Bad Request: parameter "callback_query_id" is required')
        record = self._callbacks_by_id.get(query_id)
        now = time.monotonic()
        too_late = (
            record is not None
            and self.callback_answer_timeout is not None
            and now - record.created_at > self.callback_answer_timeout
        )
        if record is None or record.answered or too_late:
            raise ApiError(400, QUERY_INVALID)
        text = p.text("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise ApiError(400, CALLBACK_TEXT_TOO_LONG)
        record.answered_at = now
        record.answer_text = text
        record.show_alert = p.flag("show_alert")
        record.url = p.text("url")
        record.cache_time = p.integer("cache_time")
        self._notify()
        return True

    async def _send_chat_action(self, p: _Params) -> bool:
        chat = self._chat_param(p)
        if p.text("action") not in _CHAT_ACTIONS:
            raise ApiError(400, "Bad Request: wrong parameter action in request")
        self._check_can_write(chat)
        return True

    async def _get_chat(self, p: _Params) -> JSONDict:
        chat = self._chat_param(p)
        if chat.is_group:
            self._check_can_write(chat)
        extra = {"accent_color_id": 0, "max_reaction_count": 11, "accepted_gift_types": _NO_GIFTS}
        return {**chat.to_api(), **copy.deepcopy(extra)}

    async def _get_chat_member(self, p: _Params) -> JSONDict:
        chat = self._chat_param(p)
        user_id = p.integer("user_id", error=USER_NOT_FOUND)
        if chat.is_group:
            self._check_can_write(chat)
        if user_id == self.bot.id:
            status = "member" if chat.is_private else chat.bot_status
            return self._member_api(self.bot, status)
        user = self.users.get(user_id or 0)
        if user is None or (chat.is_private and chat.user is not user):
            raise ApiError(400, USER_NOT_FOUND)
        if chat.is_private:
            return self._member_api(user, "member")
        status = chat.members.get(user.id, "left")
        return self._member_api(user, status, is_member=chat.restricted.get(user.id, True))

    async def _get_chat_administrators(self, p: _Params) -> list[JSONDict]:
        chat = self._chat_param(p)
        if chat.is_private:
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        self._check_can_write(chat)
        admins = [
            self._member_api(self.users[uid], status)
            for uid, status in chat.members.items()
            if status in ("creator", "administrator")
        ]
        if chat.bot_status == "administrator":
            admins.append(self._member_api(self.bot, "administrator"))
        return admins

    async def _get_chat_member_count(self, p: _Params) -> int:
        chat = self._chat_param(p)
        if chat.is_private:
            return 2
        self._check_can_write(chat)
        return sum(status in ("creator", "administrator", "member") for status in chat.members.values()) + 1

    async def _leave_chat(self, p: _Params) -> bool:
        chat = self._chat_param(p)
        if chat.is_private:
            raise ApiError(400, "Bad Request: chat member status can't be changed in private chats")
        self._check_can_write(chat)
        old = chat.bot_status
        chat.bot_status = "left"
        self._enqueue_my_chat_member(chat, self.bot, old, "left")
        return True

    # --- validation -------------------------------------------------------------------------------

    def _chat_param(self, p: _Params) -> FakeChat:
        value = p.raw.get("chat_id")
        if value is None or value == "":
            raise ApiError(400, CHAT_ID_EMPTY)
        if isinstance(value, str) and value.startswith("@"):
            for chat in self.chats.values():
                if chat.is_group and chat.username and chat.username.lower() == value[1:].lower():
                    return chat
            raise ApiError(400, CHAT_NOT_FOUND)
        chat_id = p.integer("chat_id", error=CHAT_NOT_FOUND)
        chat = self.chats.get(chat_id or 0)
        if chat is None:
            raise ApiError(400, CHAT_NOT_FOUND)
        if chat.migrated_to is not None:
            raise ApiError(400, MIGRATED, migrate_to_chat_id=chat.migrated_to)
        return chat

    def _text_param(self, p: _Params) -> tuple[str, list[JSONDict], str | None]:
        raw = p.text("text")
        if not raw:
            raise ApiError(400, TEXT_EMPTY)
        parse_mode = p.text("parse_mode") or None
        if parse_mode is not None:
            mode = parse_mode.lower()
            if mode == "html":
                text, entities = parse_html(raw)
            elif mode in ("markdown", "markdownv2"):
                text, entities = raw, []
            else:
                raise ApiError(400, "Bad Request: unsupported parse_mode")
        else:
            text, entities = raw, self._entities_param(p, raw)
        text, entities = _trim(text, entities)
        if not text:
            raise ApiError(400, TEXT_MUST_BE_NON_EMPTY)
        if len(text) > MAX_TEXT_LENGTH:
            raise ApiError(400, TEXT_TOO_LONG)
        return text, entities, parse_mode

    @staticmethod
    def _entities_param(p: _Params, text: str) -> list[JSONDict]:
        if not p.present("entities"):
            return []
        entities = p.json("entities", error="Bad Request: can't parse entities JSON object")
        if not isinstance(entities, list):
            raise ApiError(400, "Bad Request: can't parse entities JSON object")
        length = utf16_len(text)
        for entity in entities:
            valid = (
                isinstance(entity, dict)
                and isinstance(entity.get("type"), str)
                and isinstance(entity.get("offset"), int)
                and isinstance(entity.get("length"), int)
            )
            if not valid:
                raise ApiError(400, "Bad Request: can't parse MessageEntity JSON object")
            if entity["offset"] < 0 or entity["length"] <= 0 or entity["offset"] + entity["length"] > length:
                raise ApiError(400, "Bad Request: entity beyond the end of the text")
        return _sort_entities([dict(entity) for entity in entities])

    def _markup_param(self, p: _Params, *, inline_only: bool) -> tuple[JSONDict | None, JSONDict | None]:
        """(inline keyboard as Telegram echoes it, other markup).

        An edit without reply_markup removes the keyboard, as on Telegram.
        """
        if not p.present("reply_markup"):
            return None, None
        markup = p.json("reply_markup", error=CANT_PARSE_MARKUP)
        if not isinstance(markup, dict):
            raise ApiError(400, "Bad Request: object expected as reply markup")
        if "inline_keyboard" in markup:
            return self._inline_keyboard(markup["inline_keyboard"]), None
        if inline_only:
            raise ApiError(400, "Bad Request: inline keyboard expected")
        if "keyboard" in markup:
            rows = markup["keyboard"]
            if not isinstance(rows, list) or any(not isinstance(row, list) for row in rows):
                raise ApiError(
                    400, 'Bad Request: field "keyboard" of the ReplyKeyboardMarkup must be an Array of Arrays'
                )
            return None, markup
        if markup.get("remove_keyboard") is True or markup.get("force_reply") is True:
            return None, markup
        raise ApiError(400, CANT_PARSE_MARKUP)

    @staticmethod
    def _inline_keyboard(rows: Any) -> JSONDict | None:
        if not isinstance(rows, list) or any(not isinstance(row, list) for row in rows):
            raise ApiError(400, NOT_ARRAY_OF_ARRAYS)
        keyboard: list[list[JSONDict]] = []
        for row in rows:
            checked = [FakeTelegramServer._inline_button(button) for button in row]
            if checked:
                keyboard.append(checked)
        if sum(len(row) for row in keyboard) > MAX_BUTTONS:
            raise ApiError(400, MARKUP_TOO_LONG)
        return {"inline_keyboard": keyboard} if keyboard else None

    @staticmethod
    def _inline_button(button: Any) -> JSONDict:
        if not isinstance(button, dict):
            raise ApiError(400, CANT_PARSE_BUTTON + "InlineKeyboardButton must be an Object")
        if "text" not in button:
            raise ApiError(400, CANT_PARSE_BUTTON + 'Can\'t find field "text"')
        text = button["text"]
        if not isinstance(text, str):
            raise ApiError(400, CANT_PARSE_BUTTON + 'Field "text" must be of type String')
        actions = [name for name in _BUTTON_ACTIONS if button.get(name) is not None]
        if not actions:
            raise ApiError(400, CANT_PARSE_BUTTON + "Text buttons are unallowed in the inline keyboard")
        if len(actions) > 1:
            raise ApiError(400, CANT_PARSE_BUTTON + f"exactly one of {', '.join(actions)} must be used")
        if not text.strip():
            raise ApiError(400, BUTTON_TEXT_INVALID)
        action = actions[0]
        value = button[action]
        if action == "callback_data" and (
            not isinstance(value, str) or not 1 <= len(value.encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES
        ):
            raise ApiError(400, BUTTON_DATA_INVALID)
        if action == "url" and (not isinstance(value, str) or not _valid_button_url(value)):
            raise ApiError(400, BUTTON_URL_INVALID)
        checked: JSONDict = {"text": text, action: copy.deepcopy(value)}
        for name in _BUTTON_DECORATIONS:
            if button.get(name) is not None:
                checked[name] = button[name]
        return checked

    @staticmethod
    def _reply_param(p: _Params, chat: FakeChat) -> FakeMessage | None:
        message_id = p.integer("reply_to_message_id")
        allow_missing = p.flag("allow_sending_without_reply")
        if p.present("reply_parameters"):
            error = "Bad Request: can't parse reply parameters JSON object"
            parameters = p.json("reply_parameters", error=error)
            if not isinstance(parameters, dict) or not isinstance(parameters.get("message_id"), int):
                raise ApiError(400, error)
            message_id = parameters["message_id"]
            allow_missing = bool(parameters.get("allow_sending_without_reply", allow_missing))
        if message_id is None:
            return None
        target = chat.messages.get(message_id)
        if target is None or target.deleted:
            if allow_missing:
                return None
            raise ApiError(400, REPLY_NOT_FOUND)
        return target

    def _edit_target(self, p: _Params) -> tuple[FakeChat, int]:
        if p.present("inline_message_id"):
            raise ApiError(400, "Bad Request: inline messages are not supported by the fake Telegram server")
        chat = self._chat_param(p)
        message_id = p.integer("message_id", error=MESSAGE_ID_MISSING)
        if message_id is None:
            raise ApiError(400, MESSAGE_ID_MISSING)
        return chat, message_id

    def _editable(self, chat: FakeChat, message_id: int) -> FakeMessage:
        self._check_can_write(chat)
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise ApiError(400, MESSAGE_TO_EDIT_NOT_FOUND)
        if not message.from_bot or (message.text is None and message.photo is None):
            raise ApiError(400, MESSAGE_CANT_BE_EDITED)
        if not chat.bot_may_post_in(message.thread):
            raise ApiError(400, TOPIC_CLOSED)
        return message

    @staticmethod
    def _thread_param(p: _Params, chat: FakeChat) -> int | None:
        """The forum topic a new message goes to (None: General); General's own id, a topic of
        another kind of chat or one that is gone is not found, a closed one refuses the bot
        unless it is an administrator."""
        thread = p.integer("message_thread_id", error=THREAD_NOT_FOUND)
        if thread is None:
            return None
        if not chat.is_forum or thread not in chat.topics:
            raise ApiError(400, THREAD_NOT_FOUND)
        if not chat.bot_may_post_in(thread):
            raise ApiError(400, TOPIC_CLOSED)
        return thread

    def _check_can_write(self, chat: FakeChat) -> None:
        if chat.is_private:
            user = chat.user
            if user is None or user.blocked:
                raise ApiError(403, BLOCKED)
            if not user.started:
                raise ApiError(403, CANT_INITIATE)
            return
        kind = "supergroup" if chat.type == "supergroup" else "group"
        if chat.bot_status == "kicked":
            raise ApiError(403, f"Forbidden: bot was kicked from the {kind} chat")
        if chat.bot_status == "left":
            raise ApiError(403, f"Forbidden: bot is not a member of the {kind} chat")

    def _check_flood(self, chat: FakeChat, *, edit: bool = False) -> None:
        """Telegram's documented limits: 30 messages a second overall, 20 a minute per group.

        Edits of a group's messages count against the group's minute as Telegram counts them
        (an edited table costs as much as a new message); `group_sends` keeps when each went."""
        if edit and not chat.is_group:
            return
        now = time.monotonic()
        self.bot_sends.append(now)
        if not self.flood_control:
            if chat.is_group:
                self.group_sends.setdefault(chat.id, []).append(now)
            return
        windows = [(self._sent_at, self.global_flood_limit)]
        if chat.is_group:
            windows.append((self._sent_at_chat.setdefault(chat.id, deque()), self.group_flood_limit))
        for sent, (limit, period) in windows:
            while sent and sent[0] <= now - period:
                sent.popleft()
            if len(sent) >= limit:
                raise too_many_requests(max(1, math.ceil(sent[0] + period - now)))
        for sent, _ in windows:
            sent.append(now)
        if chat.is_group:
            self.group_sends.setdefault(chat.id, []).append(now)

    def _scope_key(self, scope: Any, language_code: str) -> tuple[str, int | None, int | None, str]:
        language = self._language_code(language_code)
        if scope is None:
            return ("default", None, None, language)
        if isinstance(scope, str):
            try:
                scope = json.loads(scope)
            except ValueError:
                raise ApiError(400, "Bad Request: can't parse BotCommandScope JSON object") from None
        if not isinstance(scope, dict) or scope.get("type") not in _COMMAND_SCOPES:
            raise ApiError(400, "Bad Request: unsupported bot command scope type")
        kind = scope["type"]
        chat_id: int | None = None
        user_id: int | None = None
        if kind in ("chat", "chat_administrators", "chat_member"):
            chat = self._chat_param(_Params({"chat_id": scope.get("chat_id")}))
            chat_id = chat.id
        if kind == "chat_member":
            user_id = _Params(scope).integer("user_id", error=USER_NOT_FOUND)
            if user_id not in self.users:
                raise ApiError(400, USER_NOT_FOUND)
        return (kind, chat_id, user_id, language)

    @staticmethod
    def _language_code(code: str) -> str:
        if code and not re.fullmatch(r"[a-z]{2}", code):
            raise ApiError(400, "Bad Request: invalid language code specified")
        return code

    def _member_api(self, user: FakeUser, status: str, *, is_member: bool = True) -> JSONDict:
        if status == "restricted":
            rights = {name: False for name in _RESTRICTED_RIGHTS}
            return {"status": "restricted", "user": user.to_api(), "is_member": is_member, **rights,
                    "until_date": 0}
        if status == "creator":
            return {"status": "creator", "user": user.to_api(), "is_anonymous": False}
        if status == "administrator":
            return {"status": "administrator", "user": user.to_api(), **_ADMIN_RIGHTS}
        if status == "kicked":
            return {"status": "kicked", "user": user.to_api(), "until_date": 0}
        return {"status": status, "user": user.to_api()}

    # --- messages and updates -------------------------------------------------------------------

    def _store_message(
        self,
        chat: FakeChat,
        sender: FakeUser,
        text: str | None,
        entities: list[JSONDict],
        *,
        source_text: str | None = None,
        parse_mode: str | None = None,
        reply_markup: JSONDict | None = None,
        other_markup: JSONDict | None = None,
        reply_to: FakeMessage | None = None,
        service: JSONDict | None = None,
        thread: int | None = None,
    ) -> FakeMessage:
        if thread is not None and reply_to is None:
            reply_to = chat.messages.get(thread)
        message = FakeMessage(
            chat=chat,
            message_id=chat.next_message_id,
            sender=sender,
            date=int(time.time()),
            text=text,
            entities=entities,
            source_text=source_text if source_text is not None else text,
            parse_mode=parse_mode,
            reply_markup=reply_markup,
            other_markup=other_markup,
            reply_to=reply_to,
            service=service or {},
            thread=thread,
        )
        chat.next_message_id += 1
        chat.messages[message.message_id] = message
        self._notify()
        return message

    def _edit(
        self,
        message: FakeMessage,
        text: str | None,
        entities: list[JSONDict],
        markup: JSONDict | None,
        source_text: str | None,
        parse_mode: str | None,
    ) -> None:
        message.history.append(
            MessageVersion(
                message.text,
                message.entities,
                message.reply_markup,
                message.source_text,
                message.parse_mode,
                message.edit_date,
            )
        )
        message.text = text
        message.entities = entities
        message.reply_markup = markup
        message.source_text = source_text
        message.parse_mode = parse_mode
        message.edit_date = int(time.time())
        self._notify()

    def _user_service_message(self, chat: FakeChat, user: FakeUser, service: JSONDict,
                              thread: int | None = None) -> FakeMessage:
        message = self._store_message(chat, user, None, [], service=service, thread=thread)
        message.delivered = chat.bot_present
        if message.delivered:
            self._enqueue("message", message.to_api())
        return message

    def _bot_sees(self, chat: FakeChat, message: FakeMessage) -> bool:
        """Privacy mode: in groups the bot sees commands for it and replies to it, unless it is an admin."""
        if chat.is_private:
            return True
        if not chat.bot_present:
            return False
        if not self.privacy_mode or chat.bot_status == "administrator":
            return True
        if message.reply_to is not None and message.reply_to.sender is self.bot:
            return True
        first = message.entities[0] if message.entities else None
        if first is None or first["type"] != "bot_command" or first["offset"] != 0:
            return False
        command = (message.text or "")[: first["length"]]
        _, at, addressee = command.partition("@")
        return not at or addressee.lower() == self.bot_username.lower()

    def _callback(
        self,
        chat: FakeChat,
        message_id: int,
        message: FakeMessage | None,
        user: FakeUser,
        data: str,
        *,
        forged: bool,
    ) -> CallbackRecord:
        query_id = str(next(self._query_ids))
        record = CallbackRecord(query_id, user, chat, message_id, data, forged, time.monotonic())
        self.callbacks.append(record)
        self._callbacks_by_id[query_id] = record
        payload: JSONDict = {
            "id": query_id,
            "from": user.to_api(),
            "chat_instance": str((chat.id * 2_654_435_761) % 10**19),
            "data": data,
        }
        if message is not None and not message.deleted:
            payload["message"] = message.to_api()
        else:
            payload["message"] = {"chat": chat.to_api(), "message_id": message_id, "date": 0}
        self._enqueue("callback_query", payload, callback=record)
        return record

    def _enqueue_my_chat_member(self, chat: FakeChat, by: FakeUser, old: str, new: str) -> None:
        payload = {
            "chat": chat.to_api(),
            "from": by.to_api(),
            "date": int(time.time()),
            "old_chat_member": self._member_api(self.bot, old),
            "new_chat_member": self._member_api(self.bot, new),
        }
        self._enqueue("my_chat_member", payload)

    def _enqueue(self, kind: str, payload: JSONDict, *, callback: CallbackRecord | None = None) -> None:
        if kind in self._allowed_updates:
            self._updates.append(
                _QueuedUpdate(next(self._update_ids), kind, payload, time.monotonic(), callback)
            )
        self._notify()

    def _set_allowed_updates(self, allowed: Any) -> None:
        if not isinstance(allowed, list) or any(not isinstance(kind, str) for kind in allowed):
            raise ApiError(400, "Bad Request: can't parse allowed_updates JSON object")
        self._allowed_updates = frozenset(allowed) & ALL_UPDATE_TYPES if allowed else DEFAULT_UPDATE_TYPES

    def _confirm_before(self, offset: int) -> None:
        kept = [update for update in self._updates if update.update_id >= offset]
        if len(kept) != len(self._updates):
            self.confirmed_update_id = max(self.confirmed_update_id, offset - 1)
            self._updates = kept
            self._notify()

    def _drop_pending(self) -> None:
        if self._updates:
            self.confirmed_update_id = max(self.confirmed_update_id, self._updates[-1].update_id)
        self._updates.clear()

    @staticmethod
    def _mark_fetched(update: _QueuedUpdate, now: float) -> None:
        if update.fetched_at is None:
            update.fetched_at = now
        if update.callback is not None and update.callback.fetched_at is None:
            update.callback.fetched_at = now

    def _notify(self) -> None:
        """Wakes everything waiting for a change (long polls, webhook delivery, wait_for)."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def _wait_change(self, timeout: float) -> None:
        event = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    async def _webhook_loop(self) -> None:
        """Posts pending updates one at a time to the webhook; a non-2xx answer is retried later."""
        async with aiohttp.ClientSession() as session:
            while not self._closing:
                hook = self.webhook
                if hook is None or not self._updates:
                    await self._wait_change(1.0)
                    continue
                update = self._updates[0]
                self._mark_fetched(update, time.monotonic())
                headers = {"X-Telegram-Bot-Api-Secret-Token": hook.secret_token} if hook.secret_token else {}
                error: str | None = None
                try:
                    async with session.post(
                        hook.url, json=update.to_api(), headers=headers, timeout=aiohttp.ClientTimeout(10)
                    ) as response:
                        await response.read()
                        if not 200 <= response.status < 300:
                            error = f"Wrong response from the webhook: {response.status} {response.reason}"
                except (aiohttp.ClientError, TimeoutError) as exc:
                    error = f"Connection error: {exc!r}"
                if error is None:
                    hook.delivered += 1
                    if self._updates and self._updates[0] is update:
                        self._updates.pop(0)
                        self.confirmed_update_id = max(self.confirmed_update_id, update.update_id)
                    self._notify()
                else:
                    hook.last_error_date = int(time.time())
                    hook.last_error_message = error
                    await asyncio.sleep(self.webhook_retry_delay)

    # --- simulation helpers -----------------------------------------------------------------------

    def _group(self, chat: ChatRef) -> FakeChat:
        group = self.get_chat(chat)
        if not group.is_group:
            raise SimulationError(f"chat {group.id} is not a group")
        return group

    def _forum(self, chat: ChatRef) -> FakeChat:
        forum = self._group(chat)
        if not forum.is_forum:
            raise SimulationError(f"chat {forum.id} is not a forum")
        return forum

    def _topic(self, chat: ChatRef, thread: int) -> tuple[FakeChat, FakeTopic]:
        forum = self._forum(chat)
        topic = forum.topics.get(thread)
        if topic is None:
            raise SimulationError(f"no topic {thread} in {forum.title}")
        return forum, topic

    @staticmethod
    def _sim_message(chat: FakeChat, message: int | FakeMessage) -> FakeMessage:
        message_id = message.message_id if isinstance(message, FakeMessage) else message
        try:
            return chat.messages[message_id]
        except KeyError:
            raise SimulationError(f"no message {message_id} in chat {chat.id}") from None
