"""Monthly seasons: the standings (3 points a win, a bonus point for each win of a run of three or
more), the cap on matches against the computer a day, the UTC month a match belongs to, what
/season's words ask for, and a chat's season through the sessions, closed once."""

from __future__ import annotations

from datetime import UTC, date, datetime

from bot.sessions.ports import SeasonResult, Served
from bot.sessions.records import ChatRow
from bot.sessions.seasons import (
    COMPUTER_CAP,
    SeasonAsk,
    SeasonClose,
    Seasons,
    champion,
    month_of,
    month_start,
    next_month,
    previous_month,
    season_key,
    season_request,
    standings,
)

from ..sessions_helpers import (
    ALICE,
    BOB,
    CARLA,
    CHAT,
    FakeClock,
    open_memory_sessions,
    play_to_end,
    start_duel,
)

NOV = datetime(2026, 11, 10, 12, 0, tzinfo=UTC).timestamp()
HOUR = 3600.0
DAY = 86400.0


def _result(game: int, player: int, won: bool, at: float, computer: bool = False,
            name: str | None = None) -> SeasonResult:
    return SeasonResult(game, 1, at, player, name or f"P{player}", won, computer)


def _duel(game: int, winner: int, loser: int, at: float) -> list[SeasonResult]:
    return [_result(game, winner, True, at), _result(game, loser, False, at)]


def test_a_win_is_three_points_and_a_loss_none() -> None:
    ranked = standings([*_duel(1, 1, 2, NOV), *_duel(2, 2, 1, NOV + HOUR), *_duel(3, 1, 2, NOV + 2 * HOUR)])
    assert [(s.player_id, s.points, s.wins, s.matches, s.bonus) for s in ranked] == [
        (1, 6, 2, 3, 0), (2, 3, 1, 3, 0)]


def test_each_win_of_a_run_of_three_or_more_earns_a_bonus_point() -> None:
    wins = [r for n in range(5) for r in _duel(n, 1, 2, NOV + n * HOUR)]
    alice = standings(wins)[0]
    assert (alice.points, alice.bonus, alice.best_streak) == (5 * 3 + 3, 3, 5), "wins 3 to 5 earn one more"
    broken = [*_duel(1, 1, 2, NOV), *_duel(2, 1, 2, NOV + HOUR), *_duel(3, 2, 1, NOV + 2 * HOUR),
              *_duel(4, 1, 2, NOV + 3 * HOUR), *_duel(5, 1, 2, NOV + 4 * HOUR)]
    alice = next(s for s in standings(broken) if s.player_id == 1)
    assert (alice.points, alice.bonus, alice.best_streak) == (12, 0, 2), "a loss starts the run again"


def test_only_the_first_matches_against_the_computer_of_a_day_count() -> None:
    day_one = [_result(n, 1, True, NOV + n * HOUR, computer=True) for n in range(5)]
    day_two = [_result(10, 1, True, NOV + DAY, computer=True)]
    alice = standings([*day_one, *day_two])[0]
    assert alice.matches == COMPUTER_CAP + 1 and alice.left_out == 5 - COMPUTER_CAP
    assert alice.wins == COMPUTER_CAP + 1
    assert alice.points == 3 * 4 + 2, "the cap's leftovers neither break nor make a run: 3rd and 4th win earn"
    with_people = standings([*day_one, *_duel(20, 1, 2, NOV + 6 * HOUR)])
    assert with_people[0].matches == COMPUTER_CAP + 1, "matches between people have no cap"


def test_the_cap_counts_utc_days() -> None:
    late = datetime(2026, 11, 10, 23, 30, tzinfo=UTC).timestamp()
    results = [_result(n, 1, True, late + n * 600, computer=True) for n in range(6)]  # 23:30 to 00:20
    alice = standings(results)[0]
    assert alice.matches == 6, "three before midnight UTC, three after"


def test_ties_go_to_more_wins_then_fewer_matches_then_who_got_there_first() -> None:
    ranked = standings([*_duel(1, 1, 3, NOV), *_duel(2, 2, 4, NOV + HOUR)])
    assert [s.player_id for s in ranked[:2]] == [1, 2], "same points and matches: the earlier one first"
    fewer = standings([*_duel(1, 1, 3, NOV), *_duel(2, 4, 1, NOV + HOUR), *_duel(3, 2, 3, NOV + 2 * HOUR)])
    assert [s.player_id for s in fewer[:3]] == [4, 2, 1], "same points: fewer matches first, then the earlier"


def test_a_champion_needs_two_people_and_points() -> None:
    assert champion(standings(_duel(1, 1, 2, NOV))) is not None
    assert champion(standings([_result(1, 1, True, NOV, computer=True)])) is None, "alone: no champion"
    assert champion(standings([_result(1, 1, False, NOV, computer=True),
                               _result(2, 2, False, NOV, computer=True)])) is None


