"""A player's data on Telegram, as a user meets it: /privacy says what is kept, /mydata sends
it all as a JSON file, /forgetme asks first (only its owner's fresh tap counts) and then erases
them in the middle of a match: the group is told plainly, the computer plays their seat to the
end, the board keeps their results as a former player's, and the database holds neither their
name nor their id. In a group the three commands say they work in the private chat."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.adapters.telegram.privacy import CONFIRM
from bot.sessions import ChatRef, UserRef
from bot.sessions.privacy import CONFIRM_FOR

from ..fakes.telegram_server import FakeMessage, FakeTelegramServer, FakeUser
from ..privacy_helpers import naming, rows_of, texts
from ..sessions_helpers import play_to_end, start_duel
from ..telegram_helpers import Duel, answered, bot_messages, duel, match_over, play_until_over, shown

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

async def _said(tg: FakeTelegramServer, user: FakeUser, contains: str) -> FakeMessage:
    found = await tg.wait_for(lambda: next((m for m in reversed(bot_messages(tg, user))
                                            if contains in shown(m)), None), what=repr(contains))
    assert found is not None
    return found


async def test_mydata_and_forgetme_in_the_middle_of_a_match(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    async with duel(db) as d:
        await _run(d, db)


async def _run(d: Duel, db: Path) -> None:
    tg, alice, bob, group, sessions = d.tg, d.alice, d.bob, d.group, d.bot.sessions
    cousins = tg.add_group("Cousins", members=[alice, bob])
    a_ref = UserRef(PLATFORM, str(alice.id), alice.first_name)
    b_ref = UserRef(PLATFORM, str(bob.id), bob.first_name)
    earlier = await start_duel(sessions, ChatRef(PLATFORM, str(cousins.id), "Cousins"), a_ref, b_ref,
                               {"target": 1})
    await play_to_end(sessions, earlier, [a_ref, b_ref])
    await play_until_over(tg, group, [alice, bob], stop_after=3)

    tg.user_sends(group, alice, "/mydata")
    await tg.wait_for_message(group, contains="private chat")
    private = tg.private_chat(alice)
    tg.user_sends(private, alice, "/privacy")
    assert "What I keep about you" in shown(await _said(tg, alice, "What I keep"))
    tg.user_sends(private, alice, "/mydata")
    file = await tg.wait_for(lambda: next((m for m in bot_messages(tg, alice) if m.document), None),
                             what="the file of /mydata")
    assert file is not None and file.document is not None
    data = json.loads(file.document["data"])
    assert data["profile"]["user_key"] == str(alice.id)
    assert data["profile"]["display_name"] == alice.first_name
    assert {r["game"] for r in data["results"]} == {earlier}
    assert data["moves"] and data["ratings"]

    bob_id = (await sessions.queries.find_player(PLATFORM, str(bob.id)))
    assert bob_id is not None
    bob_before = await rows_of(db, bob_id.id)
    tg.user_sends(private, alice, "/forgetme")
    ask = await _said(tg, alice, "Erase what identifies you")
    [data_of_button] = ask.callback_data
    assert data_of_button.startswith(CONFIRM)
    bob_private = tg.private_chat(bob)
    forged = await answered(tg, tg.forge_callback(bob_private, 1, bob, data_of_button))
    assert forged.answer_text == "This button is not yours."
    key, _, issued = data_of_button.removeprefix(CONFIRM).rpartition(".")
    stale = f"{CONFIRM}{key}.{int(issued) - int(CONFIRM_FOR) - 5}"
    old = await answered(tg, tg.forge_callback(private, ask, alice, stale))
    assert old.answer_text == "This button is too old: send /forgetme again."
    assert await sessions.queries.find_player(PLATFORM, str(alice.id)) is not None, "nothing erased yet"

    done = await answered(tg, tg.press_button(private, ask, alice, data_of_button))
    assert done.answer_text is not None and done.answer_text.startswith("🗑 Done")
    told = await tg.wait_for_message(group, contains="asked me to forget them")
    assert f"{alice.first_name} left and asked me to forget them" in shown(told)
    assert "(the computer) plays their seat to the end" in shown(told)

    await play_until_over(tg, group, [bob], timeout=30)
    assert match_over(tg, group) is not None, "Bob's match went on to its end"
    tg.user_sends(group, bob, "/leaderboard global")
    board = await tg.wait_for_message(group, contains="Leaderboard")
    assert "a former player" in shown(board) and alice.first_name not in shown(board)
    assert "Bob" in shown(board)

    await tg.wait_for(lambda: shown(ask).startswith("🗑 Done") and not ask.callback_data,
                      what="the question answered in its place, its button gone")
    again = await answered(tg, tg.forge_callback(private, ask, alice, data_of_button))
    assert again.answer_text == "I keep nothing about you."
    assert naming(await texts(db), alice.first_name, str(alice.id)) == []
    bob_after = await rows_of(db, bob_id.id)
    assert bob_after["players"] == bob_before["players"]
    assert set(bob_before["results"]) < set(bob_after["results"]), "his earlier results as they were"
