"""The worked examples of the rule texts, and the rules around them."""

from __future__ import annotations

import pytest

from bot.engine import (
    Card,
    Game,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidRulesError,
    Move,
    Rules,
    StateFormatError,
    dump_game,
    load_game,
)
from bot.engine.cards import DECK
from bot.engine.game import seed_number, shuffled_deck
from bot.engine.rules import Variant
from bot.engine.scoring import SideTally, napola_points, score_round

from ..engine_helpers import arrange, moves_text


def test_card_codes_and_names() -> None:
    assert Card.parse("7D").name("it") == "sette di denari"
    assert Card.parse("10b").name("en") == "king of clubs"
    assert Card(7, "D") is Card.parse("7D")
    for bad in ("11D", "7X", "", "D7", 7, None):
        with pytest.raises(InvalidCardError):
            Card.parse(bad)


def test_fante_takes_only_the_fante_not_three_and_five() -> None:
    # Seed 000: table 3, 5, fante; playing a fante takes only the fante.
    game = arrange(hands=[["8C", "1S", "2S"], ["4B", "4C", "4S"]], table=["3D", "5B", "8S"])
    assert {m.code for m in game.legal_moves() if m.card.code == "8C"} == {"8C:8S"}


def test_cavallo_chooses_between_sums_of_different_size() -> None:
    # Seed 000: table asso, 3, 4, 5; a cavallo takes asso+3+5 or 4+5, at the player's choice.
    game = arrange(hands=[["9C", "10S", "10B"], ["6B", "6C", "6S"]],
                   table=["1D", "3B", "4S", "5C"])
    assert {m.code for m in game.legal_moves() if m.card.code == "9C"} == {"9C:1D+3B+5C", "9C:4S+5C"}


def test_fewest_cards_option_keeps_only_the_smallest_capture() -> None:
    game = arrange(hands=[["9C", "10S", "10B"], ["6B", "6C", "6S"]],
                   table=["1D", "3B", "4S", "5C"], rules={"capture_choice": "fewest"})
    assert {m.code for m in game.legal_moves() if m.card.code == "9C"} == {"9C:4S+5C"}


def test_five_takes_the_five_not_two_plus_three() -> None:
    # Seed 003: table 2, 3, 5 and a 5 played: only the 5.
    game = arrange(hands=[["5D", "10S", "10B"], ["6B", "6C", "6S"]], table=["2C", "3C", "5S"])
    assert {m.code for m in game.legal_moves() if m.card.code == "5D"} == {"5D:5S"}


def test_choice_among_equal_cards() -> None:
    game = arrange(hands=[["7C", "10S", "10B"], ["6B", "6C", "6S"]], table=["7D", "7S", "1B"])
    assert {m.code for m in game.legal_moves() if m.card.code == "7C"} == {"7C:7D", "7C:7S"}


def test_capture_is_compulsory_by_default_and_optional_card_by_card() -> None:
    hands = [["5D", "9S", "10B"], ["6B", "6C", "6S"]]
    game = arrange(hands=hands, table=["2C", "3C"])
    assert moves_text(game) == {"5D:2C+3C"}
    with pytest.raises(IllegalMoveError, match="compulsory"):
        game.apply(game.parse_move("9S"))
    relaxed = arrange(hands=hands, table=["2C", "3C"], rules={"must_capture": "off"})
    assert moves_text(relaxed) == {"5D:2C+3C", "9S", "10B"}


def test_a_card_that_cannot_capture_is_laid_down() -> None:
    game = arrange(hands=[["9S", "10B", "1C"], ["6B", "6C", "6S"]], table=["2C", "3C"])
    assert moves_text(game) == {"9S", "10B", "1C"}
    outcome = game.apply(game.parse_move("9S"))
    assert not outcome.play.captured
    assert "9S" in [c.code for c in game.table]


def test_scopa_scores_but_not_on_the_last_play_of_the_round() -> None:
    game = arrange(hands=[["5D", "9S"], ["6B", "6C"]], table=["2C", "3C"], stock=[])
    outcome = game.apply(game.parse_move("5D:2C+3C"))
    assert outcome.play.scopa
    assert game.scope[0] == 1
    # Last play of the round clears the table: no scopa.
    game = arrange(hands=[["5D"], []], table=["5S"], stock=[], to_play=0)
    outcome = game.apply(game.parse_move("5D:5S"))
    assert outcome.play.captured and not outcome.play.scopa
    assert outcome.round_result is not None
    assert outcome.round_result.scores[0].points["scope"] == 0


def test_last_capturer_takes_what_is_left_without_scopa() -> None:
    game = arrange(hands=[["5D"], ["9B"]], table=["5S", "1C"], stock=[], to_play=0)
    game.apply(game.parse_move("5D:5S"))
    outcome = game.apply(game.parse_move("9B"))
    assert outcome.leftover_seat == 0
    assert {c.code for c in outcome.leftover} == {"1C", "9B"}
    assert outcome.round_result is not None
    assert outcome.round_result.scores[0].points["scope"] == 0
    assert game.rounds[-1]["last_capture_seat"] == 0


