"""The fake Telegram Bot API: its strictness over plain HTTP, and a real PTB Application against it."""

from __future__ import annotations

import asyncio
import datetime as dtm
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from aiohttp import web
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from tests.fakes.telegram_server import (
    BLOCKED,
    BUTTON_DATA_INVALID,
    CANT_INITIATE,
    CAPTION_TOO_LONG,
    CHAT_NOT_FOUND,
    CONFLICT_POLLING,
    CONFLICT_WEBHOOK,
    MESSAGE_CANT_BE_EDITED,
    MESSAGE_TO_DELETE_NOT_FOUND,
    MESSAGE_TO_EDIT_NOT_FOUND,
    NO_CAPTION_TO_EDIT,
    NO_MEDIA_TO_EDIT,
    NO_PHOTO_RIGHTS,
    NO_TEXT_TO_EDIT,
    NOT_MODIFIED,
    QUERY_INVALID,
    TEXT_EMPTY,
    TEXT_TOO_LONG,
    THREAD_NOT_FOUND,
    TOPIC_CLOSED,
    WRONG_FILE,
    ButtonNotFound,
    FakeTelegramServer,
    FakeUser,
    SimulationError,
)

JSONDict = dict[str, Any]
KEYBOARD = {"inline_keyboard": [[{"text": "Join", "callback_data": "join:1"}]]}


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer() as server:
        yield server


@pytest.fixture
async def http(tg: FakeTelegramServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"{tg.base_url}{tg.token}/", timeout=10) as client:
        yield client


async def call(http: httpx.AsyncClient, method: str, **params: Any) -> tuple[int, JSONDict]:
    """POSTs like PTB does: a form whose object values are JSON-encoded."""
    form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
    response = await http.post(method, data=form)
    return response.status_code, response.json()


async def ok(http: httpx.AsyncClient, method: str, **params: Any) -> Any:
    status, body = await call(http, method, **params)
    assert status == 200 and body["ok"], body
    return body["result"]


async def error(http: httpx.AsyncClient, method: str, **params: Any) -> tuple[int, str]:
    status, body = await call(http, method, **params)
    assert not body["ok"] and body["error_code"] == status, body
    return status, body["description"]


# --- transport ---------------------------------------------------------------------------------------