def test_months_are_utc_months() -> None:
    assert month_of(datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC).timestamp()) == date(2026, 11, 1)
    assert month_of(datetime(2026, 12, 1, 0, 0, tzinfo=UTC).timestamp()) == date(2026, 12, 1)
    assert next_month(date(2026, 12, 1)) == date(2027, 1, 1)
    assert previous_month(date(2027, 1, 1)) == date(2026, 12, 1)
    assert month_start(date(2026, 12, 1)) == datetime(2026, 12, 1, tzinfo=UTC).timestamp()
    assert season_key(date(2027, 1, 1)) == "2027-01"


def test_the_words_of_season() -> None:
    assert season_request([]) == SeasonAsk()
    assert season_request(["global"]) == SeasonAsk(everyone=True)
    assert season_request(["scorsa", "tutti"]) == SeasonAsk(everyone=True, last=True)
    assert season_request(["pasada"]) == SeasonAsk(last=True)
    assert season_request(["@Anna"]) == SeasonAsk(player="Anna")
    assert season_request(["Anna", "Maria"]) == SeasonAsk(player="Anna Maria")


async def test_a_chats_season_through_the_sessions_closed_once_when_the_month_turns() -> None:
    clock = FakeClock(datetime(2026, 11, 29, 20, 0, tzinfo=UTC).timestamp())
    sessions = await open_memory_sessions(clock)
    for first, second in ((ALICE, BOB), (BOB, ALICE), (ALICE, CARLA)):
        game_id = await start_duel(sessions, CHAT, first, second)
        await play_to_end(sessions, game_id, [ALICE, BOB, CARLA])
        clock.advance(HOUR)
    board = await sessions.seasons.board(CHAT, asker=ALICE)
    assert board.running and board.month == date(2026, 11, 1) and board.people == 3
    assert sum(s.wins for _, s in board.lines) == 3 and sum(s.matches for _, s in board.lines) == 6
    assert board.champion is None, "a running season has no champion yet"
    posted: list[SeasonClose] = []

    async def post(close: SeasonClose) -> bool:
        posted.append(close)
        return True

    assert await sessions.seasons.close_due("test", None, post) == 0, "November is still running"
    clock.now = datetime(2026, 12, 1, 0, 1, tzinfo=UTC).timestamp()
    assert (await sessions.seasons.board(CHAT)).lines == (), "a new season begins empty"
    last = await sessions.seasons.board(CHAT, last=True)
    assert not last.running and last.champion == last.lines[0][1]
    assert await sessions.seasons.close_due("test", None, post) == 1
    assert await sessions.seasons.close_due("test", None, post) == 0, "announced once"
    assert [(c.chat.key, c.board.champion) for c in posted] == [(CHAT.key, last.champion)]
    history = await sessions.seasons.history(CHAT, "ali")
    assert history is not None and history.name == "Alice" and history.current is None
    assert [(s.month, s.people) for s in history.past] == [(date(2026, 11, 1), 3)]
    assert await sessions.seasons.history(CHAT, "Zeno") is None
    everyone = await sessions.seasons.board(None, last=True)
    assert everyone.everyone and everyone.people == 3


class _ManyChats:
    """A store with `count` chats whose November had one duel each, claimed as the SQL stores do."""

    def __init__(self, count: int) -> None:
        self.chats = [ChatRow(n, "test", f"g{n}", f"G{n}", "en", 90, {}) for n in range(1, count + 1)]
        self.done: set[int] = set()
        self.held: set[int] = set()

    async def claim_season_closes(self, season: str, start: float, end: float, owner: str, now: float,
                                  lease: float, served: Served | None, limit: int = 20) -> list[ChatRow]:
        free = [c for c in self.chats if c.id not in self.done and c.id not in self.held][:limit]
        self.held.update(c.id for c in free)
        return free

    async def season_closed(self, chat_id: int, season: str, owner: str, done: bool) -> None:
        self.held.discard(chat_id)
        if done:
            self.done.add(chat_id)

    async def season_results(self, start: float, end: float, chat_id: int | None) -> list[SeasonResult]:
        return [SeasonResult(chat_id or 0, chat_id or 0, start + HOUR, 1, "Alice", True, False),
                SeasonResult(chat_id or 0, chat_id or 0, start + HOUR, 2, "Bob", False, False)]


async def test_every_chat_is_closed_in_one_look_however_many_and_a_failing_post_stops_it() -> None:
    store = _ManyChats(45)
    clock = FakeClock(datetime(2026, 12, 1, 0, 1, tzinfo=UTC).timestamp())
    seasons = Seasons(store, None, clock, "p1")  # type: ignore[arg-type]
    posted: list[str] = []

    async def post(close: SeasonClose) -> bool:
        posted.append(close.chat.key)
        return close.chat.key != "g30"

    assert await seasons.close_due("test", None, post) == 39, "two batches of 20, the second with a failure"
    assert len(store.done) == 39 and "g30" in posted
    assert await seasons.close_due("test", None, post) == 5, "the rest; the failed one tried again, failing"
    assert len(store.done) == 44
