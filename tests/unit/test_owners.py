"""The owners' tools in the sessions (`bot/sessions/owners.py`) on the in-memory store: who may
use them, /botstatus, /notice delivered once per chat by several processes, /block."""

from __future__ import annotations

import pytest

from bot.render.owners import notice_text, owner_text
from bot.sessions import ChatRef, Sessions, UserRef
from bot.sessions.owners import BotStatus, parse_owners
from bot.sessions.ports import NoticeDelivery
from bot.sessions.refusals import Reason, Refused
from bot.sessions.replies import Refusal
from bot.sessions.tap import Action, Asker, Say, Tap

from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import FakeClock, first_legal

OWNER = UserRef("telegram", "1", "Olga", "en")
PLAYER = UserRef("telegram", "2", "Piero", "it")
OTHER = UserRef("telegram", "3", "Rita", "it")


def _sessions(store: MemoryStore, clock: FakeClock) -> Sessions:
    sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)  # type: ignore[arg-type]
    sessions.owners.name(parse_owners("telegram:1, discord:99"))
    return sessions


@pytest.fixture
def store(clock: FakeClock) -> MemoryStore:
    return MemoryStore(clock)


@pytest.fixture
def bot(store: MemoryStore, clock: FakeClock) -> Sessions:
    return _sessions(store, clock)


async def _match(sessions: Sessions, chat: str, *users: UserRef) -> int:
    where = ChatRef("telegram", chat, "Friends")
    lobby = await sessions.lobby.new_game(where, users[0])
    for user in users[1:]:
        await sessions.lobby.join(where, user)
    await sessions.lobby.start(where, users[0])
    return lobby.game_id


def test_owners_are_platform_id_pairs_and_anything_else_is_refused() -> None:
    assert parse_owners(" telegram:1,Discord:99 ;telegram:5") == {
        ("telegram", "1"), ("discord", "99"), ("telegram", "5")}
    assert parse_owners(None) == frozenset() == parse_owners("")
    for wrong in ("1", "telegram:abc", "whatsapp:1", "telegram 1"):
        with pytest.raises(ValueError, match="platform:id"):
            parse_owners(wrong)


@pytest.mark.parametrize("name", ["botstatus", "notice", "block", "unblock"])
async def test_nobody_else_and_nowhere_else_gets_an_owner_command(bot: Sessions, name: str) -> None:
    assert await bot.owners.command(PLAYER, True, name, "2") is None
    assert await bot.owners.command(OWNER, False, name, "2") is None
    assert await bot.owners.command(UserRef("discord", "1", "Olga"), True, name, "2") is None
    assert await bot.owners.command(OWNER, True, "shutdown", "") is None


async def test_botstatus_counts_games_players_processes_and_queues(bot: Sessions, store: MemoryStore,
                                                                   clock: FakeClock) -> None:
    await _match(bot, "g1", PLAYER, OTHER)
    await bot.lobby.new_game(ChatRef("telegram", "g2", "Others"), OWNER)
    await bot.owners.beat("telegram")
    other = _sessions(store, clock)
    await other.owners.beat("telegram")
    clock.advance(5)
    status = await bot.owners.command(OWNER, True, "botstatus", "")
    assert isinstance(status, BotStatus)
    assert (status.store.running, status.store.lobbies, status.store.players_today) == (1, 1, 3)
    assert len(status.alive) == 2 and status.silent == 0
    clock.advance(60)
    await other.owners.beat("telegram")
    status = await bot.owners.status()
    assert [p.process for p in status.alive] == [other.owners.process] and status.silent == 1
    text = owner_text(status, "en")
    assert "Matches in play: 1 · lobbies open: 1" in text and "Players today: 3" in text
    assert "1 process alive:" in text and "1 process silent" in text
    assert "/notice TEXT" in text


