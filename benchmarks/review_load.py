"""Many Telegram groups playing and reviewing their matches: are reviews delivered, once,
without slowing the computers of other groups or growing the bot's memory?

The real bot runs in a child process exactly as `scopa-bot telegram` runs it (`bot.app.serve`:
the computer players' worker processes, SQLite, Telegram's flood limits) and talks HTTP to the
fake Bot API server (tests/fakes), which runs in this process with the simulated players.
A share of the groups (`--computers`) are one person against a `hard` computer (the lobby's
🤖 hard button); the others two people. Everyone taps a card of their private hand when it is
their turn, after a think time. When a match ends, one of its people taps 🔍 Review (with
`--reviews on`), the other (or the same one, against a computer) taps Rematch a moment later,
then Start, and play goes on. Matches are opened with `/newgame target=8` (the smallest target
the lobby offers), so that many end within a run.

After `--seconds` the players stop and the run waits up to `--grace` seconds for reviews still
being made, then stops the bot and prints one summary block:

- matches ended, Review taps, reviews received per tap (a review is the private message
  "🔍 Your review of the match in ..."), those received twice and never, and the groups'
  "Accuracy:" lines (one owed per reviewed match);
- tap answers that say the database is restarting (the catalogue's `error.storage_away`, any
  language), and callback answers later than Telegram's 15 s (or never);
- a computer's reply: from the person's tap to their hand asking for a card again (the
  computer's move made and shown), p50/p99, in all computer groups and in those where nobody
  tapped Review in the minute before the tap (`quiet`);
- the resident memory (VmRSS) of the bot's process and of its worker processes, sampled every
  10 s, and its growth per minute after `--warmup` seconds (a least-squares slope);
- "was missed by" warnings of the scheduler in the bot's log (the child's stderr, kept in a file).

    python benchmarks/review_load.py                               # 100 groups, 600 s, reviews on
    python benchmarks/review_load.py --reviews off                 # the same run without reviews
    python benchmarks/review_load.py --groups 20 --seconds 120     # a short run

With `--tracemalloc N` the bot traces its allocations (N frames each) and writes the 25 sites
that grew most between the end of the warm-up and the end of the run to `--log`'s file with
`.tracemalloc` appended (tracing slows the bot: compare memory, not times, in such a run).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
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

REVIEW_TITLE = "🔍 Your review of the match in "
ACCURACY = "Accuracy:"
HAND = "Your hand"
LATE = 15.0
"""Seconds after a tap when Telegram no longer takes its answer."""
QUIET = 60.0
"""A computer's reply counts as `quiet` when nobody in its group tapped Review this long before."""
SAMPLE_EVERY = 10.0
POLL = 0.05


@dataclass(frozen=True)
class Asked:
    """A Review tap, with where each person's private chat stood at that moment: a review
    of that match arrives in the asker's chat after its mark and before the next tap's."""

    user: FakeUser
    record: CallbackRecord
    marks: dict[int, int]


@dataclass
class Table:
    group: FakeChat
    people: tuple[FakeUser, ...]
    computer: bool
    hands: dict[int, FakeMessage] = field(default_factory=dict)
    seen: int = 0
    """Group messages below this id were already looked at for a match's end."""
    matches: int = 0
    reviews: list[Asked] = field(default_factory=list)
    replies: list[tuple[float, float]] = field(default_factory=list)
    """(when the person tapped, seconds until their hand asked again), computer groups only."""
    stuck: str | None = None


# ---- the bot, in its own process ----------------------------------------------------------------

async def serve_bot(frames: int, dump: str) -> None:
    """`scopa-bot telegram` as production runs it; SIGUSR1 marks the end of the warm-up and
    SIGUSR2 the end of the run for allocation tracing."""
    from bot.app import Settings, serve

    if frames:
        import tracemalloc

        tracemalloc.start(frames)
        marks: list[tracemalloc.Snapshot] = []

        def mark() -> None:
            marks.append(tracemalloc.take_snapshot())
            if len(marks) == 2:
                _dump_growth(marks[0], marks[1], frames, dump)

        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGUSR1, mark)
        loop.add_signal_handler(signal.SIGUSR2, mark)
    await serve(["telegram"], Settings.from_env())


