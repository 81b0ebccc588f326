"""A player's data on the fake Discord: /privacy, /mydata (a JSON file) and /forgetme in a direct
message, the confirming button only its owner's; erased in the middle of a match, the channel is
told plainly and the match goes on with the computer to its end; the database holds neither
their name nor their id, and the board keeps their results as a former player's. In a server
channel the three commands say they work in a direct message."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.adapters.discord.privacy import CONFIRM
from bot.sessions import ChatRef, UserRef

from ..discord_helpers import World, play_to_end, started_duel
from ..privacy_helpers import naming, rows_of, texts
from ..sessions_helpers import play_to_end as play_sessions_to_end
from ..sessions_helpers import start_duel

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def test_mydata_and_forgetme_in_the_middle_of_a_match(world: World) -> None:
    w, bob, alice = world, world.bob, world.alice
    cousins = w.fake.add_channel(w.channel.guild, "cugini")
    refs = [UserRef("discord", str(u.id), u.name) for u in (alice, bob)]
    earlier = await start_duel(w.sessions, ChatRef("discord", str(cousins.id), "cugini",
                                                   str(w.channel.guild.id)), *refs, {"target": 1})
    await play_sessions_to_end(w.sessions, earlier, refs)
    game_id = await started_duel(w)
    asked = await w.fake.slash(bob, w.channel, "mydata")
    assert asked.reply.ephemeral and "private chat" in asked.reply.text

    dm = w.fake.open_dm(bob)
    said = await w.fake.slash(bob, dm, "privacy")
    assert "What I keep about you" in said.reply.text
    mine = (await w.fake.slash(bob, dm, "mydata")).reply
    [attachment] = mine.attachments
    data = json.loads(mine.files[int(attachment["id"])])
    assert data["profile"]["user_key"] == str(bob.id) and data["profile"]["display_name"] == "Bob"
    assert {r["game"] for r in data["results"]} == {earlier}
    assert data["moves"]

    alice_row = await w.sessions.queries.find_player("discord", str(alice.id))
    assert alice_row is not None
    path = w.path
    alice_before = await rows_of(path, alice_row.id)
    ask = (await w.fake.slash(bob, dm, "forgetme")).reply
    [button] = [c["custom_id"] for c in ask.components_flat() if c.get("custom_id", "").startswith(CONFIRM)]
    forged = await w.fake.press(alice, ask, custom_id=button, forge=True)
    assert "not yours" in forged.reply.text or "non è tuo" in forged.reply.text
    assert await w.sessions.queries.find_player("discord", str(bob.id)) is not None, "nothing erased yet"

    await w.fake.press(bob, ask, custom_id=button)
    await w.fake.wait_for(lambda: ask.text.startswith("🗑 Done") and not ask.components,
                          what="the question answered, its button gone")
    told = await w.fake.wait_for(lambda: next((m for m in w.fake.messages(w.channel)
                                               if "👋 Bob" in m.text), None), what="the channel told")
    assert "computer" in told.text
    await play_to_end(w, game_id, [alice])
    assert (await w.sessions.queries.table(game_id)).finished, "Alice's match went on to its end"
    board = await w.fake.slash(alice, w.channel, "leaderboard", **{"global": True})
    assert "ex giocatore" in board.reply.text and "Bob" not in board.reply.text

    again = await w.fake.slash(bob, dm, "mydata")
    assert again.reply.text == "I keep nothing about you."
    assert naming(await texts(path), "Bob", str(bob.id), str(dm.id)) == []
    alice_after = await rows_of(path, alice_row.id)
    assert alice_after["players"] == alice_before["players"]
    assert set(alice_before["results"]) < set(alice_after["results"])


async def test_scopa_bot_erase_beside_the_running_bot(world: World) -> None:
    w, alice, bob = world, world.alice, world.bob
    game_id = await started_duel(w)
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "bot", "erase", "--platform", "discord", "--user", str(bob.id),
                         "--db", str(w.path), "--wait", "30"], cwd=ROOT, capture_output=True, text=True,
        timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"discord user {bob.id}: erased by the running bot" in done.stdout
    told = await w.fake.wait_for(lambda: next((m for m in w.fake.messages(w.channel)
                                               if "👋 Bob" in m.text), None), what="the channel told")
    assert "computer" in told.text
    await play_to_end(w, game_id, [alice])
    assert (await w.sessions.queries.table(game_id)).finished
    assert naming(await texts(w.path), "Bob", str(bob.id)) == []
