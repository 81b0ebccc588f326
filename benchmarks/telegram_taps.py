"""Many Telegram groups playing at once: bot-side time per tap, and taps per second.

The real bot (TelegramFrontEnd, the sessions layer, SQLite) runs in a child
process and talks HTTP to the fake Bot API server (tests/fakes), which runs in
this process together with the simulated players. Each group has two players
who tap a card of their private hand when it is their turn, after a think
time; when a match ends they tap Rematch and go on.

Bot-side time per tap is measured by the fake server, from the moment the bot
fetched the tap (getUpdates) to its answerCallbackQuery: the commit of the
move included, the rate-limited message edits that follow it not.

    python benchmarks/telegram_taps.py                 # 100 games, think 1 s, Telegram's flood limits
    python benchmarks/telegram_taps.py --limits off    # the same without limits: what the bot can do
    python benchmarks/telegram_taps.py --limits off --think 0   # saturated
    python benchmarks/telegram_taps.py --pictures on   # the table and hands as photos
    python benchmarks/telegram_taps.py --metrics on    # the bot counts (SCOPA_METRICS), scraped every 15 s

With `--pictures on` the table and the hands are photos (each chat's default):
a new picture is drawn and uploaded when the cards shown change, the caption
alone is edited otherwise; the bytes uploaded are printed.

With Telegram's limits (the production configuration: 30 messages a second
for the whole bot, 20 a minute per group) the taps per second are bounded by
the hands to redraw, two private messages per tap.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fakes.telegram_server import (  # noqa: E402
    CallbackRecord,
    FakeChat,
    FakeMessage,
    FakeTelegramServer,
    FakeUser,
)


@dataclass
class Table:
    group: FakeChat
    players: tuple[FakeUser, FakeUser]
    hands: dict[int, FakeMessage] = field(default_factory=dict)
    taps: list[CallbackRecord] = field(default_factory=list)
    matches: int = 0
    posts: int = 0
    pressed_at: float | None = None
    """When the last card was tapped, until the next player's hand showed it was their turn."""
    to_private: list[float] = field(default_factory=list)
    """Seconds from a tap to the next player's private message asking for their card."""


# ---- the bot, in its own process ----------------------------------------------------------------

async def serve_bot(api_base: str, token: str, db: str, limits: str, pictures: str) -> None:
    """The bot; with `SCOPA_METRICS` set, counting and serving its metrics as `scopa-bot` does."""
    from bot.adapters.telegram import TelegramFrontEnd
    from bot.app import open_checked_store
    from bot.metrics.http import parse_address
    from bot.observing import observing
    from bot.sessions import Sessions

    store = await open_checked_store(db)
    sessions = Sessions(store)
    options: dict[str, object] = {} if limits == "telegram" else {"rate_limiter": None, "group_rate": None}
    options["pictures"] = pictures == "on"
    async with contextlib.AsyncExitStack() as stack:
        address = os.environ.get("SCOPA_METRICS")
        front = TelegramFrontEnd(sessions, token, api_base=api_base, **options)  # type: ignore[arg-type]
        if address:
            await stack.enter_async_context(observing(parse_address(address), store, sessions, ["telegram"],
                                                      {"telegram": front.reachable}))
        timers = asyncio.create_task(sessions.scheduler.run_forever())
        await front.start()
        done = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, done.set)
        print("ready", flush=True)
        await done.wait()
        await front.stop()
        timers.cancel()
    await sessions.close()


async def scrape(url: str, every: float, until: float) -> int:
    """GET `url` every `every` seconds until `until`, as Prometheus would: the bytes last read."""
    import urllib.request

    def get() -> int:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return len(answer.read())

    size = 0
    while time.monotonic() < until:
        size = await asyncio.to_thread(get)
        await asyncio.sleep(max(0.0, min(every, until - time.monotonic())))
    return size


# ---- the players ----------------------------------------------------------------------------------
# They poll plain attributes of the fake's messages every few milliseconds: cheap enough that the
# fake server, in the same process, answers the bot without delay.

