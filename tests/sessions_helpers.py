"""A sessions layer over a real SQLite file or over the in-memory store, with a clock
the tests move by hand."""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.engine import Move, SeatView
from bot.sessions import ChatRef, HandView, Sessions, UserRef
from bot.storage import SqliteStore

from .fakes.memory_store import MemoryStore


class FakeClock:
    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def first_legal(level: str, view: SeatView, seed: str, budget: float | None = None) -> Move:
    """A quick, deterministic computer: a random legal move seeded by the call."""
    moves = list(view.legal_moves)
    return random.Random(seed).choice(moves)


REVIEW_SEARCHES = 2
"""Searches per move in a match review: few, so that a review takes a moment."""

CHAT = ChatRef("test", "group-1", "Friends")
ALICE = UserRef("test", "u1", "Alice", "it")
BOB = UserRef("test", "u2", "Bob", "en")
CARLA = UserRef("test", "u3", "Carla", "it")
DINO = UserRef("test", "u4", "Dino", "it")


async def open_sessions(path: Path, clock: FakeClock | None = None, **kwargs: object) -> Sessions:
    clock = clock or FakeClock()
    store = await SqliteStore.open(path, clock)
    kwargs.setdefault("chooser", first_legal)
    kwargs.setdefault("review_searches", REVIEW_SEARCHES)
    return Sessions(store, clock=clock, computer_pace=0.0, **kwargs)  # type: ignore[arg-type]


async def open_memory_sessions(clock: FakeClock | None = None, **kwargs: object) -> Sessions:
    """Sessions over the in-memory store: for what does not depend on SQLite itself."""
    clock = clock or FakeClock()
    kwargs.setdefault("chooser", first_legal)
    kwargs.setdefault("review_searches", REVIEW_SEARCHES)
    return Sessions(MemoryStore(clock), clock=clock, computer_pace=0.0, **kwargs)  # type: ignore[arg-type]


def recorded(sessions: Sessions) -> list[object]:
    """A list that receives every event `sessions` publishes from now on."""
    seen: list[object] = []

    async def listen(event: object) -> None:
        seen.append(event)

    sessions.bus.subscribe(listen)
    return seen


async def play_to_end(sessions: Sessions, game_id: int, users: list[UserRef],
                      max_moves: int = 2000) -> None:
    """Every human plays a legal move on their turn; computers are run when due."""
    by_seat = {}
    for seat, player in await sessions.queries.seat_players(game_id):
        if player is not None:
            by_seat[seat] = next(u for u in users if u.key == player.user_key)
    for _ in range(max_moves):
        table = await sessions.queries.table(game_id)
        if table.finished:
            return
        user = by_seat.get(table.to_play)
        row = await sessions.queries.game(game_id)
        seat_row = next(s for s in row.seats if s.seat == table.to_play)
        if user is None or seat_row.autoplay:
            await sessions.scheduler.run_due()
            continue
        hand = await sessions.queries.hand(game_id, user)
        move = hand.choices[0].moves[-1]
        await sessions.play.play(game_id, user, hand.version, move.code)
    raise AssertionError("match did not finish")


async def start_duel(sessions: Sessions, chat: ChatRef = CHAT, first: UserRef = ALICE,
                     second: UserRef = BOB, options: dict[str, object] | None = None) -> int:
    """A 2-player scopa opened by `first`, joined by `second` and started; gives its id."""
    await sessions.lobby.new_game(chat, first, "scopa", options)
    await sessions.lobby.join(chat, second)
    return (await sessions.lobby.start(chat, first)).game_id


async def play_one(sessions: Sessions, game_id: int, first: UserRef = ALICE,
                   second: UserRef = BOB, choice: int = 0) -> int:
    """The player to move plays the first move of their `choice`-th card; gives the new version."""
    table = await sessions.queries.table(game_id)
    user = first if table.to_play == 0 else second
    hand = await sessions.queries.hand(game_id, user)
    await sessions.play.play(game_id, user, hand.version, hand.choices[choice].moves[0].code)
    return hand.version + 1


