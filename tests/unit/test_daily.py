"""The deal of the day on the sessions layer, with a clock the tests set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.sessions import ChatRef, Reason, Refused, Sessions, UserRef
from bot.sessions.daily import DAILY_TARGET, daily_seed

from ..sessions_helpers import (
    ALICE,
    BOB,
    CARLA,
    CHAT,
    FakeClock,
    daily_changes_no_rating,
    open_memory_sessions,
    play_to_end,
)

NOON = datetime(2026, 11, 25, 12, 0, tzinfo=UTC).timestamp()
DAY = 24 * 3600


def private(user: UserRef) -> ChatRef:
    return ChatRef(user.platform, user.key, user.name)


async def first_deal(sessions: Sessions, user: UserRef) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    start = await sessions.daily(CHAT, private(user), user)
    hand = await sessions.hand(start.table.game_id, user)
    return start.table.game_id, tuple(map(str, hand.hand)), tuple(map(str, hand.table))


async def test_everyone_gets_the_same_first_deal_on_a_day_against_hard_to_eleven() -> None:
    sessions = await open_memory_sessions(FakeClock(NOON))
    alice_game, alice_hand, alice_table = await first_deal(sessions, ALICE)
    bob_game, bob_hand, bob_table = await first_deal(sessions, BOB)
    assert alice_game != bob_game
    assert (alice_hand, alice_table) == (bob_hand, bob_table)
    table = await sessions.table(alice_game)
    assert table.target == DAILY_TARGET and table.variant == "scopa"
    row = await sessions.game_row(alice_game)
    assert row.chat == private(ALICE), "the match lives in the player's private chat"
    assert [s.computer_level for s in row.seats] == [None, "hard"]


async def test_a_second_attempt_the_same_day_is_refused_even_after_the_first_ends() -> None:
    clock = FakeClock(NOON)
    sessions = await open_memory_sessions(clock)
    start = await sessions.daily(CHAT, private(ALICE), ALICE)
    with pytest.raises(Refused) as refused:
        await sessions.daily(CHAT, private(ALICE), ALICE)
    assert refused.value.reason is Reason.DAILY_PLAYED
    await play_to_end(sessions, start.table.game_id, [ALICE])
    clock.advance(11 * 3600 - 1)
    with pytest.raises(Refused) as again:
        await sessions.daily(private(ALICE), private(ALICE), ALICE)
    assert again.value.reason is Reason.DAILY_PLAYED
    assert await sessions.open_game_id(private(ALICE)) is None, "a refusal opens no game"


async def test_a_new_day_brings_a_new_deal_and_names_yesterdays_winner() -> None:
    clock = FakeClock(NOON)
    sessions = await open_memory_sessions(clock)
    first_game, first_hand, first_table = await first_deal(sessions, ALICE)
    await play_to_end(sessions, first_game, [ALICE])
    clock.advance(DAY)
    assert daily_seed(datetime.fromtimestamp(NOON, UTC).date()) != daily_seed(
        datetime.fromtimestamp(clock.now, UTC).date())
    start = await sessions.daily(CHAT, private(ALICE), ALICE)
    hand = await sessions.hand(start.table.game_id, ALICE)
    assert (tuple(map(str, hand.hand)), tuple(map(str, hand.table))) != (first_hand, first_table)
    assert start.yesterday is not None and start.yesterday.name == ALICE.name
    board = await sessions.daily_board(CHAT)
    assert board.lines == () and board.yesterday == start.yesterday


async def test_the_board_ranks_by_margin_then_fewer_moves_per_chat_and_for_everyone() -> None:
    sessions = await open_memory_sessions(FakeClock(NOON))
    elsewhere = ChatRef("test", "group-2", "Others")
    games = {}
    for user, asked_in in ((ALICE, CHAT), (BOB, CHAT), (CARLA, elsewhere)):
        games[user.name] = (await sessions.daily(asked_in, private(user), user)).table.game_id
        await play_to_end(sessions, games[user.name], [user])
    board = await sessions.daily_board(None)
    margins = {}
    for name, game_id in games.items():
        table = await sessions.table(game_id)
        margins[name] = table.totals[0] - table.totals[1]
    assert {line.name: line.margin for line in board.lines} == margins
    for before, after in zip(board.lines, board.lines[1:], strict=False):
        assert (before.margin, -before.moves) >= (after.margin, -after.moves)
        assert before.moves > 0
    assert [line.rank for line in board.lines] == [1, 2, 3] and board.everyone
    group = await sessions.daily_board(CHAT)
    assert {line.name for line in group.lines} == {ALICE.name, BOB.name}
    assert not group.everyone


async def test_a_deal_of_the_day_changes_no_rating_leaderboard_or_stats() -> None:
    await daily_changes_no_rating(await open_memory_sessions(FakeClock(NOON)))
