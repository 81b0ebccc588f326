"""Three `scopa-bot telegram` processes in webhook mode on one PostgreSQL, behind one
webhook URL (a round-robin proxy, as a load balancer would be): games played to the end
by users tapping their hands, one process killed with SIGKILL midway. Every game
finishes, and every table and hand ends showing the end of its match (no older drawing
landed last); every play the fake Telegram server saw answered is stored once, and every
stored move of a user is a play they tapped; each computer turn (a timer) is stored
once, and no process ever had a computer move refused."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import asyncpg
import pytest
from aiohttp import web

from bot.adapters.telegram.identity import PLATFORM, join_payload
from bot.app import open_sessions
from bot.sessions import ChatRef

from .. import pg
from ..fakes.telegram_server import CallbackRecord, FakeChat, FakeMessage, FakeTelegramServer, FakeUser

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 3
GAMES = int(os.environ.get("SCOPA_SCALING_GAMES", "50"))
"""Games played at once: fifty take four to five minutes on a 2-core machine;
`SCOPA_SCALING_GAMES=10` plays ten in about a minute."""
PATIENCE = 10.0
"""Seconds a player waits for a card to play before asking for their hand again."""

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")



class Balancer:
    """One webhook address in front of the processes, taking each in turn; a process that
    does not answer is passed over (as a load balancer's health check would)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self._turn = itertools.count()
        self.port = pg.free_port()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/hook", self._forward)
        self._session = aiohttp.ClientSession()
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._session is not None
        body = await request.read()
        headers = {k: v for k, v in request.headers.items()
                   if k.lower() in ("content-type", "x-telegram-bot-api-secret-token")}
        for _ in self.ports:
            port = self.ports[next(self._turn) % len(self.ports)]
            try:
                async with self._session.post(f"http://127.0.0.1:{port}/hook", data=body, headers=headers,
                                              timeout=aiohttp.ClientTimeout(total=5)) as answer:
                    return web.Response(status=answer.status, body=await answer.read())
            except (aiohttp.ClientError, TimeoutError):
                continue
        return web.Response(status=502)


def _launch(tg: FakeTelegramServer, url: str, hook: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "SCOPA_"))}
    env.update({"TELEGRAM_TOKEN": tg.token, "TELEGRAM_API_BASE": tg.base_url, "SCOPA_DB": url,
                "TELEGRAM_WEBHOOK_URL": hook, "TELEGRAM_LISTEN": f"127.0.0.1:{port}",
                "TELEGRAM_WORKERS": str(PROCESSES),
                "PYTHONUNBUFFERED": "1"})
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "bot", "telegram"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)