def _dump_growth(first, second, frames: int, dump: str) -> None:  # type: ignore[no-untyped-def]
    import tracemalloc

    keep = [tracemalloc.Filter(False, tracemalloc.__file__)]
    first, second = first.filter_traces(keep), second.filter_traces(keep)
    by_line = second.compare_to(first, "lineno")
    total = sum(stat.size_diff for stat in by_line)
    with open(dump, "w") as out:
        out.write(f"traced memory grew {total / 1e6:+.1f} MB between the two snapshots "
                  f"({sum(s.size for s in second.statistics('filename')) / 1e6:.1f} MB traced at the end)\n")
        out.write("\n== the 25 lines whose allocations grew most ==\n")
        for stat in by_line[:25]:
            out.write(f"{stat.size_diff / 1e6:+.2f} MB, {stat.count_diff:+d} blocks "
                      f"(now {stat.size / 1e6:.2f} MB): {stat.traceback.format()[-2:][0].strip()}\n")
        if frames > 1:
            out.write("\n== the 15 call paths whose allocations grew most ==\n")
            for stat in second.compare_to(first, "traceback")[:15]:
                out.write(f"\n{stat.size_diff / 1e6:+.2f} MB, {stat.count_diff:+d} blocks "
                          f"(now {stat.size / 1e6:.2f} MB)\n")
                for line in stat.traceback.format():
                    out.write(f"    {line}\n")


# ---- the players ----------------------------------------------------------------------------------

def _live(message: FakeMessage | None, pressed: set[str]) -> str | None:
    if message is None or message.deleted or message.reply_markup is None:
        return None
    for row in message.reply_markup["inline_keyboard"]:
        for button in row:
            data = button.get("callback_data", "")
            if data[:1] in ("p", "h") and data not in pressed:
                return str(data)
    return None


async def _until(check, timeout: float, step: float = POLL):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        await asyncio.sleep(step)
    raise TimeoutError


async def _answered(record: CallbackRecord, timeout: float = 60.0) -> CallbackRecord:
    await _until(lambda: record.answered, timeout, 0.01)
    return record


def _text(message: FakeMessage) -> str:
    return message.text or message.caption or ""


def _newest(chat: FakeChat, since: int, label: str | None = None) -> FakeMessage | None:
    """The newest message of the bot with an id of at least `since` (and a button reading `label`)."""
    for message_id in range(chat.next_message_id - 1, since - 1, -1):
        message = chat.messages.get(message_id)
        if message is None or not message.from_bot or message.deleted:
            continue
        if label is None or any(label in text for text in message.button_texts):
            return message
    return None


def _hand(chat: FakeChat, since: int) -> FakeMessage | None:
    """The newest private message since `since` that shows the hand (not a review, not a
    reminder of the time left)."""
    for message_id in range(chat.next_message_id - 1, since - 1, -1):
        message = chat.messages.get(message_id)
        if (message is not None and message.from_bot and not message.deleted
                and (_text(message).startswith(HAND) or _live(message, set()))):
            return message
    return None


async def _start(tg: FakeTelegramServer, table: Table, lobby: FakeMessage, by: FakeUser) -> None:
    first = {user.id: tg.private_chat(user).next_message_id for user in table.people}
    await _answered(tg.tap(table.group, lobby, by, "Start"))
    for user in table.people:
        chat = tg.private_chat(user)
        table.hands[user.id] = await _until(lambda c=chat, u=user: _hand(c, first[u.id]), 120)


