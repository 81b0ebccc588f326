"""Three `scopa-bot telegram` processes in webhook mode on one PostgreSQL, behind one
webhook URL (a round-robin proxy, as a load balancer would be): games played to the end
by users tapping their hands while two of the processes are killed with SIGKILL and the
database is stopped at once (`pg_ctl stop -m immediate`) for five seconds and started
again, with nothing to restart anything. Every game finishes, and every table and hand
ends showing the end of its match (no older drawing landed last); every play the fake
Telegram server saw answered is stored once, and every stored move of a user is a play they
tapped; each computer turn (a timer) is stored once, and no process ever had a computer
move refused; every round's breakdown and every match end is posted once; the process
left alive is alive at the end; taps were answered in time, and the flood limits held."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
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
GAMES = int(os.environ.get("SCOPA_SCALING_GAMES", "10"))
"""Games played at once: ten take about two minutes on a 2-core machine (the database's stop
and the announcements it held up included); `SCOPA_SCALING_GAMES=50` plays fifty."""
AWAY = "One moment: the database is restarting"
OUTAGE = 5.0
"""Seconds the database stays stopped."""
TAP_ANSWER_LIMIT = 15.0
"""Seconds within which Telegram takes the answer to a button press."""
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
                await self._answered(record, TAP_ANSWER_LIMIT)
            if record.show_alert and AWAY in (record.answer_text or ""):
                # "one moment": the same card is tapped again a moment later
                await asyncio.sleep(1.0)
                self.pressed.discard((message.message_id, data))
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


cluster = pytest.fixture(scope="module")(pg.own_durable_cluster)
"""A server of this module's own, as its tests stop it."""


def _announcements(tg: FakeTelegramServer, group: FakeChat) -> Counter[str]:
    """How often each round's breakdown ("End of round N") and the match's end were posted."""
    posted: Counter[str] = Counter()
    for message in tg.get_chat(group).messages.values():
        said = _says(message)
        if not message.from_bot:
            continue
        if (found := re.search(r"End of round (\d+)", said)) is not None:
            posted[f"round {found.group(1)}"] += 1
        if "Match over!" in said:
            posted["match"] += 1
    return posted


async def _owed(url: str) -> tuple[dict[int, int], int]:
    """Rounds stored by game, and announcements still owed (not yet posted)."""
    conn = await asyncpg.connect(url)
    try:
        rounds = {int(r["game_id"]): int(r["n"]) for r in await conn.fetch(
            "SELECT game_id, count(*) AS n FROM rounds GROUP BY game_id")}
        owed = int(await conn.fetchval("SELECT count(*) FROM ui_refs WHERE key LIKE 'notice:%'"))
    finally:
        await conn.close()
    return rounds, owed


def _busiest_second(tg: FakeTelegramServer) -> int:
    """The most messages the bot sent (anywhere) or edited (in groups) in any one second, as
    Telegram counts them against a bot's 30 a second."""
    times = sorted(call.at for call in tg.calls if call.ok and (
        (call.method.startswith("send") and call.method != "sendChatAction")
        or (call.method.startswith("edit") and tg.get_chat(int(call.params["chat_id"])).is_group)))
    start, best = 0, 0
    for end, at in enumerate(times):
        while times[start] <= at - 1.0:
            start += 1
        best = max(best, end - start + 1)
    return best


_RECORD = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [A-Z]+ ")
"""The start of a line the bot logs (`bot/cli.py`'s format); a traceback's lines follow it."""


def _failures(log: str) -> list[str]:
    """What a process logged with a traceback whose last exception is not the database being
    away (`StorageAway`: the "one moment" answers, and the work tried again once it is back;
    asyncpg's pool also says so as it tries to reconnect)."""
    records: list[list[str]] = []
    for line in log.splitlines():
        if _RECORD.match(line) or not records:
            records.append([line])
        else:
            records[-1].append(line)
    failures = []
    for record in records:
        if not any(line.startswith("Traceback") for line in record[1:]):
            continue
        raised = [line for line in record[1:] if line and not line.startswith(
            (" ", "Traceback", "The above exception", "During handling", "^"))]
        last = raised[-1] if raised else record[0]
        if "StorageAway" not in last and " asyncpg.pool: " not in record[0]:
            failures.append(f"{record[0][:160]} ... {last[:160]}")
    return failures