async def started(sessions_path: Path | None, clock: FakeClock | None = None) -> tuple[Sessions, int]:
    """A duel started on SQLite at `sessions_path`, or on the in-memory store (None)."""
    sessions = await (open_memory_sessions(clock) if sessions_path is None
                      else open_sessions(sessions_path, clock))
    return sessions, await start_duel(sessions)


async def _unrated_match_changes_nothing(sessions: Sessions,
                                        play_unrated: Callable[[], Awaitable[int]]) -> None:
    """A rated match between Alice and Bob, then `play_unrated`, which plays a match to its end
    and gives its id: that match ends announcing no rating change, and changes no rating,
    leaderboard line (the chat's or everyone's) or /stats figure."""
    rated = await start_duel(sessions)
    await play_to_end(sessions, rated, [ALICE, BOB])

    async def boards() -> list[dict[str, tuple[int, int, float]]]:
        return [{row.display_name: (row.games, row.wins, row.rating)
                 for row in await sessions.queries.leaderboard(chat)} for chat in (CHAT, None)]

    before = await boards()
    stats = {user.key: await sessions.queries.stats(user) for user in (ALICE, BOB)}
    seen = recorded(sessions)
    unrated = await play_unrated()
    assert (await sessions.queries.table(unrated)).finished
    ended = [e for e in seen if type(e).__name__ == "MatchEnded"]
    assert len(ended) == 1 and ended[0].rating_changes == (), "no rating change announced"
    assert await boards() == before
    for user in (ALICE, BOB):
        now, then = await sessions.queries.stats(user), stats[user.key]
        counted = ("games", "wins", "ratings")
        assert [now[k] for k in counted] == [then[k] for k in counted], user.name


async def practice_changes_no_rating(sessions: Sessions) -> None:
    """A practice match after a rated one between the same players is recorded as such
    (`rules.practice`) and changes no rating, leaderboard line or /stats figure."""

    async def practice() -> int:
        game_id = await start_duel(sessions, options={"practice": "on"})
        await play_to_end(sessions, game_id, [ALICE, BOB])
        return game_id

    await _unrated_match_changes_nothing(sessions, practice)
    for user in (ALICE, BOB):
        stats = await sessions.queries.stats(user)
        assert (stats["practice"], stats["dailies"]) == (1, 0), "/stats says what it left out"
    records = [json.loads(line) for line in await sessions.store.records()]
    assert [r["rules"]["practice"] for r in records] == [False, True]


async def daily_changes_no_rating(sessions: Sessions) -> None:
    """Alice's deal of the day, after a rated match: everyone gets its cards, so it counts on
    the day's board alone, for no rating, leaderboard line or /stats figure."""

    async def daily() -> int:
        game_id = (await sessions.daily.start(CHAT, ChatRef(ALICE.platform, ALICE.key, ALICE.name), ALICE)
                   ).table.game_id
        await play_to_end(sessions, game_id, [ALICE])
        return game_id

    await _unrated_match_changes_nothing(sessions, daily)
    stats = await sessions.queries.stats(ALICE)
    assert (stats["practice"], stats["dailies"]) == (0, 1), "/stats says what it left out"
    board = await sessions.queries.daily_board(CHAT)
    assert [line.name for line in board.lines] == [ALICE.name], "the day's board counts it"


async def fuori_match_at_alices_turn(sessions: Sessions) -> HandView:
    """A scopone to 8 with fuori, Alice against three easy computers, played by the computers
    up to Alice's first turn: her hand then (fuori may be declared from the first play)."""
    await sessions.lobby.new_game(CHAT, ALICE, "scopone", {"fuori": "on", "target": "8"})
    for level in ("easy", "easy", "easy"):
        await sessions.lobby.add_computer(CHAT, ALICE, level)
    game_id = (await sessions.lobby.start(CHAT, ALICE)).game_id
    for _ in range(8):
        hand = await sessions.queries.hand(game_id, ALICE)
        if hand.my_turn:
            return hand
        await sessions.scheduler.run_due()
    raise AssertionError("Alice never had her turn")