async def open_table(tg: FakeTelegramServer, table: Table, newgame: str) -> None:
    creator = table.people[0]
    since = table.group.next_message_id
    tg.user_sends(table.group, creator, newgame)
    lobby = await _until(lambda: _newest(table.group, since, "Start"), 120)
    if table.computer:
        await _answered(tg.tap(table.group, lobby, creator, "🤖 hard"))
        shows = "hard)"
    else:
        guest = table.people[1]
        await _answered(tg.tap(table.group, lobby, guest, "Join"))
        shows = guest.first_name
    lobby = await _until(lambda: _shows(_newest(table.group, since, "Start"), shows), 120)
    table.seen = table.group.next_message_id
    await _start(tg, table, lobby, creator)


def _shows(message: FakeMessage | None, words: str) -> FakeMessage | None:
    return message if message is not None and words in _text(message) else None


def _match_over(table: Table) -> FakeMessage | None:
    group = table.group
    found = None
    for message_id in range(table.seen, group.next_message_id):
        message = group.messages.get(message_id)
        if message is not None and message.from_bot and any("Rematch" in b for b in message.button_texts):
            found = message
    return found


async def play(tg: FakeTelegramServer, table: Table, until: float, think: float, reviews: bool,
               rng: random.Random) -> None:
    pressed: set[str] = set()
    asked_at: float | None = None
    while time.monotonic() < until:
        over = _match_over(table)
        if over is not None:
            table.seen = table.group.next_message_id
            table.matches += 1
            asked_at = None
            reviewer = table.people[table.matches % len(table.people)]
            if reviews:
                marks = {user.id: tg.private_chat(user).next_message_id for user in table.people}
                table.reviews.append(Asked(reviewer, tg.tap(table.group, over, reviewer, "Review"), marks))
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            creator = table.people[(table.matches + 1) % len(table.people)]
            since = table.group.next_message_id
            await _answered(tg.tap(table.group, over, creator, "Rematch"))
            lobby = await _until(lambda s=since: _newest(table.group, s, "Start"), 120)
            table.seen = table.group.next_message_id
            await _start(tg, table, lobby, creator)
            continue
        turn = None
        for user in table.people:
            hand = table.hands.get(user.id)
            if hand is not None and hand.deleted:
                # rung again as a new message, or a text hand that became a photo
                found = _hand(tg.private_chat(user), hand.message_id)
                if found is not None:
                    hand = table.hands[user.id] = found
            data = _live(hand, pressed)
            if hand is not None and data is not None:
                turn = (user, hand, data)
                break
        if turn is None:
            await asyncio.sleep(POLL)
            continue
        if asked_at is not None:
            table.replies.append((asked_at, time.monotonic() - asked_at))
            asked_at = None
        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        user, hand, data = turn
        pressed.add(data)
        record = tg.press_button(user, hand, user, data)
        tapped = time.monotonic()
        await _answered(record)
        with contextlib.suppress(TimeoutError):
            await _until(lambda h=hand, d=data: _live(h, set()) != d, 60)
        if table.computer:
            asked_at = tapped


async def play_safely(tg: FakeTelegramServer, table: Table, *args: object) -> None:
    """A group whose bot stops answering stops playing; the summary says how many did."""
    try:
        await play(tg, table, *args)  # type: ignore[arg-type]
    except TimeoutError:
        table.stuck = "timed out waiting for the bot"
    except Exception as exc:  # a simulated user's mistake ends that group alone
        table.stuck = f"{type(exc).__name__}: {exc}"


# ---- memory -----------------------------------------------------------------------------------------

