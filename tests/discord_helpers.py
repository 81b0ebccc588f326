"""A fake Discord and the real front-end, and how a player plays through them."""

from __future__ import annotations

import itertools
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

from bot.adapters.discord import DiscordFrontEnd
from bot.adapters.discord.identity import PLATFORM
from bot.sessions import ChatRef, HandView, Sessions, UserRef

from .fakes.discord_fakes import TOKEN, Channel, FakeDiscord, Interaction, Message, User
from .sessions_helpers import FakeClock, open_sessions

_T = TypeVar("_T")

HAND = "scopa:H:"
PLAYABLE = re.compile(r"scopa:(p|h):(\d+):(\d+):")


@dataclass
class World:
    fake: FakeDiscord
    sessions: Sessions
    front: DiscordFrontEnd
    clock: FakeClock
    path: Path
    channel: Channel
    alice: User
    bob: User
    carla: User
    dino: User

    async def restart(self, **options: object) -> None:
        """Stop the bot and start a new one on the same database, as after a crash."""
        await self.front.stop()
        await self.sessions.close()
        self.sessions = await open_sessions(self.path, self.clock)
        self.front = await start_front(self.sessions, **options)


async def start_front(sessions: Sessions, **options: object) -> DiscordFrontEnd:
    front = DiscordFrontEnd(sessions, TOKEN,
                            **{"guild_ready_timeout": 0.01, "ack_after": 1.0, **options})
    await front.start()
    return front


@pytest.fixture
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every run deals the same cards: game seeds come from a counter, not from `secrets`."""
    counter = itertools.count(1)
    monkeypatch.setattr("bot.sessions.lobby.secrets.token_hex", lambda n: f"{next(counter):0{2 * n}x}")


@pytest.fixture
async def world(tmp_path: Path, seeded_deals: None) -> AsyncIterator[World]:
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
    await w.sessions.close()
    await fake.close()


# ---- reading the channel -------------------------------------------------------------------------

async def open_game(w: World) -> int:
    game_id = await w.sessions.queries.open_game_id(_chat(w))
    assert game_id is not None
    return game_id


def _chat(w: World, channel: Channel | None = None) -> ChatRef:
    return ChatRef("discord", str((channel or w.channel).id))


async def lobby_message(w: World) -> Message:
    game_id = await open_game(w)
    return await w.fake.wait_for(lambda: _with_button(w, f"scopa:j:{game_id}"), what="the lobby")


def _with_button(w: World, custom_id: str) -> Message | None:
    for message in w.fake.messages(w.channel):
        if any(c.get("custom_id") == custom_id for c in message.components_flat()):
            return message
    return None


def versions(message: Message) -> set[int]:
    ids = (c.get("custom_id", "") for c in message.components_flat())
    return {int(m.group(3)) for custom_id in ids if (m := PLAYABLE.match(custom_id))}


# ---- playing through Discord ---------------------------------------------------------------------

async def table_message(w: World, game_id: int) -> Message:
    return await w.fake.wait_for(lambda: _with_button(w, f"{HAND}{game_id}"), what="the table")


async def play_turn(w: World, game_id: int, users: dict[str, User], hands: dict[int, Message],
                    *, fresh_hand: bool = False) -> bool:
    """The player to move plays their first playable card; False once the match is over."""
    table = await w.sessions.queries.table(game_id)
    if table.finished:
        return False
    seat = table.seats[table.to_play]
    row = await w.sessions.queries.game(game_id)
    if seat.is_computer or any(s.seat == seat.seat and s.autoplay for s in row.seats):
        assert await w.sessions.scheduler.run_due(
                ) >= 1, "the computer's turn (other games' may fall due with it)"
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
    hand, move = await ready_to_play(w, user, hand, game_id, table.version)
    await w.fake.press(user, hand, custom_id=move)
    assert (await w.sessions.queries.table(game_id)).version > table.version
    return True


async def ready_to_play(w: World, user: User, hand: Message, game_id: int,
                        version: int) -> tuple[Message, str]:
    """The message and custom id of a move: a card's only move, or its first capture to choose."""
    playing = f"scopa:p:{game_id}:{version}:"

    def offers(message: Message) -> bool:
        return any(c.get("custom_id", "").startswith(playing) for c in message.components_flat())

    if not offers(hand):
        hand = (await w.fake.press(user, hand, prefix=f"scopa:h:{game_id}:{version}:")).reply
        # A bot slower than its ack_after defers the update and edits the message after it; a
        # redraw of the hand on its way meanwhile never hides the choice.
        await w.fake.wait_for(lambda: offers(hand), what=f"{user.name}'s choice of captures")
    return hand, hand.find(prefix=playing)["custom_id"]


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


async def started_duel(w: World) -> int:
    """Alice and Bob in a running game of scopa, opened and started through Discord."""
    await w.fake.slash(w.alice, w.channel, "newgame")
    lobby = await lobby_message(w)
    await w.fake.press(w.bob, lobby, "Partecipa")
    await w.fake.wait_for(lambda: "Bob" in lobby.text, what="Bob in the lobby")
    await w.fake.press(w.alice, lobby, "▶️ Inizia")
    game_id = await open_game(w)
    await table_message(w, game_id)
    return game_id


async def mover(w: World, game_id: int) -> tuple[User, User, int]:
    """Who is to play, the other player, and the game's version."""
    table = await w.sessions.queries.table(game_id)
    first = table.seats[table.to_play].name == "Alice"
    return (w.alice, w.bob, table.version) if first else (w.bob, w.alice, table.version)


async def play_until(w: World, game_id: int, find: Callable[[HandView], _T | None],
                     what: str) -> tuple[User, int, _T]:
    """Turns played until the hand of the player to move has what `find` looks for: that
    player, the game's version and what was found."""
    users = {str(u.id): u for u in (w.alice, w.bob)}
    hands: dict[int, Message] = {}
    while True:
        to_move, _, version = await mover(w, game_id)
        found = find(await w.sessions.queries.hand(game_id, UserRef(PLATFORM, str(to_move.id), to_move.name)))
        if found:
            return to_move, version, found
        assert await play_turn(w, game_id, users, hands), f"no {what}"
