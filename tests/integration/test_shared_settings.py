"""Settings set through one bot process hold in another on the same database: each "process"
is a sessions layer and a Telegram presenter of its own on one store (the in-memory one, told it
is shared, and a real PostgreSQL). A presenter that kept its own copy drew the group in the
language it first read. Whatever one process changed, another, or one started afresh on the
store, draws a game's messages alike."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.adapters.telegram.keyboards import lobby_keyboard
from bot.adapters.telegram.markup import lobby_html
from bot.adapters.telegram.outbox import Content, outbox_for
from bot.adapters.telegram.present import Presenter
from bot.sessions import ChatRef, Sessions, UserRef
from bot.storage.backends import open_store

from .. import pg
from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import play_one, start_duel

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

GROUP = ChatRef(PLATFORM, "-100")
ALICE = UserRef(PLATFORM, "1", "Alice", "en")


class NoBot:
    """Nothing is sent in these tests: only what each process would draw."""

    async def do_api_request(self, method: str, api_kwargs: dict[str, Any]) -> Any:
        raise AssertionError(f"nothing is sent here ({method})")


def process(store: Any) -> Presenter:
    sessions = Sessions(store)
    outbox = outbox_for(NoBot(), sessions.delivery, group_rate=None)  # type: ignore[arg-type]
    return Presenter(sessions, outbox, lambda: "ScopaTestBot")


@pytest.fixture(params=["memory", "postgresql"])
async def two(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Presenter, Presenter]]:
    if request.param == "memory":
        shared = MemoryStore()
        shared.shared = True  # type: ignore[misc]
        stores: list[Any] = [shared, shared]
    else:
        cluster = pg.shared_cluster()
        url = await cluster.create_database()
        stores = [await open_store(url), await open_store(url)]
    made = (process(stores[0]), process(stores[1]))
    yield made
    for presenter in made:
        await presenter.outbox.close()
    if request.param == "postgresql":
        for store in stores:
            await store.close()
        await cluster.drop_database(url)


async def test_a_language_set_in_one_process_is_used_by_another(two: tuple[Presenter, Presenter]) -> None:
    one, other = two
    lobby = await one.sessions.lobby.new_game(GROUP, ALICE)
    assert await other.chat_language(-100) == "en"
    await one.sessions.settings.set_chat_language(GROUP, "es")
    assert await other.chat_language(-100) == "es", "the group's language, read again"
    drawn = await other.draw_table(lobby.game_id, -100)
    assert drawn is not None
    assert drawn.text == lobby_html(await other.sessions.queries.lobby_of(lobby.game_id), "es")

    alice = await other.sessions.queries.find_player(PLATFORM, "1")
    assert other.language(alice) == "en"
    await one.sessions.settings.set_player_language(ALICE, "es")
    assert other.language(await other.sessions.queries.find_player(PLATFORM, "1")) == "es"


async def test_pictures_reachability_and_the_open_menu_hold_in_every_process(
        two: tuple[Presenter, Presenter]) -> None:
    one, other = two
    lobby = await one.sessions.lobby.new_game(GROUP, ALICE)
    assert await other.chat_pictures(-100)
    await one.sessions.settings.set_pictures(GROUP, False)
    assert not await other.chat_pictures(-100), "text from now on, whichever process draws"

    await one.set_reachable(ALICE, True)
    assert other.reachable(await other.sessions.queries.find_player(PLATFORM, "1"))  # type: ignore[arg-type]
    await other.set_reachable(ALICE, False)
    await one.set_reachable(ALICE, True)
    assert other.reachable(await other.sessions.queries.find_player(PLATFORM, "1")), (  # type: ignore[arg-type]
        "a player who opened the chat again is reachable, though this process saw them blocked")

    one.menus[lobby.game_id] = "options"
    assert await one.menus.shown(lobby.game_id) == "options", "at once in the process that set it"
    await one.menus.written(lobby.game_id)
    drawn = await other.draw_table(lobby.game_id, -100)
    view = await other.sessions.queries.lobby_of(lobby.game_id)
    assert drawn is not None and drawn.keyboard == lobby_keyboard(view, "en", "options")


BOB = UserRef(PLATFORM, "2", "Bob", "it")


async def drawings(presenter: Presenter, game_id: int) -> tuple[Content | None, ...]:
    """The game's table and both players' hands as `presenter` draws them."""
    return (await presenter.draw_table(game_id, -100), await presenter.draw_hand(game_id, ALICE.key),
            await presenter.draw_hand(game_id, BOB.key))


async def change_everything(changer: Presenter, game_id: int) -> None:
    """A move, and every setting a drawing reads changed, through `changer` alone."""
    await play_one(changer.sessions, game_id, ALICE, BOB)
    await changer.sessions.settings.set_chat_language(GROUP, "es")
    await changer.sessions.settings.set_pictures(GROUP, False)
    await changer.sessions.settings.set_player_language(BOB, "en")
    await changer.set_reachable(ALICE, True)
    await changer.set_reachable(BOB, True)


async def test_every_process_draws_a_game_alike_whatever_another_changed(
        two: tuple[Presenter, Presenter]) -> None:
    one, other = two
    game_id = await start_duel(one.sessions, GROUP, ALICE, BOB)
    before = await drawings(other, game_id)
    assert before == await drawings(one, game_id)
    await change_everything(one, game_id)
    after = await drawings(other, game_id)
    assert after == await drawings(one, game_id), "the table and the hands, alike in both processes"
    assert after != before
    table = after[0]
    assert table is not None and "En la mesa" in table.text, "in the group's new language"


async def test_a_restarted_process_draws_a_game_as_the_one_before_did() -> None:
    """A process alone on its store keeps what it read: what it changed shows in its drawings
    as in those of a process started afresh on the same store."""
    store = MemoryStore()
    first = process(store)
    game_id = await start_duel(first.sessions, GROUP, ALICE, BOB)
    assert await drawings(first, game_id) == await drawings(process(store), game_id)
    await change_everything(first, game_id)
    assert await drawings(first, game_id) == await drawings(process(store), game_id)
