"""Seeded random full matches of every variant: invariants that must always hold."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import DECK, Card, Game, Rules, dump_game, load_game, record_line
from bot.engine.rules import Variant
from bot.engine.scoring import ScoringPlan, score_masks, score_with

LAYOUTS = [
    ("scopa", 2, False), ("scopa", 3, False), ("scopa", 4, False), ("scopa", 4, True),
    ("scopone", 4, True), ("scopone_scientifico", 4, True),
    ("escoba", 2, False), ("escoba", 3, False), ("escoba", 4, True), ("escoba", 5, False),
    ("escoba", 6, False), ("escoba", 6, True),
]
OPTION_SETS = [{}, {"ace_takes_all": "on"}, {"capture_choice": "fewest"}, {"must_capture": "off"},
               {"re_bello": "on", "napola": "on", "sevens_point": "on", "asso_bello": "on"},
               {"primiera": "sevens", "target": "21"}]


def all_cards(game: Game) -> list[Card]:
    return ([c for h in game.hands for c in h] + game.table + game.stock
            + [c for p in game.captured for c in p])


def play_checked(game: Game, rng: random.Random, resume_at: int | None = None) -> Game:
    dealers = [game.dealer]
    while not game.finished:
        seat = game.to_play
        moves = game.legal_moves()
        assert moves, "the seat to play always has a legal move"
        assert all(m.card in game.hands[seat] for m in moves)
        assert all(set(m.captures) <= set(game.table) for m in moves)
        for other in range(game.seats):
            if other != seat:
                assert game.legal_moves(other) == []
        move = moves[rng.randrange(len(moves))]
        round_before = game.round_number
        outcome = game.apply(move)
        assert sorted(all_cards(game), key=lambda c: c.index) == list(DECK)
        if outcome.round_result is None:
            hands_left = [s for s in range(game.seats) if game.hands[s]]
            expected = next((seat + k) % game.seats for k in range(1, game.seats + 1)
                            if (seat + k) % game.seats in hands_left)
            assert game.to_play == expected
        else:
            result = outcome.round_result
            for score in result.scores:
                assert score.total == sum(score.points.values())
            assert list(result.totals) == [sum(r.scores[i].total for r in game.results)
                                           for i in range(len(game.seating.sides))]
            if not game.finished:
                assert game.round_number == round_before + 1
                assert game.dealer == (dealers[-1] + 1) % game.seats
                assert game.to_play == (game.dealer + 1) % game.seats
                dealers.append(game.dealer)
        if resume_at is not None and game.version == resume_at:
            saved = json.loads(json.dumps(dump_game(game)))
            copy = load_game(saved)
            assert dump_game(copy) == dump_game(game)
            assert copy.rounds == game.rounds, "finished rounds resume with their plays as Play values"
            assert dump_game(game, rounds=False) == {**saved, "rounds": []}
            apart = load_game({**dump_game(game, rounds=False), "rounds": saved["rounds"]})
            assert dump_game(apart) == saved, "a state kept apart from its rounds resumes the same"
            game = copy
    return game


@settings(max_examples=60, deadline=None)
@given(layout=st.sampled_from(LAYOUTS), options=st.sampled_from(OPTION_SETS),
       seed=st.integers(0, 10**6), resume=st.integers(1, 120))
def test_random_matches_keep_every_invariant(layout: tuple[str, int, bool],
                                             options: dict[str, str], seed: int,
                                             resume: int) -> None:
    variant, players, teams = layout
    if variant == "escoba" and "primiera" in options:
        options = {}
    game = Game.new(variant, players, teams=teams, rules=options, seed=seed)
    game = play_checked(game, random.Random(seed), resume_at=resume)
    winner = game.winner
    assert winner is not None
    assert game.totals[winner] >= game.rules.target
    assert all(t < game.totals[winner] for i, t in enumerate(game.totals) if i != winner)


@settings(max_examples=25, deadline=None)
@given(layout=st.sampled_from(LAYOUTS), seed=st.integers(0, 10**6))
def test_records_replay_card_by_card(layout: tuple[str, int, bool], seed: int) -> None:
    variant, players, teams = layout
    game = Game.new(variant, players, teams=teams, seed=seed)
    play_checked(game, random.Random(seed))
    record = json.loads(record_line(game))
    assert record["format"] == "scopa-record/1"
    assert record["teams"] == [list(s) for s in game.seating.sides]
    side_of = {seat: i for i, side in enumerate(record["teams"]) for seat in side}
    totals = [0] * len(record["teams"])
    for rnd in record["rounds"]:
        hands: list[set[str]] = [set() for _ in range(players)]
        table = set(rnd["deals"][0]["table"])
        dealt = list(table)
        for deal in rnd["deals"]:
            assert len(deal["hands"]) == players
            for seat, hand in enumerate(deal["hands"]):
                hands[seat] |= set(hand)
                dealt += hand
        assert sorted(dealt) == sorted(c.code for c in DECK)
        deal_index = 0
        scope = [0] * len(totals)
        for play in rnd["plays"]:
            if play["card"] is None:
                assert variant == "escoba" and play["seat"] == rnd["dealer"]
                table -= set(play["captured"])
                scope[side_of[play["seat"]]] += 1
                continue
            assert play["card"] in hands[play["seat"]]
            hands[play["seat"]].discard(play["card"])
            assert set(play["captured"]) <= table
            if play["captured"]:
                table -= set(play["captured"])
            else:
                table.add(play["card"])
            if play["scopa"]:
                assert not table
                scope[side_of[play["seat"]]] += 1
        del deal_index
        assert all(not h for h in hands)
        for side, score in enumerate(rnd["score"]):
            assert score["scope"] == scope[side]
            assert score["total"] == sum(v for k, v in score.items() if k != "total")
            totals[side] += score["total"]
    assert totals == record["totals"]
    assert record["winner"] == game.winner


def test_same_seed_same_match() -> None:
    lines = []
    for _ in range(2):
        game = Game.new("scopa", 3, seed="same")
        play_checked(game, random.Random(5))
        lines.append(record_line(game))
    assert lines[0] == lines[1]


def test_game_from_view_with_the_true_hidden_cards_is_the_same_game() -> None:
    rng = random.Random(3)
    for seed in range(20):
        game = Game.new("scopa", 4, teams=True, seed=seed)
        for _ in range(rng.randrange(1, 30)):
            game.apply(rng.choice(game.legal_moves()))
        from bot.engine import game_from_view, unseen_cards

        view = game.view(game.to_play)
        hidden = set(unseen_cards(view))
        assert hidden == {c for s, h in enumerate(game.hands) if s != view.seat for c in h} | set(
            game.stock)
        rebuilt = game_from_view(view, game.hands, game.stock)
        assert rebuilt.legal_moves() == game.legal_moves()
        assert [sorted(p, key=lambda c: c.index) for p in rebuilt.captured] == [
            sorted(p, key=lambda c: c.index) for p in game.captured]
        copy = game.copy()
        copy.apply(copy.legal_moves()[0])
        assert game.version + 1 == copy.version and dump_game(game) != dump_game(copy)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=2), min_size=40, max_size=40),
       st.lists(st.integers(min_value=0, max_value=6), min_size=3, max_size=3),
       st.sampled_from([("scopa", {}), ("scopa", {"napola": "on", "re_bello": "on", "sevens_point": "on"}),
                        ("escoba", {}), ("escoba", {"primiera": "sevens"}),
                        ("scopone", {"primiera": "sevens", "asso_bello": "on"})]))
def test_a_round_scored_from_card_masks_scores_as_from_the_piles(
        owners: list[int], scope: list[int], rules: tuple[str, dict[str, str]]) -> None:
    """The game scores a finished round from each side's cards as bits; it must give what the
    piles of cards give."""
    variant, options = rules
    plan = ScoringPlan(Variant(variant), Rules.from_options(variant, options))
    piles = [[card for card, owner in zip(DECK, owners, strict=True) if owner == side] for side in range(3)]
    masks = [sum(card.bit for card in pile) for pile in piles]
    assert score_masks(plan, masks, scope) == score_with(plan, piles, scope)