async def test_get_me_token_and_unknown_method(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    me = await ok(http, "getMe")
    assert me["username"] == "ScopaTestBot" and me["is_bot"] and me["id"] == tg.bot.id
    assert (await http.get("getme")).json()["ok"]

    async with httpx.AsyncClient() as other:
        wrong = await other.post(f"{tg.base_url}123:wrong/getMe")
        assert wrong.status_code == 401
        assert wrong.json() == {"ok": False, "error_code": 401, "description": "Unauthorized"}
    assert await error(http, "sendMessages", chat_id=1, text="x") == (404, "Not Found")


async def test_json_form_and_multipart_bodies_are_equivalent(
    tg: FakeTelegramServer, http: httpx.AsyncClient
) -> None:
    alice = tg.add_user("Alice")
    tg.user_starts_bot(alice)
    as_json = await http.post(
        "sendMessage", json={"chat_id": alice.id, "text": "j", "reply_markup": KEYBOARD}
    )
    as_form = await http.post(
        "sendMessage", data={"chat_id": str(alice.id), "text": "f", "reply_markup": json.dumps(KEYBOARD)}
    )
    as_multipart = await http.post(
        "sendMessage",
        data={"chat_id": str(alice.id), "text": "m", "reply_markup": json.dumps(KEYBOARD)},
        files={"unused": ("a.txt", b"x")},
    )
    for response in (as_json, as_form, as_multipart):
        assert response.status_code == 200, response.text
        assert response.json()["result"]["reply_markup"] == KEYBOARD
    assert [m.text for m in tg.messages(alice)] == ["/start", "j", "f", "m"]
    assert [m.message_id for m in tg.messages(alice)] == [1, 2, 3, 4]
    assert tg.request_counts["sendMessage"] == 3


# --- sending ------------------------------------------------------------------------------------------


async def test_who_the_bot_may_write_to(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice", username="alice")
    assert await error(http, "sendMessage", chat_id=alice.id, text="hi") == (403, CANT_INITIATE)
    assert await error(http, "sendMessage", chat_id=424242, text="hi") == (400, CHAT_NOT_FOUND)
    assert await error(http, "sendMessage", chat_id="@alice", text="hi") == (400, CHAT_NOT_FOUND)

    tg.user_starts_bot(alice)
    sent = await ok(http, "sendMessage", chat_id=alice.id, text="hi")
    assert sent["chat"] == {"id": alice.id, "first_name": "Alice", "username": "alice", "type": "private"}
    assert sent["from"]["id"] == tg.bot.id

    tg.user_blocks_bot(alice)
    assert await error(http, "sendMessage", chat_id=alice.id, text="hi") == (403, BLOCKED)
    tg.user_starts_bot(alice)
    await ok(http, "sendMessage", chat_id=alice.id, text="welcome back")
    kinds = [next(k for k in u if k != "update_id") for u in tg.pending_updates]
    assert kinds == ["message", "my_chat_member", "my_chat_member", "message"]

    group = tg.add_group("Scopa night", members=[alice])
    tg.remove_bot(group)
    status, text = await error(http, "sendMessage", chat_id=group.id, text="hi")
    assert (status, text) == (403, "Forbidden: bot was kicked from the supergroup chat")


async def test_text_limits(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice")
    tg.user_starts_bot(alice)
    assert await error(http, "sendMessage", chat_id=alice.id, text="") == (400, TEXT_EMPTY)
    assert await error(http, "sendMessage", chat_id=alice.id, text=" \n ") == (
        400,
        "Bad Request: message must be non-empty",
    )
    assert await error(http, "sendMessage", chat_id=alice.id, text="x" * 4097) == (400, TEXT_TOO_LONG)
    await ok(http, "sendMessage", chat_id=alice.id, text="é" * 4096)
    # The limit applies after parsing: tags do not count.
    await ok(http, "sendMessage", chat_id=alice.id, text=f"<b>{'x' * 4096}</b>", parse_mode="HTML")
    trimmed = await ok(http, "sendMessage", chat_id=alice.id, text="  <b>hi</b>\n", parse_mode="HTML")
    assert trimmed["text"] == "hi" and trimmed["entities"] == [{"type": "bold", "offset": 0, "length": 2}]


async def test_html_is_parsed_like_telegram(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice")
    tg.user_starts_bot(alice)
    sent = await ok(
        http,
        "sendMessage",
        chat_id=alice.id,
        text='🂡 <b>Sette</b> &amp; <i>bello</i> <a href="https://t.me/ScopaTestBot?start=g1">join</a>',
        parse_mode="HTML",
    )
    assert sent["text"] == "🂡 Sette & bello join"
    assert sent["entities"] == [
        {"type": "bold", "offset": 3, "length": 5},
        {"type": "italic", "offset": 11, "length": 5},
        {"type": "text_link", "offset": 17, "length": 4, "url": "https://t.me/ScopaTestBot?start=g1"},
    ]
    message = tg.last_message(alice)
    assert message is not None and message.source_text is not None and message.source_text.startswith("🂡 <b>")

    broken = {
        "<b>open": 'Can\'t find end tag corresponding to start tag "b"',
        "a <x> b": 'Unsupported start tag "x" at byte offset 2',
        "<b>x</i>": 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"',
        "3 < 4": 'Unsupported start tag "" at byte offset 2',
        "é</b>": "Unexpected end tag at byte offset 2",
    }
    for text, reason in broken.items():
        status, description = await error(http, "sendMessage", chat_id=alice.id, text=text, parse_mode="HTML")
        assert (status, description) == (400, f"Bad Request: can't parse entities: {reason}")
    # Without parse_mode the same text is fine.
    await ok(http, "sendMessage", chat_id=alice.id, text="3 < 4")


async def test_inline_keyboard_validation(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice")
    tg.user_starts_bot(alice)

    def markup(*buttons: JSONDict) -> JSONDict:
        return {"inline_keyboard": [list(buttons)]}

    too_long = "è" * 32 + "x"  # 65 bytes in UTF-8, 33 characters
    assert await error(
        http,
        "sendMessage",
        chat_id=alice.id,
        text="t",
        reply_markup=markup({"text": "a", "callback_data": too_long}),
    ) == (400, BUTTON_DATA_INVALID)
    await ok(
        http,
        "sendMessage",
        chat_id=alice.id,
        text="t",
        reply_markup=markup({"text": "a", "callback_data": "è" * 32}),
    )

    cant_parse = "Bad Request: can't parse inline keyboard button: "
    bad_buttons: list[tuple[JSONDict, str]] = [
        ({"text": "plain"}, cant_parse + "Text buttons are unallowed in the inline keyboard"),
        ({"callback_data": "x"}, cant_parse + 'Can\'t find field "text"'),
        (
            {"text": "two", "callback_data": "x", "url": "https://example.org"},
            cant_parse + "exactly one of url, callback_data must be used",
        ),
        ({"text": "empty", "callback_data": ""}, BUTTON_DATA_INVALID),
        ({"text": "link", "url": "not a url"}, "Bad Request: BUTTON_URL_INVALID"),
    ]
    for button, description in bad_buttons:
        result = await error(http, "sendMessage", chat_id=alice.id, text="t", reply_markup=markup(button))
        assert result == (400, description)
    flat = {"inline_keyboard": [{"text": "a", "callback_data": "x"}]}
    _, description = await error(http, "sendMessage", chat_id=alice.id, text="t", reply_markup=flat)
    assert "must be an Array of Arrays" in description
    _, description = await error(http, "sendMessage", chat_id=alice.id, text="t", reply_markup="{nope")
    assert description == "Bad Request: can't parse reply keyboard markup JSON object"


# --- editing and deleting -----------------------------------------------------------------------------


async def test_edit_rules(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", members=[alice])
    sent = await ok(
        http, "sendMessage", chat_id=group.id, text="<b>Lobby</b>", parse_mode="HTML", reply_markup=KEYBOARD
    )
    mid = sent["message_id"]

    same = {"chat_id": group.id, "message_id": mid, "text": "<b>Lobby</b>", "parse_mode": "HTML"}
    assert await error(http, "editMessageText", **same, reply_markup=KEYBOARD) == (400, NOT_MODIFIED)
    assert await error(
        http, "editMessageReplyMarkup", chat_id=group.id, message_id=mid, reply_markup=KEYBOARD
    ) == (
        400,
        NOT_MODIFIED,
    )
    # Same visible text but without bold: the entities differ, so it is a change.
    await ok(http, "editMessageText", chat_id=group.id, message_id=mid, text="Lobby", reply_markup=KEYBOARD)
    # Leaving out reply_markup removes the keyboard, as on Telegram.
    edited = await ok(http, "editMessageText", chat_id=group.id, message_id=mid, text="Lobby")
    assert "reply_markup" not in edited and edited["edit_date"] >= edited["date"]
    assert await error(http, "editMessageReplyMarkup", chat_id=group.id, message_id=mid) == (
        400,
        NOT_MODIFIED,
    )

    message = tg.message(group, mid)
    assert message.edit_count == 2 and message.history[0].text == "Lobby" and message.history[0].entities
    assert message.history[1].reply_markup == KEYBOARD and message.reply_markup is None

    assert await error(http, "editMessageText", chat_id=group.id, message_id=999, text="x") == (
        400,
        MESSAGE_TO_EDIT_NOT_FOUND,
    )
    users_message = tg.user_sends(group, alice, "/join")
    assert await error(
        http, "editMessageText", chat_id=group.id, message_id=users_message.message_id, text="x"
    ) == (400, MESSAGE_CANT_BE_EDITED)
    assert await error(http, "deleteMessage", chat_id=group.id, message_id=users_message.message_id) == (
        400,
        "Bad Request: message can't be deleted",
    )

    assert await ok(http, "deleteMessage", chat_id=group.id, message_id=mid) is True
    assert tg.message(group, mid).deleted and mid not in [m.message_id for m in tg.messages(group)]
    assert await error(http, "deleteMessage", chat_id=group.id, message_id=mid) == (
        400,
        MESSAGE_TO_DELETE_NOT_FOUND,
    )
    assert await error(http, "editMessageText", chat_id=group.id, message_id=mid, text="x") == (
        400,
        MESSAGE_TO_EDIT_NOT_FOUND,
    )


# --- users, callbacks, updates ------------------------------------------------------------------------


async def test_commands_entities_and_privacy_mode(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice", language_code="it")
    group = tg.add_group("Table", members=[alice])
    command = tg.user_sends(group, alice, "/newgame@ScopaTestBot scopone")
    assert command.entities == [{"type": "bot_command", "offset": 0, "length": 21}] and command.delivered
    assert not tg.user_sends(group, alice, "just chatting").delivered
    assert not tg.user_sends(group, alice, "/newgame@OtherBot").delivered
    assert tg.user_sends(group, alice, "/join").delivered

    updates = await ok(http, "getUpdates", timeout=0)
    assert [u["message"]["text"] for u in updates] == ["/newgame@ScopaTestBot scopone", "/join"]
    assert updates[0]["message"]["from"]["language_code"] == "it"
    assert updates[1]["update_id"] == updates[0]["update_id"] + 1
    assert [m.message_id for m in tg.messages(group, from_bot=False)] == [1, 2, 3, 4]

    stranger = tg.add_user("Mallory")
    with pytest.raises(SimulationError):
        tg.user_sends(group, stranger, "/join")


async def test_long_polling_offsets_and_conflicts(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice")
    loop = asyncio.get_running_loop()
    started = loop.time()
    poll = asyncio.create_task(ok(http, "getUpdates", timeout=5))
    await asyncio.sleep(0.1)
    tg.user_starts_bot(alice, "g42")
    updates = await poll
    assert loop.time() - started < 2
    assert updates[0]["message"]["text"] == "/start g42"

    again = await ok(http, "getUpdates", timeout=0)
    assert [u["update_id"] for u in again] == [updates[0]["update_id"]]
    assert await ok(http, "getUpdates", offset=updates[0]["update_id"] + 1, timeout=0) == []
    assert tg.pending_updates == [] and tg.confirmed_update_id == updates[0]["update_id"]

    first = asyncio.create_task(call(http, "getUpdates", timeout=5))
    await asyncio.sleep(0.1)
    second = asyncio.create_task(ok(http, "getUpdates", timeout=0.2))
    status, body = await first
    assert (status, body["description"]) == (409, CONFLICT_POLLING)
    assert await second == []

    assert tg.start_payload(tg.deep_link("g42")) == ("ScopaTestBot", "g42")
    assert tg.start_payload("t.me/ScopaTestBot?startgroup=x") is None

    await ok(http, "setWebhook", url="https://example.org/hook")
    assert await error(http, "getUpdates") == (409, CONFLICT_WEBHOOK)
    info = await ok(http, "getWebhookInfo")
    assert info["url"] == "https://example.org/hook"
    _, body = await call(http, "deleteWebhook", drop_pending_updates=True)
    assert body["description"] == "Webhook was deleted"


async def test_callback_queries(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice")
    bob = tg.add_user("Bob")
    group = tg.add_group("Table", members=[alice])
    sent = await ok(http, "sendMessage", chat_id=group.id, text="Lobby", reply_markup=KEYBOARD)
    mid = sent["message_id"]

    with pytest.raises(ButtonNotFound):
        tg.press_button(group, mid, alice, "leave:1")
    with pytest.raises(SimulationError):
        tg.press_button(group, mid, bob, "join:1")
    assert tg.find_button(group, mid, "Jo") == {"text": "Join", "callback_data": "join:1"}
    tap = tg.tap(group, mid, alice, "Join")
    forged = tg.forge_callback(group, 999, alice, "x" * 100)

    updates = await ok(http, "getUpdates")
    query = updates[0]["callback_query"]
    assert query["data"] == "join:1" and query["message"]["message_id"] == mid
    assert query["from"]["id"] == alice.id and query["chat_instance"]
    assert updates[1]["callback_query"]["message"] == {"chat": group.to_api(), "message_id": 999, "date": 0}
    assert tap.fetched_at is not None and forged.forged

    await ok(http, "answerCallbackQuery", callback_query_id=tap.id, text="Joined!", show_alert=True)
    assert tap.answered and tap.answer_text == "Joined!" and tap.show_alert
    assert tap.answer_delay is not None and 0 <= tap.answer_delay < 1
    assert await error(http, "answerCallbackQuery", callback_query_id=tap.id) == (400, QUERY_INVALID)
    assert await error(http, "answerCallbackQuery", callback_query_id="123") == (400, QUERY_INVALID)
    assert await error(http, "answerCallbackQuery", callback_query_id=forged.id, text="x" * 201) == (
        400,
        "Bad Request: MESSAGE_TOO_LONG",
    )

    await ok(http, "deleteMessage", chat_id=group.id, message_id=mid)
    with pytest.raises(ButtonNotFound):
        tg.press_button(group, mid, alice, "join:1")


async def test_callback_answer_timeout() -> None:
    async with FakeTelegramServer(callback_answer_timeout=0.05) as tg:
        alice = tg.add_user("Alice")
        tg.user_starts_bot(alice)
        async with httpx.AsyncClient(base_url=f"{tg.base_url}{tg.token}/") as http:
            await ok(http, "sendMessage", chat_id=alice.id, text="t", reply_markup=KEYBOARD)
            tap = tg.press_button(alice, 2, alice, "join:1")
            await asyncio.sleep(0.1)
            assert await error(http, "answerCallbackQuery", callback_query_id=tap.id) == (400, QUERY_INVALID)


async def test_chats_and_members(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    owner, admin, member, outsider = (tg.add_user(n) for n in ("Olga", "Adam", "Mia", "Otto"))
    group = tg.add_group("Table", owner=owner, admins=[admin], members=[member], username="scopa_table")
    statuses = {
        user.id: (await ok(http, "getChatMember", chat_id=group.id, user_id=user.id))["status"]
        for user in (owner, admin, member, outsider)
    }
    assert statuses == {
        owner.id: "creator",
        admin.id: "administrator",
        member.id: "member",
        outsider.id: "left",
    }
    bot = await ok(http, "getChatMember", chat_id="@scopa_table", user_id=tg.bot.id)
    assert bot["status"] == "member"
    admins = await ok(http, "getChatAdministrators", chat_id=group.id)
    assert {a["user"]["id"] for a in admins} == {owner.id, admin.id}
    assert await error(http, "getChatMember", chat_id=group.id, user_id=5) == (
        400,
        "Bad Request: user not found",
    )
    chat = await ok(http, "getChat", chat_id=group.id)
    assert chat["type"] == "supergroup" and chat["title"] == "Table" and str(group.id).startswith("-100")
    assert await ok(http, "getChatMemberCount", chat_id=group.id) == 4


async def test_a_basic_group_upgraded_to_a_supergroup_refuses_its_old_id(
        tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    owner, member = tg.add_user("Olga"), tg.add_user("Mia")
    group = tg.add_group("Table", owner=owner, members=[member], supergroup=False)
    assert group.type == "group"
    await ok(http, "sendMessage", chat_id=group.id, text="before")
    supergroup = tg.upgrade_group(group, by=owner)
    assert (supergroup.type, supergroup.title, str(supergroup.id)[:4]) == ("supergroup", "Table", "-100")
    assert supergroup.is_member(member) and supergroup.bot_present
    for method, params in (("sendMessage", {"text": "after"}), ("editMessageText", {"message_id": 1,
                                                                                   "text": "x"}),
                           ("getChatMember", {"user_id": member.id})):
        status, body = await call(http, method, chat_id=group.id, **params)
        assert (status, body["description"], body["parameters"]) == (
            400, "Bad Request: group chat was upgraded to a supergroup chat",
            {"migrate_to_chat_id": supergroup.id})
    await ok(http, "sendMessage", chat_id=supergroup.id, text="after")
    services = [u["message"] for u in await ok(http, "getUpdates", timeout=0)]
    assert [(m["chat"]["id"], m.get("migrate_to_chat_id"), m.get("migrate_from_chat_id"))
            for m in services] == [(group.id, supergroup.id, None), (supergroup.id, None, group.id)]
    with pytest.raises(SimulationError):
        tg.user_sends(group, owner, "/newgame")
    with pytest.raises(SimulationError):
        tg.upgrade_group(supergroup)


async def test_membership_follows_bans_restrictions_and_leaving(tg: FakeTelegramServer,
                                                                 http: httpx.AsyncClient) -> None:
    owner, banned, quiet, outsider = (tg.add_user(n) for n in ("Olga", "Bert", "Quinn", "Otto"))
    group = tg.add_group("Table", owner=owner, members=[banned, quiet], username="scopa_table")
    private = tg.add_group("Den", owner=owner)
    tg.ban_user(group, banned, by=owner)
    tg.restrict_user(group, quiet, is_member=True)

    async def member(user: FakeUser) -> JSONDict:
        return await ok(http, "getChatMember", chat_id=group.id, user_id=user.id)

    assert (await member(banned))["status"] == "kicked"
    restricted = await member(quiet)
    assert restricted["status"] == "restricted" and restricted["is_member"] is True
    tg.user_leaves(group, quiet)
    assert (await member(quiet))["is_member"] is False, "restricted, and gone"
    tg.user_joins(group, quiet)
    assert (await member(quiet))["is_member"] is True
    await ok(http, "sendMessage", chat_id=group.id, text="t", reply_markup=KEYBOARD)
    await ok(http, "sendMessage", chat_id=private.id, text="t", reply_markup=KEYBOARD)
    shown = tg.last_message(group)
    assert shown is not None
    tg.press_button(group, shown, outsider, "join:1")
    with pytest.raises(SimulationError):
        tg.press_button(private, 1, outsider, "join:1")


async def test_commands_are_recorded_per_scope_and_language(
    tg: FakeTelegramServer, http: httpx.AsyncClient
) -> None:
    italian = [{"command": "nuova", "description": "Nuova partita"}]
    english = [{"command": "newgame", "description": "New game"}]
    groups = {"type": "all_group_chats"}
    await ok(http, "setMyCommands", commands=italian, language_code="it")
    await ok(http, "setMyCommands", commands=english, scope=groups)
    assert tg.get_commands(language_code="it") == italian
    assert tg.get_commands(scope=groups) == english
    assert tg.get_commands() == []
    assert await ok(http, "getMyCommands", scope=groups) == english
    assert await error(http, "setMyCommands", commands=[{"command": "New", "description": "x"}]) == (
        400,
        "Bad Request: BOT_COMMAND_INVALID",
    )
    await ok(http, "deleteMyCommands", language_code="it")
    assert tg.get_commands(language_code="it") == []


# --- rate limits ----------------------------------------------------------------------------------------


async def test_429_storm_and_counters(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice")
    tg.user_starts_bot(alice)
    tg.storm_429(2, retry_after=3, methods=["sendMessage"])
    await ok(http, "getMe")
    for _ in range(2):
        status, body = await call(http, "sendMessage", chat_id=alice.id, text="hi")
        assert status == 429
        assert body == {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 3",
            "parameters": {"retry_after": 3},
        }
    await ok(http, "sendMessage", chat_id=alice.id, text="hi")
    assert tg.request_counts["sendMessage"] == 3 and tg.rate_limited_counts["sendMessage"] == 2
    assert tg.rate_limited_counts["getMe"] == 0
    assert [m.text for m in tg.messages(alice, from_bot=True)] == ["hi"]

    tg.fail_next(1, error_code=502, description="Bad Gateway")
    assert await error(http, "getMe") == (502, "Bad Gateway")


async def test_flood_control_per_group(http: httpx.AsyncClient, tg: FakeTelegramServer) -> None:
    tg.flood_control = True
    group = tg.add_group("Busy")
    for n in range(20):
        await ok(http, "sendMessage", chat_id=group.id, text=f"m{n}")
    status, body = await call(http, "sendMessage", chat_id=group.id, text="one too many")
    assert status == 429 and 1 <= body["parameters"]["retry_after"] <= 60
    other = tg.add_group("Quiet")
    await ok(http, "sendMessage", chat_id=other.id, text="fine")


async def test_stop_ends_a_pending_long_poll(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    poll = asyncio.create_task(ok(http, "getUpdates", timeout=30))
    await asyncio.sleep(0.1)
    await tg.stop()
    assert await poll == []
    assert loop.time() - started < 3


# --- webhook ----------------------------------------------------------------------------------------------


async def test_webhook_delivery(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    received: list[tuple[str | None, JSONDict]] = []

    async def hook(request: web.Request) -> web.Response:
        received.append((request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json()))
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        await ok(http, "setWebhook", url=f"http://127.0.0.1:{port}/hook", secret_token="s3cret")
        alice = tg.add_user("Alice")
        tg.user_starts_bot(alice)
        await tg.wait_for(lambda: received, timeout=3)
        secret, update = received[0]
        assert secret == "s3cret" and update["message"]["text"] == "/start"
        await tg.wait_for(lambda: not tg.pending_updates, timeout=3)
    finally:
        await runner.cleanup()


# --- a real python-telegram-bot Application ---------------------------------------------------------


def build_app(tg: FakeTelegramServer, *, rate_limiter: AIORateLimiter | None = None) -> Application:
    builder = ApplicationBuilder().token(tg.token).base_url(tg.base_url).base_file_url(tg.base_file_url)
    if rate_limiter is not None:
        builder = builder.rate_limiter(rate_limiter)
    return builder.build()


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Again", callback_data="again")]])
    await update.effective_message.reply_text(
        " ".join(context.args or []) or "(nothing)", reply_markup=keyboard
    )


async def again(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.callback_query is not None
    await update.callback_query.answer("Again!")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def run_polling(app: Application) -> None:
    await app.initialize()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0, timeout=dtm.timedelta(seconds=1))
    await app.start()


async def stop_app(app: Application) -> None:
    assert app.updater is not None
    await app.updater.stop()
    await app.stop()
    await app.shutdown()


async def test_ptb_application_echoes_a_command(tg: FakeTelegramServer) -> None:
    app = build_app(tg)
    app.add_handler(CommandHandler("echo", echo))
    app.add_handler(CallbackQueryHandler(again, pattern="^again$"))
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", members=[alice])
    await run_polling(app)
    try:
        command = tg.user_sends(group, alice, "/echo@ScopaTestBot ciao a tutti")
        reply = await tg.wait_for_message(group, contains="ciao", timeout=5)
        assert reply.text == "ciao a tutti" and reply.from_bot
        assert reply.message_id == command.message_id + 1
        assert reply.button_texts == ["Again"]

        tap = tg.tap(group, reply, alice, "Again")
        await tg.wait_for(lambda: tap.answered, timeout=5)
        assert tap.answer_text == "Again!" and not tap.show_alert
    finally:
        await stop_app(app)
    assert tg.request_counts["getMe"] == 1 and tg.request_counts["deleteWebhook"] == 1
    assert tg.pending_updates == []


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_ptb_rate_limiter_waits_out_a_429_storm(tg: FakeTelegramServer) -> None:
    """PTB 22 itself reads ``RetryAfter.retry_after`` (deprecated as an int) when building the error."""
    app = build_app(tg, rate_limiter=AIORateLimiter(max_retries=3))
    app.add_handler(CommandHandler("echo", echo))
    alice = tg.add_user("Alice")
    await run_polling(app)
    try:
        tg.storm_429(2, retry_after=0.2, methods=["sendMessage"])
        tg.user_starts_bot(alice)
        tg.user_sends(alice, alice, "/echo still here")
        reply = await tg.wait_for_message(alice, contains="still here", timeout=5)
        assert reply.text == "still here"
    finally:
        await stop_app(app)
    assert tg.rate_limited_counts["sendMessage"] == 2
    assert tg.request_counts["sendMessage"] == 3


async def test_ptb_application_in_webhook_mode(tg: FakeTelegramServer) -> None:
    app = build_app(tg)
    app.add_handler(CommandHandler("echo", echo))
    port = free_port()
    await app.initialize()
    assert app.updater is not None
    await app.updater.start_webhook(
        listen="127.0.0.1",
        port=port,
        url_path="telegram",
        webhook_url=f"http://127.0.0.1:{port}/telegram",
        secret_token="s3cret",
    )
    await app.start()
    try:
        alice = tg.add_user("Alice")
        tg.user_starts_bot(alice)
        tg.user_sends(alice, alice, "/echo via webhook")
        reply = await tg.wait_for_message(alice, contains="via webhook", timeout=5)
        assert reply.text == "via webhook"
    finally:
        await stop_app(app)
    assert tg.webhook is not None and tg.webhook.secret_token == "s3cret"
    assert tg.webhook.delivered == 2 and tg.webhook.last_error_message is None


# --- photos ------------------------------------------------------------------------------------------

def _jpeg() -> bytes:
    """A small picture, as Telegram wants a photo to be."""
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.new("RGB", (8, 6), "green").save(out, "JPEG")
    return out.getvalue()


async def _upload(http: httpx.AsyncClient, method: str, field: str = "photo", data: bytes | None = None,
                  **params: Any) -> tuple[int, JSONDict]:
    form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
    picture = _jpeg() if data is None else data
    response = await http.post(method, data=form, files={field: ("table.jpg", picture, "image/jpeg")})
    return response.status_code, response.json()


async def test_photos_are_uploaded_and_edited_as_telegram_allows(tg: FakeTelegramServer,
                                                                 http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Scopa night", members=[alice])
    status, body = await _upload(http, "sendPhoto", chat_id=group.id, caption="<b>Round 1</b>",
                                 parse_mode="HTML", reply_markup=KEYBOARD)
    assert status == 200, body
    photo_id = body["result"]["message_id"]
    assert body["result"]["caption"] == "Round 1" and body["result"]["photo"]
    message = tg.message(group, photo_id)
    assert message.photo is not None and message.text is None and message.callback_data == ["join:1"]

    assert await error(http, "editMessageText", chat_id=group.id, message_id=photo_id, text="x") == (
        400, NO_TEXT_TO_EDIT)
    assert await error(http, "sendPhoto", chat_id=group.id, photo="AgACAgQAAx0") == (400, WRONG_FILE)
    assert await _upload(http, "sendPhoto", data=b"\xff\xd8 no picture", chat_id=group.id) == (
        400, {"ok": False, "error_code": 400, "description": "Bad Request: IMAGE_PROCESS_FAILED"})
    status, body = await _upload(http, "sendPhoto", chat_id=group.id, caption="x" * 1025)
    assert (status, body["description"]) == (400, CAPTION_TOO_LONG)

    await ok(http, "editMessageCaption", chat_id=group.id, message_id=photo_id, caption="Round 2")
    assert message.caption == "Round 2" and message.photo is not None
    assert await error(http, "editMessageCaption", chat_id=group.id, message_id=photo_id,
                       caption="Round 2") == (400, NOT_MODIFIED)
    status, body = await _upload(http, "editMessageMedia", field="pic", chat_id=group.id, message_id=photo_id,
                                 media={"type": "photo", "media": "attach://pic", "caption": "Round 3"})
    assert status == 200, body
    assert message.caption == "Round 3" and len(message.photo_history) == 1

    text_id = (await ok(http, "sendMessage", chat_id=group.id, text="Table"))["message_id"]
    status, body = await _upload(http, "editMessageMedia", field="pic", chat_id=group.id, message_id=text_id,
                                 media={"type": "photo", "media": "attach://pic"})
    assert (status, body["description"]) == (400, NO_MEDIA_TO_EDIT)
    assert await error(http, "editMessageCaption", chat_id=group.id, message_id=text_id,
                       caption="x") == (400, NO_CAPTION_TO_EDIT)


async def test_a_group_that_forbids_photos_refuses_them(tg: FakeTelegramServer,
                                                        http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("No pictures", members=[alice])
    tg.set_permissions(group, can_send_photos=False)
    status, body = await _upload(http, "sendPhoto", chat_id=group.id)
    assert (status, body["description"]) == (400, NO_PHOTO_RIGHTS)
    await ok(http, "sendMessage", chat_id=group.id, text="text still goes")
    tg.user_starts_bot(alice)
    status, _ = await _upload(http, "sendPhoto", chat_id=alice.id)
    assert status == 200, "private chats take photos"


async def test_edits_count_against_a_groups_minute(tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    tg.flood_control = True
    group = tg.add_group("Busy", members=[tg.add_user("Alice")])
    sent = await ok(http, "sendMessage", chat_id=group.id, text="0")
    for n in range(1, 20):
        await ok(http, "editMessageText", chat_id=group.id, message_id=sent["message_id"], text=str(n))
    status, body = await call(http, "editMessageText", chat_id=group.id, message_id=sent["message_id"],
                              text="x")
    assert status == 429 and body["parameters"]["retry_after"] >= 1
    assert tg.busiest_minute(group) == 20


# --- forums --------------------------------------------------------------------------------------------


async def test_a_forum_keeps_each_topics_messages_apart_and_general_has_no_thread(
        tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    alice = tg.add_user("Alice")
    forum = tg.add_group("Forum", members=[alice], forum=True)
    topic = tg.create_topic(forum, alice, "Scopa")
    created = tg.message(forum, topic)
    assert created.service["forum_topic_created"]["name"] == "Scopa" and created.thread == topic
    assert topic != 1, "General's id is never a topic's"
    sent = await ok(http, "sendMessage", chat_id=forum.id, text="in the topic", message_thread_id=topic)
    assert (sent["message_thread_id"], sent["is_topic_message"]) == (topic, True)
    assert sent["chat"]["is_forum"]
    assert sent["reply_to_message"]["message_id"] == topic, "a topic's messages answer its first one"
    general = await ok(http, "sendMessage", chat_id=forum.id, text="in General")
    assert "message_thread_id" not in general and "is_topic_message" not in general
    assert [m.text for m in tg.topic_messages(forum, topic)] == ["in the topic"]
    assert [m.text for m in tg.topic_messages(forum, None)] == ["in General"]
    typed = tg.user_sends(forum, alice, "/newgame", thread=topic).to_api()
    assert (typed["message_thread_id"], typed["is_topic_message"]) == (topic, True)
    plain = tg.add_group("Plain", members=[alice])
    assert "is_forum" not in plain.to_api()
    for chat_id, thread in ((forum.id, 1), (forum.id, topic + 100), (plain.id, topic)):
        assert await error(http, "sendMessage", chat_id=chat_id, text="x",
                           message_thread_id=thread) == (400, THREAD_NOT_FOUND)
    with pytest.raises(SimulationError):
        tg.create_topic(plain, alice, "Nope")


async def test_a_closed_topic_refuses_the_bot_and_a_deleted_one_is_not_found(
        tg: FakeTelegramServer, http: httpx.AsyncClient) -> None:
    alice, ada = tg.add_user("Alice"), tg.add_user("Ada")
    forum = tg.add_group("Forum", members=[alice], admins=[ada], forum=True)
    topic = tg.create_topic(forum, alice, "Scopa")
    sent = await ok(http, "sendMessage", chat_id=forum.id, text="table", message_thread_id=topic)
    tg.close_topic(forum, topic, ada)
    assert await error(http, "sendMessage", chat_id=forum.id, text="x",
                       message_thread_id=topic) == (400, TOPIC_CLOSED)
    assert await error(http, "editMessageText", chat_id=forum.id, message_id=sent["message_id"],
                       text="table again") == (400, TOPIC_CLOSED)
    with pytest.raises(SimulationError):
        tg.user_sends(forum, alice, "hello?", thread=topic)
    await ok(http, "sendMessage", chat_id=forum.id, text="General still takes messages")
    tg.reopen_topic(forum, topic, ada)
    await ok(http, "editMessageText", chat_id=forum.id, message_id=sent["message_id"], text="table again")
    tg.delete_topic(forum, topic)
    assert tg.topic_messages(forum, topic, from_bot=None) == []
    assert await error(http, "sendMessage", chat_id=forum.id, text="x",
                       message_thread_id=topic) == (400, THREAD_NOT_FOUND)
    assert await error(http, "editMessageText", chat_id=forum.id, message_id=sent["message_id"],
                       text="gone") == (400, MESSAGE_TO_EDIT_NOT_FOUND)
    admin_forum = tg.add_group("Admins' forum", members=[alice], admins=[ada], forum=True, bot_is_admin=True)
    closed = tg.create_topic(admin_forum, ada, "Closed")
    tg.close_topic(admin_forum, closed, ada)
    await ok(http, "sendMessage", chat_id=admin_forum.id, text="an administrator may",
             message_thread_id=closed)
