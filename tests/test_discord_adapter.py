"""The Discord front-end against a fake Discord (REST and gateway on 127.0.0.1).

The real discord.py client logs in, syncs its commands and connects its shards
to `tests.fakes.discord_fakes.FakeDiscord`; users run slash commands and press
buttons there, and the tests read what the channel and each user see.
"""

from __future__ import annotations

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