def _live(message: FakeMessage | None, pressed: set[str]) -> str | None:
    if message is None or message.reply_markup is None:
        return None
    for row in message.reply_markup["inline_keyboard"]:
        for button in row:
            data = button.get("callback_data", "")
            if data[:1] in ("p", "h") and data not in pressed:
                return str(data)
    return None


async def _until(check, timeout: float, step: float = 0.02):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        await asyncio.sleep(step)
    raise TimeoutError


async def _answered(record: CallbackRecord, timeout: float = 60.0) -> CallbackRecord:
    await _until(lambda: record.answered, timeout, 0.005)
    return record


def _newest(chat: FakeChat, since: int) -> FakeMessage | None:
    """The newest message with an id of at least `since` (ids grow by one per message)."""
    for message_id in range(chat.next_message_id - 1, since - 1, -1):
        message = chat.messages.get(message_id)
        if message is not None and message.from_bot and not message.deleted:
            return message
    return None


def _lobby(chat: FakeChat, since: int) -> FakeMessage | None:
    """The newest message since `since` that is a lobby (it has Start)."""
    for message_id in range(chat.next_message_id - 1, since - 1, -1):
        message = chat.messages.get(message_id)
        if message is not None and message.from_bot and not message.deleted \
                and any("Start" in text for text in message.button_texts):
            return message
    return None


async def start_match(tg: FakeTelegramServer, table: Table, lobby: FakeMessage, creator: FakeUser,
                      guest: FakeUser | None) -> None:
    if guest is not None:
        await _answered(tg.tap(table.group, lobby, guest, "Join"))
        await _until(lambda: guest.first_name in (lobby.text or lobby.caption or ""), 120)
    first = {user.id: tg.private_chat(user).next_message_id for user in table.players}
    await _answered(tg.tap(table.group, lobby, creator, "Start"))
    for user in table.players:
        chat = tg.private_chat(user)
        hand = await _until(lambda c=chat, u=user: _newest(c, first[u.id] - 1), 120)
        table.hands[user.id] = hand


async def open_table(tg: FakeTelegramServer, table: Table) -> None:
    creator, guest = table.players
    since = table.group.next_message_id
    tg.user_sends(table.group, creator, "/newgame")
    lobby = await _until(lambda: _newest(table.group, since), 120)
    await start_match(tg, table, lobby, creator, guest)
    table.posts = table.group.next_message_id


