"""Scopone as the federal rulebook (004) plays it: the `federal` option."""

from __future__ import annotations

import pytest

from bot.engine import (
    Game,
    InvalidRulesError,
    Rules,
    WinKind,
    draw_teams,
    dump_game,
    load_game,
    to_record,
)
from bot.engine.rules import HOUSE_RULES, Variant
from bot.engine.scoring import federal_win_kind

from ..engine_helpers import arrange

FEDERAL = {"federal": "on", "fuori": "on", "target": "8"}


def test_federal_is_a_house_rule_of_both_scopone_variants_and_of_nothing_else() -> None:
    for variant in (Variant.SCOPONE, Variant.SCOPONE_SCIENTIFICO):
        assert "federal" in HOUSE_RULES[variant]
        assert not Rules.default(variant).federal
        assert Rules.from_options(variant, {"federal": "on"}).federal
    for variant in (Variant.SCOPA, Variant.ESCOBA):
        assert "federal" not in HOUSE_RULES[variant]
        with pytest.raises(InvalidRulesError, match="scopone"):
            Rules.from_options(variant, {"federal": "on"})


def test_a_player_sees_their_hand_only_when_their_first_turn_comes() -> None:
    # 004 art. 5: "Ciascun giocatore può vedere le proprie carte solo quando giunge il suo
    # primo turno di gioco."
    game = Game.new("scopone_scientifico", 4, rules={"federal": "on"}, seed=5)
    first = game.to_play
    order = [(first + step) % 4 for step in range(4)]
    for turn in range(4):
        for other in range(4):
            view = game.view(other)
            seen = other in order[:turn + 1]
            assert view.hand_visible is seen and bool(view.hand) is seen
            assert view.hand_counts[other] == 10 - (other in order[:turn])
        game.apply(game.legal_moves()[0])
    assert all(game.view(seat).hand_visible for seat in range(4))
    plain = Game.new("scopone_scientifico", 4, seed=5)
    assert all(len(plain.view(seat).hand) == 10 for seat in range(4)), "without the option, at once"


def test_every_round_hides_the_hands_again_until_each_first_turn() -> None:
    game = Game.new("scopone", 4, rules={"federal": "on"}, seed=2)
    while game.round_number == 1:
        game.apply(game.legal_moves()[0])
    waiting = [seat for seat in range(4) if seat != game.to_play]
    assert [game.view(seat).hand_visible for seat in waiting] == [False] * 3
    assert game.view(game.to_play).hand_visible


def test_no_count_of_the_cards_taken_is_shown_while_a_round_is_played() -> None:
    # 004 art. 18: "Il conto delle carte 'dispari' e di denari si può tener solo mentalmente.
    # Non è consentito rivedere le prese."
    game = Game.new("scopone", 4, rules=FEDERAL, seed=4)
    assert not game.view(0).counts_shown and not game.counts_shown
    while not game.finished:
        game.apply(game.legal_moves()[0])
    assert game.view(0).counts_shown
    assert Game.new("scopone", 4, seed=4).view(0).counts_shown


def test_the_teams_are_drawn_the_two_lowest_cards_partners_the_lowest_deals_first() -> None:
    # 004 art. 3: "formano coppia i due che hanno scoperto le carte di valore numerico
    # inferiore"; art. 4: "Per primo è cartaro il giocatore che ha scoperto la carta inferiore;
    # è terzo di mano il giocatore della coppia avversaria che ha scoperto la carta inferiore."
    for seed in range(30):
        draw = draw_teams(seed)
        assert draw == draw_teams(seed), "the same seed, the same draw"
        assert len({card.rank for card in draw.cards}) == 4, "a tie is drawn again"
        by_rank = sorted(range(4), key=lambda player: draw.cards[player].rank)
        game = Game.new("scopone", 4, rules={"federal": "on"}, seed=seed)
        dealer = game.dealer
        assert draw.seat_of[by_rank[0]] == dealer, "the lowest card deals first"
        assert draw.seat_of[by_rank[1]] == (dealer + 2) % 4, "partners sit opposite"
        assert draw.seat_of[by_rank[2]] == (dealer + 3) % 4, "the lower opponent is terzo di mano"
        assert draw.seat_of[by_rank[3]] == (dealer + 1) % 4, "the highest is primo di mano"
        assert sorted(draw.seat_of) == [0, 1, 2, 3]
        assert [draw.seat_of[draw.player_at[seat]] for seat in range(4)] == [0, 1, 2, 3]


def test_win_kinds_by_the_losers_points() -> None:
    # 004 art. 16: "si vince semplice se gli avversari hanno ottenuto 4 o più punti, doppia se
    # hanno ottenuto 1, 2, o 3 punti, tripla se non hanno ottenuto alcun punto".
    assert [federal_win_kind(points) for points in (0, 1, 3, 4, 7)] == [
        WinKind.TRIPLA, WinKind.DOPPIA, WinKind.DOPPIA, WinKind.SEMPLICE, WinKind.SEMPLICE]
    state = dump_game(Game.new("scopone", 4, rules=FEDERAL, seed=1))
    for losers, kind in ((5, WinKind.SEMPLICE), (2, WinKind.DOPPIA), (0, WinKind.TRIPLA)):
        game = load_game({**state, "totals": [9, losers], "winner": 0})
        assert game.win_kind is kind
        assert to_record(game)["win_kind"] == kind.value
    unranked = load_game({**dump_game(Game.new("scopone", 4, rules={"target": "8"}, seed=1)),
                          "totals": [9, 0], "winner": 0})
    assert unranked.win_kind is None and "win_kind" not in to_record(unranked)
    eleven = load_game({**dump_game(Game.new("scopone", 4, rules={"federal": "on"}, seed=1)),
                        "totals": [11, 0], "winner": 0})
    assert eleven.win_kind is None, "art. 16 names the kinds for a match to 8 only"


def _late_scopone(totals: list[int]) -> Game:
    """Seat 0 is about to take the 7 of coppe with the settebello, one card each to follow."""
    game = arrange("scopone", 4, teams=True, rules=FEDERAL,
                   hands=[["7D", "1C"], ["2C"], ["3C"], ["4C"]], table=["7C", "9B"], stock=[],
                   captured=[[], ["5C", "6C"], [], []])
    game.totals = totals
    return game


def test_a_failed_fuori_loses_as_the_declarers_would_have_won() -> None:
    # 004 art. 16: "altrimenti la coppia perde la partita come l'avrebbe vinta, cioè col
    # punteggio ottenuto dagli avversari, o col proprio se inferiore".
    won = _late_scopone([4, 0])
    won.declare_fuori(won.parse_move("7D:7C"))
    assert won.winner == 0 and won.totals == [8, 0] and won.win_kind is WinKind.TRIPLA
    short = _late_scopone([3, 2])
    short.declare_fuori(short.parse_move("7D:7C"))
    assert short.winner == 1 and short.totals == [7, 2]
    assert short.win_kind is WinKind.DOPPIA, "by the winners' 2 points, lower than the declarers' 7"
    low = _late_scopone([0, 6])
    low.declare_fuori(low.parse_move("7D:7C"))
    assert low.winner == 1 and low.totals == [4, 6]
    assert low.win_kind is WinKind.SEMPLICE, "by the declarers' own 4, lower than the winners' 6"
    assert to_record(low)["win_kind"] == "semplice"
