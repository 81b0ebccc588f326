"""The Discord front-end against a fake Discord (REST and gateway on 127.0.0.1).

The real discord.py client logs in, syncs its commands and connects its shards
to `tests.fakes.discord_fakes.FakeDiscord`; users run slash commands and press
buttons there, and the tests read what the channel and each user see.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.adapters.discord import DiscordFrontEnd
from bot.sessions import Sessions

from .fakes.discord_fakes import FakeDiscord, Interaction, Message, User
from .sessions_helpers import FakeClock, open_sessions

HAND = "scopa:hand:"
PLAYABLE = re.compile(r"scopa:(play|pick):(\d+):(\d+):")


@dataclass
class World:
    fake: FakeDiscord
    sessions: Sessions
    front: DiscordFrontEnd
    clock: FakeClock
    path: Path
    channel: object
    alice: User
    bob: User
    carla: User
    dino: User

    async def restart(self, **options: object) -> None:
        """Stop the bot and start a new one on the same database, as after a crash."""
        await self.front.stop()
        await self.sessions.store.close()
        self.sessions = await open_sessions(self.path, self.clock)
        self.front = await start_front(self.sessions, **options)


async def start_front(sessions: Sessions, **options: object) -> DiscordFrontEnd:
    front = DiscordFrontEnd(sessions, "MTAwMDAwMDAwMDAwMDAwMDAw.fake.offline-test-token",
                            **{"guild_ready_timeout": 0.01, "ack_after": 1.0, **options})  # type: ignore[arg-type]
    await front.start()
    return front


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    clock = FakeClock()
    fake = FakeDiscord(clock=clock)
    await fake.start()
    guild = fake.add_guild("Amici")
    channel = fake.add_channel(guild, "scopa")
    users = [fake.add_user("Alice", "it"), fake.add_user("Bob", "en-US"), fake.add_user("Carla", "it"),
             fake.add_user("Dino", "en-GB")]
    sessions = await open_sessions(tmp_path / "discord.db", clock)
    front = await start_front(sessions)
    w = World(fake, sessions, front, clock, tmp_path / "discord.db", channel, *users)
    yield w
    await w.front.stop()
    await w.sessions.store.close()
    await fake.close()


# ---- reading the channel ------------------------------------------------------------------

async def open_game(w: World) -> int:
    game_id = await w.sessions.open_game_id(_chat(w))
    assert game_id is not None
    return game_id


def _chat(w: World) -> object:
    from bot.sessions import ChatRef

    return ChatRef("discord", str(w.channel.id))  # type: ignore[attr-defined]


async def lobby_message(w: World) -> Message:
    game_id = await open_game(w)
    return await w.fake.wait_for(lambda: _with_button(w, f"scopa:join:{game_id}"), what="the lobby")


def _with_button(w: World, custom_id: str) -> Message | None:
    for message in w.fake.messages(w.channel):  # type: ignore[arg-type]
        if any(c.get("custom_id") == custom_id for c in message.components_flat()):
            return message
    return None


def versions(message: Message) -> set[int]:
    ids = (c.get("custom_id", "") for c in message.components_flat())
    return {int(m.group(3)) for custom_id in ids if (m := PLAYABLE.match(custom_id))}


# ---- playing through Discord -----------------------------------------------------------------

async def table_message(w: World, game_id: int) -> Message:
    return await w.fake.wait_for(lambda: _with_button(w, f"{HAND}{game_id}"), what="the table")


async def play_turn(w: World, game_id: int, users: dict[str, User], hands: dict[int, Message],
                    *, fresh_hand: bool = False) -> bool:
    """The player to move plays their first playable card; False once the match is over."""
    table = await w.sessions.table(game_id)
    if table.finished:
        return False
    seat = table.seats[table.to_play]
    row = await w.sessions.game_row(game_id)
    if seat.is_computer or any(s.seat == seat.seat and s.autoplay for s in row.seats):
        assert await w.sessions.run_due() == 1
        return True
    player = next(s.player for s in row.seats if s.seat == seat.seat)
    assert player is not None
    user = users[player.user_key]
    hand = hands.get(user.id)
    if hand is None or fresh_hand:
        opened = await w.fake.press(user, await table_message(w, game_id), prefix=f"{HAND}{game_id}")
        hand = hands[user.id] = opened.reply
    else:
        await w.fake.wait_for(lambda: table.version in versions(hand), what=f"{user.name}'s hand to update")
    pressed = await w.fake.press(user, hand, prefix=f"scopa:play:{game_id}:{table.version}:") \
        if any(c.get("custom_id", "").startswith("scopa:play:") for c in hand.components_flat()) \
        else await w.fake.press(user, hand, prefix=f"scopa:pick:{game_id}:{table.version}:")
    if pressed.payload["data"]["custom_id"].startswith("scopa:pick:"):
        await w.fake.press(user, pressed.reply, prefix=f"scopa:play:{game_id}:{table.version}:")
    assert (await w.sessions.table(game_id)).version > table.version
    return True


async def play_to_end(w: World, game_id: int, users: list[User], *, fresh_hand: bool = False) -> int:
    by_key = {str(u.id): u for u in users}
    hands: dict[int, Message] = {}
    moves = 0
    while await play_turn(w, game_id, by_key, hands, fresh_hand=fresh_hand):
        moves += 1
        assert moves < 2000
    return moves


def ack_types(interactions: list[Interaction]) -> set[int | None]:
    return {i.response_type for i in interactions}


# ---- a whole match -------------------------------------------------------------------------------

async def test_two_player_match_from_newgame_to_the_leaderboard(world: World) -> None:
    w, fake = world, world.fake
    opened = await fake.slash(w.alice, w.channel, "newgame", variant="scopa")  # type: ignore[arg-type]
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
    final = await w.sessions.table(game_id)
    assert final.finished and moves > 30
    await w.front.lanes.idle()
    shown = fake.messages(w.channel)  # type: ignore[arg-type]
    breakdowns = [m for m in shown if m.embeds and "Fine della smazzata" in m.embeds[0].get("title", "")]
    assert len(breakdowns) == final.round_number
    assert {f["name"] for f in breakdowns[0].embeds[0]["fields"]} == {"Alice", "Bob"}
    assert "```" in breakdowns[0].embeds[0]["description"]
    over = next(m for m in shown if "Partita finita" in m.text and m.buttons())
    assert over.labels() == ["🔁 Rivincita"]
    assert not table.components and "Partita finita" in table.text
    assert not [m for m in shown if m.pinged], "the last ping is deleted at the end"

    board = await fake.slash(w.bob, w.channel, "leaderboard")  # type: ignore[arg-type]
    assert not board.reply.ephemeral
    assert "Alice" in board.reply.text and "Bob" in board.reply.text

    await fake.press(w.bob, over, "🔁 Rivincita")
    rematch = await open_game(w)
    assert rematch != game_id
    again = await lobby_message(w)
    assert "Alice" in again.text and "Bob" in again.text



async def test_four_player_team_match_with_a_computer(world: World) -> None:
    w, fake = world, world.fake
    await fake.slash(w.alice, w.channel, "newgame", variant="scopone")  # type: ignore[arg-type]
    lobby = await lobby_message(w)
    for user in (w.bob, w.carla):
        await fake.press(user, lobby, "Partecipa")
    refused = await fake.press(w.dino, lobby, "🤖 medio")
    assert "Only the player who created" in refused.reply.text
    await fake.press(w.alice, lobby, "🤖 medio")
    await fake.wait_for(lambda: all(n in lobby.text for n in ("Bob", "Carla", "CPU")), what="a full lobby")
    menu = lobby.find(prefix="scopa:opt:")
    assert menu["options"][0]["label"] == "Scopa"
    await fake.press(w.alice, lobby, custom_id=f"scopa:opt:{await open_game(w)}:table",
                     values=["deck_style=french"])
    await fake.wait_for(lambda: "Francesi" in lobby.text, what="the French deck")
    assert "coppia A" in lobby.text and "coppia B" in lobby.text
    await fake.press(w.alice, lobby, "▶️ Inizia")
    game_id = await open_game(w)

    await play_to_end(w, game_id, [w.alice, w.bob, w.carla], fresh_hand=True)
    final = await w.sessions.table(game_id)
    assert final.finished and final.side_names == ("Alice & Carla", "Bob & CPU 🤔")
    await w.front.lanes.idle()
    breakdown = next(m for m in fake.messages(w.channel)  # type: ignore[arg-type]
                     if m.embeds and "Fine della smazzata" in m.embeds[0].get("title", ""))
    assert [f["name"] for f in breakdown.embeds[0]["fields"]] == ["Alice & Carla", "Bob & CPU 🤔"]
    board = await fake.slash(w.dino, w.channel, "leaderboard")  # type: ignore[arg-type]
    assert all(name in board.reply.text for name in ("Alice", "Bob", "Carla"))
    assert "CPU" not in board.reply.text



# ---- restarts, stale and foreign presses -------------------------------------------------------------

async def started_duel(w: World) -> int:
    """Alice and Bob in a running game of scopa, opened and started through Discord."""
    await w.fake.slash(w.alice, w.channel, "newgame")  # type: ignore[arg-type]
    lobby = await lobby_message(w)
    await w.fake.press(w.bob, lobby, "Partecipa")
    await w.fake.wait_for(lambda: "Bob" in lobby.text, what="Bob in the lobby")
    await w.fake.press(w.alice, lobby, "▶️ Inizia")
    game_id = await open_game(w)
    await table_message(w, game_id)
    return game_id


async def mover(w: World, game_id: int) -> tuple[User, User, int]:
    """Who is to play, the other player, and the game's version."""
    table = await w.sessions.table(game_id)
    first = table.seats[table.to_play].name == "Alice"
    return (w.alice, w.bob, table.version) if first else (w.bob, w.alice, table.version)


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
    pressed = await fake.press(to_move, hand, prefix=f"scopa:play:{game_id}:{version}:")
    assert pressed.response_type == 7
    assert (await w.sessions.table(game_id)).version > version
    await fake.wait_for(lambda: table.edits > edits, what="the same table message, edited")
    assert await w.front.presenter.table_message(game_id) == table.id
    opened = await fake.press(other, table, prefix=f"{HAND}{game_id}")
    assert opened.reply.ephemeral and opened.reply.visible_to is other
    await play_to_end(w, game_id, [w.alice, w.bob])
    assert (await w.sessions.table(game_id)).finished


