"""The Discord front-end against a fake Discord (REST and gateway on 127.0.0.1).

The real discord.py client logs in, syncs its commands and connects its shards
to `tests.fakes.discord_fakes.FakeDiscord`; users run slash commands and press
buttons there, and the tests read what the channel and each user see.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import discord
import pytest

from bot.adapters.discord.client import IdentifyGate
from bot.adapters.discord.custom_ids import Action, Menu, Press, decode, drawn_before, encode, option_choice
from bot.adapters.discord.lanes import Lanes
from bot.i18n import catalogue, placeholders
from bot.sessions import UserRef

from ..discord_helpers import (
    HAND,
    PLAYABLE,
    World,
    _chat,
    lobby_message,
    mover,
    open_game,
    play_to_end,
    play_turn,
    play_until,
    ready_to_play,
    start_front,
    started_duel,
    table_message,
    versions,
)
from ..fakes.discord_fakes import (
    JSON,
    VIEW_CHANNEL,
    FakeDiscord,
    Message,
)
from ..sessions_helpers import FakeClock, open_sessions


@pytest.fixture(autouse=True)
def _same_deals(seeded_deals: None) -> None:
    """Every test here, with a world or not, deals the same cards each run."""

# ---- a whole match -------------------------------------------------------------------------------

async def test_two_player_match_from_newgame_to_the_leaderboard(world: World) -> None:
    w, fake = world, world.fake
    opened = await fake.slash(w.alice, w.channel, "newgame", variant="scopa")
    assert opened.reply.ephemeral and "Partita aperta" in opened.reply.text
    lobby = await lobby_message(w)
    assert "Alice" in lobby.text and "Scopa" in lobby.text
    await fake.press(w.bob, lobby, "Partecipa")
    await fake.wait_for(lambda: "Bob" in lobby.text, what="Bob in the lobby")
    refused = await fake.press(w.bob, lobby, "▶️ Inizia")
    assert refused.reply.ephemeral and "Only the player who created" in refused.reply.text
    await fake.press(w.alice, lobby, "▶️ Inizia")
    game_id = await open_game(w)
    table = await table_message(w, game_id)
    assert table.id == lobby.id, "the lobby message becomes the table"
    await fake.wait_for(lambda: fake.pings(w.alice) or fake.pings(w.bob), what="the first ping")

    moves = await play_to_end(w, game_id, [w.alice, w.bob])
    final = await w.sessions.queries.table(game_id)
    assert final.finished and moves > 30
    await w.front.lanes.idle()
    shown = fake.messages(w.channel)
    breakdowns = [m for m in shown if m.embeds and "Fine della smazzata" in m.embeds[0].get("title", "")]
    assert len(breakdowns) == final.round_number
    first = breakdowns[0].embeds[0]
    assert breakdowns[0].picture() is not None, "each round's end is a picture"
    assert "Punteggio: Alice" in first["description"] and "Bob" in first["description"]
    assert "```" not in first["description"] and "fields" not in first, "the numbers are in the picture"
    over = next(m for m in shown if "Partita finita" in m.text and m.buttons())
    assert over.labels() == ["🔁 Rivincita", "🔍 Revisione"]
    assert not table.components and "Partita finita" in table.text
    assert not [m for m in shown if m.pinged], "the last ping is deleted at the end"

    board = await fake.slash(w.bob, w.channel, "leaderboard")
    assert not board.reply.ephemeral
    assert "Alice" in board.reply.text and "Bob" in board.reply.text

    await fake.press(w.bob, over, "🔁 Rivincita")
    rematch = await open_game(w)
    assert rematch != game_id
    again = await lobby_message(w)
    assert "Alice" in again.text and "Bob" in again.text



async def test_four_player_team_match_with_a_computer(world: World) -> None:
    w, fake = world, world.fake
    await fake.slash(w.alice, w.channel, "newgame", variant="scopone")
    lobby = await lobby_message(w)
    for user in (w.bob, w.carla):
        await fake.press(user, lobby, "Partecipa")
    refused = await fake.press(w.dino, lobby, "🤖 medio")
    assert "Only the player who created" in refused.reply.text
    await fake.press(w.alice, lobby, "🤖 medio")
    await fake.wait_for(lambda: all(n in lobby.text for n in ("Bob", "Carla", "Dora 🤖")),
                        what="a full lobby")
    menu = lobby.find(prefix="scopa:e:")
    assert menu["options"][0]["label"] == "Scopa"
    await fake.press(w.alice, lobby, custom_id=f"scopa:e:{await open_game(w)}:table",
                     values=["deck_style=french"])
    await fake.wait_for(lambda: "Francesi" in lobby.text, what="the French deck")
    assert "coppia A" in lobby.text and "coppia B" in lobby.text
    await fake.press(w.alice, lobby, "▶️ Inizia")
    game_id = await open_game(w)

    await play_to_end(w, game_id, [w.alice, w.bob, w.carla], fresh_hand=True)
    final = await w.sessions.queries.table(game_id)
    assert final.finished and final.side_names == ("Alice & Carla", "Bob & Dora")
    await w.front.lanes.idle()
    breakdown = next(m for m in fake.messages(w.channel)
                     if m.embeds and "Fine della smazzata" in m.embeds[0].get("title", ""))
    assert breakdown.picture() is not None
    assert "Alice & Carla" in breakdown.embeds[0]["description"]
    assert "Bob & Dora" in breakdown.embeds[0]["description"]
    board = await fake.slash(w.dino, w.channel, "leaderboard")
    assert all(name in board.reply.text for name in ("Alice", "Bob", "Carla"))
    assert "CPU" not in board.reply.text and "Dora" not in board.reply.text



# ---- restarts, stale and foreign presses ---------------------------------------------------------

async def test_presses_keep_working_after_a_restart(world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    users = {str(u.id): u for u in (w.alice, w.bob)}
    hands: dict[int, Message] = {}
    for _ in range(3):
        await play_turn(w, game_id, users, hands)
    await w.front.lanes.idle()
    table = await table_message(w, game_id)
    edits = table.edits

    await w.restart()
    to_move, other, version = await mover(w, game_id)
    hand = hands.get(to_move.id)
    assert hand is not None
    await fake.wait_for(lambda: version in versions(hand), what="the hand drawn before the restart")
    hand, move = await ready_to_play(w, to_move, hand, game_id, version)
    pressed = await fake.press(to_move, hand, custom_id=move)
    assert pressed.response_type == 7
    assert (await w.sessions.queries.table(game_id)).version > version
    await fake.wait_for(lambda: table.edits > edits, what="the same table message, edited")
    assert await w.front.presenter.table_message(game_id) == table.id
    opened = await fake.press(other, table, prefix=f"{HAND}{game_id}")
    assert opened.reply.ephemeral and opened.reply.visible_to is other
    await play_to_end(w, game_id, [w.alice, w.bob])
    assert (await w.sessions.queries.table(game_id)).finished


async def test_a_capture_being_chosen_survives_a_restart(world: World) -> None:
    """A player opens a card's captures; the bot restarts; pressing one of them plays it."""
    w, fake = world, world.fake
    game_id = await started_duel(w)
    to_move, version, several = await play_until(
        w, game_id, lambda view: next((c for c in view.choices if len(c.moves) > 1), None),
        "card with a choice of captures")
    table = await table_message(w, game_id)
    hand = (await fake.press(to_move, table, prefix=f"{HAND}{game_id}")).reply
    card = several.card.code
    await fake.press(to_move, hand, custom_id=f"scopa:h:{game_id}:{version}:{card}")
    captures = [c["custom_id"] for c in hand.components_flat()
                if c.get("custom_id", "").startswith(f"scopa:p:{game_id}:{version}:{card}:")]
    assert len(captures) == len(several.moves) and "↩️ Indietro" in hand.labels()

    await w.restart()
    pressed = await fake.press(to_move, hand, custom_id=captures[-1])
    assert pressed.response_type == 7 and not hand.content
    after = await w.sessions.queries.table(game_id)
    assert after.version > version
    assert after.last_plays[-1].card == several.card
    assert {c.code for c in after.last_plays[-1].captured} == set(captures[-1].rpartition(":")[2].split("+"))


