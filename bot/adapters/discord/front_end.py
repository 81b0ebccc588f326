"""The Discord front-end: an auto-sharded discord.py client wired to the sessions layer."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import aiohttp
import discord
from discord.http import Route
from discord.utils import MISSING

from ...failures import RETRY_FIRST, Failing, FatalError, next_delay
from ...pictures import Style
from ...redact import mask_secret
from ...sessions import Event, Sessions
from .client import ScopaClient
from .commands import build_commands
from .handlers import CommandHandlers
from .hands import TOKEN_LIFETIME, HandTracker
from .identity import PLATFORM
from .lanes import Lanes
from .notes import message_notes
from .owners import OwnerMessages
from .pictures import Painter
from .presenter import Presenter
from .presses import PressHandlers
from .privacy import PrivacyCommands
from .seasons import SeasonAnnouncer
from .tournament import TournamentFront

log = logging.getLogger(__name__)

REFUSED = ("Discord refused the token in DISCORD_TOKEN: copy it again from the Bot page of "
           "your application in the Discord developer portal")
AUTHENTICATION_FAILED = 4004
CANCEL_AGAIN = 0.5


class DiscordFrontEnd:
    """Runs the bot in every server it is invited to.

    `token` comes only from the caller and is never logged. `ack_after` is how
    long a press or command may work before its interaction is deferred
    (Discord allows three seconds); `hand_ttl` how long an open hand is kept
    current (its token lasts fifteen minutes); `shard_count` None lets Discord
    say how many shards to run; `shard_ids` (with `shard_count`) the shards this
    process runs, when several share them out; `sync_commands` registers the slash commands at
    start; `drain_timeout` is how long `stop` lets queued messages go out;
    `picture_workers` how many threads draw pictures.
    """

    def __init__(self, sessions: Sessions, token: str, *, ack_after: float = 1.5,
                 hand_ttl: float = TOKEN_LIFETIME - 60.0, shard_count: int | None = None,
                 sync_commands: bool = True, guild_ready_timeout: float = 2.0,
                 drain_timeout: float = 5.0, api_base: str | None = None,
                 shard_ids: list[int] | None = None, picture_workers: int = 2) -> None:
        if not token:
            raise ValueError("a Discord bot token is required")
        mask_secret(token)
        if api_base:
            Route.BASE = api_base.rstrip("/")
        self.api_base = Route.BASE
        self._failing = Failing()
        self.sessions = sessions
        self._token = token
        self.sync_commands = sync_commands
        self.drain_timeout = drain_timeout
        self.client = ScopaClient(shard_count=shard_count, guild_ready_timeout=guild_ready_timeout,
                                  shard_ids=shard_ids)
        self.lanes = Lanes()
        self.painter = Painter(sessions, picture_workers)
        self.hands = HandTracker(sessions, self.lanes, ttl=hand_ttl, painter=self.painter)
        self.presenter = Presenter(sessions, self.client, self.lanes, self.hands, self.painter,
                                   message_notes(sessions.delivery.refs, sessions.delivery.shared))
        self.tournaments = TournamentFront(sessions, self.presenter, self.client, ack_after=ack_after)
        self.commands = CommandHandlers(sessions, self.presenter, ack_after=ack_after,
                                        tournaments=self.tournaments)
        self.presses = PressHandlers(sessions, self.presenter, ack_after=ack_after)
        self.privacy = PrivacyCommands(sessions, self.client)
        for command in [*build_commands(self.commands), *self.privacy.commands()]:
            self.client.tree.add_command(command)
        self.client.take_presses(self.privacy.presses(self.tournaments.presses(self.presses.on_press)))
        self.owner_messages = OwnerMessages(sessions, self.presenter, self.client)
        self.client.take_direct_messages(self.owner_messages.on_direct_message)
        self.seasons = SeasonAnnouncer(sessions, self.presenter, self.painter, self.client)
        self._connection: asyncio.Task[None] | None = None
        self._sweeping: asyncio.Task[None] | None = None
        sessions.bus.subscribe(self._on_event)

    def __repr__(self) -> str:
        return f"DiscordFrontEnd(running={self.running}, shards={self.client.shard_count})"

    @property
    def running(self) -> bool:
        return self.presenter.running

    async def reachable(self) -> bool:
        """Whether the gateway is connected and ready."""
        return self.client.is_ready() and not self.client.is_closed()

    async def failure(self) -> FatalError:
        """Returns when the bot cannot go on (the gateway refused the token or closed for good)."""
        return await self._failing.wait()

    async def _login(self) -> None:
        """Log in, waiting out an unreachable API with back-off; a refused token is a
        `FatalError` at once."""
        delay = RETRY_FIRST
        while True:
            try:
                await self.client.login(self._token)
                return
            except discord.LoginFailure:
                raise FatalError(REFUSED, exit_code=2) from None
            except (aiohttp.ClientError, OSError, discord.DiscordServerError) as exc:
                log.warning("cannot reach Discord at %s (%s): retrying in %.0f s", self.api_base,
                            type(exc).__name__, delay)
                log.debug("reaching Discord failed", exc_info=True)
            await self.client.http.close()
            self.client.http.connector = MISSING  # closing the session closed its connector too
            await asyncio.sleep(delay)
            delay = next_delay(delay)

    async def start(self) -> None:
        """Log in, register the slash commands, redraw games in play, and connect to the gateway."""
        await self._login()
        if self.sync_commands:
            synced = await self.client.tree.sync()
            log.info("registered %d slash commands", len(synced))
        self.painter.warm(Style.NAPOLETANE)
        self.presenter.running = True
        await self.presenter.redraw_running()
        self._sweeping = asyncio.create_task(self.sessions.delivery.keep_announcing(PLATFORM, self._on_event),
                                             name="discord-owed")
        self.owner_messages.start()
        self.seasons.start()
        self.tournaments.start()
        self.privacy.start()
        self._connection = asyncio.create_task(self._connect(), name="discord-gateway")
        log.info("Discord bot %s is connecting", self.client.user)

    async def _connect(self) -> None:
        try:
            await self.client.connect(reconnect=True)
        except asyncio.CancelledError:
            raise
        except discord.ConnectionClosed as exc:
            log.debug("the Discord gateway connection ended", exc_info=True)
            if exc.code == AUTHENTICATION_FAILED:
                self._failing.fail(FatalError(REFUSED, exit_code=2))
            else:
                self._failing.fail(FatalError(f"the Discord gateway closed the connection (code {exc.code})"))
        except discord.PrivilegedIntentsRequired:
            self._failing.fail(FatalError("Discord refused an intent the bot asks for: see docs/discord.md",
                                  exit_code=2))
        except Exception as exc:
            log.debug("the Discord gateway connection ended", exc_info=True)
            self._failing.fail(FatalError(f"the Discord gateway connection ended ({type(exc).__name__})"))

    async def wait_until_ready(self) -> None:
        await self.client.wait_until_ready()

    async def stop(self) -> None:
        """Stop taking interactions, send what is queued (briefly), and close the connections."""
        self.client.stop_presses()
        await self.lanes.close(self.drain_timeout)
        self.presenter.running = False
        if self._sweeping is not None:
            self._sweeping.cancel()
            await asyncio.gather(self._sweeping, return_exceptions=True)
            self._sweeping = None
        await self.owner_messages.stop()
        await self.seasons.stop()
        await self.tournaments.stop()
        await self.privacy.stop()
        if self._connection is not None:
            await _cancelled(self._connection)
            self._connection = None
        await self.client.close()
        self.painter.close()

    async def _on_event(self, event: Event) -> None:
        await self.presenter.on_event(event)


async def _cancelled(task: asyncio.Task[None]) -> None:
    """Cancel `task` and wait for its end, cancelling it again while it goes on: a cancel that
    lands as a shard's connection completes is lost in `asyncio.wait_for` before Python 3.12
    (discord.py waits for each shard's connection so), and the gateway would then wait for its
    next event for ever."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=CANCEL_AGAIN)
    with contextlib.suppress(asyncio.CancelledError):
        await task
