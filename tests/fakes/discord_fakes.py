"""A strict fake of Discord's REST API and gateway, served on 127.0.0.1 for offline tests.

The real discord.py client talks to it as it talks to discord.com: REST calls
go to :attr:`FakeDiscord.base_url` (patched into ``discord.http.Route.BASE``
by :meth:`FakeDiscord.start`), and ``GET /gateway/bot`` sends each shard to a
websocket here that says HELLO, answers heartbeats, checks IDENTIFY and sends
READY. Tests play the users with Python calls — :meth:`FakeDiscord.slash`
runs a slash command, :meth:`FakeDiscord.press` presses a button or picks from
a menu — which arrive as INTERACTION_CREATE on the guild's shard, and read back
what the bot did: channel messages as they are now (:meth:`FakeDiscord.messages`),
ephemeral messages (only their user sees them), pings, and every interaction's
responses in order (:class:`Interaction`).

It refuses what Discord refuses, with Discord's error codes: a second initial
response to an interaction (40060), a first response more than three seconds
after the interaction was created (10062), an interaction token used after
fifteen minutes (50027), components and embeds over Discord's limits or with
duplicate custom ids (50035), a direct message to a user who does not accept
them (50007), editing a message that is not the bot's or is gone (10008),
command names that Discord would reject. A press must name a component that is
on the message, enabled, and (for an ephemeral message) shown to that user —
unless the test forges it on purpose, as a modified client could.

Files travel as Discord takes them: multipart/form-data with `payload_json` and
`files[n]`, listed in the payload's `attachments` (new ones by index, kept ones
by id; an edit with `attachments` drops the ones it does not list). It refuses
a file over `upload_limit` (40005), a file in a channel where the bot lacks
Attach Files (50013), and an embed image `attachment://name` naming no
attachment of the message (50035); a stored embed shows the attachment's CDN
url, as Discord's does. `Message.picture()` gives the bytes an embed shows.

A thread (:meth:`FakeDiscord.add_thread`) is a channel of its own, whose interactions carry
the thread's id and a thread channel (type 11, its parent's id); posting in it takes Send
Messages in Threads (Send Messages alone is refused with 50013).

Not modelled: rate limits (no 429s), archived and locked threads, gateway resume,
guild caches (READY lists no guilds, so interactions carry their channel), and
message events (the bot asks for no message intents).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
from aiohttp import web

JSON = dict[str, Any]

TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.fake.offline-test-token"
DISCORD_EPOCH_MS = 1_420_070_400_000
ACK_LIMIT = 3.0
TOKEN_LIFETIME = 15 * 60.0
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Permissions (https://discord.com/developers/docs/topics/permissions)
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
SEND_MESSAGES_IN_THREADS = 1 << 38
DIRECT_MESSAGES = 1 << 12
"""The gateway intent for messages in DMs."""
PUBLIC_THREAD = 11
MEMBER = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | (1 << 16) | (1 << 31)
BOT = MEMBER | (1 << 13) | ATTACH_FILES | SEND_MESSAGES_IN_THREADS
UPLOAD_LIMIT = 10 * 1024 * 1024
CDN = "https://cdn.discordapp.com/attachments"

NAME = re.compile(r"^[-_\w]{1,32}$")


class FakeError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


def invalid(message: str) -> FakeError:
    return FakeError(400, 50035, f"Invalid Form Body: {message}")


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


# ---- the world -------------------------------------------------------------------------

@dataclass
class User:
    id: int
    name: str
    locale: str = "it"
    permissions: int = MEMBER
    accepts_dms: bool = True
    bot: bool = False

    def payload(self) -> JSON:
        return {"id": str(self.id), "username": self.name.lower().replace(" ", "_"), "discriminator": "0",
                "global_name": self.name, "avatar": None, "bot": self.bot, "public_flags": 0}

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Channel:
    id: int
    name: str
    guild: Guild | None
    bot_permissions: int = BOT
    recipient: User | None = None
    parent: Channel | None = None
    """For a thread: the channel it was started in."""
    owner: User | None = None

    @property
    def is_thread(self) -> bool:
        return self.parent is not None

    def payload(self) -> JSON:
        if self.guild is None:
            assert self.recipient is not None
            return {"id": str(self.id), "type": 1, "recipients": [self.recipient.payload()],
                    "last_message_id": None}
        if self.parent is not None:
            assert self.owner is not None
            return {"id": str(self.id), "type": PUBLIC_THREAD, "name": self.name,
                    "guild_id": str(self.guild.id), "parent_id": str(self.parent.id),
                    "owner_id": str(self.owner.id), "last_message_id": None, "rate_limit_per_user": 0,
                    "message_count": 0, "member_count": 1, "total_message_sent": 0, "flags": 0,
                    "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                        "archive_timestamp": _iso(0), "locked": False}}
        return {"id": str(self.id), "type": 0, "name": self.name, "guild_id": str(self.guild.id),
                "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
                "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}


@dataclass
class Guild:
    id: int
    name: str
    locale: str = "it"
    channels: list[Channel] = field(default_factory=list)


@dataclass
class Message:
    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    created: float = 0.0
    edited: float | None = None
    edits: int = 0
    deleted: bool = False
    visible_to: User | None = None
    pinged: tuple[int, ...] = ()
    interaction: Interaction | None = None
    attachments: list[JSON] = field(default_factory=list)
    files: dict[int, bytes] = field(default_factory=dict)
    """The bytes of each attachment, by its id."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id), "channel_id": str(self.channel.id), "type": 0,
            "author": self.author.payload(), "content": self.content, "timestamp": _iso(self.created),
            "edited_timestamp": _iso(self.edited) if self.edited else None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": copy.deepcopy(self.attachments),
            "embeds": copy.deepcopy(self.embeds), "pinned": False, "flags": self.flags,
            "components": copy.deepcopy(self.components)}
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        return data

    # ---- what a test reads ----

    @property
    def text(self) -> str:
        """The content and the embeds' titles, descriptions and fields, as one string."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        return "\n".join(part for part in parts if part)

    def picture(self, embed: int = 0) -> bytes | None:
        """The bytes of the attachment the embed shows as its image, if it shows one."""
        if len(self.embeds) <= embed:
            return None
        url = (self.embeds[embed].get("image") or {}).get("url", "")
        shown = next((a for a in self.attachments if a["url"] == url), None)
        return self.files[int(shown["id"])] if shown is not None else None

    def components_flat(self) -> list[JSON]:
        return [c for row in self.components for c in row.get("components", [])]

    def buttons(self) -> list[JSON]:
        return [c for c in self.components_flat() if c["type"] == 2]

    def labels(self) -> list[str]:
        return [_label(c) for c in self.buttons()]

    def find(self, label: str | None = None, custom_id: str | None = None,
             prefix: str | None = None) -> JSON:
        for component in self.components_flat():
            if custom_id is not None and component.get("custom_id") == custom_id:
                return component
            if label is not None and _label(component) == label:
                return component
            if prefix is not None and component.get("custom_id", "").startswith(prefix):
                return component
        raise AssertionError(f"no component {label or custom_id or prefix!r} in {self.labels()}")


def _label(component: JSON) -> str:
    emoji = component.get("emoji")
    label = component.get("label") or ""
    return f"{emoji['name']} {label}".strip() if emoji and emoji.get("name") else label


@dataclass
class Interaction:
    id: int
    token: str
    user: User
    channel: Channel
    kind: str
    payload: JSON
    created: float
    created_clock: float
    message: Message | None = None
    responses: list[JSON] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    response_message: Message | None = None
    followups: list[Message] = field(default_factory=list)
    acknowledged_at: float | None = None
    acknowledged: asyncio.Event = field(default_factory=asyncio.Event)
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def response_type(self) -> int | None:
        return self.responses[0]["type"] if self.responses else None

    @property
    def reply(self) -> Message:
        """The message the user sees as the answer: the response, the last follow-up, or the updated one."""
        if self.followups:
            return self.followups[-1]
        if self.response_message is not None:
            return self.response_message
        if self.message is not None and self.response_type in (6, 7):
            return self.message
        raise AssertionError(f"interaction {self.id} has no reply ({self.log})")


# ---- validation --------------------------------------------------------------------------

def check_components(rows: Any) -> None:
    if not isinstance(rows, list) or len(rows) > 5:
        raise invalid("components: at most 5 action rows")
    seen: set[str] = set()
    for row in rows:
        if row.get("type") != 1 or not isinstance(row.get("components"), list):
            raise invalid("components: an action row is needed")
        items = row["components"]
        selects = [c for c in items if c.get("type") in (3, 5, 6, 7, 8)]
        if not items or len(items) > 5 or (selects and len(items) > 1):
            raise invalid("components: 1-5 buttons or one select menu per row")
        for item in items:
            custom_id = item.get("custom_id")
            if item.get("type") == 2 and item.get("style") == 5:
                if custom_id is not None or not item.get("url"):
                    raise invalid("components: a link button has a url and no custom_id")
            elif not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
                raise invalid("components: custom_id must be 1-100 characters")
            if custom_id is not None:
                if custom_id in seen:
                    raise invalid(f"components: duplicate custom_id {custom_id}")
                seen.add(custom_id)
            if item.get("type") == 2:
                if len(item.get("label") or "") > 80 or not (item.get("label") or item.get("emoji")):
                    raise invalid("components: button label must be 1-80 characters")
            elif item.get("type") == 3:
                options = item.get("options") or []
                values = [o.get("value") for o in options]
                if not 1 <= len(options) <= 25 or len(set(values)) != len(values):
                    raise invalid("components: a select menu has 1-25 options with distinct values")
                if any(not 1 <= len(o.get("label", "")) <= 100 or not 1 <= len(o["value"]) <= 100
                       or len(o.get("description") or "") > 100 for o in options):
                    raise invalid("components: option labels, values and descriptions must be "
                                  "1-100 characters")
                if sum(bool(o.get("default")) for o in options) > item.get("max_values", 1):
                    raise invalid("components: more default options than max_values")
                if len(item.get("placeholder") or "") > 150:
                    raise invalid("components: placeholder over 150 characters")


def check_embeds(embeds: Any) -> None:
    if not isinstance(embeds, list) or len(embeds) > 10:
        raise invalid("embeds: at most 10")
    total = 0
    for embed in embeds:
        title, description = embed.get("title") or "", embed.get("description") or ""
        if len(title) > 256 or len(description) > 4096:
            raise invalid("embeds: title over 256 or description over 4096 characters")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise invalid("embeds: at most 25 fields")
        for item in fields:
            if not 1 <= len(item.get("name", "")) <= 256 or not 1 <= len(item.get("value", "")) <= 1024:
                raise invalid("embeds: field name 1-256 and value 1-1024 characters")
        total += len(title) + len(description) + sum(len(f["name"]) + len(f["value"]) for f in fields)
        total += len((embed.get("footer") or {}).get("text", ""))
    if total > 6000:
        raise invalid("embeds: over 6000 characters in total")


def check_message(body: JSON, *, creating: bool) -> None:
    content = body.get("content")
    if content is not None and len(content) > 2000:
        raise invalid("content: must be 2000 or fewer in length")
    if "embeds" in body and body["embeds"] is not None:
        check_embeds(body["embeds"])
    if "components" in body and body["components"] is not None:
        check_components(body["components"])
    if creating and not (content or body.get("embeds") or body.get("components")):
        raise FakeError(400, 50006, "Cannot send an empty message")


def check_commands(commands: Any) -> None:
    if not isinstance(commands, list) or len(commands) > 100:
        raise invalid("at most 100 commands")
    names = set()
    for command in commands:
        _check_named(command)
        if command["name"] in names:
            raise invalid(f"duplicate command {command['name']}")
        names.add(command["name"])
        options = command.get("options") or []
        if len(options) > 25:
            raise invalid("at most 25 options")
        required_done = False
        for option in options:
            _check_named(option)
            if option.get("required") and required_done:
                raise invalid("required options must come first")
            required_done = required_done or not option.get("required")
            choices = option.get("choices") or []
            if len(choices) > 25:
                raise invalid("at most 25 choices")
            for choice in choices:
                if not 1 <= len(choice["name"]) <= 100:
                    raise invalid("choice names are 1-100 characters")
                for text in (choice.get("name_localizations") or {}).values():
                    if not 1 <= len(text) <= 100:
                        raise invalid("choice name localisations are 1-100 characters")


def _check_named(item: JSON) -> None:
    if not NAME.match(item["name"]) or item["name"] != item["name"].lower():
        raise invalid(f"name {item['name']!r}")
    if not 1 <= len(item.get("description", "")) <= 100:
        raise invalid(f"description of {item['name']!r} must be 1-100 characters")
    for locale, text in (item.get("name_localizations") or {}).items():
        if locale not in {loc.value for loc in discord.Locale}:
            raise invalid(f"unknown locale {locale}")
        if not NAME.match(text) or text != text.lower():
            raise invalid(f"localised name {text!r}")
    for text in (item.get("description_localizations") or {}).values():
        if not 1 <= len(text) <= 100:
            raise invalid(f"localised description {text!r}")


def mentioned(content: str, allowed: JSON | None) -> tuple[int, ...]:
    """The users a message pings: mentioned in the content and allowed to be pinged."""
    ids = [int(m) for m in re.findall(r"<@!?(\d+)>", content or "")]
    if allowed is None:
        return tuple(ids)
    permitted = {int(u) for u in allowed.get("users", [])}
    everyone = "users" in allowed.get("parse", [])
    return tuple(i for i in ids if everyone or i in permitted)


# ---- the server --------------------------------------------------------------------------

class FakeDiscord:
    def __init__(self, *, shards: int = 1, max_concurrency: int = 1, token: str = TOKEN,
                 clock: Callable[[], float] = time.time, ack_limit: float = ACK_LIMIT) -> None:
        self.token = token
        self.shards = shards
        self.max_concurrency = max_concurrency
        self.clock = clock
        self.ack_limit = ack_limit
        self._ids = itertools.count(1)
        self.bot = User(self.snowflake(), "Scopa", "en-US", bot=True)
        self.application_id = self.snowflake()
        self.guilds: list[Guild] = []
        self.users: dict[int, User] = {}
        self.channels: dict[int, Channel] = {}
        self.messages_by_id: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.commands: list[JSON] = []
        self.identified: list[JSON] = []
        self.requests: list[tuple[str, str]] = []
        self.failures: dict[tuple[str, str], list[FakeError]] = {}
        self.upload_limit = UPLOAD_LIMIT
        self._uploads: dict[int, tuple[str, bytes]] = {}
        """The files of the request being handled (routes run without awaiting, one at a time)."""
        self._sockets: dict[int, web.WebSocketResponse] = {}
        self._connected: dict[int, asyncio.Event] = {}
        self._sequence = itertools.count(1)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._saved_base: str | None = None
        self.port = 0

    # ---- world building ----

    def snowflake(self) -> int:
        return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | next(self._ids)

    def add_guild(self, name: str = "Friends", *, shard: int = 0, locale: str = "it") -> Guild:
        while True:
            guild_id = self.snowflake()
            if (guild_id >> 22) % self.shards == shard:
                break
        guild = Guild(guild_id, name, locale)
        self.guilds.append(guild)
        return guild

    def add_channel(self, guild: Guild, name: str = "scopa") -> Channel:
        channel = Channel(self.snowflake(), name, guild)
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def add_thread(self, parent: Channel, name: str, owner: User) -> Channel:
        """A public thread `owner` starts in `parent`: a channel of its own, with its parent's rights."""
        assert parent.guild is not None and not parent.is_thread, "threads start in a server's channel"
        thread = Channel(self.snowflake(), name, parent.guild, parent.bot_permissions, parent=parent,
                         owner=owner)
        self.channels[thread.id] = thread
        return thread

    def add_user(self, name: str, locale: str = "it", *, admin: bool = False,
                 accepts_dms: bool = True) -> User:
        user = User(self.snowflake(), name, locale, MEMBER | (MANAGE_GUILD if admin else 0), accepts_dms)
        self.users[user.id] = user
        return user

    def fail_next(self, method: str, route: str, status: int = 500, code: int = 0,
                  message: str = "Internal Server Error") -> None:
        """Make the next `method` request whose path matches `route` (a regex) fail."""
        self.failures.setdefault((method, route), []).append(FakeError(status, code, message))

    # ---- life ----

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._saved_base = discord.http.Route.BASE
        discord.http.Route.BASE = self.base_url

    async def close(self) -> None:
        for socket in list(self._sockets.values()):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._saved_base is not None:
            discord.http.Route.BASE = self._saved_base

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def connected(self, shard: int = 0, timeout: float = 10.0) -> None:
        event = self._connected.setdefault(shard, asyncio.Event())
        await asyncio.wait_for(event.wait(), timeout)

    # ---- waiting ----

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, check: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
        """Until `check()` is truthy (re-checked after every request the bot makes)."""
        async def loop() -> Any:
            async with self._changed:
                while not (result := check()):
                    await self._changed.wait()
                return result

        try:
            return await asyncio.wait_for(loop(), timeout)
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {what or check}") from None

    # ---- what the channel shows ----

    def messages(self, channel: Channel, *, deleted: bool = False) -> list[Message]:
        return [m for m in self.messages_by_id.values()
                if m.channel is channel and not m.ephemeral and (deleted or not m.deleted)]

    def ephemerals(self, user: User) -> list[Message]:
        return [m for m in self.messages_by_id.values() if m.visible_to is user and not m.deleted]

    def pings(self, user: User) -> list[Message]:
        return [m for m in self.messages_by_id.values() if user.id in m.pinged]

    def dm_channel(self, user: User) -> Channel | None:
        return next((c for c in self.channels.values() if c.recipient is user), None)

    def open_dm(self, user: User) -> Channel:
        """The user's direct messages with the bot, opened by the user."""
        self._open_dm(user.id)
        channel = self.dm_channel(user)
        assert channel is not None
        return channel

    # ---- users acting ----

    async def slash(self, user: User, channel: Channel, name: str, *, wait: bool = True,
                    forge: bool = False, **options: Any) -> Interaction:
        """Run /`name` with `options`, which must be among an option's choices unless `forge`
        (a client whose command list is older than the bot's, or a crafted request)."""
        command = next((c for c in self.commands if c["name"] == name), None)
        if command is None:
            raise AssertionError(f"/{name} is not registered")
        if channel.guild is None and (1 not in (command.get("contexts") or [0, 1, 2])
                                      or command.get("dm_permission") is False):
            raise AssertionError(f"/{name} is not offered in direct messages")
        known = {o["name"]: o for o in command.get("options", [])}
        data_options = []
        for key, value in options.items():
            option = known.get(key)
            if option is None:
                raise AssertionError(f"/{name} has no option {key}")
            if not forge and option.get("choices") and value not in [c["value"] for c in option["choices"]]:
                raise AssertionError(f"{value!r} is not a choice of {key}")
            data_options.append({"name": key, "type": option["type"], "value": value})
        data = {"id": command["id"], "name": name, "type": 1, "options": data_options}
        interaction = self._interaction(user, channel, 2, data)
        await self._dispatch(interaction)
        if wait:
            await self.answered(interaction)
        return interaction

    async def press(self, user: User, message: Message, label: str | None = None, *,
                    custom_id: str | None = None, prefix: str | None = None, values: list[str] | None = None,
                    forge: bool = False, wait: bool = True) -> Interaction:
        """Press a button (or pick `values` in a menu) on `message` as it is now."""
        if forge:
            assert custom_id is not None
            component: JSON = {"type": 3 if values is not None else 2, "custom_id": custom_id}
        else:
            if message.deleted:
                raise AssertionError("the message is gone")
            if message.ephemeral and message.visible_to is not user:
                raise AssertionError("only its user sees an ephemeral message")
            component = message.find(label, custom_id, prefix)
            if component.get("disabled"):
                raise AssertionError(f"{_label(component)!r} is disabled")
            if component["type"] == 3:
                allowed = {o["value"] for o in component["options"]}
                if values is None or not set(values) <= allowed:
                    raise AssertionError(f"{values} are not options of the menu")
        data: JSON = {"custom_id": component["custom_id"], "component_type": component["type"]}
        if component["type"] == 3:
            data["values"] = values or []
        interaction = self._interaction(user, message.channel, 3, data, message)
        await self._dispatch(interaction)
        if wait:
            await self.answered(interaction)
        return interaction

    async def write_dm(self, user: User, text: str) -> Message | None:
        """`user` types `text` in their direct messages with the bot (opened by them): the bot
        gets a MESSAGE_CREATE, on shard 0 as DMs are, only if it asked for the DIRECT_MESSAGES
        intent (a DM's content needs no privileged intent). None when the bot is not told."""
        if not text.strip() or len(text) > 2000:
            raise AssertionError("a Discord client sends 1 to 2000 characters")
        channel = self.open_dm(user)
        message = Message(self.snowflake(), channel, user, text, created=self.clock())
        self.messages_by_id[message.id] = message
        await self.connected(0)
        intents = next((i["intents"] for i in reversed(self.identified) if i["shard"] == 0), 0) or 0
        if not intents & DIRECT_MESSAGES:
            return None
        await self._send(self._sockets[0], {"op": 0, "t": "MESSAGE_CREATE", "s": next(self._sequence),
                                            "d": message.payload()})
        return message

    async def acknowledged(self, interaction: Interaction, timeout: float = 10.0) -> None:
        try:
            await asyncio.wait_for(interaction.acknowledged.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"interaction {interaction.payload['data']} was not acknowledged") from None

    async def answered(self, interaction: Interaction, timeout: float = 10.0) -> None:
        """Until the user sees an answer: a message, an update, or a plain acknowledgement."""
        try:
            await asyncio.wait_for(interaction.answered.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"interaction {interaction.payload['data']} got no answer "
                                 f"({interaction.log})") from None

    def _interaction(self, user: User, channel: Channel, kind: int, data: JSON,
                     message: Message | None = None) -> Interaction:
        interaction_id = self.snowflake()
        token = f"aW50ZXJhY3Rpb246{interaction_id}x{next(self._ids)}"
        payload: JSON = {
            "id": str(interaction_id), "application_id": str(self.application_id), "type": kind,
            "data": data, "token": token, "version": 1, "locale": user.locale,
            "channel_id": str(channel.id), "channel": channel.payload(), "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel.guild is not None:
            payload |= {
                "guild_id": str(channel.guild.id), "guild_locale": channel.guild.locale,
                "app_permissions": str(channel.bot_permissions), "context": 0,
                "authorizing_integration_owners": {"0": str(channel.guild.id)},
                "member": {"user": user.payload(), "nick": None, "roles": [], "joined_at": _iso(0),
                           "deaf": False, "mute": False, "flags": 0, "permissions": str(user.permissions)},
            }
        else:
            payload |= {"user": user.payload(), "context": 1, "app_permissions": str(BOT),
                        "authorizing_integration_owners": {"1": str(user.id)}}
        if message is not None:
            payload["message"] = message.payload()
        record = Interaction(interaction_id, token, user, channel, "command" if kind == 2 else "component",
                             payload, time.monotonic(), self.clock(), message)
        self.interactions[interaction_id] = record
        return record

    async def _dispatch(self, interaction: Interaction) -> None:
        guild = interaction.channel.guild
        shard = (guild.id >> 22) % self.shards if guild is not None else 0
        await self.connected(shard)
        interaction.created = time.monotonic()
        await self._send(self._sockets[shard], {"op": 0, "t": "INTERACTION_CREATE",
                                                "s": next(self._sequence), "d": interaction.payload})

    # ---- the gateway ----

    async def _send(self, socket: web.WebSocketResponse, payload: JSON) -> None:
        await socket.send_str(json.dumps(payload))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        if request.query.get("v") != "10" or request.query.get("encoding") != "json":
            await socket.close(code=4012, message=b"Invalid API version")
            return socket
        shard: int | None = None
        await self._send(socket, {"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        try:
            async for frame in socket:
                message = json.loads(frame.data)
                op = message.get("op")
                if op == 1:
                    await self._send(socket, {"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:
                    shard = await self._identify(socket, message["d"])
                    if shard is None:
                        break
        finally:
            if shard is not None and self._sockets.get(shard) is socket:
                del self._sockets[shard]
                self._connected.pop(shard, None)
        return socket

    async def _identify(self, socket: web.WebSocketResponse, data: JSON) -> int | None:
        if data.get("token") != self.token:
            await socket.close(code=4004, message=b"Authentication failed.")
            return None
        shard, count = data.get("shard", [0, 1])
        if count != self.shards or not 0 <= shard < count:
            await socket.close(code=4010, message=b"Invalid shard.")
            return None
        self.identified.append({"shard": shard, "intents": data.get("intents"), "at": time.monotonic()})
        self._sockets[shard] = socket
        await self._send(socket, {"op": 0, "t": "READY", "s": next(self._sequence), "d": {
            "v": 10, "user": self.bot.payload(), "guilds": [], "session_id": f"session-{shard}",
            "resume_gateway_url": self.gateway_url, "shard": [shard, count],
            "application": {"id": str(self.application_id), "flags": 0}}})
        self._connected.setdefault(shard, asyncio.Event()).set()
        return shard

    # ---- REST ----

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = request.match_info["path"]
        body: Any = None
        uploads: dict[int, tuple[str, bytes]] = {}
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("multipart/form-data"):
            body, uploads = _multipart(content_type, await request.read())
        elif request.can_read_body:
            body = json.loads(await request.text() or "null")
        self.requests.append((request.method, path))
        try:
            self._maybe_fail(request.method, path)
            self._uploads = uploads
            result = await self._route(request, path, body)
        except FakeError as error:
            return _json({"message": error.message, "code": error.code}, error.status)
        finally:
            await self._notify()
        if result is None:
            return web.Response(status=204)
        return _json(result)

    def _maybe_fail(self, method: str, path: str) -> None:
        for (fail_method, route), errors in self.failures.items():
            if errors and fail_method == method and re.fullmatch(route, path):
                raise errors.pop(0)

    def _authorised(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise FakeError(401, 0, "401: Unauthorized")

    async def _route(self, request: web.Request, path: str, body: Any) -> Any:
        method = request.method
        parts = path.split("/")
        if parts[0] == "interactions" and len(parts) == 4 and method == "POST":
            return self._callback(int(parts[1]), parts[2], body)
        if parts[0] == "webhooks" and len(parts) >= 3:
            return self._webhook(method, int(parts[1]), parts[2], parts[3:], body, request.query)
        self._authorised(request)
        if path == "users/@me" and method == "GET":
            return self.bot.payload()
        if path == "oauth2/applications/@me" and method == "GET":
            return {"id": str(self.application_id), "name": "Scopa", "icon": None, "description": "",
                    "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
                    "owner": self.bot.payload(), "flags": 0}
        if path == "gateway/bot" and method == "GET":
            return {"url": self.gateway_url, "shards": self.shards, "session_start_limit": {
                "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": self.max_concurrency}}
        if parts[:3] == ["applications", str(self.application_id), "commands"] and len(parts) == 3:
            if method == "PUT":
                check_commands(body)
                self.commands = [{**c, "id": str(self.snowflake()), "version": str(self.snowflake()),
                                  "application_id": str(self.application_id), "type": c.get("type", 1),
                                  "default_member_permissions": None} for c in body]
                return self.commands
            if method == "GET":
                return self.commands
        if parts[0] == "channels" and len(parts) == 2 and method == "GET":
            channel = self._channel(int(parts[1]))
            if channel.guild is not None and not channel.bot_permissions & VIEW_CHANNEL:
                raise FakeError(403, 50001, "Missing Access")
            return channel.payload()
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            return self._channel_messages(method, int(parts[1]), parts[3:], body)
        if path == "users/@me/channels" and method == "POST":
            return self._open_dm(int(body["recipient_id"]))
        raise FakeError(404, 0, f"404: Not Found ({method} {path})")

    def _channel(self, channel_id: int) -> Channel:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise FakeError(404, 10003, "Unknown Channel")
        return channel

    def _channel_messages(self, method: str, channel_id: int, rest: list[str], body: Any) -> Any:
        channel = self._channel(channel_id)
        if channel.guild is not None:
            needed = VIEW_CHANNEL | (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES)
            if method == "POST" and channel.bot_permissions & needed != needed:
                raise FakeError(403, 50013, "Missing Permissions")
        elif method == "POST" and channel.recipient is not None and not channel.recipient.accepts_dms:
            raise FakeError(403, 50007, "Cannot send messages to this user")
        if method == "POST" and not rest:
            check_message(body, creating=True)
            message = self._create(channel, body)
            return message.payload()
        message = self.messages_by_id.get(int(rest[0])) if rest else None
        if message is None or message.deleted or message.channel is not channel or message.ephemeral:
            raise FakeError(404, 10008, "Unknown Message")
        if method == "GET":
            return message.payload()
        if message.author is not self.bot:
            raise FakeError(403, 50005, "Cannot edit a message authored by another user")
        if method == "PATCH":
            check_message(body, creating=False)
            self._edit(message, body)
            return message.payload()
        if method == "DELETE":
            message.deleted = True
            return None
        raise FakeError(405, 0, "405: Method Not Allowed")

    def _open_dm(self, user_id: int) -> JSON:
        user = self.users.get(user_id)
        if user is None:
            raise FakeError(404, 10013, "Unknown User")
        channel = self.dm_channel(user)
        if channel is None:
            channel = Channel(self.snowflake(), user.name, None, recipient=user)
            self.channels[channel.id] = channel
        return channel.payload()

    def _create(self, channel: Channel, body: JSON, *, flags: int = 0, visible_to: User | None = None,
                interaction: Interaction | None = None) -> Message:
        ephemeral = bool((flags | (body.get("flags") or 0)) & EPHEMERAL)
        attachments, files = self._attach(channel, None, body, ephemeral)
        message = Message(self.snowflake(), channel, self.bot, body.get("content") or "",
                          list(body.get("embeds") or []), list(body.get("components") or []),
                          flags | (body.get("flags") or 0), self.clock(), visible_to=visible_to,
                          interaction=interaction)
        if not message.ephemeral:
            message.pinged = mentioned(message.content, body.get("allowed_mentions"))
        message.attachments, message.files = attachments, files
        message.embeds = _shown(message.embeds, attachments)
        self.messages_by_id[message.id] = message
        return message

    def _attach(self, channel: Channel, message: Message | None, body: JSON,
                ephemeral: bool) -> tuple[list[JSON], dict[int, bytes]]:
        """The attachments a message has after `body` (with the request's files), checked as
        Discord checks them; nothing is changed here."""
        uploads = self._uploads
        if uploads and channel.guild is not None and not ephemeral \
                and not channel.bot_permissions & ATTACH_FILES:
            raise FakeError(403, 50013, "Missing Permissions")
        for _, data in uploads.values():
            if len(data) > self.upload_limit:
                raise FakeError(413, 40005, "Request entity too large")
        old = {int(a["id"]): a for a in message.attachments} if message is not None else {}
        listed = body.get("attachments")
        if listed is None:
            listed = [{"id": a["id"]} for a in old.values()] + [
                {"id": index, "filename": name} for index, (name, _) in sorted(uploads.items())]
        attachments: list[JSON] = []
        files: dict[int, bytes] = {}
        for item in listed:
            ident = int(item.get("id", -1))
            if ident in uploads:
                name, data = uploads[ident]
                new_id = self.snowflake()
                attachments.append({"id": str(new_id), "filename": name, "size": len(data),
                                    "url": f"{CDN}/{channel.id}/{new_id}/{name}",
                                    "proxy_url": f"{CDN}/{channel.id}/{new_id}/{name}",
                                    "content_type": _content_type(name)})
                files[new_id] = data
            elif ident in old and message is not None:
                attachments.append(old[ident])
                files[ident] = message.files[ident]
            else:
                raise invalid(f"attachments: unknown attachment {ident}")
        embeds = body.get("embeds") if "embeds" in body else (message.embeds if message else [])
        names = {a["filename"] for a in attachments}
        for embed in embeds or []:
            url = (embed.get("image") or {}).get("url", "")
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                raise invalid(f"embeds: image {url} names no attachment of the message")
        return attachments, files

    def _edit(self, message: Message, body: JSON) -> None:
        attachments, files = self._attach(message.channel, message, body, message.ephemeral)
        message.attachments, message.files = attachments, files
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        message.embeds = _shown(message.embeds, attachments)
        if "components" in body:
            message.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            message.flags = (message.flags & (EPHEMERAL | LOADING)) | (body["flags"] & ~EPHEMERAL)
        message.flags &= ~LOADING
        message.edited = self.clock()
        message.edits += 1

    # ---- interactions ----

    def _interaction_for(self, interaction_id: int, token: str) -> Interaction:
        interaction = self.interactions.get(interaction_id)
        if interaction is None or interaction.token != token:
            raise FakeError(404, 10062, "Unknown interaction")
        return interaction

    def _callback(self, interaction_id: int, token: str, body: JSON) -> JSON:
        interaction = self._interaction_for(interaction_id, token)
        if interaction.responses:
            raise FakeError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - interaction.created > self.ack_limit:
            raise FakeError(404, 10062, "Unknown interaction")
        kind, data = body.get("type"), body.get("data") or {}
        component = interaction.kind == "component"
        if kind not in (4, 5) and not (component and kind in (6, 7)):
            raise invalid(f"interaction response type {kind} for a {interaction.kind}")
        resource: JSON | None = None
        if kind == 4:
            check_message(data, creating=True)
            interaction.response_message = self._reply_message(interaction, data)
        elif kind == 5:
            interaction.response_message = self._reply_message(interaction, {"content": ""},
                                                               flags=LOADING | (data.get("flags") or 0))
        elif kind == 7:
            check_message(data, creating=False)
            assert interaction.message is not None
            self._edit(interaction.message, data)
        interaction.responses.append(body)
        interaction.log.append(f"callback {kind}")
        interaction.acknowledged_at = time.monotonic()
        interaction.acknowledged.set()
        if kind in (4, 6, 7):
            interaction.answered.set()
        if interaction.response_message is not None:
            resource = {"type": kind, "message": interaction.response_message.payload()}
        reply: JSON = {"interaction": {
            "id": str(interaction.id), "type": interaction.payload["type"],
            "response_message_id": str(interaction.response_message.id) if interaction.response_message
            else None, "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(interaction.response_message
                                               and interaction.response_message.ephemeral)}}
        if resource is not None:
            reply["resource"] = resource
        return reply

    def _reply_message(self, interaction: Interaction, data: JSON, flags: int = 0) -> Message:
        flags |= data.get("flags") or 0
        return self._create(interaction.channel, data, flags=flags,
                            visible_to=interaction.user if flags & EPHEMERAL else None,
                            interaction=interaction)

    def _webhook(self, method: str, application_id: int, token: str, rest: list[str], body: Any,
                 query: Any) -> Any:
        interaction = next((i for i in self.interactions.values() if i.token == token), None)
        if application_id != self.application_id or interaction is None:
            raise FakeError(404, 10015, "Unknown Webhook")
        if self.clock() - interaction.created_clock > TOKEN_LIFETIME:
            raise FakeError(401, 50027, "Invalid Webhook Token")
        if not interaction.responses:
            raise FakeError(404, 10015, "Unknown Webhook")
        if not rest and method == "POST":
            check_message(body, creating=True)
            message = self._reply_message(interaction, body)
            interaction.followups.append(message)
            interaction.log.append("followup")
            interaction.answered.set()
            return message.payload() if query.get("wait") in ("1", "true") else None
        if len(rest) != 2 or rest[0] != "messages":
            raise FakeError(404, 0, "404: Not Found")
        target = self._webhook_message(interaction, rest[1])
        if method == "GET":
            return target.payload()
        if method == "PATCH":
            check_message(body, creating=False)
            self._edit(target, body)
            interaction.log.append(f"edit {rest[1]}")
            interaction.answered.set()
            return target.payload()
        if method == "DELETE":
            target.deleted = True
            return None
        raise FakeError(405, 0, "405: Method Not Allowed")

    def _webhook_message(self, interaction: Interaction, which: str) -> Message:
        if which == "@original":
            target = interaction.response_message
            if target is None and interaction.response_type in (6, 7):
                target = interaction.message
        else:
            target = next((m for m in interaction.followups if m.id == int(which)), None)
        if target is None or target.deleted:
            raise FakeError(404, 10008, "Unknown Message")
        return target


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_DISPOSITION = re.compile(rb'^content-disposition: *form-data; *name="([^"]*)"(?:; *filename="([^"]*)")?',
                          re.IGNORECASE | re.MULTILINE)


def _multipart(content_type: str, raw: bytes) -> tuple[Any, dict[int, tuple[str, bytes]]]:
    """The JSON payload and the files of a multipart/form-data body, as discord.py sends them
    (read by hand: aiohttp's reader parses every part's headers with the email package, which
    would make the fake, not the bot, the slow side of a benchmark)."""
    found = _BOUNDARY.search(content_type)
    if found is None:
        raise invalid("multipart without a boundary")
    delimiter = b"--" + found.group(1).encode()
    chunks = raw.split(delimiter)
    if len(chunks) < 3 or not chunks[-1].startswith(b"--"):
        raise invalid("a malformed multipart body")
    body: Any = None
    uploads: dict[int, tuple[str, bytes]] = {}
    for chunk in chunks[1:-1]:
        head, sep, data = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        disposition = _DISPOSITION.search(head)
        if not sep or not data.endswith(b"\r\n") or disposition is None:
            raise invalid("a malformed multipart part")
        name, filename = disposition.group(1).decode(), disposition.group(2)
        data = data[:-2]
        if name == "payload_json":
            body = json.loads(data.decode("utf-8"))
        elif (index := re.fullmatch(r"files\[(\d+)\]", name)) and filename:
            uploads[int(index.group(1))] = (filename.decode(), data)
        else:
            raise invalid(f"unexpected form field {name!r}")
    if body is None:
        raise invalid("payload_json is missing")
    return body, uploads


def _content_type(filename: str) -> str:
    return {"jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png"}.get(
        filename.rpartition(".")[2].lower(), "application/octet-stream")


def _shown(embeds: list[JSON], attachments: list[JSON]) -> list[JSON]:
    """Embeds as Discord stores them: `attachment://name` becomes the attachment's url."""
    urls = {f"attachment://{a['filename']}": a["url"] for a in attachments}
    shown = []
    for embed in embeds:
        image = embed.get("image") or {}
        if image.get("url") in urls:
            embed = {**embed, "image": {**image, "url": urls[image["url"]],
                                        "proxy_url": urls[image["url"]]}}
        shown.append(embed)
    return shown


def _json(data: Any, status: int = 200) -> web.Response:
    """Discord's exact content type: discord.py reads JSON only when it is `application/json`."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


@contextlib.asynccontextmanager
async def fake_discord(**options: Any) -> Any:
    server = FakeDiscord(**options)
    await server.start()
    try:
        yield server
    finally:
        await server.close()
