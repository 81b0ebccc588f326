"""The plays since a player's last turn, as the sessions' hand view gives them to every front-end,
and the private picture that draws them."""

from __future__ import annotations

from dataclasses import replace

from bot.pictures import seat_picture, seat_scene
from bot.sessions import Sessions, UserRef

from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, DINO, open_memory_sessions

PLAYERS = (ALICE, BOB, CARLA, DINO)


async def _scopone() -> tuple[Sessions, int]:
    sessions = await open_memory_sessions()
    await sessions.lobby.new_game(CHAT, ALICE, "scopone")
    for user in PLAYERS[1:]:
        await sessions.lobby.join(CHAT, user)
    return sessions, (await sessions.lobby.start(CHAT, ALICE)).game_id


async def _play(sessions: Sessions, game_id: int) -> UserRef:
    """The player to move plays their first card's first move; gives who played."""
    table = await sessions.queries.table(game_id)
    row = await sessions.queries.game(game_id)
    key = next(s.player.user_key for s in row.seats if s.seat == table.to_play and s.player)
    user = next(u for u in PLAYERS if u.key == key)
    hand = await sessions.queries.hand(game_id, user)
    await sessions.play.play(game_id, user, hand.version, hand.choices[0].moves[0].code)
    return user


async def test_at_each_turn_the_hand_lists_the_three_plays_since_the_players_last_one() -> None:
    sessions, game_id = await _scopone()
    played: list[str] = []
    for turn in range(12):
        table = await sessions.queries.table(game_id)
        mover = table.seats[table.to_play]
        user = next(u for u in PLAYERS if u.name == mover.name)
        hand = await sessions.queries.hand(game_id, user)
        assert hand.my_turn
        assert [p.name for p in hand.since_turn] == played[-3:] if turn else hand.since_turn == ()
        if turn >= 3:
            partner = table.seats[(table.to_play + 2) % 4].name
            assert partner in [p.name for p in hand.since_turn], "the partner's play among them"
            assert hand.since_turn[-1] == table.last_plays[-1]
        played.append((await _play(sessions, game_id)).name)
        after, now = await sessions.queries.hand(game_id, user), await sessions.queries.table(game_id)
        assert after.since_turn == ()
        shown = after.shown_plays(now.last_plays[-1])
        assert [p.name for p in shown] == [user.name], "right after: the own play"
    await sessions.close()


async def test_the_private_picture_draws_every_play_since_the_last_turn() -> None:
    sessions, game_id = await _scopone()
    for _ in range(7):
        await _play(sessions, game_id)
    table = await sessions.queries.table(game_id)
    user = next(u for u in PLAYERS if u.name == table.seats[table.to_play].name)
    hand = await sessions.queries.hand(game_id, user)
    scene = seat_scene(table, hand)
    assert [p.name for p in scene.plays] == [p.name for p in hand.since_turn] and len(scene.plays) == 3
    three = seat_picture(scene, "en")
    one = seat_picture(seat_scene(table, replace(hand, since_turn=hand.since_turn[-1:])), "en")
    assert three.width == one.width == 640
    assert three.height > one.height, "a row for each play"
    await sessions.close()
