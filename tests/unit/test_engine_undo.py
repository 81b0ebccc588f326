"""`undo` takes back any applied move, deal or declaration exactly, so a search can walk
the one game state in place; the same seed and moves replay the same match."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import EngineError, Game, IllegalMoveError, Move, dump_game, record_line
from bot.engine.record import record_text, to_record

LAYOUTS = [
    ("scopa", 2, False), ("scopa", 3, False), ("scopa", 4, True), ("scopone", 4, True),
    ("scopone_scientifico", 4, True), ("escoba", 2, False), ("escoba", 5, False), ("escoba", 6, True),
]
OPTION_SETS = [{}, {"ace_takes_all": "on"}, {"capture_choice": "fewest"}, {"must_capture": "off"},
               {"napola": "on", "re_bello": "on"}]


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a player or a record could tell about the game, and the search's tallies."""
    return (dump_game(game), game.legal_moves(), list(game.side_taken), list(game.side_scope),
            game.awaiting_deal, game.in_hands)


@settings(max_examples=25, deadline=None)
@given(layout=st.sampled_from(LAYOUTS), options=st.sampled_from(OPTION_SETS),
       seed=st.integers(0, 10**6))
def test_every_move_of_a_match_is_taken_back_exactly(layout: tuple[str, int, bool],
                                                     options: dict[str, str], seed: int) -> None:
    variant, players, teams = layout
    game = Game.new(variant, players, teams=teams, rules=options, seed=seed)
    rng = random.Random(seed)
    played = []
    while not game.finished:
        before = snapshot(game)
        move = rng.choice(game.legal_moves())
        game.apply(move)
        after = snapshot(game)
        assert game.undo() == move
        assert snapshot(game) == before
        game.apply(move)
        assert snapshot(game) == after
        played.append(move)
    finished = record_line(game)
    for move in reversed(played):
        assert game.undo() == move
    assert game.history == 0 and game.version == 0
    with pytest.raises(EngineError):
        game.undo()
    for move in played:
        game.apply(move)
    assert record_line(game) == finished
    replayed = Game.replay(variant, players, played, teams=teams, rules=options, seed=seed)
    assert record_line(replayed) == finished


def test_a_round_ends_without_the_next_deal_until_it_is_asked_for() -> None:
    game = Game.new("scopa", 2, seed=11)
    game.auto_deal = False
    rng = random.Random(2)
    while not game.round_over:
        outcome = game.apply(rng.choice(game.legal_moves()))
    assert outcome.round_result is not None and not outcome.dealt
    assert game.awaiting_deal and game.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        game.apply(game.parse_move("7D"))
    ended = snapshot(game)
    game.deal()
    assert game.round_number == 2 and game.legal_moves() and not game.awaiting_deal
    assert game.undo() is None
    assert snapshot(game) == ended
    with pytest.raises(EngineError):
        Game.new("scopa", 2, seed=11).deal()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_round_left_unscored_ends_as_a_scored_one_and_is_taken_back_exactly(
        layout: tuple[str, int, bool]) -> None:
    """A search's game (`scores_rounds` off) ends the round with the same piles and tallies
    as a scored one, scores nothing, and takes its last move back exactly."""
    variant, players, teams = layout
    for seed in range(6):
        scored = Game.new(variant, players, teams=teams, seed=seed)
        unscored = Game.new(variant, players, teams=teams, seed=seed)
        for game in (scored, unscored):
            game.auto_deal = False
        unscored.scores_rounds = False
        rng = random.Random(seed)
        while not scored.round_over:
            move = rng.choice(scored.legal_moves())
            before = snapshot(unscored)
            done = scored.apply(move)
            left = unscored.apply(move)
            assert (left.play, left.leftover, left.leftover_seat) == \
                (done.play, done.leftover, done.leftover_seat)
        assert done.round_result is not None and left.round_result is None
        assert unscored.captured == scored.captured and unscored.table == scored.table == []
        assert (unscored.side_taken, unscored.side_scope) == (scored.side_taken, scored.side_scope)
        assert unscored.results == [] and not unscored.awaiting_deal and unscored.legal_moves() == []
        assert unscored.undo() == move
        assert snapshot(unscored) == before


@pytest.mark.parametrize("variant", ["scopa", "escoba"])
def test_a_search_down_one_branch_after_another_leaves_every_position_as_it_was(variant: str) -> None:
    """A search writes each branch's undo records over those of the branch before: every
    position it reaches is the one a fresh replay of the same moves reaches, and taking the
    branches back leaves the position as it was."""
    game = Game.new(variant, 2, seed=f"branches/{variant}")
    rng = random.Random(variant)
    played: list[Move] = []
    while not game.finished:
        before = snapshot(game)
        for first in game.legal_moves():
            game.apply(first)
            for second in game.legal_moves():
                game.apply(second)
                replayed = Game.replay(variant, 2, [*played, first, second], seed=f"branches/{variant}")
                assert snapshot(game) == snapshot(replayed)
                assert game.undo() == second
            assert game.undo() == first
            assert snapshot(game) == before
        move = rng.choice(game.legal_moves())
        game.apply(move)
        played.append(move)
    assert game.history == len(played)


def test_a_declaration_of_fuori_is_taken_back_with_its_move() -> None:
    game = Game.new("scopone", 4, rules={"fuori": "on"}, seed=4)
    rng = random.Random(4)
    for _ in range(7):
        game.apply(rng.choice(game.legal_moves()))
    before = snapshot(game)
    record = to_record(game)
    move = game.legal_moves()[0]
    game.declare_fuori(move)
    assert game.finished
    assert game.undo() == move
    assert snapshot(game) == before and to_record(game) == record and not game.finished


def test_the_side_tallies_follow_the_piles() -> None:
    game = Game.new("scopa", 4, teams=True, seed=8)
    rng = random.Random(8)
    for _ in range(30):
        game.apply(rng.choice(game.legal_moves()))
        for side, seats in enumerate(game.seating.sides):
            bits = 0
            for seat in seats:
                for card in game.captured[seat]:
                    bits |= card.bit
            assert game.side_taken[side] == bits
            assert game.side_scope[side] == sum(game.scope[seat] for seat in seats)


@pytest.mark.parametrize(("variant", "players", "teams"), LAYOUTS)
def test_a_game_without_undo_plays_the_same_match_and_refuses_to_take_back(
        variant: str, players: int, teams: bool) -> None:
    kept = Game.new(variant, players, teams=teams, seed=f"plain/{variant}")
    plain = Game.new(variant, players, teams=teams, seed=f"plain/{variant}", undo=False)
    rng = random.Random(variant)
    while not kept.finished:
        move = rng.choice(kept.legal_moves())
        assert plain.legal_moves() == kept.legal_moves()
        assert plain.apply(move) == kept.apply(move)
    assert dump_game(plain) == dump_game(kept)
    assert record_line(plain) == record_line(kept) == record_text(to_record(kept))
    assert kept.undoable and kept.history and not plain.undoable and not plain.history
    with pytest.raises(EngineError, match="keeps no undo records"):
        plain.undo()
    assert dump_game(plain) == dump_game(kept)
