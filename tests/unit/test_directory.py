"""The sessions' directory is the one place a chat's and a player's settings are kept: a process
alone on its store reads them once and keeps them up to date as it changes them, so a drawing
costs no lookup; with other processes on the store every read is the store's."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.sessions import ChatRef, Sessions, UserRef

from ..fakes.memory_store import MemoryStore

GROUP = ChatRef("telegram", "-100", "Friends")
ALICE = UserRef("telegram", "1", "Alice")


class Counting:
    """The store, with the calls made to it counted by name."""

    def __init__(self, inner: MemoryStore) -> None:
        self._inner = inner
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._inner, name)
        if not callable(found) or name.startswith("_"):
            return found

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return found(*args, **kwargs)

        return counted


def counting(shared: bool) -> tuple[Sessions, Counting]:
    inner = MemoryStore()
    inner.shared = shared
    store = Counting(inner)
    return Sessions(store), store


async def test_a_process_alone_reads_a_chat_once_and_sees_its_own_changes() -> None:
    sessions, store = counting(shared=False)
    assert (await sessions.queries.chat(GROUP)).language == "it"
    await sessions.settings.set_chat_language(GROUP, "es")
    await sessions.settings.set_pictures(GROUP, False)
    store.calls.clear()
    for _ in range(3):
        settings = await sessions.queries.chat(ChatRef("telegram", "-100"))
        assert (settings.language, settings.pictures) == ("es", False)
    assert store.calls["ensure_chat"] == 0 and store.calls["get_chat"] == 0


async def test_a_process_sharing_its_store_reads_a_chat_each_time() -> None:
    sessions, store = counting(shared=True)
    await sessions.queries.chat(GROUP)
    store.calls.clear()
    for _ in range(3):
        await sessions.queries.chat(GROUP)
    assert store.calls["ensure_chat"] == 3


async def test_a_players_setting_is_written_only_when_it_changes() -> None:
    sessions, store = counting(shared=False)
    await sessions.settings.set_can_dm(ALICE, True)
    await sessions.settings.set_can_dm(ALICE, True)
    await sessions.settings.set_player_language(ALICE, "en")
    assert store.calls["update_player"] == 2
    player = await sessions.queries.player(ALICE)
    assert (player.can_dm, player.language) == (True, "en")
