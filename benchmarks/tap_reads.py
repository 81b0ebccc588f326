"""What one card tap on Telegram costs the store: its calls counted, by name, per tap.

The real bot (TelegramFrontEnd, the sessions layer, SQLite) runs in this process against
the fake Bot API server; two players (four with `--players 4`, for scopone) play a match by
tapping a card of their private hand. Every call the bot makes on the store is counted from
the tap until the tapper's hand, the table and the next player's hand are drawn again; so
are the hands the sessions read for a tap (`queries.hand`) and the games rebuilt from the
store alone (`queries.stored_game`, as a fuori preview did once per candidate play).

    python benchmarks/tap_reads.py                   # scopa, 12 taps
    python benchmarks/tap_reads.py --players 4 --line "scopone fuori=on"   # fuori previewed
    python benchmarks/tap_reads.py --shared          # the store shared with other processes
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import inspect
import statistics
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fakes.telegram_server import FakeMessage, FakeTelegramServer  # noqa: E402
from tests.telegram_helpers import (  # noqa: E402
    Taps,
    answered,
    friends_group,
    live_button,
    redrawn_after,
    running_bot,
)

WRITES = ("add_", "set_", "update_", "ensure_", "hold_", "mark_", "release_", "take_", "settle_",
          "claim_", "unit", "beat", "notice_done", "block_", "unblock_")


class Counter:
    def __init__(self) -> None:
        self.calls: collections.Counter[str] = collections.Counter()

    def wrap(self, owner: object, name: str, label: str | None = None) -> None:
        method = getattr(owner, name)
        counted = label or name

        if inspect.iscoroutinefunction(method):
            @functools.wraps(method)
            async def coro(*args: Any, **kwargs: Any) -> Any:
                self.calls[counted] += 1
                return await method(*args, **kwargs)
            setattr(owner, name, coro)
        else:
            @functools.wraps(method)
            def plain(*args: Any, **kwargs: Any) -> Any:
                self.calls[counted] += 1
                return method(*args, **kwargs)
            setattr(owner, name, plain)

    def reads(self) -> int:
        return sum(n for name, n in self.calls.items()
                   if not name.startswith(("queries.", *WRITES)))

    def writes(self) -> int:
        return sum(n for name, n in self.calls.items() if name.startswith(WRITES))


def counted_store(store: object, counter: Counter) -> None:
    for name in dir(type(store)):
        if name.startswith("_") or name in ("open", "close", "clock"):
            continue
        value = getattr(store, name, None)
        if callable(value) and not inspect.isclass(value):
            counter.wrap(store, name)


async def run(line: str, players: int, taps: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegramServer() as tg:
            names = ("Alice", "Bob", "Carla", "Dario")[:players]
            users = [tg.add_user(name) for name in names]
            group = friends_group(tg, *users)
            async with running_bot(tg, Path(tmp) / "bot.db") as bot:
                counter = Counter()
                counted_store(bot.sessions.store, counter)
                counter.wrap(bot.sessions.queries, "hand", "queries.hand")
                counter.wrap(bot.sessions.queries, "stored_game", "queries.stored_game")
                tg.user_sends(group, users[0], f"/newgame {line}")
                lobby = await tg.wait_for_message(group, contains="(")
                for user in users[1:]:
                    assert not (await answered(tg, tg.tap(group, lobby, user, "Join"))).show_alert
                    await tg.wait_for(partial(seated, lobby, user.first_name), what="seated")
                assert not (await answered(tg, tg.tap(group, lobby, users[0], "Start"))).show_alert
                pressed = Taps().pressed
                per_tap: dict[str, list[collections.Counter[str]]] = {"p": [], "h": []}
                for _ in range(taps):
                    found = await tg.wait_for(lambda: live_button(tg, users, pressed), 20,
                                              what="a card to play")
                    assert found is not None
                    await quiet(tg)
                    user, message, data = found
                    pressed.add(data)
                    counter.calls.clear()
                    record = await answered(tg, tg.press_button(user, message, user, data))
                    if record.show_alert:
                        break
                    await redrawn_after(tg, user, message, data)
                    await quiet(tg)
                    per_tap[data[0]].append(collections.Counter(counter.calls))
                report(line, "a card played", per_tap["p"])
                report(line, "a card whose captures are asked", per_tap["h"])


def seated(lobby: FakeMessage, name: str) -> bool:
    return name in (lobby.text or lobby.caption or "")


async def quiet(tg: FakeTelegramServer, still: float = 0.4) -> None:
    """Until the bot has sent or edited nothing for `still` seconds."""
    last = -1
    while (now := len([c for c in tg.calls if c.method != "getUpdates"])) != last:
        last = now
        await asyncio.sleep(still)


def report(variant: str, what: str, per_tap: list[collections.Counter[str]]) -> None:
    if not per_tap:
        return

    def total(select: Callable[[collections.Counter[str]], int]) -> str:
        values = [select(c) for c in per_tap]
        return f"mean {statistics.mean(values):.1f}, min {min(values)}, max {max(values)}"

    print(f"{variant}, {what}: {len(per_tap)} taps")
    probe = Counter()
    print("store reads per tap:", total(lambda c: (setattr(probe, "calls", c), probe.reads())[1]))
    print("store writes per tap:", total(lambda c: (setattr(probe, "calls", c), probe.writes())[1]))
    print("queries.hand per tap:", total(lambda c: c["queries.hand"]))
    print("queries.stored_game per tap:", total(lambda c: c["queries.stored_game"]))
    summed: collections.Counter[str] = collections.Counter()
    for c in per_tap:
        summed.update(c)
    print("by name (all taps):", dict(summed.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--line", default="scopa",
                        help="what follows /newgame: the variant and its options")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--taps", type=int, default=12)
    parser.add_argument("--shared", action="store_true",
                        help="the store is shared with other bot processes: games are read at each look")
    args = parser.parse_args()
    if args.shared:
        from bot.storage import SqliteStore
        SqliteStore.shared = True  # type: ignore[misc]
    asyncio.run(run(args.line, args.players, args.taps))


if __name__ == "__main__":
    main()
