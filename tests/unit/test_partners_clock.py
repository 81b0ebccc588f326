"""A team lobby's players choose their partners; a chat may play with no move clock, where
nobody is played for and the player to move is reminded once; /cancel of a match in play
asks to confirm."""

from __future__ import annotations

import asyncio

from bot.sessions import GameStatus, Reason, Sessions, TurnReminder, UserRef
from bot.sessions.options import NO_CLOCK, REMIND_AFTER
from bot.sessions.replies import ConfirmCancel, Done, Note, Refusal
from bot.sessions.tap import Action, Asker, Tap

from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, DINO, FakeClock, recorded


def asker(user: UserRef, admin: bool = False) -> Asker:
    async def is_admin() -> bool:
        return admin

    return Asker(user, CHAT, is_admin)


async def scopone_lobby(sessions: Sessions) -> int:
    game_id = (await sessions.lobby.new_game(CHAT, ALICE, "scopone")).game_id
    for user in (BOB, CARLA, DINO):
        await sessions.lobby.join(CHAT, user)
    return game_id


def seated(view_seats: tuple[object, ...]) -> list[str]:
    return [getattr(seat, "name", "") for seat in view_seats]


async def test_a_player_sits_with_the_partner_they_choose_and_the_match_keeps_those_teams(
        memory_sessions: Sessions) -> None:
    sessions = memory_sessions
    game_id = await scopone_lobby(sessions)
    lobby = await sessions.queries.lobby(CHAT)
    assert seated(lobby.seats) == ["Alice", "Bob", "Carla", "Dino"]
    reply = await sessions.taps.handle(asker(BOB), Tap(Action.SIT, game_id, lobby.version, index=0))
    assert not isinstance(reply, Refusal)
    lobby = await sessions.queries.lobby(CHAT)
    assert seated(lobby.seats) == ["Alice", "Carla", "Bob", "Dino"]
    await sessions.lobby.start(CHAT, ALICE)
    table = await sessions.queries.table(game_id)
    assert "Alice & Bob" in table.side_names and "Carla & Dino" in table.side_names


async def test_a_tap_on_a_lobby_drawn_before_a_change_is_refused_and_moves_nobody(
        memory_sessions: Sessions) -> None:
    sessions = memory_sessions
    game_id = await scopone_lobby(sessions)
    old = (await sessions.queries.lobby(CHAT)).version
    await sessions.taps.handle(asker(DINO), Tap(Action.SIT, game_id, old, index=0))
    now = await sessions.queries.lobby(CHAT)
    assert seated(now.seats) == ["Alice", "Bob", "Dino", "Carla"]
    stale = await sessions.taps.handle(asker(BOB), Tap(Action.SIT, game_id, old, index=0))
    assert isinstance(stale, Refusal) and stale.refused.reason is Reason.STALE
    assert seated((await sessions.queries.lobby(CHAT)).seats) == ["Alice", "Bob", "Dino", "Carla"]
    same = await sessions.taps.handle(asker(CARLA), Tap(Action.SIT, game_id, now.version, index=1))
    assert isinstance(same, Refusal) and same.refused.reason is Reason.SAME_TEAM
    assert same.refused.params["name"] == "Bob"


async def test_only_a_seated_player_moves_seats(memory_sessions: Sessions) -> None:
    sessions = memory_sessions
    game_id = (await sessions.lobby.new_game(CHAT, ALICE, "scopone")).game_id
    await sessions.lobby.join(CHAT, BOB)
    version = (await sessions.queries.lobby(CHAT)).version
    outsider = await sessions.taps.handle(
            asker(CARLA, admin=True), Tap(Action.SIT, game_id, version, index=0))
    assert isinstance(outsider, Refusal) and outsider.refused.reason is Reason.NOT_JOINED
    moved = await sessions.taps.handle(asker(ALICE), Tap(Action.SIT, game_id, version, index=1))
    assert not isinstance(moved, Refusal)
    assert seated((await sessions.queries.lobby(CHAT)).seats) == ["", "Bob", "", "Alice"]


async def no_clock_duel(sessions: Sessions) -> int:
    await sessions.settings.set_turn_limit(CHAT, NO_CLOCK)
    game_id = (await sessions.lobby.new_game(CHAT, ALICE, "scopa")).game_id
    await sessions.lobby.join(CHAT, BOB)
    await sessions.lobby.start(CHAT, ALICE)
    return game_id