async def test_stale_foreign_out_of_turn_and_malformed_presses_change_nothing(world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    table = await table_message(w, game_id)
    to_move, other, version = await mover(w, game_id)
    older = (await fake.press(to_move, table, prefix=f"{HAND}{game_id}")).reply
    newer = (await fake.press(to_move, table, prefix=f"{HAND}{game_id}")).reply
    await play_turn(w, game_id, {str(to_move.id): to_move}, {to_move.id: newer})
    moved = (await w.sessions.table(game_id)).version
    assert moved > version

    stale = await fake.press(to_move, older, prefix="scopa:p")
    assert stale.response_type == 7 and older.content == stale.reply.content
    assert re.search(r"out of date|vecchio", older.content)
    assert versions(older) == set() and f":{moved}:" in str(older.components), "redrawn as it is now"

    presses = [
        await fake.press(w.dino, table, prefix=f"{HAND}{game_id}"),
        await fake.press(w.dino, table, prefix=f"scopa:cancel:{game_id}"),
        await fake.press(w.dino, table, custom_id=f"scopa:play:{game_id}:{moved}:1D", forge=True),
        await fake.press(to_move, table, custom_id=f"scopa:play:{game_id}:{moved}:1D", forge=True),
        await fake.press(other, table, custom_id=f"scopa:join:{game_id}", forge=True),
        await fake.press(other, table, custom_id=f"scopa:start:{game_id + 1}", forge=True),
    ]
    expected = ["You are not playing in this game.", "Only the player who created the game",
                "You are not playing in this game.", "It's not your turn", "not in its lobby",
                "out of date"]
    for interaction, words in zip(presses, expected, strict=True):
        assert interaction.response_type == 4 and interaction.reply.ephemeral
        assert words in interaction.reply.text or _it(words) in interaction.reply.text, interaction.reply.text
    for junk in ("scopa:play:x", "scopa:play:1:2", "scopa:cpu:1:genius", "scopa:opt:1:colour",
                 "scopa:" + "9" * 95, "hello", f"scopa:play:{game_id}:{moved}:1D:1D:1D"):
        refused = await fake.press(w.dino, table, custom_id=junk, forge=True)
        assert refused.reply.ephemeral and "not valid" in refused.reply.text, junk
    menu = await fake.press(other, table, custom_id=f"scopa:opt:{game_id}:table", values=["players=99"],
                            forge=True)
    assert menu.reply.ephemeral and re.search("did not understand|Non ho capito", menu.reply.text)
    assert (await w.sessions.table(game_id)).version == moved
    assert all(len(i.responses) == 1 for i in fake.interactions.values())


def _it(english: str) -> str:
    return {"You are not playing in this game.": "Non giochi in questa partita.",
            "Only the player who created the game": "Solo chi ha creato la partita",
            "It's not your turn": "Non tocca a te", "not in its lobby": "non è più in attesa",
            "out of date": "vecchio"}[english]


# ---- three seconds ------------------------------------------------------------------------------------

async def test_a_slow_press_is_acknowledged_before_its_move_is_stored(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w, fake = world, world.fake
    await w.front.stop()
    w.front = await start_front(w.sessions, ack_after=0.05)
    game_id = await started_duel(w)
    to_move, _, version = await mover(w, game_id)
    hand = (await fake.press(to_move, await table_message(w, game_id), prefix=f"{HAND}{game_id}")).reply
    disk = asyncio.Event()
    commit = w.sessions.store.commit_move

    async def slow_commit(*args: object) -> None:
        await disk.wait()
        await commit(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(w.sessions.store, "commit_move", slow_commit)
    pressed = await fake.press(to_move, hand, prefix=f"scopa:play:{game_id}:{version}:", wait=False)
    await fake.acknowledged(pressed)
    assert pressed.log == ["callback 6"], "deferred while the move waits for the disk"
    assert (await w.sessions.table(game_id)).version == version
    disk.set()
    await fake.wait_for(lambda: "edit @original" in pressed.log, what="the hand, after the move")
    assert (await w.sessions.table(game_id)).version > version
    assert version + 1 not in versions(hand) and not hand.content

    board = w.sessions.store.leaderboard
    ranking = asyncio.Event()

    async def slow_board(*args: object, **kwargs: object) -> object:
        await ranking.wait()
        return await board(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(w.sessions.store, "leaderboard", slow_board)
    asked = await fake.slash(w.dino, w.channel, "leaderboard", wait=False)  # type: ignore[arg-type]
    await fake.acknowledged(asked)
    assert asked.log == ["callback 5"] and not asked.reply.ephemeral
    ranking.set()
    await fake.wait_for(lambda: "edit @original" in asked.log, what="the leaderboard")
    assert "Classifica" in asked.reply.text


# ---- the sessions layer's additions -------------------------------------------------------------

async def test_new_game_takes_the_table_layout_from_options(tmp_path: Path) -> None:
    from bot.sessions import Reason, Refused

    from .sessions_helpers import ALICE, BOB, CHAT

    sessions = await open_sessions(tmp_path / "s.db")
    lobby = await sessions.new_game(CHAT, ALICE, "escoba", {"players": 3, "deck_style": "french",
                                                             "target": 15})
    assert (lobby.players, lobby.teams, lobby.deck_style, lobby.rules.target) == (3, False, "french", 15)
    assert not await sessions.may_manage(lobby.game_id, BOB)
    assert await sessions.may_manage(lobby.game_id, BOB, is_admin=True)
    assert await sessions.may_manage(lobby.game_id, ALICE)
    await sessions.cancel(CHAT, ALICE)
    lobby = await sessions.new_game(CHAT, ALICE, "scopa", {"players": 4, "teams": True})
    assert (lobby.players, lobby.teams) == (4, True)
    await sessions.cancel(CHAT, ALICE)
    for bad in ({"players": "many"}, {"deck_style": "tarot"}, {"players": 3, "teams": True}):
        with pytest.raises(Refused) as refused:
            await sessions.new_game(CHAT, ALICE, "scopa", bad)
        assert refused.value.reason is Reason.BAD_OPTION
    assert await sessions.open_game_id(CHAT) is None
    await sessions.store.close()
