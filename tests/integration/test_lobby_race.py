"""Two bot processes on one PostgreSQL database, pressed at the same moment: Join, Leave,
Start, a lobby's options, a chat's settings and Rematch, fifty rounds. Every round ends with
a lobby (or a match) that is consistent, whoever won each race, and every press that lost
one is refused with a reason the catalogue words.

The two processes are two `Sessions`, each on its own `PostgresStore` with its own pool
of connections, in one event loop: to the database they are two clients as two processes
would be (separate connections, separate transactions), and nothing of the sessions is
shared between them (each has its own games in memory and its own per-game locks). The
presses of a round interleave at every round trip to the database.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot.engine import Rules
from bot.i18n import catalogue
from bot.sessions import Reason, Refused, Sessions, UserRef
from bot.storage.backends import open_store

from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, DINO, FakeClock

ROUNDS = 50
PLAYERS = 3


@dataclass
class Press:
    name: str
    outcome: Any = None

    @property
    def done(self) -> bool:
        return not isinstance(self.outcome, BaseException)


async def _process(url: str, clock: FakeClock) -> Sessions:
    return Sessions(await open_store(url, clock), clock=clock)  # type: ignore[arg-type]


async def _pressed(presses: dict[str, Any]) -> dict[str, Press]:
    """Every press at once; each either done or refused, and a refusal says why."""
    names = list(presses)
    outcomes = await asyncio.gather(*presses.values(), return_exceptions=True)
    pressed = {name: Press(name, outcome) for name, outcome in zip(names, outcomes, strict=True)}
    for press in pressed.values():
        if press.done:
            continue
        assert isinstance(press.outcome, Refused), f"{press.name}: {press.outcome!r}"
        key = f"refused.{press.outcome.reason.value}"
        assert all(key in catalogue(lang) for lang in ("it", "en", "es")), f"{press.name}: no words for {key}"
        LOST.extend([press.name] if press.outcome.reason == Reason.LOBBY_CHANGED else [])
    return pressed


LOST: list[str] = []
"""The presses refused because another changed the game under them, of every round."""


async def _ids(sessions: Sessions, *users: UserRef) -> dict[int, UserRef]:
    return {(await sessions.queries.player(user)).id: user for user in users}


async def _reset(one: Sessions, lobby_of: int) -> None:
    """Alice's lobby of three with Bob seated, and nobody else, as each round starts."""
    seated = {seat.name for seat in (await one.queries.lobby_of(lobby_of)).seats if seat is not None}
    for user in (CARLA, DINO):
        if user.name in seated:
            await one.lobby.leave(CHAT, user, from_lobby=True)
    if BOB.name not in seated:
        await one.lobby.join(CHAT, BOB)
    if (await one.queries.lobby_of(lobby_of)).players != PLAYERS:
        await one.lobby.set_option(CHAT, ALICE, "players", PLAYERS)


async def _race(one: Sessions, two: Sessions, game_id: int, round_number: int,
                people: dict[int, UserRef]) -> None:
    """One round of presses at once on lobby `game_id`, and what must hold after it."""
    first, second = (one, two) if round_number % 2 else (two, one)
    before = (await one.queries.lobby_of(game_id)).rules.target
    pressed = await _pressed({
        "join carla": first.lobby.join(CHAT, CARLA),
        "join dino": second.lobby.join(CHAT, DINO),
        "leave bob": second.lobby.leave(CHAT, BOB, from_lobby=True),
        "target 16": first.lobby.set_option(CHAT, ALICE, "target", 16),
        "target 21": second.lobby.set_option(CHAT, ALICE, "target", 21),
        "start": first.lobby.start(CHAT, ALICE),
        "turns 60": first.settings.set_turn_limit(CHAT, 60),
        "turns 120": second.settings.set_turn_limit(CHAT, 120),
        "variant": first.settings.change_chat_defaults(
                CHAT, {"variant": ("scopa", "escoba")[round_number % 2]}),
        "pictures": second.settings.set_pictures(CHAT, round_number % 3 == 0),
    })
    row = await one.store.get_game(game_id)
    seats = [seat.seat for seat in row.seats]
    seated = [people[seat.player_id].name for seat in row.seats]
    told = f"round {round_number}: {[(p.name, p.done) for p in pressed.values()]} -> {row.status} {seated}"
    assert len(set(seats)) == len(seats) and len(set(seated)) == len(seated), f"a seat twice: {told}"
    assert len(seats) <= row.players == PLAYERS, told
    joined = {name for name in ("Carla", "Dino") if pressed[f"join {name.lower()}"].done}
    assert joined <= set(seated), f"a seat given was lost: {told}"
    assert set(seated) - {"Alice", "Bob"} <= joined, f"seated without being told: {told}"
    assert ("Bob" in seated) != pressed["leave bob"].done, f"Bob's leave not as told: {told}"
    assert (row.status == "running") == pressed["start"].done, told
    if row.status == "running":
        assert len(seats) == PLAYERS and (await one.queries.table(game_id)).game_id == game_id, told
        assert len((await two.queries.table(game_id)).seats) == PLAYERS, told
    targets = {value for value in (16, 21) if pressed[f"target {value}"].done} or {before}
    assert Rules.from_options(row.variant, row.options).target in targets, f"a setting not pressed: {told}"
    chat = await two.queries.chat(CHAT)
    assert chat.turn_limit in {60, 120} and pressed[f"turns {chat.turn_limit}"].done, told
    assert chat.defaults.get("variant") == ("scopa", "escoba")[round_number % 2], f"a default lost: {chat}"
    assert chat.defaults.get("pictures") == ("on" if round_number % 3 == 0 else "off"), f"lost: {chat}"


async def _rematch(one: Sessions, two: Sessions, game_id: int) -> int:
    """End game `game_id` and press Rematch in both processes at once: one lobby, with every
    seat of the game (made and seated in one transaction); the other press is refused."""
    if (await one.queries.game(game_id)).status.open:
        await two.lobby.cancel(CHAT, ALICE)
    old = await one.store.get_game(game_id)
    pressed = await _pressed({"rematch one": one.lobby.rematch(game_id, ALICE),
                              "rematch two": two.lobby.rematch(game_id, ALICE)})
    made = [p.outcome for p in pressed.values() if p.done]
    assert len(made) == 1, pressed
    lobby = await one.store.get_game(made[0].game_id)
    assert {s.player_id for s in lobby.seats} == {s.player_id for s in old.seats}, (old, lobby)
    return lobby.id


async def test_two_processes_pressing_at_once_leave_a_consistent_lobby(postgres_url: str) -> None:
    clock = FakeClock()
    one, two = await _process(postgres_url, clock), await _process(postgres_url, clock)
    try:
        people = await _ids(one, ALICE, BOB, CARLA, DINO)
        game_id = (await one.lobby.new_game(CHAT, ALICE, "scopa", {"players": PLAYERS})).game_id
        await two.lobby.join(CHAT, BOB)
        for round_number in range(ROUNDS):
            await _reset(one, game_id)
            await _race(one, two, game_id, round_number, people)
            game_id = await _rematch(one, two, game_id)
            clock.advance(1.0)
        assert LOST, "the presses raced: some found the lobby changed under them"
    finally:
        await one.close()
        await two.close()