async def play(tg: FakeTelegramServer, table: Table, until: float, think: float,
               rng: random.Random) -> None:
    pressed: set[str] = set()
    while time.monotonic() < until:
        if table.group.next_message_id > table.posts:
            post = _newest(table.group, table.posts)
            table.posts = table.group.next_message_id
            if post is not None and "🔁 Rematch" in post.button_texts:
                table.matches += 1
                table.pressed_at = None
                creator = table.players[table.matches % 2]
                since = table.group.next_message_id
                await _answered(tg.tap(table.group, post, creator, "Rematch"))
                lobby = await _until(lambda s=since: _lobby(table.group, s), 120)
                await start_match(tg, table, lobby, creator, None)
                table.posts = table.group.next_message_id
            continue
        turn = None
        for user in table.players:
            hand = table.hands.get(user.id)
            if hand is not None and hand.deleted:
                # A hand that became a photo is a new message (Telegram cannot edit text into one).
                hand = table.hands[user.id] = _newest(tg.private_chat(user), hand.message_id)
            data = _live(hand, pressed)
            if hand is not None and data is not None:
                turn = (user, hand, data)
                break
        if turn is None:
            await asyncio.sleep(0.02)
            continue
        if table.pressed_at is not None:
            table.to_private.append(time.monotonic() - table.pressed_at)
            table.pressed_at = None
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        user, hand, data = turn
        pressed.add(data)
        record = tg.press_button(user, hand, user, data)
        table.pressed_at = time.monotonic()
        table.taps.append(record)
        await _answered(record)
        with contextlib.suppress(TimeoutError):
            await _until(lambda h=hand, d=data: _live(h, set()) != d, 60, 0.02)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _counted(url: str) -> dict[str, float]:
    """What the bot counted, from its /metrics: the calls into the metrics that a tap causes."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(url, timeout=10) as answer:
        text = answer.read().decode()
    totals: dict[str, float] = {}
    wanted = {"scopa_db_seconds_count": "database calls", "scopa_message_wait_seconds_count": "messages",
              "scopa_taps_total": "taps", "scopa_tap_update_seconds_count": "updates",
              "scopa_moves_total": "moves"}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in wanted:
                totals[wanted[sample.name]] = totals.get(wanted[sample.name], 0.0) + sample.value
    return totals


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace) -> None:
    async with FakeTelegramServer(flood_control=args.limits == "telegram",
                                  callback_answer_timeout=None) as tg:
        rng = random.Random(args.seed)
        tables = []
        for n in range(args.games):
            players = (tg.add_user(f"A{n}"), tg.add_user(f"B{n}"))
            for user in players:
                tg.user_starts_bot(user)
            tables.append(Table(tg.add_group(f"Table {n}", members=players), players))
        with tempfile.TemporaryDirectory() as tmp:
            db = args.db or str(Path(tmp) / "bench.db")
            env = {k: v for k, v in os.environ.items() if k != "SCOPA_METRICS"} | {"PYTHONPATH": str(ROOT)}
            metrics_port = _free_port() if args.metrics == "on" else None
            if metrics_port is not None:
                env["SCOPA_METRICS"] = f"127.0.0.1:{metrics_port}"
            child = subprocess.Popen(
                [sys.executable, __file__, "--serve-bot", tg.base_url, tg.token, db, args.limits,
                 args.pictures],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
            try:
                assert child.stdout is not None
                await asyncio.to_thread(child.stdout.readline)
                started = time.monotonic()
                await asyncio.gather(*(open_table(tg, table) for table in tables))
                print(f"{args.games} games open in {time.monotonic() - started:.1f} s", flush=True)
                begin = time.monotonic()
                playing_since = time.time()
                until = begin + args.seconds
                bot_cpu, own_cpu = _cpu_seconds(child.pid), time.process_time()
                scrapes = [] if metrics_port is None else [
                    scrape(f"http://127.0.0.1:{metrics_port}/metrics", 15.0, until)]
                players = [play(tg, table, until, args.think, random.Random(rng.random()))
                           for table in tables]
                played = await asyncio.gather(*players, *scrapes)
                elapsed = time.monotonic() - begin
                bot_cpu = _cpu_seconds(child.pid) - bot_cpu
                own_cpu = time.process_time() - own_cpu
                counted = None if metrics_port is None else await asyncio.to_thread(
                    _counted, f"http://127.0.0.1:{metrics_port}/metrics")
            finally:
                child.send_signal(signal.SIGTERM)
                await asyncio.to_thread(child.wait, 30)
        taps = [r for table in tables for r in table.taps if r.answered and r.answer_delay is not None]
        delays = [r.answer_delay * 1000 for r in taps if r.answer_delay is not None]
        alerts = sum(r.show_alert for r in taps)
        print(f"games at once: {args.games}, think time: {args.think} s, flood limits: {args.limits}, "
              f"pictures: {args.pictures}, metrics: {args.metrics}")
        if counted is not None:
            per_tap = ", ".join(f"{value / max(1, len(taps)):.2f} {name}" for name, value in counted.items())
            print(f"/metrics scraped every 15 s: {played[-1]:,} bytes; counted per tap: {per_tap}")
        print(f"taps: {len(taps)} in {elapsed:.1f} s = {len(taps) / elapsed:.1f} taps/s "
              f"({sum(t.matches for t in tables)} matches finished, {alerts} refused taps)")
        print(f"CPU while playing: bot {bot_cpu:.1f} s ({1000 * bot_cpu / max(1, len(taps)):.2f} ms "
              f"per tap), fake server and players {own_cpu:.1f} s, in {elapsed:.1f} s")
        if delays:
            print(f"bot-side time per tap: p50 {_percentile(delays, 0.5):.1f} ms, "
                  f"p99 {_percentile(delays, 0.99):.1f} ms, max {max(delays):.1f} ms, "
                  f"mean {statistics.fmean(delays):.1f} ms")
        private = [1000 * seconds for table in tables for seconds in table.to_private]
        if private:
            print(f"tap -> the next player's private message: p50 {_percentile(private, 0.5):.0f} ms, "
                  f"p99 {_percentile(private, 0.99):.0f} ms, max {max(private):.0f} ms "
                  f"({len(private)} turns; polled every 20 ms)")
        shown = _to_group(tg, tables)
        if shown:
            print(f"tap -> the group's next send or edit: p50 {_percentile(shown, 0.5):.0f} ms, "
                  f"p99 {_percentile(shown, 0.99):.0f} ms, max {max(shown):.0f} ms")
        rang = [len(tg.rings(user, since=playing_since)) for table in tables for user in table.players]
        print(f"phones rung while playing: {sum(rang)} new private messages for {len(taps)} taps "
              f"(a turn's ring is an edit instead while the bot's new messages of the second are spent)")
        print("requests:", dict(tg.request_counts.most_common()))
        print(f"busiest group minute: {max(tg.busiest_minute(t.group) for t in tables)} sends and edits; "
              f"flood errors (429): {sum(tg.rate_limited_counts.values())}")
        print(f"busiest bot second: {tg.busiest_second()} new messages and group edits "
              f"(the games' opening included, refused ones too)")
        uploads = _uploaded(tg)
        if uploads:
            matches = sum(t.matches for t in tables)
            played = sum(1 for r in taps if r.data.startswith("p"))
            per_match = uploads / matches if matches else None
            print(f"uploaded: {uploads / 1e6:.1f} MB in {tg.request_counts['sendPhoto']} sendPhoto and "
                  f"{tg.request_counts['editMessageMedia']} editMessageMedia, "
                  f"{uploads / max(1, played) / 1024:.0f} KB per move"
                  + (f", {per_match / 1e6:.1f} MB per finished match (games still going included)"
                     if per_match else ""))


def _to_group(tg: FakeTelegramServer, tables: list[Table]) -> list[float]:
    """Milliseconds from each tap to the group's first send or edit after the tap was answered
    (the move is committed before the answer): when the group saw the move at the earliest."""
    found: list[float] = []
    for table in tables:
        sent = sorted(tg.group_sends.get(table.group.id, []))
        for record in table.taps:
            if record.answered_at is None:
                continue
            at = bisect.bisect_left(sent, record.answered_at)
            if at < len(sent):
                found.append(1000 * (sent[at] - record.created_at))
    return found


def _uploaded(tg: FakeTelegramServer) -> int:
    """Bytes of photos the bot uploaded (the fake keeps each upload's size)."""
    return sum(value.get("size", 0) for call in tg.calls if call.ok
               for value in call.params.values() if isinstance(value, dict) and "upload" in value)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-bot":
        api_base, token, db, limits, pictures = sys.argv[2:7]
        asyncio.run(serve_bot(api_base, token, db, limits, pictures))
        return
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a player thinks before a tap (uniform 0.5x-1.5x); 0 for none")
    parser.add_argument("--limits", choices=("telegram", "off"), default="telegram")
    parser.add_argument("--pictures", choices=("on", "off"), default="off",
                        help="the table and hands as photos (each chat's default), or text")
    parser.add_argument("--metrics", choices=("on", "off"), default="off",
                        help="the bot counts its metrics and serves them (SCOPA_METRICS), scraped every 15 s")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="SQLite file for the bot (default: a temporary one)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
