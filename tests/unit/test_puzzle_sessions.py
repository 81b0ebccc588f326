"""Puzzles from a chat's own finished matches: which position, and the answer to a tap."""

from __future__ import annotations

import random

import pytest

from bot.ai.puzzle import as_good_as_best, best_moves, exact_values
from bot.ai.review import Review, read_records, review_tasks
from bot.engine import Game, Move
from bot.sessions import ChatRef, Reason, Refused, Sessions
from bot.sessions.puzzles import CLEARLY

from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, DINO, open_memory_sessions, play_to_end, start_duel
from ..store_helpers import store_review

ELSEWHERE = ChatRef("test", "group-2", "Others")


@pytest.fixture(autouse=True)
def dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every match dealt from one seed, with three plays costlier than `CLEARLY`, none of them in
    a position of full information."""
    monkeypatch.setattr("bot.sessions.lobby.secrets.token_hex", lambda _: "puzzle-0")


async def _reviewed_duel(sessions: Sessions, chat: ChatRef = CHAT) -> tuple[int, Review]:
    game_id = await start_duel(sessions, chat, options={"target": 1})
    await play_to_end(sessions, game_id, [ALICE, BOB])
    return game_id, (await sessions.reviews.review(game_id, ALICE)).review


def _costly(review: Review) -> list[tuple[float, int, int]]:
    return sorted((-p.loss, p.round, p.play) for p in review.plays
                  if not p.forced and p.loss >= CLEARLY and p.best != p.played)


async def test_the_puzzle_is_the_costliest_clear_mistake_of_the_chats_matches() -> None:
    sessions = await open_memory_sessions()
    game_id, review = await _reviewed_duel(sessions)
    costly = _costly(review)
    assert costly, "the first legal move each turn gives up points somewhere"
    puzzle = await sessions.puzzles.puzzle(ALICE, CHAT)
    assert (puzzle.game_id, puzzle.rank, puzzle.count) == (game_id, 0, len(costly))
    graded = next(p for p in review.plays if (p.round, p.play) == (puzzle.round, puzzle.play))
    if not puzzle.exact:
        assert (-graded.loss, graded.round, graded.play) == costly[0]
    assert puzzle.name == ("Alice", "Bob")[graded.seat]
    assert puzzle.hand == graded.hand and puzzle.table == graded.table
    assert graded.played in puzzle.moves and graded.best in puzzle.moves
    again = await sessions.puzzles.puzzle(BOB, CHAT)
    assert again == puzzle, "the same stored matches give the same puzzle, whoever asks"
    following = await sessions.puzzles.puzzle(ALICE, CHAT, 1)
    assert following.rank == 1 % puzzle.count
    assert await sessions.puzzles.puzzle(ALICE, CHAT, puzzle.count) == puzzle, "past the last, round again"
    assert await sessions.puzzles.puzzle(ALICE, None) == puzzle, "privately: the player's own matches"


async def test_no_puzzle_before_a_finished_reviewed_match_and_never_from_a_match_in_play() -> None:
    sessions = await open_memory_sessions()
    for chat in (CHAT, None):
        with pytest.raises(Refused) as refused:
            await sessions.puzzles.puzzle(ALICE, chat)
        assert refused.value.reason == Reason.NO_PUZZLE
    unreviewed = await start_duel(sessions, options={"target": 1})
    await play_to_end(sessions, unreviewed, [ALICE, BOB])
    with pytest.raises(Refused) as refused:
        await sessions.puzzles.puzzle(ALICE, CHAT)
    assert refused.value.reason == Reason.NO_PUZZLE, "finished but not reviewed"
    finished, review = await _reviewed_duel(sessions, ELSEWHERE)
    playing = await start_duel(sessions, options={"target": 1})
    store = sessions.puzzles.store
    await store_review(store, playing, await store.match_review(finished) or "", [])
    with pytest.raises(Refused) as refused:
        await sessions.puzzles.puzzle(ALICE, CHAT)
    assert refused.value.reason == Reason.NO_PUZZLE, "a match in play is no puzzle, review or not"
    spot = _costly(review)[0]
    with pytest.raises(Refused) as refused:
        await sessions.puzzles.answer(ALICE, CHAT, playing, f"{spot[1]}.{spot[2]}", 0)
    assert refused.value.reason == Reason.NOT_A_PUZZLE
    for who in (CARLA, DINO):
        with pytest.raises(Refused) as refused:
            await sessions.puzzles.puzzle(who, None)
        assert refused.value.reason == Reason.NO_PUZZLE, "privately, only one's own matches"


async def test_a_tap_is_answered_right_or_wrong_with_the_best_move_and_the_reason() -> None:
    sessions = await open_memory_sessions()
    await _reviewed_duel(sessions)
    puzzle = await sessions.puzzles.puzzle(ALICE, CHAT)
    answers = [await sessions.puzzles.answer(CARLA, CHAT, puzzle.game_id, puzzle.spot, index)
               for index in range(len(puzzle.moves))]
    right = [a for a in answers if a.right]
    assert right and len(right) < len(answers)
    graded = answers[0].graded
    assert all(a.graded == graded for a in answers)
    assert graded.best in [a.chosen for a in right]
    assert graded.played not in [a.chosen for a in right], "the move played was clearly worse"
    assert graded.reason is not None
    assert graded.loss >= CLEARLY
    mine = await sessions.puzzles.answer(ALICE, None, puzzle.game_id, puzzle.spot, 0)
    assert mine.right == answers[0].right, "a player of the match answers privately too"


async def test_a_third_move_is_valued_as_the_review_valued_the_play() -> None:
    sessions = await open_memory_sessions()
    game_id, review = await _reviewed_duel(sessions)
    puzzle = await sessions.puzzles.puzzle(ALICE, CHAT)
    assert not puzzle.exact
    line = await sessions.puzzles.store.match_record(game_id)
    assert line is not None
    turn, seed, searches = next(task for task in review_tasks(read_records(line)[0], review.searches)
                                if (task[0].round, task[0].play) == (puzzle.round, puzzle.play))
    graded = next(p for p in review.plays if (p.round, p.play) == (puzzle.round, puzzle.play))
    assert as_good_as_best((turn.view, graded.best, seed, searches))
    assert not as_good_as_best((turn.view, graded.played, seed, searches)), "the review's own count"
    for index, move in enumerate(puzzle.moves):
        answer = await sessions.puzzles.answer(BOB, CHAT, game_id, puzzle.spot, index)
        assert answer.right == as_good_as_best((turn.view, move, seed, searches)), move


async def test_forged_answers_are_refused() -> None:
    sessions = await open_memory_sessions()
    game_id, review = await _reviewed_duel(sessions)
    puzzle = await sessions.puzzles.puzzle(ALICE, CHAT)
    cheap = next(p for p in review.plays if p.loss == 0 and not p.forced)
    forged = [(ALICE, CHAT, game_id, puzzle.spot, len(puzzle.moves)),
              (ALICE, CHAT, game_id, puzzle.spot, -1),
              (ALICE, CHAT, game_id, "99.0", 0),
              (ALICE, CHAT, game_id, "x", 0),
              (ALICE, CHAT, game_id, f"{cheap.round}.{cheap.play}", 0),
              (ALICE, CHAT, 987654, puzzle.spot, 0),
              (ALICE, ELSEWHERE, game_id, puzzle.spot, 0),
              (CARLA, None, game_id, puzzle.spot, 0)]
    for user, chat, game, spot, index in forged:
        with pytest.raises(Refused) as refused:
            await sessions.puzzles.answer(user, chat, game, spot, index)
        assert refused.value.reason == Reason.NOT_A_PUZZLE, (game, spot, index)


async def test_a_deal_of_the_day_is_never_a_puzzle() -> None:
    sessions = await open_memory_sessions()
    home = ChatRef(ALICE.platform, ALICE.key, ALICE.name)
    game_id = (await sessions.daily.start(CHAT, home, ALICE)).table.game_id
    await play_to_end(sessions, game_id, [ALICE])
    review = (await sessions.reviews.review(game_id, ALICE)).review
    for chat in (None, CHAT, home):
        with pytest.raises(Refused) as refused:
            await sessions.puzzles.puzzle(ALICE, chat)
        assert refused.value.reason == Reason.NO_PUZZLE
    costly = next(p for p in review.plays if not p.forced and p.loss >= CLEARLY and p.best != p.played)
    with pytest.raises(Refused) as refused:
        await sessions.puzzles.answer(ALICE, None, game_id, f"{costly.round}.{costly.play}", 0)
    assert refused.value.reason == Reason.NOT_A_PUZZLE


def _full_information(seed: int) -> Game:
    """A 2-player round played at random until the stock is empty and the player to move holds
    three cards: every card is known to them."""
    rng = random.Random(seed)
    game = Game.new("scopa", 2, seed=seed)
    while game.stock or len(game.hands[game.to_play]) < 3:
        game.apply(rng.choice(game.legal_moves()))
    return game


def _minimax(game: Game, side: int) -> float:
    """The margin of `side` at the round's end with best play on both sides, by the engine's
    own scoring of every line of play (no search of the computer player's)."""
    values = []
    for move in game.legal_moves():
        after = game.copy()
        outcome = after.apply(move)
        if outcome.round_result is not None:
            scores = [score.total for score in outcome.round_result.scores]
            values.append(float(scores[side] - scores[1 - side]))
        else:
            values.append(_minimax(after, side))
    return max(values) if game.to_play == side else min(values)


@pytest.mark.parametrize("seed", range(6))
def test_a_full_information_position_is_valued_exactly(seed: int) -> None:
    game = _full_information(seed)
    view = game.view(game.to_play)
    values = exact_values(view)
    assert values is not None
    assert set(values) == set(game.legal_moves())
    for move, value in values.items():
        after = game.copy()
        outcome = after.apply(move)
        if outcome.round_result is not None:
            scores = [score.total for score in outcome.round_result.scores]
            expected = float(scores[view.seat] - scores[1 - view.seat])
        else:
            expected = _minimax(after, view.seat)
        assert value == pytest.approx(expected), move
    assert best_moves(values)


async def test_a_puzzle_of_full_information_takes_every_move_as_good_as_the_best(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.sessions.lobby.secrets.token_hex", lambda _: "puzzle-3")
    sessions = await open_memory_sessions()
    await _reviewed_duel(sessions)
    puzzle = await sessions.puzzles.puzzle(ALICE, CHAT)
    assert puzzle.exact and len(puzzle.hand) <= 3
    answers = [await sessions.puzzles.answer(BOB, CHAT, puzzle.game_id, puzzle.spot, index)
               for index in range(len(puzzle.moves))]
    graded = answers[0].graded
    assert graded.loss >= CLEARLY and graded.best in [a.chosen for a in answers if a.right]
    assert not next(a for a in answers if a.chosen == graded.played).right


def test_a_position_with_hidden_cards_is_not_valued_exactly() -> None:
    game = Game.new("scopa", 2, seed=3)
    assert exact_values(game.view(game.to_play)) is None


def test_best_moves_keeps_every_move_as_good_as_the_best() -> None:
    a, b, c = (Move.parse(code) for code in ("1D", "2D", "3D"))
    assert best_moves({a: 1.0, b: 2.0, c: 2.0}) == [b, c]
    assert best_moves(dict.fromkeys((a, b), 0.0)) == [a, b]


async def test_a_position_with_more_moves_than_buttons_fit_is_no_puzzle(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each legal move is a button: a position with more than a message can carry is skipped,
    and a button naming it is refused."""
    sessions = await open_memory_sessions()
    game_id, _ = await _reviewed_duel(sessions)
    shown = await sessions.puzzles.puzzle(ALICE, CHAT)
    monkeypatch.setattr("bot.sessions.puzzles.MOST_ANSWERS", len(shown.moves) - 1)
    for rank in range(shown.count):
        try:
            assert len((await sessions.puzzles.puzzle(ALICE, CHAT, rank)).moves) < len(shown.moves)
        except Refused as refused:
            assert refused.reason == Reason.NO_PUZZLE, "every position had as many moves"
    with pytest.raises(Refused) as refused:
        await sessions.puzzles.answer(ALICE, CHAT, game_id, shown.spot, 0)
    assert refused.value.reason == Reason.NOT_A_PUZZLE
