"""The outbox's parts alone, on a clock the test moves: the sender (photos that fall back to
text, retries, each try counted in the group's minute), the post queue (order, refusals) and
the slots (a photo that failed stays text, rings past the bot's rate become edits)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter

from bot.adapters.telegram.content import Content, GaveUp, Picture, Target
from bot.adapters.telegram.limits import SendWindow
from bot.adapters.telegram.pacing import Pacer
from bot.adapters.telegram.posts import PostQueue
from bot.adapters.telegram.refbook import RefBook
from bot.adapters.telegram.sender import Sender
from bot.adapters.telegram.slots import Slots

from ..fakes.memory_store import MemoryStore
from ..fakes.virtual_time import VirtualTime

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

GROUP = -100
PICTURE = Content("the table", picture=Picture("scene", "en", "caption"))


@dataclass
class ScriptedBot:
    """Records each call that reached Telegram (method, chat, when); `errors` are raised first,
    one per call, for the methods they name (None: any)."""

    time: VirtualTime
    errors: list[tuple[str | None, Exception]] = field(default_factory=list)
    calls: list[tuple[str, int, float]] = field(default_factory=list)
    next_id: int = 100

    async def do_api_request(self, method: str, api_kwargs: dict[str, Any]) -> Any:
        if self.errors and self.errors[0][0] in (None, method):
            raise self.errors.pop(0)[1]
        self.calls.append((method, int(api_kwargs["chat_id"]), self.time.now))
        if method.startswith("send"):
            self.next_id += 1
            return {"message_id": self.next_id}
        return True

    def methods(self) -> list[str]:
        return [method for method, _, _ in self.calls]


@dataclass
class Refusals:
    moved: dict[int, int] = field(default_factory=dict)
    forbidden_chats: list[int] = field(default_factory=list)

    async def forbidden(self, chat_id: int) -> None:
        self.forbidden_chats.append(chat_id)

    async def topic_lost(self, chat_id: int, thread: int, how: str) -> None:
        raise AssertionError("no topic here")

    async def chat_moved(self, old_id: int, new_id: int) -> None:
        self.moved[old_id] = new_id

    def took(self, chat_id: int, thread: int | None) -> None:
        pass


async def paint(picture: Picture) -> bytes:
    return b"\xff\xd8 a jpeg"


async def cannot_paint(picture: Picture) -> bytes:
    raise OSError("no font")


def parts(time: VirtualTime, bot: ScriptedBot, rate: tuple[float, float] | None = None,
          painter: Any = paint) -> tuple[Pacer, Sender]:
    pacer = Pacer(rate, clock=time.clock, wall=time.clock, sleep=time.sleep)
    return pacer, Sender(bot, pacer, painter, max_attempts=3, sleep=time.sleep)


# ---- the sender -----------------------------------------------------------------------------

async def test_a_photo_the_group_may_not_send_goes_as_text_and_the_group_gets_text_from_then_on() -> None:
    time = VirtualTime()
    refused = BadRequest("Not enough rights to send photos to the chat")
    bot = ScriptedBot(time, errors=[("sendphoto", refused)])
    _, sender = parts(time, bot)
    assert await time.run(sender.post(GROUP, PICTURE)) == 101
    assert await time.run(sender.post(GROUP, PICTURE)) == 102
    assert bot.methods() == ["sendmessage", "sendmessage"], "asked once, text from then on"
    assert await time.run(sender.post(7, PICTURE)) == 103
    assert bot.methods()[-1] == "sendphoto", "another chat still gets photos"


async def test_flood_waits_and_network_errors_are_waited_out_on_the_clock() -> None:
    time = VirtualTime()
    bot = ScriptedBot(time, errors=[(None, RetryAfter(5)), (None, NetworkError("reset")),
                                    (None, NetworkError("reset"))])
    _, sender = parts(time, bot)
    start = time.now
    await time.run(sender.post(7, Content("hello")))
    assert bot.calls == [("sendmessage", 7, start + 5.05 + 0.25 + 0.5)]
    bot.errors = [(None, NetworkError("down"))] * 3
    try:
        await time.run(sender.post(7, Content("again")))
    except GaveUp:
        pass
    else:
        raise AssertionError("three network errors in a row: given up")


async def test_each_try_takes_a_place_of_its_own_in_the_groups_minute() -> None:
    """A request lost on its way back may have reached the group: its retry counts again."""
    time = VirtualTime()
    bot = ScriptedBot(time, errors=[(None, NetworkError("lost on the way back"))])
    _, sender = parts(time, bot, rate=(2, 60.0))
    start = time.now
    await time.run(sender.post(GROUP, Content("round over")))
    await time.run(sender.post(GROUP, Content("match over")))
    assert [at - start for _, _, at in bot.calls] == pytest.approx([0.25, 60.01])


# ---- the post queue ---------------------------------------------------------------------------

async def test_posts_go_in_order_at_the_groups_pace_and_a_refusal_stops_only_its_own() -> None:
    time = VirtualTime()
    bot = ScriptedBot(time, errors=[("sendmessage", Forbidden("bot was blocked by the user"))])
    pacer, sender = parts(time, bot, rate=(2, 60.0))
    refusals = Refusals()
    queue = PostQueue(sender, pacer, refusals)

    async def scene() -> list[int | None]:
        private = queue.post(7, Content("your turn"))
        posted = [queue.post(GROUP, Content(f"post {n}")) for n in range(3)]
        return [await private, *[await p for p in posted]]

    ids = await time.run(scene())
    assert ids[0] is None and refusals.forbidden_chats == [7]
    assert ids[1:] == sorted(ids[1:]) and None not in ids[1:]
    times = [at for _, chat, at in bot.calls if chat == GROUP]
    assert times[2] - times[0] > 60.0, "the third waited for the minute"
    await queue.close()


# ---- the slots ---------------------------------------------------------------------------

async def slots_of(time: VirtualTime, bot: ScriptedBot, painter: Any = paint,
                   rings: SendWindow | None = None) -> tuple[Slots, MemoryStore]:
    store = MemoryStore(clock=time.clock)
    chat = await store.ensure_chat("telegram", str(GROUP))
    player = await store.ensure_player("telegram", "7", "Alice")
    await store.create_game(chat.id, player.id, "scopa", {}, 2, 0, "napoletane", "seed")
    refs = RefBook(store)
    pacer, sender = parts(time, bot, painter=painter)
    return Slots(sender, refs, pacer, Refusals(), rings=rings), store


def constant(content: Content) -> Any:
    async def render() -> Content:
        return content
    return render


async def test_a_slot_whose_picture_cannot_be_drawn_is_text_and_stays_text() -> None:
    time = VirtualTime()
    bot = ScriptedBot(time)
    slots, store = await slots_of(time, bot, painter=cannot_paint)
    table = Target(GROUP, 1, "table")
    assert await time.run(slots.update(table, constant(PICTURE)))
    later = Content("the table, later", picture=Picture("another scene", "en", "caption"))
    assert await time.run(slots.update(table, constant(later)))
    assert bot.methods() == ["sendmessage", "editmessagetext"]
    assert (await store.get_refs(1))["table"] == "101", "a text message, kept with the game"
    await slots.close()


async def test_past_the_bots_rings_of_the_second_a_turn_edits_the_hand_instead() -> None:
    time = VirtualTime()
    bot = ScriptedBot(time)
    slots, _ = await slots_of(time, bot, rings=SendWindow(1, time.clock))
    hand = Target(7, 1, "hand:7")
    assert await time.run(slots.update(hand, constant(Content("your cards"))))
    assert await time.run(slots.update(hand, constant(Content("your turn")), fresh=True))
    assert await time.run(slots.update(hand, constant(Content("your turn again")), fresh=True))
    assert bot.methods() == ["sendmessage", "sendmessage", "deletemessage", "editmessagetext"]
    time.now += 1.0
    assert await time.run(slots.update(hand, constant(Content("a second later")), fresh=True))
    assert bot.methods()[-2:] == ["sendmessage", "deletemessage"], "rings again once the second passed"
    await slots.close()


async def test_changes_made_while_a_slot_is_drawn_cost_one_more_edit() -> None:
    time = VirtualTime()
    bot = ScriptedBot(time)
    slots, _ = await slots_of(time, bot)
    table = Target(GROUP, 1, "table")
    state = {"value": 0}

    async def render() -> Content:
        return Content(f"state {state['value']}")

    async def scene() -> None:
        first = slots.update(table, render)
        await asyncio.sleep(0)
        waits = []
        for value in range(1, 10):
            state["value"] = value
            waits.append(slots.update(table, render))
        assert await first and all(await asyncio.gather(*waits))

    await time.run(scene())
    assert bot.methods() == ["sendmessage", "editmessagetext"]
    await slots.close()
