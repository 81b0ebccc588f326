"""The outbox against a scripted bot: coalescing, retries, refusals, pacing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut

from bot.adapters.telegram.outbox import Content, Outbox, RefBook, Target
from bot.storage import SqliteStore

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


@dataclass
class ScriptedBot:
    """Records what the outbox sends (a deletion's text is the id deleted); `errors` are raised
    first, one per call."""

    errors: list[Exception] = field(default_factory=list)
    calls: list[tuple[str, int, str]] = field(default_factory=list)
    gate: asyncio.Event | None = None
    next_id: int = 100

    async def _maybe_fail(self) -> None:
        if self.gate is not None:
            await self.gate.wait()
        if self.errors:
            raise self.errors.pop(0)

    async def do_api_request(self, method: str, api_kwargs: dict[str, Any]) -> Any:
        await self._maybe_fail()
        kind = {"sendmessage": "send", "editmessagetext": "edit", "deletemessage": "delete"}[method]
        said = api_kwargs.get("text", str(api_kwargs.get("message_id")))
        self.calls.append((kind, api_kwargs["chat_id"], said))
        if kind != "send":
            return True
        self.next_id += 1
        return {"message_id": self.next_id}


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(tmp_path / "o.db")
    chat = await opened.ensure_chat("telegram", "-100")
    player = await opened.ensure_player("telegram", "1", "Alice")
    await opened.create_game(chat.id, player.id, "scopa", {}, 2, False, "napoletane", "seed")
    yield opened
    await opened.close()


def _outbox(bot: ScriptedBot, store: SqliteStore, **kwargs: Any) -> Outbox:
    return Outbox(bot, RefBook(store), backoff_cap=0.01, group_rate=None, **kwargs)  # type: ignore[arg-type]


class Board:
    """A value the renders read, like the game state the real renders read."""

    def __init__(self) -> None:
        self.value = 0
        self.renders = 0

    async def render(self) -> Content:
        self.renders += 1
        return Content(f"state {self.value}")


TABLE = Target(-100, 1, "table")


async def test_a_burst_of_changes_costs_one_send_and_one_edit(store: SqliteStore) -> None:
    bot = ScriptedBot(gate=asyncio.Event())
    outbox = _outbox(bot, store)
    board = Board()
    first = outbox.update(TABLE, board.render)
    await asyncio.sleep(0.01)
    waits = []
    for value in range(1, 20):
        board.value = value
        waits.append(outbox.update(TABLE, board.render))
    bot.gate.set()
    assert await first and all(await asyncio.gather(*waits))
    assert [c[0] for c in bot.calls] == ["send", "edit"]
    assert bot.calls[-1][2] == "state 19"
    assert await store.get_refs(1) == {"table": "101"}
    assert await outbox.update(TABLE, board.render)
    assert len(bot.calls) == 2, "unchanged content is not sent again"
    await outbox.close()


async def test_flood_control_and_network_errors_are_retried(store: SqliteStore) -> None:
    bot = ScriptedBot(errors=[RetryAfter(0), TimedOut(), NetworkError("reset")])
    outbox = _outbox(bot, store)
    board = Board()
    assert await outbox.update(TABLE, board.render)
    assert bot.calls == [("send", -100, "state 0")]
    board.value = 1
    bot.errors = [BadRequest("Message is not modified: specified new message content is the same")]
    assert await outbox.update(TABLE, board.render)
    bot.errors = [NetworkError("down")] * outbox.max_attempts
    board.value = 2
    assert not await outbox.update(TABLE, board.render), "gives up after max_attempts"
    board.value = 3
    assert await outbox.update(TABLE, board.render), "and the next change draws the latest state"
    assert bot.calls[-1] == ("edit", -100, "state 3")
    await outbox.close()


async def test_blocked_users_are_reported_and_lost_messages_replaced(store: SqliteStore) -> None:
    blocked: list[int] = []

    async def on_forbidden(chat_id: int) -> None:
        blocked.append(chat_id)

    bot = ScriptedBot(errors=[Forbidden("Forbidden: bot was blocked by the user")])
    outbox = _outbox(bot, store, on_forbidden=on_forbidden, max_attempts=3)
    hand = Target(1, 1, "hand:1")
    board = Board()
    assert not await outbox.update(hand, board.render)
    assert blocked == [1] and bot.calls == []
    assert await outbox.update(TABLE, board.render)
    board.value = 1
    bot.errors = [BadRequest("Message to edit not found")]
    assert await outbox.update(TABLE, board.render)
    assert [c[0] for c in bot.calls] == ["send", "send"]
    assert (await store.get_refs(1))["table"] == str(bot.next_id)
    await outbox.close()


async def test_posts_keep_their_order_and_fresh_slots_get_a_new_message(store: SqliteStore) -> None:
    bot = ScriptedBot(errors=[TimedOut()])
    outbox = _outbox(bot, store)
    ids = await asyncio.gather(*(outbox.post(-100, Content(f"post {i}")) for i in range(5)))
    assert [c[2] for c in bot.calls] == [f"post {i}" for i in range(5)]
    assert ids == sorted(ids) and None not in ids
    board = Board()
    await outbox.update(TABLE, board.render)
    await outbox.update(TABLE, board.render, fresh=True)
    assert [c[0] for c in bot.calls[-3:]] == ["send", "send", "delete"], "the old one deleted"
    await outbox.close()


async def test_a_message_left_behind_is_kept_when_newer_and_deleted_when_older(store: SqliteStore) -> None:
    bot = ScriptedBot()
    outbox = _outbox(bot, store)
    board = Board()
    assert await outbox.update(TABLE, board.render)

    async def deleted_after(message_id: int) -> list[int]:
        await outbox.adopt(TABLE, message_id, photo=False)
        await outbox.drain(1)
        return [int(c[2]) for c in bot.calls if c[0] == "delete"]

    assert await deleted_after(101) == [], "the kept message itself"
    bot.calls.clear()
    assert await deleted_after(90) == [90] and await outbox.message_of(TABLE) == 101, \
        "an older one is deleted"
    bot.calls.clear()
    assert await deleted_after(150) == [101] and await outbox.message_of(TABLE) == 150, \
        "a newer one is kept, the one kept before deleted"
    board.value = 1
    assert await outbox.update(TABLE, board.render)
    assert bot.calls[-1][0] == "edit", "the message kept now is drawn"
    await outbox.close()


async def test_a_message_acted_on_while_its_slot_is_drawn_is_looked_at_once_it_is_drawn(
        store: SqliteStore) -> None:
    bot = ScriptedBot(gate=asyncio.Event())
    outbox = _outbox(bot, store)
    board = Board()
    bot.gate.set()
    assert await outbox.update(TABLE, board.render)
    bot.gate.clear()
    board.value = 1
    drawing = outbox.update(TABLE, board.render, fresh=True)
    await asyncio.sleep(0.01)
    await outbox.adopt(TABLE, 102, photo=False)
    await outbox.adopt(TABLE, 95, photo=False)
    bot.gate.set()
    assert await drawing
    await outbox.drain(1)
    assert await outbox.message_of(TABLE) == 102, "the message on its way, acted on, is kept"
    assert sorted(c[2] for c in bot.calls if c[0] == "delete") == ["101", "95"], \
        "the one drawn before and the one left behind are deleted, the new one is not"
    await outbox.close()


async def test_a_group_edit_that_waited_for_its_turn_shows_the_latest_state(store: SqliteStore) -> None:
    bot = ScriptedBot()
    outbox = Outbox(bot, RefBook(store), group_rate=(2, 0.4))  # type: ignore[arg-type]
    board = Board()
    await outbox.update(TABLE, board.render)
    board.value = 1
    await outbox.update(TABLE, board.render)
    board.value = 2
    waited = outbox.update(TABLE, board.render)
    await asyncio.sleep(0.05)
    board.value = 3
    assert await waited
    assert [c[2] for c in bot.calls] == ["state 0", "state 1", "state 3"]
    await outbox.close()


async def test_closing_answers_every_waiter(store: SqliteStore) -> None:
    bot = ScriptedBot(gate=asyncio.Event())
    outbox = _outbox(bot, store)
    board = Board()
    waiting = outbox.update(TABLE, board.render)
    posted = outbox.post(-100, Content("x"))
    await outbox.close(timeout=0.05)
    assert waiting.done() and not waiting.result()
    assert posted.done() and posted.result() is None
    late = outbox.update(TABLE, board.render)
    assert late.done() and not late.result()


class SlowRefStore:
    """Stored message ids whose writes wait for `release`, as behind a busy database."""

    def __init__(self, stored: dict[str, str]) -> None:
        self.stored = dict(stored)
        self.release = asyncio.Event()

    async def get_refs(self, game_id: int) -> dict[str, str]:
        return dict(self.stored)

    async def set_ref(self, game_id: int, key: str, value: str | None) -> None:
        await self.release.wait()
        if value is None:
            self.stored.pop(key, None)
        else:
            self.stored[key] = value


async def test_a_message_id_being_stored_is_found_by_a_lookup_that_overlaps_it() -> None:
    """A Join tapped as the lobby is posted edits that lobby, never posts a second one."""
    slow = SlowRefStore({"hand:7": "41"})
    refs = RefBook(slow)  # type: ignore[arg-type]
    setting = asyncio.create_task(refs.set(1, "table", "42"))
    await asyncio.sleep(0)
    assert await refs.get(1, "table") == "42", "found while its write is still under way"
    slow.release.set()
    await setting
    assert await refs.get(1, "table") == "42"
    assert await refs.get(1, "hand:7") == "41", "setting one id keeps the others stored"
    assert slow.stored == {"hand:7": "41", "table": "42"}


async def test_a_group_become_a_supergroup_gets_its_waiting_posts_and_its_table_at_the_new_id(
        store: SqliteStore) -> None:
    bot = ScriptedBot(errors=[ChatMigrated(-1009)])
    outbox = _outbox(bot, store)
    told: list[tuple[int, int]] = []

    async def migrated(old: int, new: int) -> None:
        told.append((old, new))

    outbox.on_migrated = migrated
    first, second = outbox.post(-100, Content("round 1 over")), outbox.post(-100, Content("match over"))
    assert (await first, await second) == (101, 102)
    assert bot.calls == [("send", -1009, "round 1 over"), ("send", -1009, "match over")]
    assert told == [(-100, -1009)], "the front-end is told once"
    assert await outbox.update(Target(-100, 1, "table"), Board().render)
    assert bot.calls[-1] == ("send", -1009, "state 0")
    await outbox.close()