async def test_a_notice_reaches_each_chat_in_play_once_though_several_processes_deliver(
        bot: Sessions, store: MemoryStore, clock: FakeClock) -> None:
    await _match(bot, "g1", PLAYER, OTHER)
    await bot.lobby.new_game(ChatRef("telegram", "g2", "Others"), OWNER)
    await bot.lobby.new_game(ChatRef("discord", "c3", "Elsewhere"), UserRef("discord", "7", "Ugo"))
    said = await bot.owners.command(OWNER, True, "notice", "  Restart in 5 minutes  ")
    assert said == Say("owners.notice.sent", {"count": 3})
    assert owner_text(said, "en") == "The notice goes to 3 chats with a game in play, once each."
    posted: list[tuple[str, str]] = []
    failing = {"g2"}

    async def post(owed: NoticeDelivery) -> bool:
        if owed.chat_key in failing:
            failing.clear()
            return False
        posted.append((owed.chat_key, owed.text))
        return True

    others = [_sessions(store, clock) for _ in range(2)]
    for sessions in (bot, *others):
        await sessions.owners.deliver_notices("telegram", None, post)
    assert posted == [("g1", "Restart in 5 minutes"), ("g2", "Restart in 5 minutes")]
    for sessions in (bot, *others):
        await sessions.owners.deliver_notices("telegram", None, post)
    assert len(posted) == 2
    assert notice_text("Restart in 5 minutes", "it") == "📢 Dal gestore del bot: Restart in 5 minutes"


async def test_a_notice_a_chat_refuses_for_good_is_not_tried_again(bot: Sessions) -> None:
    await bot.lobby.new_game(ChatRef("telegram", "g1", "Friends"), PLAYER)
    await bot.owners.command(OWNER, True, "notice", "Hi")
    tries: list[str] = []

    async def refused(owed: NoticeDelivery) -> None:
        tries.append(owed.chat_key)

    await bot.owners.deliver_notices("telegram", None, refused)
    await bot.owners.deliver_notices("telegram", None, refused)
    assert tries == ["g1"]


@pytest.mark.parametrize(("words", "key"), [("", "owners.notice.empty"), ("x" * 1001, "owners.notice.long")])
async def test_an_empty_or_long_notice_sends_nothing(bot: Sessions, words: str, key: str) -> None:
    await bot.lobby.new_game(ChatRef("telegram", "g1", "Friends"), PLAYER)
    said = await bot.owners.command(OWNER, True, "notice", words)
    assert isinstance(said, Say) and said.key == key
    assert (await bot.owners.status()).store.notices_owed == 0


async def test_a_blocked_user_is_refused_everywhere_and_in_every_process_until_unblocked(
        bot: Sessions, store: MemoryStore, clock: FakeClock) -> None:
    game_id = await _match(bot, "g1", PLAYER, OTHER)
    other = _sessions(store, clock)
    await other.owners.admit(PLAYER)
    said = await bot.owners.command(OWNER, True, "block", " 2 ")
    assert said == Say("owners.block.done", {"user": "telegram:2"})
    with pytest.raises(Refused) as refused:
        await bot.owners.admit(PLAYER)
    assert refused.value.reason is Reason.BLOCKED
    await bot.owners.admit(OTHER)
    await bot.owners.admit(UserRef("discord", "2", "Piero"))
    tap = await bot.handle(Asker(PLAYER, ChatRef("telegram", "g1")), Tap(Action.JOIN, game_id))
    assert isinstance(tap, Refusal) and tap.refused.reason is Reason.BLOCKED
    with pytest.raises(Refused):
        await other.owners.admit(PLAYER)
    restarted = _sessions(store, clock)
    with pytest.raises(Refused):
        await restarted.owners.admit(PLAYER)
    assert await bot.owners.command(OWNER, True, "block", "telegram:2") == Say(
        "owners.block.already", {"user": "telegram:2"})
    assert await other.owners.command(OWNER, True, "unblock", "2") == Say(
        "owners.unblock.done", {"user": "telegram:2"})
    await other.owners.admit(PLAYER)
    await bot.owners.admit(PLAYER)


@pytest.mark.parametrize(("words", "said"), [
    ("", Say("owners.block.usage")), ("Piero", Say("owners.block.usage")), ("2 3", Say("owners.block.usage")),
    ("discord:99", Say("owners.block.owner", {"user": "discord:99"})),
    ("<@!42>", Say("owners.block.done", {"user": "telegram:42"})),
    ("Discord:42", Say("owners.block.done", {"user": "discord:42"})),
])
async def test_block_takes_an_id_and_never_an_owner(bot: Sessions, words: str, said: Say) -> None:
    assert await bot.owners.command(OWNER, True, "block", words) == said