async def test_with_no_clock_nobody_is_played_for_and_the_player_is_reminded_once_after_the_hour(
        clock: FakeClock, memory_sessions: Sessions) -> None:
    sessions = memory_sessions
    game_id = await no_clock_duel(sessions)
    events = recorded(sessions)
    table = await sessions.queries.table(game_id)
    version = table.version
    assert table.deadline is None, "no clock: the table tells no time left"
    clock.advance(REMIND_AFTER - 1)
    assert await sessions.scheduler.run_due() == 0
    clock.advance(1)
    assert await sessions.scheduler.run_due() == 1
    reminders = [e for e in events if isinstance(e, TurnReminder)]
    assert len(reminders) == 1 and reminders[0].waited == REMIND_AFTER
    for _ in range(5):
        clock.advance(REMIND_AFTER)
        assert await sessions.scheduler.run_due() == 0
        assert await sessions.scheduler.next_due() is None
    assert (await sessions.queries.table(game_id)).version == version
    assert len([e for e in events if isinstance(e, TurnReminder)]) == 1


async def test_the_creator_or_an_admin_hands_the_waiting_seat_to_the_computer_and_nobody_else(
        clock: FakeClock, memory_sessions: Sessions) -> None:
    sessions = memory_sessions
    game_id = await no_clock_duel(sessions)
    table = await sessions.queries.table(game_id)
    to_move = (await sessions.queries.seat_players(game_id))[table.to_play][1]
    mover = ALICE if to_move is not None and to_move.user_key == ALICE.key else BOB
    other = BOB if mover is ALICE else ALICE
    stranger = await sessions.taps.handle(asker(CARLA), Tap(Action.HAND_OVER, game_id, table.version))
    assert isinstance(stranger, Refusal) and stranger.refused.reason is Reason.NOT_ALLOWED
    if other is not ALICE:
        player = await sessions.taps.handle(asker(other), Tap(Action.HAND_OVER, game_id, table.version))
        assert isinstance(player, Refusal) and player.refused.reason is Reason.NOT_ALLOWED
    admin = await sessions.taps.handle(
            asker(CARLA, admin=True), Tap(Action.HAND_OVER, game_id, table.version))
    assert not isinstance(admin, Refusal)
    assert await sessions.scheduler.run_due() >= 1
    assert (await sessions.queries.table(game_id)).version > table.version
    seat = next(s for s in (await sessions.queries.game(game_id)).seats if s.seat == table.to_play)
    assert seat.autoplay


async def test_a_seat_is_handed_over_this_way_only_with_no_clock(memory_sessions: Sessions) -> None:
    sessions = memory_sessions
    game_id = (await sessions.lobby.new_game(CHAT, ALICE, "scopa")).game_id
    await sessions.lobby.join(CHAT, BOB)
    await sessions.lobby.start(CHAT, ALICE)
    version = (await sessions.queries.table(game_id)).version
    refused = await sessions.taps.handle(asker(ALICE), Tap(Action.HAND_OVER, game_id, version))
    assert isinstance(refused, Refusal) and refused.refused.reason is Reason.NO_CLOCK_ONLY


async def test_cancel_of_a_match_in_play_asks_to_confirm_and_of_a_lobby_does_not(
        memory_sessions: Sessions) -> None:
    sessions = memory_sessions
    game_id = (await sessions.lobby.new_game(CHAT, ALICE, "scopa")).game_id
    await sessions.lobby.join(CHAT, BOB)
    await sessions.lobby.start(CHAT, ALICE)
    asked = await sessions.taps.cancel_command(asker(ALICE))
    assert asked == ConfirmCancel(game_id)
    assert (await sessions.queries.game(game_id)).status is GameStatus.RUNNING
    refused = await sessions.taps.handle(asker(BOB), Tap(Action.CONFIRM_CANCEL, game_id))
    assert isinstance(refused, Refusal) and refused.refused.reason is Reason.NOT_ALLOWED
    assert (await sessions.queries.game(game_id)).status is GameStatus.RUNNING
    done = await sessions.taps.handle(asker(ALICE), Tap(Action.CONFIRM_CANCEL, game_id))
    assert isinstance(done, Note) and done.say.key == "cancel.done"
    assert (await sessions.queries.game(game_id)).status is GameStatus.CANCELLED
    lobby = (await sessions.lobby.new_game(CHAT, ALICE, "scopa")).game_id
    at_once = await sessions.taps.cancel_command(asker(ALICE))
    assert at_once == Done()
    assert (await sessions.queries.game(lobby)).status is GameStatus.CANCELLED


async def test_two_players_choosing_at_once_move_one_at_a_time(memory_sessions: Sessions) -> None:
    sessions = memory_sessions
    game_id = await scopone_lobby(sessions)
    version = (await sessions.queries.lobby(CHAT)).version
    replies = await asyncio.gather(
        sessions.taps.handle(asker(BOB), Tap(Action.SIT, game_id, version, index=0)),
        sessions.taps.handle(asker(DINO), Tap(Action.SIT, game_id, version, index=0)))
    assert sorted(not isinstance(r, Refusal) for r in replies) == [False, True]
    names = seated((await sessions.queries.lobby(CHAT)).seats)
    assert sorted(names) == ["Alice", "Bob", "Carla", "Dino"] and names[0] == "Alice"