def test_ace_takes_all_is_no_scopa_and_an_ace_on_the_table_is_taken_alone() -> None:
    rules = {"ace_takes_all": "on"}
    game = arrange(hands=[["1D", "9S", "9B"], ["6B", "6C", "6S"]], table=["2C", "3C", "7S"],
                   rules=rules)
    assert {m.code for m in game.legal_moves() if m.card.code == "1D"} == {"1D:2C+3C+7S"}
    outcome = game.apply(game.parse_move("1D:2C+3C+7S"))
    assert outcome.swept_by_ace and not outcome.play.scopa and not game.table
    game = arrange(hands=[["1D", "9S", "9B"], ["6B", "6C", "6S"]], table=["1C", "3C", "7S"],
                   rules=rules)
    assert {m.code for m in game.legal_moves() if m.card.code == "1D"} == {"1D:1C"}


def test_escoba_captures_make_fifteen_with_the_card_played() -> None:
    game = arrange("escoba", hands=[["7D", "10S", "10B"], ["6B", "6C", "6S"]],
                   table=["8C", "3B", "5S", "4C"])
    assert {m.code for m in game.legal_moves() if m.card.code == "7D"} == {"7D:8C", "7D:3B+5S"}
    assert {m.code for m in game.legal_moves() if m.card.code == "10S"} == {"10S:5S"}


def test_escoba_dealer_takes_a_starting_table_of_fifteen() -> None:
    seen = 0
    for seed in range(400):
        game = Game.new("escoba", 2, seed=seed)
        start = [Card.parse(c) for c in game.deals[0]["table"]]  # type: ignore[union-attr]
        total = sum(c.rank for c in start)
        if total == 15:
            seen += 1
            assert game.plays[0].card is None and game.plays[0].scopa
            assert game.plays[0].seat == game.dealer
            assert not game.table and game.scope[game.dealer] == 1
        elif total != 30:
            assert not game.plays
    assert seen > 0


def test_primiera_values_and_void_suit() -> None:
    cards = [Card.parse(c) for c in ("7D", "6C", "1S", "5B")]
    assert SideTally.of(cards, 0).primiera == 21 + 18 + 16 + 15
    faces = [Card.parse(c) for c in ("10D", "9C", "8S", "2B")]
    assert SideTally.of(faces, 0).primiera == 10 + 10 + 10 + 12
    assert SideTally.of(cards[:3], 0).primiera is None
    # A side missing a suit loses the primiera even to a weak full set.
    scores = score_round(Variant.SCOPA, Rules(), [cards[:3] * 1, faces], [0, 0])
    assert scores[1].points["primiera"] == 1 and scores[0].points["primiera"] == 0


def test_tied_category_scores_nothing() -> None:
    deck_half_a = [Card.parse(c) for c in ("1D", "2D", "3D", "4D", "5D")]
    deck_half_b = [Card.parse(c) for c in ("6D", "7D", "8D", "9D", "10D")]
    scores = score_round(Variant.SCOPA, Rules(), [deck_half_a, deck_half_b], [0, 0])
    assert scores[0].points["cards"] == scores[1].points["cards"] == 0
    assert scores[0].points["coins"] == scores[1].points["coins"] == 0
    assert scores[1].points["settebello"] == 1


def test_sicilian_primiera_counts_sevens_then_sixes() -> None:
    rules = Rules(primiera="sevens")  # type: ignore[arg-type]
    rules = Rules.from_options("scopa", {"primiera": "sevens"})
    a = [Card.parse(c) for c in ("7D", "6C", "6S")]
    b = [Card.parse(c) for c in ("7C", "6B", "1D", "2D", "3D")]
    scores = score_round(Variant.SCOPA, rules, [a, b], [0, 0])
    assert scores[0].points["primiera"] == 1


def test_napola_counts_the_run_from_the_ace() -> None:
    run = [Card.parse(c) for c in ("1D", "2D", "3D", "4D", "6D", "7D")]
    assert napola_points(run) == 4
    assert napola_points(run[:2]) == 0


def test_match_needs_target_reached_alone_at_the_top() -> None:
    from bot.engine.scoring import match_winner

    assert match_winner([11, 9], 11) == 0
    assert match_winner([11, 11], 11) is None
    assert match_winner([10, 9], 11) is None
    assert match_winner([12, 13, 2], 11) == 1