async def _until(check: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


class Player:
    """One user in their own group against an easy computer, tapping their hand."""

    def __init__(self, tg: FakeTelegramServer, user: FakeUser, group: FakeChat) -> None:
        self.tg, self.user, self.group = tg, user, group
        self.taps: list[CallbackRecord] = []
        self.pressed: set[tuple[int, str]] = set()
        self.game_id: int | None = None
        self.reposts = 0

    async def start(self) -> None:
        tg = self.tg
        tg.user_sends(self.group, self.user, "/newgame")
        lobby = await tg.wait_for_message(self.group, contains="New game", timeout=30)
        await self._answered(tg.tap(self.group, lobby, self.user, "🤖 easy"))
        await tg.wait_for(lambda: "Remove" in " ".join(lobby.button_texts), 30, what="the computer seated")
        await self._answered(tg.tap(self.group, lobby, self.user, "Start"))

    async def _answered(self, record: CallbackRecord, timeout: float = 30.0) -> CallbackRecord:
        await self.tg.wait_for(lambda: record.answered, timeout, what=f"an answer to {record.data!r}")
        return record

    def live(self) -> tuple[FakeMessage, str] | None:
        """A card to play, or to choose (it takes in more than one way), or one of its captures."""
        for message in reversed(self.tg.get_chat(self.user).messages.values()):
            if message.deleted or not message.from_bot:
                continue
            for data in message.callback_data:
                if data[0] in "phC" and (message.message_id, data) not in self.pressed:
                    return message, data
        return None

    async def play(self, finished: asyncio.Event) -> None:
        """Tap a playable card whenever one shows; an unanswered tap (its process died) is
        tapped again, as a user would; a hand that shows nothing new for a while is asked
        for again (the /start link of the game) after `PATIENCE` seconds."""
        quiet_since = time.monotonic()
        while not finished.is_set():
            found = self.live()
            if found is None:
                if time.monotonic() - quiet_since > PATIENCE and self.game_id is not None:
                    self.tg.user_starts_bot(self.user, join_payload(self.game_id))
                    self.reposts += 1
                    quiet_since = time.monotonic()
                await asyncio.sleep(0.05)
                continue
            message, data = found
            self.game_id = int(data.split("|")[1])
            self.pressed.add((message.message_id, data))
            record = self.tg.press_button(self.user, message, self.user, data)
            self.taps.append(record)
            with contextlib.suppress(AssertionError, TimeoutError):
                await self._answered(record, 10)
            quiet_since = time.monotonic()


def _says(message: FakeMessage) -> str:
    return message.caption or message.text or ""


async def _not_showing_the_end(tg: FakeTelegramServer, players: list[Player], url: str) -> list[str]:
    """Tables and hands (the messages the games' refs name) that do not show the end of the
    match: with two processes drawing one message at once, an older drawing could land last."""
    conn = await asyncpg.connect(url)
    try:
        refs = {(int(r["game_id"]), r["key"]): r["value"]
                for r in await conn.fetch("SELECT game_id, key, value FROM ui_refs")}
    finally:
        await conn.close()
    stale = []
    for player in players:
        assert player.game_id is not None
        for chat, key, end in ((player.group, "table", "Match over."),
                               (player.user, f"hand:{player.user.id}", "The match is over.")):
            value = refs.get((player.game_id, key), "")
            message_id = int(value.split(" ")[0].removeprefix("photo:") or 0)
            message = tg.get_chat(chat).messages.get(message_id)
            if message is None or message.deleted or end not in _says(message):
                stale.append(f"{key} of game {player.game_id}: "
                             f"{_says(message)[-40:] if message else 'no message'!r}")
    return stale


async def _stored(url: str) -> tuple[dict[int, str], list[asyncpg.Record]]:
    conn = await asyncpg.connect(url)
    try:
        status = {int(r["id"]): r["status"] for r in await conn.fetch("SELECT id, status FROM games")}
        moves = await conn.fetch("SELECT game_id, number, seat, move, by_computer FROM moves "
                                 "ORDER BY game_id, number")
    finally:
        await conn.close()
    return status, moves


@pytest.mark.timeout(180 + 12 * GAMES)
async def test_three_processes_play_every_game_to_the_end_though_one_is_killed(
        postgres_url: str, tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        users = [tg.add_user(f"P{n}") for n in range(GAMES)]
        groups = [tg.add_group(f"Table {n}", members=[user]) for n, user in enumerate(users)]
        sessions = await open_sessions(postgres_url)
        for group in groups:
            chat = ChatRef(PLATFORM, str(group.id), group.title)
            await sessions.set_chat_language(chat, "en")
            await sessions.set_chat_defaults(chat, {"target": 1})
        await sessions.close()
        for user in users:
            tg.user_starts_bot(user)

        ports = [pg.free_port() for _ in range(PROCESSES)]
        balancer = Balancer(ports)
        await balancer.start()
        logs = [tmp_path / f"bot{n}.log" for n in range(PROCESSES)]
        bots = [_launch(tg, postgres_url, balancer.url, port, log)
                for port, log in zip(ports, logs, strict=True)]
        try:
            await _until(lambda: all("is running (webhook)" in log.read_text(errors="replace")
                                     for log in logs if log.exists()) and all(log.exists() for log in logs),
                         60, "three processes taking updates")
            began = time.monotonic()
            players = [Player(tg, user, group) for user, group in zip(users, groups, strict=True)]
            await asyncio.gather(*(p.start() for p in players))
            started = time.monotonic() - began
            finished = asyncio.Event()
            playing = [asyncio.create_task(p.play(finished)) for p in players]
            await _until(lambda: sum(len(p.taps) for p in players) >= GAMES * 10, 60 + 4 * GAMES,
                         "the games half played")
            bots[1].send_signal(signal.SIGKILL)
            killed_at = sum(len(p.taps) for p in players)
            killed = time.monotonic() - began

            async def all_finished() -> bool:
                status, _ = await _stored(postgres_url)
                return len(status) == GAMES and all(s == "finished" for s in status.values())

            deadline = time.monotonic() + 60 + 12 * GAMES
            while not await all_finished():
                if time.monotonic() > deadline:
                    status, moves = await _stored(postgres_url)
                    stuck = {game: sum(1 for m in moves if m["game_id"] == game)
                             for game, state in status.items() if state != "finished"}
                    raise AssertionError(f"games not finished (game: moves stored): {stuck}")
                await asyncio.sleep(0.5)
            finished.set()
            ended = time.monotonic() - began
            await asyncio.gather(*playing)
            deadline = time.monotonic() + 120
            while stale := await _not_showing_the_end(tg, players, postgres_url):
                if time.monotonic() > deadline:
                    raise AssertionError(f"messages still showing the game under way: {stale}")
                await asyncio.sleep(0.5)
            shown = time.monotonic() - began
        finally:
            for bot in bots:
                if bot.poll() is None:
                    bot.send_signal(signal.SIGTERM)
            for bot in bots:
                await asyncio.to_thread(bot.wait, 30)
            await balancer.close()
        assert bots[1].returncode == -signal.SIGKILL
        assert all(bot.returncode == 0 for n, bot in enumerate(bots) if n != 1)

    status, moves = await _stored(postgres_url)
    assert all(s == "finished" for s in status.values())
    by_game: dict[int, list[asyncpg.Record]] = {}
    for move in moves:
        by_game.setdefault(int(move["game_id"]), []).append(move)
    for game_id, stored in by_game.items():
        assert [m["number"] for m in stored] == list(range(1, len(stored) + 1)), f"game {game_id}"
    human = {(int(m["game_id"]), int(m["number"])): m["move"] for m in moves if not m["by_computer"]}
    plays: dict[tuple[int, int], list[CallbackRecord]] = {}
    for player in players:
        for record in player.taps:
            action, game, version, *_ = record.data.split("|")
            if action in "pC":
                plays.setdefault((int(game), int(version) + 1), []).append(record)
    for key, move in human.items():
        assert key in plays, f"stored move {key} {move} is a play its user tapped"
        named = [r.data.split("|", 3)[3] for r in plays[key] if r.data[0] == "p"]
        assert not named or move in named, (key, move, named)
    accepted = {key for key, records in plays.items()
                if any(r.answered and not r.show_alert for r in records)}
    assert accepted <= set(human), "every play answered without a refusal is stored"
    output = "\n".join(log.read_text(errors="replace") for log in logs)
    assert "refused in game" not in output, "no computer move was tried twice"
    assert "Traceback" not in "\n".join(logs[n].read_text(errors="replace") for n in (0, 2))
    sent = sum(count for method, count in tg.request_counts.items() if method.startswith(("send", "edit")))
    print(f"messages sent or edited: {sent}, {sent / len(moves):.2f} a move")
    print(f"{GAMES} games, {len(moves)} moves ({len(human)} tapped), one process killed after "
          f"{killed_at} taps; hands asked for again {sum(p.reposts for p in players)} times; "
          f"lobbies {started:.1f} s, kill {killed:.1f} s, all over {ended:.1f} s, "
          f"every table and hand showing the end {shown:.1f} s")
