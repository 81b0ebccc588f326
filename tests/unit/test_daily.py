"""The deal of the day on the sessions layer, with a clock the tests set."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime

import pytest

from bot.engine import Game, Move, Rules, SeatView
from bot.sessions import ChatRef, DailyOffer, DailyStart, Reason, Refused, Sessions, UserRef
from bot.sessions.daily import DAILY_TARGET, daily_seed
from bot.sessions.events import Event, GameCancelled, MatchEnded
from bot.sessions.records import DeadlineKind, GameStatus

from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import (
    ALICE,
    BOB,
    CARLA,
    CHAT,
    FakeClock,
    daily_changes_no_rating,
    first_legal,
    open_memory_sessions,
    play_to_end,
    recorded,
    start_duel,
)
from ..store_helpers import kept_secret

NOON = datetime(2026, 11, 25, 12, 0, tzinfo=UTC).timestamp()
DAY = 24 * 3600


def private(user: UserRef) -> ChatRef:
    return ChatRef(user.platform, user.key, user.name)


async def first_deal(sessions: Sessions, user: UserRef) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    start = await sessions.daily.start(CHAT, private(user), user)
    hand = await sessions.queries.hand(start.table.game_id, user)
    return start.table.game_id, tuple(map(str, hand.hand)), tuple(map(str, hand.table))


async def test_everyone_gets_the_same_first_deal_on_a_day_against_hard_to_eleven() -> None:
    sessions = await open_memory_sessions(FakeClock(NOON))
    alice_game, alice_hand, alice_table = await first_deal(sessions, ALICE)
    bob_game, bob_hand, bob_table = await first_deal(sessions, BOB)
    assert alice_game != bob_game
    assert (alice_hand, alice_table) == (bob_hand, bob_table)
    table = await sessions.queries.table(alice_game)
    assert table.target == DAILY_TARGET and table.variant == "scopa"
    row = await sessions.queries.game(alice_game)
    assert row.chat == private(ALICE), "the match lives in the player's private chat"
    assert [s.computer_level for s in row.seats] == [None, "hard"]


async def test_asked_again_the_deal_under_way_comes_back_and_once_over_a_second_attempt_is_refused() -> None:
    clock = FakeClock(NOON)
    sessions = await open_memory_sessions(clock)
    start = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    assert not start.resumed
    again = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    assert again.resumed and again.table.game_id == start.table.game_id, "the same deal, not a second"
    await play_to_end(sessions, start.table.game_id, [ALICE])
    with pytest.raises(Refused) as refused:
        await sessions.daily.start(CHAT, private(ALICE), ALICE)
    assert refused.value.reason is Reason.DAILY_PLAYED
    clock.advance(11 * 3600 - 1)
    with pytest.raises(Refused) as again:
        await sessions.daily.start(private(ALICE), private(ALICE), ALICE)
    assert again.value.reason is Reason.DAILY_PLAYED
    assert await sessions.queries.open_game_id(private(ALICE)) is None, "a refusal opens no game"


async def test_a_new_day_brings_a_new_deal_and_names_yesterdays_winner() -> None:
    clock = FakeClock(NOON)
    sessions = await open_memory_sessions(clock)
    first_game, first_hand, first_table = await first_deal(sessions, ALICE)
    await play_to_end(sessions, first_game, [ALICE])
    clock.advance(DAY)
    assert daily_seed(datetime.fromtimestamp(NOON, UTC).date(), "key") != daily_seed(
        datetime.fromtimestamp(clock.now, UTC).date(), "key")
    start = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    hand = await sessions.queries.hand(start.table.game_id, ALICE)
    assert (tuple(map(str, hand.hand)), tuple(map(str, hand.table))) != (first_hand, first_table)
    assert start.yesterday is not None and start.yesterday.name == ALICE.name
    board = await sessions.queries.daily_board(CHAT)
    assert board.lines == () and board.yesterday == start.yesterday


async def test_the_board_ranks_by_margin_then_fewer_moves_per_chat_and_for_everyone() -> None:
    sessions = await open_memory_sessions(FakeClock(NOON))
    elsewhere = ChatRef("test", "group-2", "Others")
    games = {}
    for user, asked_in in ((ALICE, CHAT), (BOB, CHAT), (CARLA, elsewhere)):
        games[user.name] = (await sessions.daily.start(asked_in, private(user), user)).table.game_id
        await play_to_end(sessions, games[user.name], [user])
    board = await sessions.queries.daily_board(None)
    margins = {}
    for name, game_id in games.items():
        table = await sessions.queries.table(game_id)
        margins[name] = table.totals[0] - table.totals[1]
    assert {line.name: line.margin for line in board.lines} == margins
    for before, after in zip(board.lines, board.lines[1:], strict=False):
        assert (before.margin, -before.moves) >= (after.margin, -after.moves)
        assert before.moves > 0
    assert [line.rank for line in board.lines] == [1, 2, 3] and board.everyone
    group = await sessions.queries.daily_board(CHAT)
    assert {line.name for line in group.lines} == {ALICE.name, BOB.name}
    assert not group.everyone


async def test_a_deal_of_the_day_changes_no_rating_leaderboard_or_stats() -> None:
    await daily_changes_no_rating(await open_memory_sessions(FakeClock(NOON)))


def date_alone(day: date) -> str:
    """The seed a day's deal had before it had a secret part: anyone could work it out."""
    return hashlib.sha256(f"daily:{day.isoformat()}".encode()).hexdigest()[:16]