def _rss(pid: int) -> int | None:
    """Resident set size in bytes (VmRSS of /proc/<pid>/status), None once the process is gone."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return None


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


@dataclass
class Memory:
    pid: int
    samples: list[tuple[float, int, dict[int, int]]] = field(default_factory=list)
    """(seconds since play began, the bot's RSS, each descendant's RSS)."""

    def sample(self, at: float) -> None:
        bot = _rss(self.pid)
        if bot is None:
            return
        others = {pid: rss for pid in _descendants(self.pid) if (rss := _rss(pid)) is not None}
        self.samples.append((at, bot, others))

    async def run(self, begin: float) -> None:
        while True:
            self.sample(time.monotonic() - begin)
            await asyncio.sleep(SAMPLE_EVERY)

    def series(self, which: str) -> list[tuple[float, float]]:
        """(seconds, MB) of the bot, of the workers together, or of the largest worker."""
        out = []
        for at, bot, others in self.samples:
            value = {"bot": bot, "workers": sum(others.values()),
                     "largest": max(others.values(), default=0)}[which]
            out.append((at, value / 1e6))
        return out


def _slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares growth per minute."""
    if len(points) < 3:
        return None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return 60 * sum((x - mx) * (y - my) for x, y in points) / var if var else None


# ---- the summary ------------------------------------------------------------------------------------

def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _away_texts() -> list[str]:
    texts = []
    for lang in ("it", "en", "es"):
        catalogue = json.loads((ROOT / "bot" / "i18n" / f"{lang}.json").read_text())
        texts.append(catalogue["error.storage_away"].split(":")[0])
    return texts


def _reviews_in(tg: FakeTelegramServer, user: FakeUser, since: int, before: int | None) -> list[str]:
    chat = tg.private_chat(user)
    return [_text(m) for i, m in chat.messages.items() if since <= i and (before is None or i < before)
            and m.from_bot and _text(m).startswith(REVIEW_TITLE)]


def _accuracy_lines(group: FakeChat) -> list[str]:
    return [_text(m) for m in group.messages.values() if m.from_bot and _text(m).startswith(ACCURACY)]


def _delivery(tg: FakeTelegramServer, tables: list[Table]) -> dict[str, int]:
    """Each Review tap's review in its asker's private chat, between the tap and the group's
    next Review tap: received (once at least), never; the same review text twice in a chat;
    reviews that reached a player of the match who did not ask."""
    found = Counter[str]()
    for table in tables:
        for n, asked in enumerate(table.reviews):
            after = table.reviews[n + 1].marks if n + 1 < len(table.reviews) else {}
            for user in table.people:
                texts = _reviews_in(tg, user, asked.marks[user.id], after.get(user.id))
                if user is asked.user:
                    found["asked"] += 1
                    found["got" if texts else "never"] += 1
                else:
                    found["unasked"] += len(texts)
        for user in table.people:
            texts = _reviews_in(tg, user, 0, None)
            found["twice"] += len(texts) - len(set(texts))
        lines = _accuracy_lines(table.group)
        found["lines"] += len(set(lines))
        found["lines_twice"] += len(lines) - len(set(lines))
        found["lines_never"] += max(0, len(table.reviews) - len(set(lines)))
    return found


async def _grace(tg: FakeTelegramServer, tables: list[Table], seconds: float) -> float:
    """Waits until every Review tap has its review and its group's line, or `seconds` passed."""
    began = time.monotonic()
    while time.monotonic() - began < seconds:
        found = _delivery(tg, tables)
        if found["never"] == 0 and found["lines_never"] == 0:
            break
        await asyncio.sleep(1.0)
    return time.monotonic() - began


def _memory_lines(memory: Memory, warmup: float) -> list[str]:
    lines = []
    for which, name in (("bot", "bot process"), ("workers", "worker processes, together"),
                        ("largest", "largest worker")):
        points = memory.series(which)
        if not points:
            continue
        after = [p for p in points if p[0] >= warmup]
        slope = _slope(after)
        at_warmup = after[0][1] if after else points[-1][1]
        grown = "n/a" if slope is None else f"{slope:+.2f} MB/min"
        lines.append(f"  RSS {name}: {points[0][1]:.0f} MB at start, {at_warmup:.0f} MB at "
                     f"{warmup:.0f} s, {points[-1][1]:.0f} MB at the end; after warm-up {grown}")
    return lines


