"""Declaring fuori (004 art. 16): what counts, who wins, when it is refused."""

from __future__ import annotations

import random

import pytest

from bot.engine import Game, IllegalMoveError, Move, Rules, Variant, dump_game, load_game, to_record
from bot.engine.cards import parse_cards
from bot.engine.fuori import declaring_wins, secured_scores
from bot.engine.record import record_line, record_text
from bot.engine.scoring import ScoringPlan

from ..engine_helpers import arrange

FUORI = {"fuori": "on", "target": "8"}
PLAN = ScoringPlan(Variant.SCOPONE, Rules.default("scopone"))


def _late_scopone(totals: list[int], scope: list[int] | None = None) -> Game:
    """Seat 0 (with seat 2) has taken nearly everything and is about to take the
    7 of coppe with the settebello (no scopa: the 9 of bastoni stays); one card each
    is still to be played after it."""
    game = arrange("scopone", 4, teams=True, rules=FUORI,
                   hands=[["7D", "1C"], ["2C"], ["3C"], ["4C"]], table=["7C", "9B"], stock=[],
                   captured=[[], ["5C", "6C"], [], []])
    game.totals = totals
    game.scope = scope or [0, 0, 0, 0]
    return game


def test_reaching_the_target_wins_even_behind_the_other_side() -> None:
    game = _late_scopone([4, 7], scope=[0, 5, 0, 0])
    assert game.may_declare(0)
    outcome = game.declare_fuori(game.parse_move("7D:7C"))
    result = outcome.round_result
    assert result is not None and outcome.match_over and result.fuori == 0
    assert result.scores[0].points == {"cards": 1, "coins": 1, "settebello": 1, "primiera": 1,
                                       "scope": 0}
    assert result.scores[1].total == 5, "the other side keeps its scope"
    assert game.totals == [8, 12] and game.winner == 0
    assert game.legal_moves() == []


def test_declaring_short_of_the_target_loses_the_match() -> None:
    game = _late_scopone([3, 6])
    game.declare_fuori(game.parse_move("7D:7C"))
    assert game.totals == [7, 6] and game.winner == 1


def test_a_computer_declares_only_when_it_wins_and_the_trial_changes_nothing() -> None:
    capture = Move.parse("7D:7C")
    winning, short = _late_scopone([4, 7]), _late_scopone([3, 6])
    before = dump_game(winning)
    assert declaring_wins(winning, capture) and dump_game(winning) == before
    assert not declaring_wins(short, capture)
    kept = load_game(before, undo=False)
    assert not kept.undoable
    assert declaring_wins(kept, capture) and dump_game(kept) == before, \
        "a game without undo records (as the sessions keep them) is tried on a copy"


def test_primiera_counts_only_when_no_sharing_of_the_rest_could_match_it() -> None:
    untaken = parse_cards(["6D", "6C", "6S", "7B"])
    ahead = secured_scores(PLAN, [parse_cards(["7D", "7C", "7S", "1B"]), []], [0, 0], untaken)
    assert ahead[0].points["primiera"] == 1, "79 against at most 75"
    untaken = parse_cards(["6D", "6C", "7S", "7B"])
    level = secured_scores(PLAN, [parse_cards(["7D", "7C", "1S", "1B"]), []], [0, 0], untaken)
    assert level[0].points["primiera"] == 0, "74 against a possible 78"
    assert level[1].points["primiera"] == 0


def test_cards_and_denari_count_once_the_majority_is_out_of_reach() -> None:
    twenty = parse_cards([f"{rank}{suit}" for suit in "CS" for rank in range(1, 11)])
    rest = [card for card in parse_cards([f"{r}{s}" for s in "DB" for r in range(1, 11)])]
    secured = secured_scores(PLAN, [twenty, []], [2, 1], rest)
    assert secured[0].points["cards"] == 0, "20 cards can still be tied"
    assert secured[0].points["scope"] == 2 and secured[1].points["scope"] == 1
    secured = secured_scores(PLAN, [[*twenty, rest[0]], []], [0, 0], rest[1:])
    assert secured[0].points["cards"] == 1 and secured[0].points["coins"] == 0


def test_fuori_is_refused_and_changes_nothing_where_the_rules_forbid_it() -> None:
    last = arrange("scopone", 4, teams=True, rules=FUORI, hands=[["7D"], [], [], []],
                   table=["7C"], stock=[])
    assert not last.may_declare(0), "not with the last play of the round"
    tied = _late_scopone([8, 8])
    assert not tied.may_declare(0), "not in a round begun tied at the target"
    off = arrange("scopone", 4, teams=True, hands=[["7D", "1C"], ["2C"], ["3C"], ["4C"]],
                  table=["7C"], stock=[])
    assert not off.may_declare(0)
    game = _late_scopone([4, 4])
    assert not game.may_declare(1), "only on one's own turn"
    for refused, move, seat in ((last, "7D:7C", None), (tied, "7D:7C", None), (off, "7D:7C", None),
                                (game, "7D:7C", 1), (game, "1C:7C", None)):
        before = dump_game(refused)
        with pytest.raises(IllegalMoveError):
            refused.declare_fuori(refused.parse_move(move), seat)
        assert dump_game(refused) == before


def test_a_declared_match_saves_resumes_and_records_the_declaration() -> None:
    game = _late_scopone([4, 7])
    game.declare_fuori(game.parse_move("7D:7C"))
    copy = load_game(dump_game(game))
    assert dump_game(copy) == dump_game(game) and copy.results == game.results
    record = to_record(game)
    assert record_line(game) == record_text(record)
    assert record["winner"] == 0 and record["rounds"][-1]["fuori"] == 0
    assert record["rounds"][-1]["last_capture_seat"] is None, "nobody takes the cards left"
    assert record["rounds"][-1]["plays"][-1]["card"] == "7D"


@pytest.mark.parametrize("seed", range(12))
def test_what_a_declaration_counts_is_never_more_than_the_round_gives(seed: int) -> None:
    """At a random moment of a random scopone round, the points counted for a declaration
    are at most what each side scores when the round is played out instead."""
    rng = random.Random(seed)
    game = Game.new("scopone", 4, rules={"fuori": "on", "napola": "on", "re_bello": "on"},
                    seed=seed)
    for _ in range(rng.randrange(1, 34)):
        game.apply(rng.choice(game.legal_moves()))
    declared = game.copy()
    move = rng.choice(game.legal_moves())
    if not declared.may_declare(declared.to_play):
        return
    secured = declared.declare_fuori(move).round_result
    assert secured is not None
    for _ in range(5):
        played = game.copy()
        played.apply(move)
        while len(played.results) == len(game.results):
            played.apply(rng.choice(played.legal_moves()))
        final = played.results[-1]
        for mine, theirs in zip(secured.scores, final.scores, strict=True):
            assert all(mine.points[c] <= theirs.points[c] for c in mine.points), (mine, theirs)