def test_an_agreed_number_of_rounds_ends_the_match_unless_the_top_is_tied() -> None:
    from bot.engine.scoring import match_winner

    assert match_winner([5, 3], 11, rounds_played=3, round_limit=3) == 0
    assert match_winner([5, 5], 11, rounds_played=3, round_limit=3) is None
    assert match_winner([5, 3], 11, rounds_played=2, round_limit=3) is None
    assert match_winner([11, 3], 11, rounds_played=1, round_limit=3) == 0, "the target still ends it"
    ended = []
    for seed in range(20):
        game = Game.new("scopa", 2, seed=seed, rules={"round_limit": "1"})
        while game.winner is None:
            game.apply(game.legal_moves()[0])
        top = max(game.totals)
        assert game.totals[game.winner] == top and game.totals.count(top) == 1
        ended.append(len(game.results))
        assert len(game.results) == 1 or len(set(game.results[0].totals)) == 1
    assert ended.count(1) > 10, "most one-round matches end after their round"
    with pytest.raises(InvalidRulesError):
        Rules.from_options("scopa", {"round_limit": "-1"})
    assert Rules.from_options("scopa", {"round_limit": "0"}).round_limit == 0


def test_options_are_validated() -> None:
    with pytest.raises(InvalidRulesError):
        Rules.from_options("scopa", {"target": "lots"})
    with pytest.raises(InvalidRulesError):
        Rules.from_options("scopa", {"colour": "red"})
    with pytest.raises(InvalidRulesError):
        Game.new("scopone", 3)
    with pytest.raises(InvalidRulesError):
        Game.new("briscola", 2)
    assert Rules.from_options("escoba").target == 21


def test_illegal_moves_change_nothing() -> None:
    game = Game.new("scopa", 2, seed=3)
    before = dump_game(game)
    not_mine = game.hands[1 - game.to_play][0]
    for bad in (Move(not_mine), Move.parse("7D:1D+1C+1S"), Move(Card.parse("7D"), (Card.parse("7C"),))):
        with pytest.raises(IllegalMoveError):
            game.apply(bad)
    with pytest.raises(InvalidMoveError):
        game.parse_move("zz")
    legal = game.legal_moves()[0]
    assert game.parse_move(legal.code) == legal, "parsing checks the form, not the position"
    with pytest.raises(TypeError):
        game.apply(legal.code)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError):
        game.apply(game.legal_moves()[0], seat=1 - game.to_play)
    assert dump_game(game) == before


def test_redeal_on_three_kings() -> None:
    for seed in range(3000):
        game = Game.new("scopa", 2, seed=seed)
        assert sum(c.rank == 10 for c in game.table) < 3 or game.version


def test_scopone_deal_and_scientifico_deal() -> None:
    game = Game.new("scopone", 4, seed=1)
    assert [len(h) for h in game.hands] == [9, 9, 9, 9] and len(game.table) == 4
    assert sum(c.rank for c in game.table) > 10
    sci = Game.new("scopone_scientifico", 4, seed=1)
    assert [len(h) for h in sci.hands] == [10, 10, 10, 10] and not sci.table
    assert sci.seating.sides == ((0, 2), (1, 3))


def test_saved_game_from_another_version_is_refused() -> None:
    state = dump_game(Game.new("scopa", 2, seed=1))
    with pytest.raises(StateFormatError):
        load_game({**state, "format": "scopa-state/0"})
    with pytest.raises(StateFormatError):
        load_game({**state, "stock": state["stock"][1:]})
    with pytest.raises(StateFormatError):
        load_game("nonsense")


def test_view_hides_other_hands_and_stock() -> None:
    game = Game.new("scopa", 4, teams=True, seed=9)
    view = game.view(2)
    assert set(view.hand) == set(game.hands[2])
    assert view.hand_counts == (3, 3, 3, 3)
    assert view.stock_count == len(game.stock)
    fields = {name for name in view.__dataclass_fields__}
    assert "stock" not in fields and "hands" not in fields


@pytest.mark.parametrize("text", ["0/round/1/deal/0", "abc", "seed-7/round/3/deal/1", ""])
def test_shuffle_is_fisher_yates_on_the_digits_of_the_seed_number(text: str) -> None:
    number = seed_number(text)
    deck = list(DECK)
    for last in range(len(deck) - 1, 0, -1):
        number, pick = divmod(number, last + 1)
        deck[last], deck[pick] = deck[pick], deck[last]
    assert shuffled_deck(text) == deck


def test_a_copy_plays_on_without_touching_the_original() -> None:
    game = Game.new("scopa", 2, seed="copy")
    game.apply(game.legal_moves()[0])
    before = dump_game(game)
    clone = game.copy()
    assert dump_game(clone) == before
    while not clone.finished:
        clone.apply(clone.legal_moves()[-1])
    assert dump_game(game) == before
    assert game.legal_moves() and not clone.legal_moves()


def test_move_pattern_matches_every_move_text_and_nothing_else() -> None:
    import re

    from bot.engine.moves import CARD_PATTERN, MOVE_PATTERN

    assert all(re.fullmatch(CARD_PATTERN, card.code) for card in DECK)
    game = Game.new("scopone", 4, seed=3)
    while not game.finished:
        moves = game.legal_moves()
        assert all(re.fullmatch(MOVE_PATTERN, move.code) for move in moves)
        game.apply(moves[-1])
    for text in ("0D", "11C", "7X", "7D:", "7D:3C+", "7D+3C", "7d"):
        assert not re.fullmatch(MOVE_PATTERN, text), text