async def test_stale_foreign_out_of_turn_and_malformed_presses_change_nothing(world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    table = await table_message(w, game_id)
    to_move, other, version = await mover(w, game_id)
    older = (await fake.press(to_move, table, prefix=f"{HAND}{game_id}")).reply
    newer = (await fake.press(to_move, table, prefix=f"{HAND}{game_id}")).reply
    await play_turn(w, game_id, {str(to_move.id): to_move}, {to_move.id: newer})
    moved = (await w.sessions.queries.table(game_id)).version
    assert moved > version

    playable = next(c["custom_id"] for c in older.components_flat() if PLAYABLE.match(c.get("custom_id", "")))
    stale = await fake.press(to_move, older, custom_id=playable)
    assert stale.response_type == 7 and older.content == stale.reply.content
    assert re.search(r"out of date|vecchio", older.content)
    assert versions(older) == set() and f":{moved}:" in str(older.components), "redrawn as it is now"

    presses = [
        await fake.press(w.dino, table, prefix=f"{HAND}{game_id}"),
        await fake.press(w.dino, table, prefix=f"scopa:k:{game_id}"),
        await fake.press(w.dino, table, custom_id=f"scopa:p:{game_id}:{moved}:1D", forge=True),
        await fake.press(to_move, table, custom_id=f"scopa:p:{game_id}:{moved}:1D", forge=True),
        await fake.press(other, table, custom_id=f"scopa:j:{game_id}", forge=True),
        await fake.press(other, table, custom_id=f"scopa:s:{game_id + 1}", forge=True),
    ]
    expected = ["You are not playing in this game.", "Only the player who created the game",
                "You are not playing in this game.", "It's not your turn", "not in its lobby",
                "out of date"]
    for interaction, words in zip(presses, expected, strict=True):
        assert interaction.response_type == 4 and interaction.reply.ephemeral
        assert words in interaction.reply.text or _it(words) in interaction.reply.text, interaction.reply.text
    for junk in ("scopa:p:x", "scopa:p:1:2", "scopa:c:1:genius", "scopa:e:1:colour",
                 "scopa:" + "9" * 95, "hello", f"scopa:p:{game_id}:{moved}:1D:1D:1D"):
        refused = await fake.press(w.dino, table, custom_id=junk, forge=True)
        assert refused.reply.ephemeral and "not valid" in refused.reply.text, junk
    menu = await fake.press(other, table, custom_id=f"scopa:e:{game_id}:table", values=["players=99"],
                            forge=True)
    assert menu.reply.ephemeral and re.search("did not understand|Non ho capito", menu.reply.text)
    assert (await w.sessions.queries.table(game_id)).version == moved
    assert all(len(i.responses) == 1 for i in fake.interactions.values())


def _it(english: str) -> str:
    return {"You are not playing in this game.": "Non giochi in questa partita.",
            "Only the player who created the game": "Solo chi ha creato la partita",
            "It's not your turn": "Non tocca a te", "not in its lobby": "non è più in attesa",
            "out of date": "vecchio"}[english]


# ---- three seconds -------------------------------------------------------------------------------

async def test_a_capture_sent_by_its_place_among_the_cards_captures_is_played(world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    table = await table_message(w, game_id)
    to_move, _, version = await mover(w, game_id)
    hand = await w.sessions.queries.hand(game_id, UserRef("discord", str(to_move.id), to_move.name))
    card = hand.choices[0].card.code
    opened = (await fake.press(to_move, table, prefix=f"{HAND}{game_id}")).reply
    by_place = f"scopa:C:{game_id}:{version}:{card}"
    beyond = await fake.press(to_move, opened, custom_id=f"{by_place}:999", forge=True)
    assert re.search("cannot be played|non si può", beyond.reply.text), beyond.reply.text
    assert (await w.sessions.queries.table(game_id)).version == version
    await fake.press(to_move, opened, custom_id=f"{by_place}:0", forge=True)
    assert (await w.sessions.queries.table(game_id)).version > version
    after = await w.sessions.queries.hand(game_id, UserRef("discord", str(to_move.id), to_move.name))
    assert card not in [c.code for c in after.hand]


async def test_a_slow_press_is_acknowledged_before_its_move_is_stored(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w, fake = world, world.fake
    await w.front.stop()
    w.front = await start_front(w.sessions, ack_after=0.05)
    game_id = await started_duel(w)
    to_move, _, version = await mover(w, game_id)
    opened = await fake.press(to_move, await table_message(w, game_id), prefix=f"{HAND}{game_id}")
    # Slower than ack_after (the first press of a run draws the first pictures), the bot
    # acknowledges first and sends the hand after.
    await fake.wait_for(lambda: bool(opened.followups) or opened.response_message is not None,
                        what="the hand")
    hand = opened.reply
    disk = asyncio.Event()
    commit = w.sessions.store._commit_changes

    async def slow_commit(*args: object) -> int | None:
        await disk.wait()
        return await commit(*args)

    monkeypatch.setattr(w.sessions.store, "_commit_changes", slow_commit)
    hand, move = await ready_to_play(w, to_move, hand, game_id, version)
    pressed = await fake.press(to_move, hand, custom_id=move, wait=False)
    await fake.acknowledged(pressed)
    assert pressed.log == ["callback 6"], "deferred while the move waits for the disk"
    reading = asyncio.ensure_future(w.sessions.queries.table(game_id))
    for _ in range(10):
        await asyncio.sleep(0)
    assert not reading.done(), "the table is read once the move is stored, not halfway"
    disk.set()
    await fake.wait_for(lambda: "edit @original" in pressed.log, what="the hand, after the move")
    assert (await reading).version > version
    assert (await w.sessions.queries.table(game_id)).version > version
    assert version + 1 not in versions(hand) and not hand.content

    board = w.sessions.store.leaderboard
    ranking = asyncio.Event()

    async def slow_board(*args: object, **kwargs: object) -> object:
        await ranking.wait()
        return await board(*args, **kwargs)

    monkeypatch.setattr(w.sessions.store, "leaderboard", slow_board)
    asked = await fake.slash(w.dino, w.channel, "leaderboard", wait=False)
    await fake.acknowledged(asked)
    assert asked.log == ["callback 5"] and not asked.reply.ephemeral
    ranking.set()
    await fake.wait_for(lambda: "edit @original" in asked.log, what="the leaderboard")
    assert "Classifica" in asked.reply.text



# ---- commands, settings, pings -------------------------------------------------------------------

async def test_commands_are_registered_in_english_italian_and_spanish(world: World) -> None:
    it, en, es = catalogue("it"), catalogue("en"), catalogue("es")

    def local(key: str) -> dict[str, str]:
        return {"it": it[key], "es-ES": es[key], "es-419": es[key]}

    by_name = {c["name"]: c for c in world.fake.commands}
    assert set(by_name) == {"newgame", "leaderboard", "stats", "review", "rules", "settings", "help", "daily",
                            "puzzle", "season", "tournament", "duplicate", "privacy", "mydata", "forgetme"}
    for name, command in by_name.items():
        assert en[f"discord.command.{name}.name"] == name
        assert command["name_localizations"] == local(f"discord.command.{name}.name")
        assert command["description"] == en[f"discord.command.{name}.description"]
        assert command["description_localizations"] == local(f"discord.command.{name}.description")
        for option in command["options"]:
            key = "everyone" if option["name"] == "global" else option["name"]
            assert en[f"discord.option.{key}.name"] == option["name"]
            assert option["name_localizations"] == local(f"discord.option.{key}.name")
            described = "duplicate_setup" if (name, key) == ("duplicate", "setup") else key
            assert option["description_localizations"] == local(f"discord.option.{described}.description")
            for choice in option.get("choices", []):
                assert choice["name"][0].isdigit() or "it" in choice.get("name_localizations", {})
    assert by_name["newgame"]["contexts"] == [0, 1], "/newgame in DMs too: a match against the computer"
    assert by_name["review"]["contexts"] == [0, 1], "/review in DMs too: the player's own last match"
    for name in ("privacy", "mydata", "forgetme"):
        assert 1 in (by_name[name].get("contexts") or [0, 1, 2]), f"/{name} in direct messages"
    await world.fake.connected()
    # no privileged intent: servers' events, and direct messages for the owners' commands
    assert world.fake.identified[0]["intents"] == discord.Intents(guilds=True, dm_messages=True).value


async def test_personal_commands_answer_privately_in_the_players_language(world: World) -> None:
    w, fake = world, world.fake
    stats = await fake.slash(w.bob, w.channel, "stats")
    assert stats.reply.ephemeral and "Bob" in stats.reply.text and "No finished matches" in stats.reply.text
    helped = await fake.slash(w.alice, w.channel, "help")
    assert helped.reply.ephemeral and "/newgame" in helped.reply.text and "Le mie carte" in helped.reply.text
    rules = await fake.slash(w.dino, w.channel, "rules", variant="escoba")
    assert rules.reply.ephemeral and "15" in rules.reply.text and "Escoba" in rules.reply.text
    board = await fake.slash(w.bob, w.channel, "leaderboard", **{"global": True})
    assert not board.reply.ephemeral and "everyone" not in board.reply.text and "tutti" in board.reply.text


async def test_settings_and_pings_by_direct_message(world: World) -> None:
    w, fake = world, world.fake
    mine = await fake.slash(w.bob, w.channel, "settings", dm_pings=True)
    assert mine.reply.ephemeral and "ping you privately" in mine.reply.text
    denied = await fake.slash(w.bob, w.channel, "settings", channel_language="en", dm_pings=False)
    assert "Only server managers" in denied.reply.text
    bob = await w.sessions.store.find_player("discord", str(w.bob.id))
    assert bob is not None and bob.dm_pings, "a refused /settings changes nothing"
    assert (await w.sessions.queries.chat(_chat(w))).language == "it"

    game_id = await started_duel(w)
    users = {str(u.id): u for u in (w.alice, w.bob)}
    hands: dict[int, Message] = {}
    while (await mover(w, game_id))[0] is not w.bob:
        await play_turn(w, game_id, users, hands)
    direct = await fake.wait_for(lambda: fake.dm_channel(w.bob) and fake.messages(fake.dm_channel(w.bob)),
                                 what="a direct message to Bob")
    assert "your turn" in direct[0].text and "#scopa" in direct[0].text
    assert not fake.pings(w.bob)
    opened = await fake.press(w.bob, direct[0], prefix=f"{HAND}{game_id}")
    assert opened.reply.ephemeral and opened.reply.channel is fake.dm_channel(w.bob)
    hands[w.bob.id] = opened.reply
    await play_turn(w, game_id, users, hands)
    await play_turn(w, game_id, users, hands)
    await play_turn(w, game_id, users, hands)
    assert len(fake.messages(fake.dm_channel(w.bob))) == 1, "no ping while Bob's hand is open"

    await w.front.lanes.idle()
    w.clock.advance(15 * 60)
    w.bob.accepts_dms = False
    stale_hand = hands[w.bob.id]
    edits = stale_hand.edits
    await play_turn(w, game_id, users, hands, fresh_hand=True)
    await fake.wait_for(lambda: fake.pings(w.bob), what="a mention, since the DM bounced")
    assert stale_hand.edits == edits, "a hand older than its token is left alone"

    erin = fake.add_user("Erin", "it", admin=True)
    changed = await fake.slash(erin, w.channel, "settings", channel_language="en", turn_limit=60)
    assert "Saved" not in changed.reply.text and "Salvato" in changed.reply.text
    table = await table_message(w, game_id)
    await fake.wait_for(lambda: "cards left" in table.text, what="the table in English")


async def test_cancel_in_the_lobby_and_in_a_match(world: World) -> None:
    w, fake = world, world.fake
    await fake.slash(w.alice, w.channel, "newgame")
    lobby = await lobby_message(w)
    refused = await fake.press(w.bob, lobby, "✖️ Annulla")
    assert "Only the player who created" in refused.reply.text and lobby.components
    await fake.press(w.alice, lobby, "✖️ Annulla")
    await fake.wait_for(lambda: not lobby.components, what="the closed lobby")
    assert "annullata da Alice" in lobby.text

    game_id = await started_duel(w)
    table = await table_message(w, game_id)
    refused = await fake.press(w.bob, table, prefix=f"scopa:k:{game_id}")
    assert "Only the player who created" in refused.reply.text
    asked = await fake.press(w.alice, table, prefix=f"scopa:k:{game_id}")
    assert asked.reply.ephemeral and asked.reply.labels() == ["Sì, annulla la partita"]
    confirmed = await fake.press(w.alice, asked.reply, "Sì, annulla la partita")
    assert confirmed.response_type == 7 and not asked.reply.components
    await fake.wait_for(lambda: not table.components, what="the closed table")
    assert "annullata" in table.text and await w.sessions.queries.open_game_id(_chat(w)) is None


async def test_who_cancelled_a_match_is_still_said_after_a_restart(world: World) -> None:
    """The closed table is drawn again by a new process (a redraw of its message) with the same
    words: who cancelled the match is the game's, not the process's."""
    w, fake = world, world.fake
    game_id = await started_duel(w)
    table = await table_message(w, game_id)
    asked = await fake.press(w.alice, table, prefix=f"scopa:k:{game_id}")
    await fake.press(w.alice, asked.reply, "Sì, annulla la partita")
    await fake.wait_for(lambda: not table.components, what="the closed table")
    said = table.text
    assert "Alice" in said

    await w.restart()
    w.front.presenter.redraw(game_id, str(w.channel.id))
    await w.front.lanes.idle()
    assert table.text == said


async def test_lobby_menus_and_computers(world: World) -> None:
    w, fake = world, world.fake
    await fake.slash(w.alice, w.channel, "newgame", variant="scopa", target=21, rounds=5)
    lobby = await lobby_message(w)
    game_id = await open_game(w)
    assert "Si gioca a 21" in lobby.text and "Smazzate al massimo: 5" in lobby.text
    await fake.press(w.alice, lobby, custom_id=f"scopa:e:{game_id}:variant", values=["variant=escoba"])
    await fake.wait_for(lambda: "Escoba" in lobby.text, what="escoba")
    await fake.press(w.alice, lobby, custom_id=f"scopa:e:{game_id}:table", values=["players=6"])
    await fake.wait_for(lambda: "6. (libero)" in lobby.text, what="six seats")
    await fake.press(w.alice, lobby, custom_id=f"scopa:e:{game_id}:table", values=["teams=three"])
    await fake.wait_for(lambda: "Tre coppie" in lobby.text and "coppia C" in lobby.text,
                        what="three teams of two")
    await fake.press(w.alice, lobby, custom_id=f"scopa:e:{game_id}:table", values=["players=3"])
    await fake.wait_for(lambda: "3. (libero)" in lobby.text, what="three seats")
    assert "Tre coppie" not in lobby.text, "three players form no teams"
    refused = await fake.press(w.bob, lobby, custom_id=f"scopa:e:{game_id}:target", values=["target=31"])
    assert "Only the player who created" in refused.reply.text
    erin = fake.add_user("Erin", "it", admin=True)
    await fake.press(erin, lobby, custom_id=f"scopa:e:{game_id}:target", values=["target=31"])
    await fake.wait_for(lambda: "Si gioca a 31" in lobby.text, what="an admin's choice")
    await fake.press(w.alice, lobby, "🤖 facile")
    await fake.press(w.alice, lobby, "🤖 difficile")
    await fake.wait_for(lambda: lobby.find("🤖 facile").get("disabled"), what="a full table")
    await fake.press(w.alice, lobby, "Togli i computer")
    await fake.wait_for(lambda: "CPU" not in lobby.text, what="no computers")


async def test_a_button_drawn_before_the_shared_codec_is_answered_as_out_of_date(world: World) -> None:
    w, fake = world, world.fake
    await fake.slash(w.alice, w.channel, "newgame", variant="scopa")
    lobby = await lobby_message(w)
    game_id = await open_game(w)
    before = await w.sessions.queries.lobby(_chat(w))
    for old in (f"scopa:join:{game_id}", f"scopa:cpu:{game_id}:hard", f"scopa:start:{game_id}"):
        pressed = await fake.press(w.bob, lobby, custom_id=old, forge=True)
        assert pressed.reply.ephemeral and "out of date" in pressed.reply.text, pressed.reply.text
    menu = await fake.press(w.alice, lobby, custom_id=f"scopa:opt:{game_id}:target", values=["target=31"],
                            forge=True)
    assert "vecchio" in menu.reply.text or "out of date" in menu.reply.text, menu.reply.text
    assert await w.sessions.queries.lobby(_chat(w)) == before


async def test_house_rules_and_a_round_limit_are_set_from_the_lobby_menus(world: World) -> None:
    w, fake = world, world.fake
    await fake.slash(w.alice, w.channel, "newgame", variant="scopa")
    lobby = await lobby_message(w)
    game_id = await open_game(w)
    table_menu = f"scopa:e:{game_id}:table"

    def switch(name: str) -> JSON:
        return next(o for o in lobby.find(custom_id=table_menu)["options"]
                    if o["value"].startswith(f"{name}="))

    assert switch("ace_takes_all")["value"] == "ace_takes_all=on"
    assert switch("must_capture")["value"] == "must_capture=off", "compulsory capture is on by default"
    await fake.press(w.alice, lobby, custom_id=table_menu, values=["ace_takes_all=on"])
    await fake.wait_for(lambda: "L'asso piglia tutto" in lobby.text, what="scopa d'assi")
    assert switch("ace_takes_all")["value"] == "ace_takes_all=off"
    assert switch("ace_takes_all")["emoji"]["name"] == "✅"
    refused = await fake.press(w.bob, lobby, custom_id=table_menu, values=["re_bello=on"])
    assert "Only the player who created" in refused.reply.text
    await fake.press(w.alice, lobby, custom_id=table_menu, values=["primiera=sevens"])
    await fake.wait_for(lambda: "più sette" in lobby.text, what="the sevens primiera")
    await fake.press(w.alice, lobby, custom_id=f"scopa:e:{game_id}:target", values=["round_limit=3"])
    await fake.wait_for(lambda: "Smazzate al massimo: 3" in lobby.text, what="three rounds")
    rules = (await w.sessions.queries.lobby_of(game_id)).rules
    assert rules.ace_takes_all and rules.primiera.value == "sevens" and not rules.re_bello
    assert rules.round_limit == 3

    await fake.press(w.alice, lobby, custom_id=f"scopa:e:{game_id}:variant", values=["variant=escoba"])
    await fake.wait_for(lambda: "Escoba" in lobby.text, what="escoba")
    offered = [o["value"].partition("=")[0] for o in lobby.find(custom_id=table_menu)["options"]]
    assert offered[-2:] == ["primiera", "must_capture"] and "napola" not in offered
    forged = await fake.press(w.alice, lobby, custom_id=table_menu, values=["napola=on"], forge=True)
    assert forged.reply.ephemeral and not (await w.sessions.queries.lobby_of(game_id)).rules.napola


async def test_an_idle_lobby_makes_way_for_a_new_game(world: World) -> None:
    from bot.sessions.service import LOBBY_IDLE

    w, fake = world, world.fake
    await fake.slash(w.alice, w.channel, "newgame", variant="scopa")
    old = await lobby_message(w)
    refused = await fake.slash(w.bob, w.channel, "newgame", variant="escoba")
    assert "30 minutes" in refused.reply.text
    w.clock.advance(LOBBY_IDLE + 1)
    await fake.slash(w.bob, w.channel, "newgame", variant="escoba")
    await fake.wait_for(lambda: "chiusa" in old.text and not old.components, what="the old lobby closed")
    new = await lobby_message(w)
    assert new is not old and "Escoba" in new.text


async def test_the_computer_plays_for_an_absent_player_until_they_are_back(world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    to_move, _, _ = await mover(w, game_id)
    await w.sessions.play.set_autoplay(game_id, UserRef("discord", str(to_move.id), to_move.name), True)
    table = await table_message(w, game_id)
    await fake.wait_for(lambda: "👋 Sono tornato" in table.labels(), what="the I'm back button")
    assert "Il computer gioca per" in table.text
    back = await fake.press(to_move, table, "👋 Sono tornato")
    assert back.reply.ephemeral and back.reply.visible_to is to_move and back.reply.buttons()
    await fake.wait_for(lambda: "👋 Sono tornato" not in table.labels(), what="the button gone")


async def test_a_discord_error_never_loses_a_move(world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    users = {str(u.id): u for u in (w.alice, w.bob)}
    hands: dict[int, Message] = {}
    await play_turn(w, game_id, users, hands)
    await w.front.lanes.idle()
    table = await table_message(w, game_id)
    fake.fail_next("PATCH", rf"channels/{w.channel.id}/messages/{table.id}", 403, 50001, "Missing Access")
    version = (await w.sessions.queries.table(game_id)).version
    await play_turn(w, game_id, users, hands)
    assert (await w.sessions.queries.table(game_id)).version > version
    await play_turn(w, game_id, users, hands)
    await w.front.lanes.idle()
    drawn = await w.sessions.queries.table(game_id)
    assert f"Mazzo: {drawn.stock_count} carte" in table.text, "the next move's edit catches up"

    to_move, _, version = await mover(w, game_id)
    hand = (await fake.press(to_move, table, prefix=f"{HAND}{game_id}")).reply
    fake.fail_next("POST", r"interactions/\d+/[^/]+/callback", 404, 10062, "Unknown interaction")
    hand, move = await ready_to_play(w, to_move, hand, game_id, version)
    pressed = await fake.press(to_move, hand, custom_id=move, wait=False)
    callback = ("POST", f"interactions/{pressed.id}/{pressed.token}/callback")
    await fake.wait_for(lambda: callback in fake.requests, what="the failed response")
    await w.front.lanes.idle()
    assert (await w.sessions.queries.table(game_id)).version > version, "stored before Discord was asked"
    await play_to_end(w, game_id, [w.alice, w.bob], fresh_hand=True)


async def test_newgame_checks_the_bots_permissions_and_points_to_an_open_game(world: World) -> None:
    w, fake = world, world.fake
    guild = w.channel.guild
    assert guild is not None
    quiet = fake.add_channel(guild, "quiet")
    quiet.bot_permissions = VIEW_CHANNEL
    refused = await fake.slash(w.alice, quiet, "newgame")
    assert "Send Messages" in refused.reply.text and "Embed Links" in refused.reply.text
    assert await w.sessions.queries.open_game_id(_chat(w, quiet)) is None
    await fake.slash(w.alice, w.channel, "newgame")
    lobby = await lobby_message(w)
    again = await fake.slash(w.bob, w.channel, "newgame", variant="escoba")
    assert "already open" in again.reply.text
    assert again.reply.buttons()[0]["url"] == f"https://discord.com/channels/{guild.id}/{w.channel.id}/{lobby.id}"



# ---- shards --------------------------------------------------------------------------------------

async def test_two_shards_identify_together_and_both_take_interactions(tmp_path: Path) -> None:
    fake = FakeDiscord(shards=2, max_concurrency=2)
    await fake.start()
    channels = [fake.add_channel(fake.add_guild(f"Guild {n}", shard=n), "scopa") for n in (0, 1)]
    alice = fake.add_user("Alice", "it")
    sessions = await open_sessions(tmp_path / "shards.db")
    front = await start_front(sessions)
    try:
        await fake.connected(0)
        await fake.connected(1)
        assert sorted(i["shard"] for i in fake.identified) == [0, 1]
        assert front.client.shard_count == 2
        for channel in channels:
            opened = await fake.slash(alice, channel, "newgame")
            assert opened.reply.ephemeral
            await fake.wait_for(lambda c=channel: fake.messages(c), what="a lobby on each shard")
    finally:
        await front.stop()
        await sessions.close()
        await fake.close()


async def test_the_identify_gate_spaces_shards_of_one_bucket_only() -> None:
    clock = FakeClock(0.0)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    gate = IdentifyGate(interval=5.0, clock=clock, sleep=sleep)
    await gate.wait(0)
    await gate.wait(1)
    clock.advance(2.0)
    await gate.wait(0)
    await gate.wait(1)
    assert slept == [3.0], "bucket 0 waits out its five seconds; bucket 1 has had them"


# ---- the sessions layer's additions --------------------------------------------------------------

async def test_new_game_takes_the_table_layout_from_options(tmp_path: Path) -> None:
    from bot.sessions import Reason, Refused

    from ..sessions_helpers import ALICE, BOB, CHAT

    sessions = await open_sessions(tmp_path / "s.db")
    lobby = await sessions.lobby.new_game(CHAT, ALICE, "escoba", {"players": 3, "deck_style": "french",
                                                             "target": 15})
    assert (lobby.players, lobby.teams, lobby.deck_style, lobby.rules.target) == (3, 0, "french", 15)
    assert not await sessions.queries.may_manage(lobby.game_id, BOB)
    assert await sessions.queries.may_manage(lobby.game_id, BOB, is_admin=True)
    assert await sessions.queries.may_manage(lobby.game_id, ALICE)
    await sessions.lobby.cancel(CHAT, ALICE)
    lobby = await sessions.lobby.new_game(CHAT, ALICE, "scopa", {"players": 4, "teams": True})
    assert (lobby.players, lobby.teams) == (4, 2)
    await sessions.lobby.cancel(CHAT, ALICE)
    for bad in ({"players": "many"}, {"deck_style": "tarot"}, {"players": 3, "teams": True}):
        with pytest.raises(Refused) as refused:
            await sessions.lobby.new_game(CHAT, ALICE, "scopa", bad)
        assert refused.value.reason is Reason.BAD_OPTION
    assert await sessions.queries.open_game_id(CHAT) is None
    await sessions.close()


# ---- custom ids, menus, catalogue, lanes ---------------------------------------------------------

def test_custom_ids_refuse_what_they_cannot_carry() -> None:
    for bad in (Press(Action.PLAY, 1, None, "1D"), Press(Action.PLAY, 10**9, 1, "1D"),
                Press(Action.ADD_COMPUTER, 1, None, "genius"), Press(Action.JOIN, 1, 3)):
        with pytest.raises(ValueError):
            encode(bad)
    assert decode("scopa:j:01") is None and decode("scopa:j:1 ") is None


def test_custom_ids_drawn_before_the_shared_codec_are_told_apart_from_forged_ones() -> None:
    for old in ("scopa:join:12", "scopa:play:3:17:7D:3C+4S", "scopa:opt:3:table", "scopa:cards:3:4"):
        assert decode(old) is None and drawn_before(old), old
    for forged in ("scopa:p:1:2", "scopa:join", "hello", "scopa:join:x", "scopa:" + "9" * 95, None):
        assert not drawn_before(forged), forged


def test_menus_accept_only_their_own_values() -> None:
    assert option_choice(Menu.TABLE, ["players=3"]) == ("players", "3")
    assert option_choice(Menu.VARIANT, ["variant=escoba"]) == ("variant", "escoba")
    for menu, values in ((Menu.TABLE, ["players=9"]), (Menu.TARGET, ["variant=scopa"]),
                         (Menu.TABLE, ["teams=on", "teams=off"]), (Menu.TABLE, "players=3"),
                         (Menu.TARGET, [21])):
        assert option_choice(menu, values) is None


def test_the_discord_catalogue_is_the_same_in_both_languages() -> None:
    folder = Path(__file__).resolve().parents[2] / "bot" / "i18n"
    it = json.loads((folder / "it.discord.json").read_text(encoding="utf-8"))
    en = json.loads((folder / "en.discord.json").read_text(encoding="utf-8"))
    assert set(it) == set(en) and all(key.startswith("discord.") for key in it)
    for key in it:
        assert placeholders(it[key]) == placeholders(en[key]), key


async def test_lanes_run_in_order_merge_waiting_redraws_and_survive_failures() -> None:
    lanes = Lanes()
    done: list[str] = []
    gate = asyncio.Event()

    def job(name: str, fail: bool = False) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            if name == "first":
                await gate.wait()
            if fail:
                raise RuntimeError(name)
            done.append(name)
        return run

    lanes.submit("channel", job("first"))
    lanes.submit("channel", job("broken", fail=True))
    lanes.submit("channel", job("redraw"), merge="table")
    lanes.submit("channel", job("redraw again"), merge="table")
    lanes.submit("other", job("elsewhere"))
    await asyncio.sleep(0)
    assert lanes.busy
    gate.set()
    await lanes.idle()
    assert done == ["elsewhere", "first", "redraw"]


def test_while_declaring_every_card_and_capture_declares() -> None:
    from bot.adapters.discord.components import hand_components
    from bot.engine import Move
    from bot.engine.cards import parse_cards
    from bot.sessions.interaction import HandMode, HandPrompt
    from bot.sessions.views import CardChoice, HandView

    DECLARING = HandPrompt(HandMode.DECLARING)

    hand = tuple(parse_cards(["7D", "1C"]))
    takes = (Move.parse("7D:3C+4S"), Move.parse("7D:2B+5B"))
    view = HandView(9, 4, 0, "napoletane", hand, tuple(parse_cards(["2B", "3C", "4S", "5B"])), True,
                    (CardChoice(hand[0], takes), CardChoice(hand[1], (Move.parse("1C"),))), False,
                    may_declare=True)

    def ids(shown: HandView, **drawn: object) -> list[str]:
        return [getattr(item, "custom_id", "") for item in hand_components(shown, "en", **drawn).children]

    assert ids(view) == ["scopa:h:9:4:7D", "scopa:p:9:4:1C"], "no fuori where it would not win"
    assert ids(view, fuori_wins=True) == ["scopa:h:9:4:7D", "scopa:p:9:4:1C", "scopa:f:9:4"]
    assert ids(view, prompt=DECLARING) == ["scopa:P:9:4:7D", "scopa:P:9:4:1C", "scopa:b:9:4"], \
        "declaring, a card shows its plays before anything is declared"
    assert ids(view, prompt=HandPrompt(HandMode.DECLARING, "1C")) == ["scopa:F:9:4:1C", "scopa:b:9:4"]
    assert ids(view, prompt=HandPrompt(HandMode.DECLARING, "7D")) == [
        "scopa:F:9:4:7D:3C+4S", "scopa:F:9:4:7D:2B+5B", "scopa:b:9:4"]
    barred = dataclasses.replace(view, may_declare=False)
    assert ids(barred, prompt=DECLARING) == ["scopa:h:9:4:7D", "scopa:p:9:4:1C"], \
        "no declaring where the rules forbid it"