async def run(args: argparse.Namespace) -> None:
    warmup = args.warmup if args.seconds > 2 * args.warmup else args.seconds / 3
    async with FakeTelegramServer(callback_answer_timeout=None) as tg:
        rng = random.Random(args.seed)
        tables = []
        computers = round(args.groups * args.computers)
        for n in range(args.groups):
            computer = n < computers
            people = (tg.add_user(f"A{n}"),) if computer else (tg.add_user(f"A{n}"), tg.add_user(f"B{n}"))
            for user in people:
                tg.user_starts_bot(user)
            tables.append(Table(tg.add_group(f"Table {n}", members=people), people, computer))
        log_path = Path(args.log)
        with tempfile.TemporaryDirectory() as tmp, open(log_path, "w") as log:
            db = args.db or str(Path(tmp) / "bench.db")
            env = {**os.environ, "PYTHONPATH": str(ROOT), "TELEGRAM_TOKEN": tg.token,
                   "TELEGRAM_API_BASE": tg.base_url, "SCOPA_DB": db}
            for name in ("TELEGRAM_WEBHOOK_URL", "TELEGRAM_LISTEN", "TELEGRAM_WORKERS", "DISCORD_TOKEN"):
                env.pop(name, None)
            child = subprocess.Popen(
                [sys.executable, __file__, "--serve-bot", str(args.tracemalloc),
                 str(log_path) + ".tracemalloc"], cwd=ROOT, env=env, stderr=log)
            memory = Memory(child.pid)
            sampler: asyncio.Task[None] | None = None
            try:
                await _until(lambda: tg.request_counts["getUpdates"] > 1 or child.poll() is not None, 120)
                if child.poll() is not None:
                    raise SystemExit(f"the bot stopped at start; see {log_path}")
                started = time.monotonic()
                await asyncio.gather(*(open_table(tg, table, args.newgame) for table in tables))
                print(f"{args.groups} groups open in {time.monotonic() - started:.1f} s", flush=True)
                begin = time.monotonic()
                sampler = asyncio.create_task(memory.run(begin))
                if args.tracemalloc:
                    asyncio.get_running_loop().call_later(warmup, child.send_signal, signal.SIGUSR1)
                until = begin + args.seconds
                await asyncio.gather(*(play_safely(tg, table, until, args.think, args.reviews == "on",
                                                   random.Random(rng.random())) for table in tables))
                played = time.monotonic() - begin
                waited = await _grace(tg, tables, args.grace)
                memory.sample(time.monotonic() - begin)
                if args.tracemalloc:
                    child.send_signal(signal.SIGUSR2)
                    await asyncio.sleep(min(120.0, 10.0 + args.groups))
            finally:
                if sampler is not None:
                    sampler.cancel()
                child.send_signal(signal.SIGTERM)
                await asyncio.to_thread(child.wait, 60)
    _summary(args, tg, tables, memory, played, waited, warmup, log_path)