@pytest.mark.timeout(240 + 12 * GAMES)
async def test_games_end_and_announce_once_though_processes_are_killed_and_the_database_restarts(
        cluster: pg.Cluster, tmp_path: Path) -> None:
    postgres_url = await cluster.create_database()
    async with FakeTelegramServer() as tg:
        users = [tg.add_user(f"P{n}") for n in range(GAMES)]
        groups = [tg.add_group(f"Table {n}", members=[user]) for n, user in enumerate(users)]
        sessions = await open_sessions(postgres_url)
        for group in groups:
            chat = ChatRef(PLATFORM, str(group.id), group.title)
            await sessions.settings.set_chat_language(chat, "en")
            await sessions.settings.set_chat_defaults(chat, {"target": 1})
        await sessions.close()
        for user in users:
            tg.user_starts_bot(user)

        ports = [pg.free_port() for _ in range(PROCESSES)]
        balancer = Balancer(ports)
        await balancer.start()
        logs = [tmp_path / f"bot{n}.log" for n in range(PROCESSES)]
        bots = [_launch(tg, postgres_url, balancer.url, port, log)
                for port, log in zip(ports, logs, strict=True)]
        players = [Player(tg, user, group) for user, group in zip(users, groups, strict=True)]
        outage: tuple[float, float] | None = None
        try:
            await _until(lambda: all("is running (webhook)" in log.read_text(errors="replace")
                                     for log in logs if log.exists()) and all(log.exists() for log in logs),
                         60, "three processes taking updates")
            began = time.monotonic()
            await asyncio.gather(*(p.start() for p in players))
            started = time.monotonic() - began
            finished = asyncio.Event()
            playing = [asyncio.create_task(p.play(finished)) for p in players]

            def tapped() -> int:
                return sum(len(p.taps) for p in players)

            await _until(lambda: tapped() >= GAMES * 5, 60 + 4 * GAMES, "a quarter of the games played")
            bots[1].send_signal(signal.SIGKILL)
            events = [f"process 1 killed after {tapped()} taps ({time.monotonic() - began:.1f} s)"]
            await _until(lambda: tapped() >= GAMES * 9, 60 + 4 * GAMES, "half of the games played")
            stopped = time.monotonic()
            await asyncio.to_thread(cluster.halt)
            await asyncio.sleep(OUTAGE)
            await asyncio.to_thread(cluster.restart)
            outage = (stopped, time.monotonic())
            events.append(f"database stopped after {tapped()} taps ({stopped - began:.1f} s) for "
                          f"{outage[1] - stopped:.1f} s")
            await _until(lambda: tapped() >= GAMES * 13, 120 + 4 * GAMES, "two thirds of the games played")
            bots[2].send_signal(signal.SIGKILL)
            events.append(f"process 2 killed after {tapped()} taps ({time.monotonic() - began:.1f} s)")

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
            # owed announcements are looked for every 30 s: two looks, and a hold's lease
            deadline = time.monotonic() + 90
            while (await _owed(postgres_url))[1]:
                if time.monotonic() > deadline:
                    raise AssertionError(f"announcements still owed: {(await _owed(postgres_url))[1]}")
                await asyncio.sleep(0.5)
            announced = time.monotonic() - began
            alive = bots[0].poll() is None
        finally:
            for bot in bots:
                if bot.poll() is None:
                    bot.send_signal(signal.SIGTERM)
            for bot in bots:
                await asyncio.to_thread(bot.wait, 30)
            await balancer.close()
            if not (cluster.data / "postmaster.pid").exists():
                cluster.restart()
        assert alive, "the process nobody killed is alive at the end"
        assert [bot.returncode for bot in bots] == [0, -signal.SIGKILL, -signal.SIGKILL]

    status, moves = await _stored(postgres_url)
    rounds, _ = await _owed(postgres_url)
    await cluster.drop_database(postgres_url)
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

    for player in players:
        assert player.game_id is not None
        expected = Counter({f"round {n}": 1 for n in range(1, rounds[player.game_id] + 1)} | {"match": 1})
        assert _announcements(tg, player.group) == expected, f"game {player.game_id}"

    taps = [record for player in players for record in player.taps]
    delays = [record.answer_delay for record in taps if record.answer_delay is not None]
    away = [record for record in taps if AWAY in (record.answer_text or "")]
    assert outage is not None
    late = [delay for delay in delays if delay > TAP_ANSWER_LIMIT]
    output = [log.read_text(errors="replace") for log in logs]
    assert "refused in game" not in "\n".join(output), "no computer move was tried twice"
    assert _failures(output[0]) == [], "the process left alive failed only while the database was away"
    sent = sum(count for method, count in tg.request_counts.items() if method.startswith(("send", "edit")))
    busiest_group = max(tg.busiest_minute(group) for group in groups)
    busiest_second = _busiest_second(tg)
    print(f"messages sent or edited: {sent}, {sent / len(moves):.2f} a move; busiest group minute "
          f"{busiest_group}, busiest second for the bot {busiest_second}")
    print(f"{GAMES} games, {len(moves)} moves ({len(human)} tapped), {sum(rounds.values())} rounds; "
          f"{'; '.join(events)}; hands asked for again {sum(p.reposts for p in players)} times; "
          f"{len(away)} taps answered 'one moment'; answers: p50 {_percentile(delays, 50):.2f} s, "
          f"max {max(delays):.2f} s; lobbies {started:.1f} s, all over {ended:.1f} s, every table "
          f"and hand showing the end {shown:.1f} s, every announcement posted {announced:.1f} s")
    assert late == [], f"taps answered after Telegram's {TAP_ANSWER_LIMIT:.0f} s: {late}"
    assert busiest_group <= 20, f"{busiest_group} sends and edits in one group's minute"
    assert busiest_second <= 30, f"{busiest_second} sends and edits in one second"


def _percentile(values: list[float], percent: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, len(ordered) * percent // 100)] if ordered else 0.0
