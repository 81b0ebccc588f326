"""The Telegram front-end: python-telegram-bot's Application, wired to the sessions layer."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from typing import Any, Literal
from urllib.parse import urlsplit

from telegram import BotCommand, Update
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import Application, BaseRateLimiter, ContextTypes

from ...failures import RETRY_FIRST, Failing, FatalError, next_delay
from ...i18n import LANGUAGES, language_of, t
from ...redact import mask_secret
from ...render.words import failure_text
from ...sessions import Event, Sessions
from ..common.failures import log_failure
from .handlers import Handlers
from .identity import PLATFORM, topic_of
from .limits import MessagesRateLimiter
from .markup import escape
from .outbox import GROUP_RATE, RING_RATE, Content, outbox_for
from .owners import OwnerCommands
from .painter import Painter
from .present import Presenter
from .seasons import SeasonAnnouncer
from .transport import AiohttpRequest, InvalidApiUrl
from .webhook import WebhookServer

log = logging.getLogger(__name__)

MENU_COMMANDS = ("newgame", "join", "leave", "cancel", "leaderboard", "stats", "review", "rules",
                 "settings", "help", "daily", "puzzle", "season", "tournament", "duplicate", "privacy",
                 "mydata", "forgetme")
ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
DEFAULT_API = "https://api.telegram.org/bot"
REFUSED = ("Telegram refused the token in TELEGRAM_TOKEN: copy it again from @BotFather "
           "(or /revoke there for a new one)")
REVOKED = "Telegram no longer accepts the token in TELEGRAM_TOKEN (revoked or replaced at @BotFather)"
BAD_BASE = ("TELEGRAM_API_BASE makes no valid Bot API URL: it must end in /bot, "
            "e.g. http://127.0.0.1:8081/bot")


def file_base(api_base: str) -> str:
    """The file URL prefix that goes with a Bot API prefix (`…/bot` -> `…/file/bot`)."""
    return api_base[: -len("bot")] + "file/bot" if api_base.endswith("/bot") else api_base


def webhook_secret(token: str) -> str:
    """The secret Telegram sends with every update to the webhook: derived from the token,
    so every process behind one webhook URL accepts the same updates (docs/scaling.md)."""
    return hashlib.sha256(f"scopa-webhook:{token}".encode()).hexdigest()


def parse_listen(listen: str | None) -> tuple[str, int]:
    """`host:port`, `:port` or `port` for the webhook server (default 0.0.0.0:8443)."""
    if not listen:
        return "0.0.0.0", 8443
    host, sep, port = listen.rpartition(":")
    if not sep:
        host, port = "", listen
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"TELEGRAM_LISTEN must look like host:port, not {listen!r}") from None
    return host.strip("[]") or "0.0.0.0", number


def _quiet_expected(record: logging.LogRecord) -> bool:
    """Keep python-telegram-bot's tracebacks for a refused token or a page that is no Bot API
    answer (a proxy's error page) in the debug log: the front-end says these in one line."""
    if record.exc_info and isinstance(record.exc_info[1], InvalidToken | json.JSONDecodeError):
        log.debug("python-telegram-bot: %s", record.getMessage()[:200], exc_info=record.exc_info)
        return False
    return True


QUIETED = ("telegram.ext", "telegram.request.BaseRequest")


class TelegramFrontEnd:
    """Runs the bot: long polling by default, a webhook when `webhook_url` is given.

    `token` comes only from the caller and is masked in every log record.
    Telegram's documented limits are kept: `rate_limiter` (`MessagesRateLimiter` by
    default, counting as Telegram counts) paces the bot to 30 messages a second, and the
    outbox paces each group to `group_rate` (20 messages a minute); None
    turns either off. `table_delay` is how long a table edit waits for more
    moves to share it. With `pictures` (the default) the table and the hands
    are photos in chats whose settings want them; without, text everywhere.
    `ring_rate`: new messages a second past which a turn's hand is edited, not sent anew.
    """

    def __init__(self, sessions: Sessions, token: str, *, api_base: str | None = None,
                 webhook_url: str | None = None, listen: str | None = None,
                 rate_limiter: BaseRateLimiter[Any] | Literal["default"] | None = "default",
                 group_rate: tuple[float, float] | None = GROUP_RATE, poll_timeout: float = 10.0,
                 table_delay: float = 0.3, drain_timeout: float = 5.0,
                 max_send_attempts: int = 10, pictures: bool = True, ring_rate: int = RING_RATE) -> None:
        if not token:
            raise ValueError("a Telegram bot token is required")
        mask_secret(token)
        for name in QUIETED:
            if _quiet_expected not in logging.getLogger(name).filters:
                logging.getLogger(name).addFilter(_quiet_expected)
        # APScheduler logs four INFO lines per job, i.e. per coalesced table edit.
        logging.getLogger("apscheduler").setLevel(max(logging.WARNING,
                                                      logging.getLogger("apscheduler").level))
        self.sessions = sessions
        self._token = token
        self.api_base = api_base
        self.webhook_url = webhook_url
        self.listen = listen
        self.poll_timeout = poll_timeout
        self.drain_timeout = drain_timeout
        if rate_limiter == "default":
            rate_limiter = MessagesRateLimiter(max_retries=3)
        self._failing = Failing()
        self._requests = (AiohttpRequest(on_unauthorized=self._revoked),
                          AiohttpRequest(pool_size=1, on_unauthorized=self._revoked))
        builder = (Application.builder().token(token).concurrent_updates(True)
                   .request(self._requests[0]).get_updates_request(self._requests[1]))
        if rate_limiter is not None:
            # the builder types a limiter's own arguments as the default one's (None)
            builder = builder.rate_limiter(rate_limiter)  # type: ignore[arg-type]
        if api_base:
            builder = builder.base_url(api_base).base_file_url(file_base(api_base))
        self.application: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        bot = self.application.bot
        self.painter = Painter() if pictures else None
        self.outbox = outbox_for(bot, sessions.delivery, job_queue=self.application.job_queue,
                                 max_attempts=max_send_attempts, group_rate=group_rate,
                                 painter=self.painter, ring_rate=ring_rate)
        self.presenter = Presenter(sessions, self.outbox, lambda: bot.username,
                                   table_delay=table_delay)
        self.outbox.on_forbidden = self.presenter.user_forbidden
        self.outbox.on_lost_topic = self.presenter.topic_lost
        self.outbox.on_migrated = self.presenter.chat_migrated
        self.handlers = Handlers(sessions, self.presenter)
        self.handlers.install(self.application)
        self.owner_commands = OwnerCommands(sessions, self.presenter, self.outbox)
        self.owner_commands.install(self.application)
        self.seasons = SeasonAnnouncer(sessions, self.presenter)
        self.application.add_error_handler(self._on_error)
        self._running = False
        self._webhook: WebhookServer | None = None
        self._events: asyncio.Queue[Event] = asyncio.Queue()
        self._presenting: asyncio.Task[None] | None = None
        self._sweeping: asyncio.Task[None] | None = None
        sessions.bus.subscribe(self._on_event)

    def __repr__(self) -> str:
        return f"TelegramFrontEnd(api_base={self.api_base!r}, webhook={bool(self.webhook_url)})"

    async def failure(self) -> FatalError:
        """Returns when the bot cannot go on (the token was revoked while running)."""
        return await self._failing.wait()

    async def reachable(self) -> bool:
        """Whether the Bot API answers now (`getMe`)."""
        try:
            await self.application.bot.get_me()
        except TelegramError:
            return False
        return True

    def _revoked(self) -> None:
        if self._running:
            self._failing.fail(FatalError(REVOKED, exit_code=2))

    async def _initialize(self) -> None:
        """Ask Telegram who the bot is, waiting out an unreachable API with back-off;
        a refused token or a bad API prefix is a `FatalError` at once."""
        delay = RETRY_FIRST
        where = self.api_base or DEFAULT_API
        while True:
            try:
                await self.application.initialize()
                return
            except InvalidToken:
                raise FatalError(REFUSED, exit_code=2) from None
            except InvalidApiUrl:
                raise FatalError(BAD_BASE, exit_code=2) from None
            except NetworkError as exc:
                log.warning("cannot reach Telegram at %s (%s): retrying in %.0f s", where,
                            type(exc).__name__, delay)
                log.debug("reaching Telegram failed", exc_info=True)
            await asyncio.sleep(delay)
            delay = next_delay(delay)

    async def start(self) -> None:
        app = self.application
        await self._initialize()
        await self._set_commands()
        await self.owner_commands.set_menus(self.application.bot, MENU_COMMANDS)
        await app.start()
        self._running = True
        self._presenting = asyncio.create_task(self._present(), name="telegram-events")
        await self.presenter.redraw_running()
        self._sweeping = asyncio.create_task(self.sessions.delivery.keep_announcing(PLATFORM, self._on_event),
                                             name="telegram-owed")
        self.owner_commands.start()
        self.seasons.start()
        self.handlers.tournament.start()
        self.handlers.privacy.start()
        assert app.updater is not None
        if self.webhook_url:
            await self._start_webhook(self.webhook_url)
        else:
            await app.updater.start_polling(timeout=int(self.poll_timeout),
                                            allowed_updates=ALLOWED_UPDATES,
                                            error_callback=self._polling_error)
        log.info("Telegram bot @%s is running (%s)", app.bot.username,
                 "webhook" if self.webhook_url else "long polling")

    async def _start_webhook(self, url: str) -> None:
        """Serve the webhook (`webhook.py`: big or forged posts refused before they are read),
        then ask Telegram to post there."""
        secret = webhook_secret(self._token)
        self._webhook = WebhookServer(self.application.bot, self.application.update_queue,
                                      urlsplit(url).path, secret)
        await self._webhook.start(*parse_listen(self.listen))
        await self.application.bot.set_webhook(url, allowed_updates=ALLOWED_UPDATES, secret_token=secret)

    async def stop(self) -> None:
        """Stop taking updates, send what is waiting (briefly), and close the connections."""
        app = self.application
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if self._webhook is not None:
            await self._webhook.stop()
        self._running = False
        if self._sweeping is not None:
            self._sweeping.cancel()
            await asyncio.gather(self._sweeping, return_exceptions=True)
        await self.owner_commands.stop()
        await self.seasons.stop()
        await self.handlers.tournament.stop()
        await self.handlers.privacy.stop()
        if self._presenting is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._events.join(), self.drain_timeout)
            self._presenting.cancel()
            await asyncio.gather(self._presenting, return_exceptions=True)
        await self.outbox.close(self.drain_timeout)
        if app.running:
            await app.stop()
        await app.shutdown()
        for request in self._requests:
            await request.shutdown()
        if self.painter is not None:
            self.painter.close()

    async def _set_commands(self) -> None:
        """The command menu, in Italian and English (the default for other languages)."""
        bot = self.application.bot
        for lang in (None, *LANGUAGES):
            words = lang or "en"
            commands = [BotCommand(name, t(words, f"telegram.command.{name}")) for name in MENU_COMMANDS]
            try:
                await bot.set_my_commands(commands, language_code=lang)
            except TelegramError as exc:
                log.warning("could not register the command menu (%s): %s", lang or "default",
                            exc.message)

    async def _on_event(self, event: Event) -> None:
        """Queue the event: the tap that caused it is answered before its messages are drawn."""
        if self._running and event.platform == PLATFORM:
            self._events.put_nowait(event)

    async def _present(self) -> None:
        while True:
            event = await self._events.get()
            try:
                await self.presenter.on_event(event)
            except Exception:
                log.exception("drawing %s failed", type(event).__name__)
            finally:
                self._events.task_done()

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A command that failed for the bot's own reasons gets one plain answer."""
        if context.error is not None:
            log_failure(log, "handling an update", context.error)
        if not isinstance(update, Update):
            return
        message = update.effective_message
        if message is not None and context.error is not None and update.effective_user is not None:
            lang = language_of(update.effective_user.language_code)
            self.outbox.post(message.chat.id, Content(escape(failure_text(context.error, lang))),
                             message.message_id, thread=topic_of(message))

    def _polling_error(self, exc: TelegramError) -> None:
        log.warning("polling for updates failed: %s", exc.message)