def _summary(args: argparse.Namespace, tg: FakeTelegramServer, tables: list[Table], memory: Memory,
             played: float, waited: float, warmup: float, log_path: Path) -> None:
    delivery = _delivery(tg, tables)
    away = _away_texts()
    records = tg.callbacks
    blamed = [r for r in records if r.answer_text and any(text in r.answer_text for text in away)]
    review_records = {id(asked.record) for table in tables for asked in table.reviews}
    late = [r for r in records if r.answered_at is not None and r.answered_at - r.created_at > LATE]
    unanswered = [r for r in records if r.answered_at is None]
    messages_blamed = sum(1 for chat in tg.chats.values() for m in chat.messages.values()
                          if m.from_bot and any(text in _text(m) for text in away))
    review_answers = Counter((asked.record.answer_text or "(none)")[:60]
                             for table in tables for asked in table.reviews)
    replies = [(table, at, seconds) for table in tables for at, seconds in table.replies]
    review_times = {id(table): sorted(a.record.created_at for a in table.reviews) for table in tables}

    def quiet(table: Table, at: float) -> bool:
        return not any(at - QUIET <= tapped <= at for tapped in review_times[id(table)])

    every = [1000 * s for _, _, s in replies]
    calm = [1000 * s for table, at, s in replies if quiet(table, at)]
    text = log_path.read_text(errors="replace")
    missed = text.count("was missed by")
    warnings = sum(1 for line in text.splitlines() if " WARNING " in line)
    errors = sum(1 for line in text.splitlines() if " ERROR " in line)
    stuck = Counter(table.stuck for table in tables if table.stuck)
    computers = sum(table.computer for table in tables)

    def spread(values: list[float]) -> str:
        if not values:
            return "none"
        return (f"p50 {_percentile(values, 0.5):.0f} ms, p99 {_percentile(values, 0.99):.0f} ms, "
                f"max {max(values):.0f} ms ({len(values)} replies)")

    lines = [
        "==== review_load summary ====",
        f"run: {args.groups} groups ({computers} against a hard computer), {played:.0f} s of play, "
        f"think {args.think} s, reviews {args.reviews}, '{args.newgame}', grace {waited:.0f} s "
        f"of {args.grace:.0f}, warm-up {warmup:.0f} s",
        f"matches ended: {sum(t.matches for t in tables)}; Review taps: {delivery['asked']}",
        f"reviews received by the asker: {delivery['got']} of {delivery['asked']}; "
        f"never: {delivery['never']}; "
        f"the same review twice in a chat: {delivery['twice']}; sent to players who did not ask: "
        f"{delivery['unasked']}",
        f"group accuracy lines: {delivery['lines']} of {delivery['asked']}; twice: "
        f"{delivery['lines_twice']}; never: {delivery['lines_never']}",
        f"tap answers saying the database is restarting: {len(blamed)} "
        f"({sum(id(r) in review_records for r in blamed)} of them Review taps); "
        f"bot messages saying it: {messages_blamed}",
        f"callback answers later than {LATE:.0f} s: {len(late)} "
        f"({sum(id(r) in review_records for r in late)} of them Review taps); never answered: "
        f"{len(unanswered)}; taps in all: {len(records)}",
        f"computer replies, all computer groups: {spread(every)}",
        f"computer replies, no Review tap in the group in the last {QUIET:.0f} s: {spread(calm)}",
        *_memory_lines(memory, warmup),
        f"bot log: {missed} 'was missed by' warnings, {warnings} warnings, {errors} errors ({log_path})",
    ]
    if review_answers:
        lines.append("answers to Review taps: " + "; ".join(
            f"{count} × '{answer}'" for answer, count in review_answers.most_common(5)))
    if stuck:
        lines.append("groups that stopped: " + "; ".join(f"{n} × {why}" for why, n in stuck.items()))
    if args.tracemalloc:
        lines.append(f"allocation growth: {log_path}.tracemalloc")
    print("\n".join(lines), flush=True)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-bot":
        import logging

        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        logging.getLogger("httpx").setLevel(logging.WARNING)
        asyncio.run(serve_bot(int(sys.argv[2]), sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=600.0, help="seconds of play")
    parser.add_argument("--computers", type=float, default=0.5,
                        help="the share of groups where one person plays a hard computer")
    parser.add_argument("--reviews", choices=("on", "off"), default="on")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a person thinks before a tap (uniform 0.5x-1.5x)")
    parser.add_argument("--newgame", default="/newgame target=8", help="how each group opens its game")
    parser.add_argument("--warmup", type=float, default=120.0,
                        help="seconds of play before memory growth is counted (a third of a short run)")
    parser.add_argument("--grace", type=float, default=180.0,
                        help="seconds to wait after play for reviews still being made")
    parser.add_argument("--tracemalloc", type=int, default=0, metavar="FRAMES",
                        help="trace the bot's allocations with this many frames each (0: off)")
    parser.add_argument("--log", default="review_load.log", help="the bot's log (its stderr)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="SQLite file for the bot (default: a temporary one)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