async def test_the_days_deal_is_keyed_with_a_secret_kept_with_the_data_not_the_date_alone() -> None:
    seeds: list[str] = []

    def chooser(level: str, view: SeatView, seed: str, budget: float | None = None) -> Move:
        seeds.append(seed)
        return first_legal(level, view, seed, budget)

    store = MemoryStore(FakeClock(NOON))
    sessions = Sessions(store, clock=FakeClock(NOON), computer_pace=0.0, chooser=chooser)
    start = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    row = await store.get_game(start.table.game_id)
    assert row is not None
    day = date(2026, 11, 25)
    key = await kept_secret(store, "daily", "another")
    assert key != "another" and len(key) == 64, "made once, with the secrets module"
    assert row.seed == daily_seed(day, key) != date_alone(day)
    dealt = Game.new("scopa", 2, rules=Rules.from_options("scopa", {"target": DAILY_TARGET}), seed=row.seed)
    by_date = Game.new("scopa", 2, rules=Rules.from_options("scopa", {"target": DAILY_TARGET}),
                       seed=date_alone(day))
    assert dealt.view(0).hand != by_date.view(0).hand
    await play_to_end(sessions, start.table.game_id, [ALICE])
    assert seeds and all(seed.startswith(f"{row.seed}/") for seed in seeds), "the computer's search too"
    again = Sessions(store, clock=FakeClock(NOON), computer_pace=0.0, chooser=first_legal)
    assert (await again.daily.start(CHAT, private(BOB), BOB)).table.game_id != start.table.game_id
    bob = await store.get_game((await again.queries.open_game_id(private(BOB))) or 0)
    assert bob is not None and bob.seed == row.seed, "another sessions on the same store deals the same"


