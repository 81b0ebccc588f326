"""Captures and their outcomes are handed out as one object each: equal to a fresh one."""

from __future__ import annotations

from bot.engine import Card, Move, Outcome, Play
from bot.engine.shared import capture_move, outcome_of


def _cards(*codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes)


def test_a_capture_is_the_move_it_names_and_the_same_object_each_time() -> None:
    seven, = _cards("7D")
    taken = _cards("3C", "4S")
    move = capture_move(seven, taken)
    assert move == Move(seven, taken) and type(move) is Move
    assert capture_move(seven, _cards("3C", "4S")) is move
    assert capture_move(seven, _cards("2C", "5S")) == Move(seven, _cards("2C", "5S"))
    assert capture_move(Card.parse("7C"), taken) != move


def test_an_outcome_is_the_one_its_fields_make_and_each_field_tells_outcomes_apart() -> None:
    seven, = _cards("7D")
    taken = _cards("3C", "4S")
    bits = seven.bit | taken[0].bit | taken[1].bit
    outcome = outcome_of(1, seven, taken, bits, True, False, False)
    assert outcome == Outcome(Play(1, seven, taken, True)) and type(outcome) is Outcome
    assert outcome_of(1, seven, taken, bits, True, False, False) is outcome
    others = [outcome_of(0, seven, taken, bits, True, False, False),
              outcome_of(1, seven, taken, bits, False, False, False),
              outcome_of(1, seven, taken, bits, True, False, True),
              outcome_of(1, seven, (), 0, False, False, False)]
    assert len({id(o) for o in [outcome, *others]}) == 5
    assert others[2] == Outcome(Play(1, seven, taken, True), dealt=True)
    assert others[3] == Outcome(Play(1, seven, (), False))