async def test_daily_clears_a_lobby_left_in_the_private_chat_and_a_daily_has_no_rematch() -> None:
    clock = FakeClock(NOON)
    sessions = await open_memory_sessions(clock)
    dead = await sessions.lobby.new_game(private(ALICE), ALICE, "scopa")
    start = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    assert (await sessions.queries.game(dead.game_id)).status is GameStatus.CANCELLED
    assert await sessions.queries.open_game_id(private(ALICE)) == start.table.game_id
    assert (await sessions.queries.game(start.table.game_id)).status is GameStatus.RUNNING, "never a lobby"
    seen = recorded(sessions)
    await play_to_end(sessions, start.table.game_id, [ALICE])
    ended = [e for e in seen if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and not ended[0].rematch, "its end offers no rematch"
    with pytest.raises(Refused) as refused:
        await sessions.lobby.rematch(start.table.game_id, ALICE)
    assert refused.value.reason is Reason.DAILY_REMATCH
    assert await sessions.queries.open_game_id(private(ALICE)) is None, "a refused rematch opens nothing"
    duel = await start_duel(sessions)
    await play_to_end(sessions, duel, [ALICE, BOB])
    assert [e.rematch for e in seen if isinstance(e, MatchEnded)][-1], "a group's match keeps its rematch"
    clock.advance(DAY)
    tomorrow = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    assert not tomorrow.resumed and tomorrow.day == "2026-11-26"


async def test_a_deal_unfinished_at_midnight_is_closed_as_it_stood_and_the_new_days_deal_comes() -> None:
    clock = FakeClock(datetime(2026, 11, 25, 23, 59, tzinfo=UTC).timestamp())
    sessions = await open_memory_sessions(clock)
    seen: list[Event] = []
    sessions.bus.subscribe(_collected(seen))
    start = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    await _to_alices_turn(sessions, start.table.game_id)
    clock.advance(59)
    assert await sessions.scheduler.run_due() == 0, "a minute before midnight nothing is due"
    clock.advance(2)
    assert await sessions.scheduler.run_due() == 1
    closed = [e for e in seen if isinstance(e, GameCancelled)]
    assert [(e.game_id, e.day_over) for e in closed] == [(start.table.game_id, "2026-11-25")]
    assert (await sessions.queries.table(start.table.game_id)).status is GameStatus.CANCELLED
    assert [line.name for line in (await sessions.queries.daily_board(None)).lines] == [], "on no board"
    today = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    assert not today.resumed and today.day == "2026-11-26"


async def test_a_deal_of_an_ended_day_found_running_at_daily_is_closed_and_todays_dealt() -> None:
    """The bot was away at midnight: /daily, asked before the timers ran, closes it itself."""
    clock = FakeClock(datetime(2026, 11, 25, 23, 0, tzinfo=UTC).timestamp())
    sessions = await open_memory_sessions(clock)
    start = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    await _to_alices_turn(sessions, start.table.game_id)
    clock.advance(2 * 3600)
    today = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    assert not today.resumed and today.day == "2026-11-26" and today.table.game_id != start.table.game_id
    assert (await sessions.queries.table(start.table.game_id)).status is GameStatus.CANCELLED


async def test_daily_offers_the_deal_and_deals_nothing_until_asked_to() -> None:
    clock = FakeClock(NOON)
    sessions = await open_memory_sessions(clock)
    offer = await sessions.daily.offer(ALICE)
    assert isinstance(offer, DailyOffer) and offer.day == "2026-11-25" and offer.name == "Alice"
    assert await sessions.queries.open_game_id(private(ALICE)) is None, "an offer deals nothing"
    assert sessions.queries.daily_today() == "2026-11-25"
    start = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    again = await sessions.daily.offer(ALICE)
    assert isinstance(again, DailyStart) and again.resumed and again.table.game_id == start.table.game_id
    await play_to_end(sessions, start.table.game_id, [ALICE])
    with pytest.raises(Refused) as refused:
        await sessions.daily.offer(ALICE)
    assert refused.value.reason is Reason.DAILY_PLAYED


async def _to_alices_turn(sessions: Sessions, game_id: int) -> None:
    """The computer's first play made, if it leads: Alice's turn, with nobody's clock running."""
    for _ in range(3):
        if (await sessions.queries.table(game_id)).to_play == 0:
            return
        await sessions.scheduler.run_due()
    raise AssertionError("Alice's turn never came")


def _collected(into: list[Event]) -> Callable[[Event], Awaitable[None]]:
    async def listen(event: Event) -> None:
        into.append(event)
    return listen


async def test_the_players_first_turn_waits_for_them_and_the_computers_is_played_at_once() -> None:
    kinds = set()
    for n in range(12):
        clock = FakeClock(NOON)
        store = MemoryStore(clock)
        await kept_secret(store, "daily", f"key-{n}")
        sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)
        start = await sessions.daily.start(CHAT, private(ALICE), ALICE)
        row = await store.get_game(start.table.game_id)
        assert row is not None
        kinds.add(row.deadline_kind)
        if start.table.to_play == 0:
            midnight = datetime(2026, 11, 26, tzinfo=UTC).timestamp()
            assert row.deadline_kind is DeadlineKind.DAY_OVER and row.deadline == midnight, \
                "no clock: the turn waits until the day ends"
            clock.advance(3 * 3600)
            assert await sessions.scheduler.run_due(
                    ) == 0 and (await sessions.queries.table(row.id)).version == 0, \
                "nobody plays for the player on their turn, nor reminds them"
        else:
            assert row.deadline_kind is DeadlineKind.COMPUTER and await sessions.scheduler.run_due() == 1
    assert kinds == {DeadlineKind.DAY_OVER, DeadlineKind.COMPUTER}
