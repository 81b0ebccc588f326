"""The match review: what a play gave up against the best move, seen from the player's seat."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest

from bot.ai import choose_move
from bot.ai.reading import canonical_moves
from bot.ai.review import (
    Fault,
    RecordError,
    Review,
    accuracy,
    read_records,
    review_match,
    review_tasks,
    turns,
)
from bot.ai.review.grade import grade
from bot.engine import DECK, Card, Game, Move, Play, SeatView, record_line, to_record
from bot.engine.rules import Rules, Seating, Variant
from bot.simulate import simulate

SEARCHES = 24


def cards(codes: str) -> list[Card]:
    return [Card.parse(code) for code in codes.split()]


def position(mine: str, theirs: str, table: str, stock: str = "", fill: int = 0) -> SeatView:
    """A 2-player scopa position with seat 0 to play: its hand, the other hand, the table,
    and a stock of the cards `stock` names and `fill` more; every other card was taken, in
    pairs, by seat 1 (so the player has seen it)."""
    hands = [cards(mine), cards(theirs)]
    on_table = cards(table)
    named = cards(stock)
    placed = set(hands[0]) | set(hands[1]) | set(on_table) | set(named)
    rest = [card for card in DECK if card not in placed]
    random.Random(7).shuffle(rest)
    in_stock, gone = named + rest[:fill], rest[fill:]
    odd = len(gone) % 2
    plays = [Play(1, gone[0], (gone[1], gone[2]), False)] if odd else []
    plays += [Play(1, gone[i], (gone[i + 1],), False) for i in range(3 * odd, len(gone), 2)]
    game = Game.restore(
        Variant.SCOPA, Rules.default(Variant.SCOPA), Seating.make("scopa", 2), 0, version=len(plays),
        round_number=1, first_dealer=1, dealer=1, totals=[0, 0], results=[], rounds=[], winner=None,
        to_play=0, hands=hands, table=on_table, stock=in_stock, captured=[[], list(gone)], scope=[0, 0],
        last_capturer=1 if plays else None, deals=[{"hands": [], "table": []}], plays=plays)
    return game.view(0)


def move(text: str) -> Move:
    return Move.parse(text)


def test_a_missed_scopa_costs_at_least_half_a_point_and_says_so() -> None:
    view = position("5D 2B 9B", "1S 8C 10D", "2S 3C", fill=24)
    assert move("5D:2S+3C") in canonical_moves(view) and move("2B:2S") in canonical_moves(view)
    graded = grade(view, move("2B:2S"), "missed", SEARCHES)
    assert graded.best == move("5D:2S+3C")
    assert graded.loss >= 0.5
    [play] = [p for p in review_match_of(view, move("2B:2S")).plays]
    assert play.reason is not None and play.reason.fault is Fault.MISSED_SCOPA


def test_leaving_an_obvious_scopa_costs_at_least_half_a_point_and_names_the_sweep() -> None:
    # The last hands: the other player holds a three, and 1S laid on the 2B makes three.
    view = position("1B 8S", "3C 9D", "2B")
    graded = grade(view, move("1B"), "left", SEARCHES)
    assert graded.best == move("8S")
    assert graded.loss >= 0.5
    play = review_match_of(view, move("1B")).plays[0]
    assert play.reason is not None and play.reason.fault is Fault.LEFT_SWEEP
    assert play.reason.table == tuple(cards("1B 2B")) and play.reason.ranks == (3,)


def test_leaving_a_likely_scopa_mid_round_costs_at_least_half_a_point() -> None:
    # Three threes are among the nine cards the player has not seen (the other hand and
    # the stock): the other player holds one about three times in four.
    view = position("1B 8S 10S", "3C 9D 4B", "2B", stock="3D 3S 6B 6C 9C 5B")
    unseen = [c for c in DECK if c not in view.seen_cards()]
    assert len(unseen) == 9 and sum(c.rank == 3 for c in unseen) == 3
    graded = grade(view, move("1B"), "likely", SEARCHES)
    assert graded.best != move("1B")
    assert graded.loss >= 0.5


def test_a_forced_move_loses_nothing() -> None:
    view = position("5D", "1S", "2S 3C")
    [only] = canonical_moves(view)
    graded = grade(view, only, "forced", SEARCHES)
    assert graded.loss == 0 and graded.best == only and graded.choices == 1


def test_the_valuation_never_looks_at_the_hidden_hand() -> None:
    one = position("5D 2B 9B", "1S 8C 10D", "2S 3C", stock="4S 6C 7B", fill=21)
    other = position("5D 2B 9B", "4S 6C 7B", "2S 3C", stock="1S 8C 10D", fill=21)
    assert one.seen_cards() == other.seen_cards()
    assert grade(one, move("2B:2S"), "x", SEARCHES) == grade(other, move("2B:2S"), "x", SEARCHES)


def review_match_of(view: SeatView, played: Move) -> Review:
    """The review of the one play `played` in `view` (through the same path as a match's)."""
    from bot.ai.review import review_turn
    from bot.ai.review.replay import Turn

    graded = review_turn((Turn(0, 0, view, played), "one", SEARCHES))
    return Review("scopa", 2, SEARCHES, (graded,))


def records(variant: str, players: int, games: int, seed: str, **options: str) -> list[dict[str, Any]]:
    out = io.StringIO()
    simulate(variant, players, False, games, seed, dict(options), out)
    return read_records(out.getvalue())


def test_the_same_match_and_searches_give_the_same_review() -> None:
    record = records("scopa", 2, 1, "same", round_limit="1")[0]
    first = review_match(record, 4)
    assert review_match(record, 4).to_dict() == first.to_dict()
    assert Review.from_dict(json.loads(json.dumps(first.to_dict()))) == first
    assert len(first.plays) == len(record["rounds"][0]["plays"])


def test_each_play_is_graded_from_the_view_its_player_had() -> None:
    record = records("scopa", 3, 1, "views")[0]
    game = Game.new("scopa", 3, rules=record["rules"], seed=record["seed"])
    for turn in turns(record):
        seen = game.view(turn.seat)
        for field in ("hand", "table", "plays", "starting_table", "stock_count", "hand_counts", "scope",
                      "legal_moves", "dealer", "to_play", "round_number", "totals"):
            assert getattr(turn.view, field) == getattr(seen, field), field
        game.apply(turn.played, turn.seat)
    assert game.finished


def test_the_dealers_cardless_escoba_takes_are_not_graded() -> None:
    found = [(r, rnd) for r in records("escoba", 2, 40, "takes") for rnd in r["rounds"]
             if rnd["plays"] and rnd["plays"][0]["card"] is None]
    assert found, "no escoba round began with the dealer's take"
    record, taken = found[0]
    number = record["rounds"].index(taken)
    tasks = review_tasks(record, 1)
    graded = {(turn.round, turn.play) for turn, _, _ in tasks}
    assert (number, 0) not in graded
    assert (number, 1) in graded
    assert len(tasks) == sum(play["card"] is not None for rnd in record["rounds"] for play in rnd["plays"])


def test_a_seat_that_always_played_the_best_move_has_accuracy_100() -> None:
    game = Game.new("scopa", 2, rules={"round_limit": 1}, seed="flawless")
    searches = 3
    while not game.finished:
        seat = game.to_play
        view = game.view(seat)
        if seat == 0:
            round_index, play_index = game.round_number - 1, len(game.plays)
            seed = f"seed:flawless/{round_index}/{play_index}"
            chosen = next(m for m in canonical_moves(view) if grade(view, m, seed, searches).loss == 0)
        else:
            chosen = choose_move("easy", view, f"other/{game.version}")
        game.apply(chosen)
    review = review_match(to_record(game), searches)
    assert review.accuracy[0] == 100
    assert all(p.loss == 0 and p.best == p.played for p in review.plays if p.seat == 0)
    assert review.costliest(0) == []


def test_accuracy_falls_with_the_points_lost_per_move() -> None:
    assert accuracy([]) == 100 and accuracy([0.0, 0.0]) == 100
    assert 100 > accuracy([0.05]) > accuracy([0.1]) > accuracy([0.5, 0.5]) > 0
    assert accuracy([0.0, 0.5]) == accuracy([0.25, 0.25])


def test_the_costliest_plays_come_first() -> None:
    record = records("scopa", 2, 1, "costly", round_limit="1")[0]
    review = review_match(record, 4)
    for seat in range(2):
        costly = review.costliest(seat)
        assert len(costly) <= 3 and all(p.seat == seat and p.loss > 0 and p.reason for p in costly)
        assert [p.loss for p in costly] == sorted((p.loss for p in costly), reverse=True)
        rest = [p.loss for p in review.plays if p.seat == seat and p not in costly]
        assert not costly or all(loss <= costly[-1].loss for loss in rest)


def test_a_record_with_an_illegal_play_is_refused_plainly() -> None:
    record = records("scopa", 2, 1, "bad", round_limit="1")[0]
    plays = record["rounds"][0]["plays"]
    plays[3]["card"] = plays[0]["card"]
    with pytest.raises(RecordError, match=r"round 0, play 3: .* is not a legal play"):
        review_tasks(record, 1)
    for text, message in (("", "no scopa-record/1 record"), ("{", "line 1: not JSON"),
                          ('{"format": "other"}', "not a scopa-record/1 record")):
        with pytest.raises(RecordError, match=message):
            read_records(text)
    with pytest.raises(RecordError, match="cannot be replayed"):
        review_tasks({"format": "scopa-record/1", "variant": "scopa"}, 1)


def test_a_record_without_a_seed_is_replayed_from_its_deals() -> None:
    game = Game.new("scopa", 2, rules={"round_limit": 1}, seed="deals")
    while not game.finished:
        game.apply(choose_move("medium", game.view(game.to_play), "m"))
    record = json.loads(record_line(game))
    del record["seed"]
    assert [(t.round, t.play, t.played) for t in turns(record)] == [
        (0, index, Move(Card.parse(p["card"]), tuple(Card.parse(c) for c in p["captured"])))
        for index, p in enumerate(record["rounds"][0]["plays"])]


def test_the_reasons_read_in_each_language() -> None:
    from bot.render.review import accuracy_help, accuracy_line, reason_text

    missed = review_match_of(position("5D 2B 9B", "1S 8C 10D", "2S 3C", fill=24), move("2B:2S")).plays[0]
    left = review_match_of(position("1B 8S", "3C 9D", "2B"), move("1B")).plays[0]
    assert reason_text(missed, "en", "scopa") == "a scopa was there: 5🪙 takes 2🗡️+3🏆"
    assert reason_text(missed, "it", "scopa") == "c'era una scopa: 5🪙 prende 2🗡️+3🏆"
    assert reason_text(missed, "es", "escoba") == "había una escoba: 5🪙 se lleva 2🗡️+3🏆"
    assert reason_text(left, "en", "scopa") == \
        "leaves A🪵+2🪵 on the table: the next player sweeps it with any three"
    assert reason_text(left, "it", "scopa") == \
        "lascia A🪵+2🪵 in tavola: chi gioca dopo fa scopa con qualsiasi tre"
    assert reason_text(left, "es", "scopa") == \
        "deja A🪵+2🪵 en la mesa: el siguiente jugador hace scopa con cualquier tres"
    review = Review("scopa", 2, 1, (missed,))
    assert accuracy_line(review, ["Anna", "Marco"], "en").startswith("Accuracy: Anna ")
    assert accuracy_line(review, ["Anna", "Marco"], "en").endswith(" · Marco 100")
    assert all("67" in accuracy_help(lang) and "e^" not in accuracy_help(lang) for lang in ("it", "en", "es"))


def test_a_round_ended_by_fuori_is_graded_up_to_the_declaring_play() -> None:
    from bot.engine.fuori import declaring_wins

    for seed in range(200):
        game = Game.new("scopone", 4, teams=True, rules={"federal": "on", "fuori": "on", "target": "8"},
                        seed=seed)
        rng = random.Random(seed)
        while not game.finished:
            legal = game.legal_moves()
            chosen = legal[rng.randrange(len(legal))]
            if declaring_wins(game, chosen):
                game.declare_fuori(chosen)
            else:
                game.apply(chosen)
        record = to_record(game)
        if record["rounds"][-1].get("fuori") is not None:
            break
    else:
        pytest.fail("no random match ended by fuori")
    last = record["rounds"][-1]
    graded = [(turn.round, turn.play) for turn, _, _ in review_tasks(record, 1)]
    assert graded[-1] == (len(record["rounds"]) - 1, len(last["plays"]) - 1)
    assert len(graded) == sum(len(rnd["plays"]) for rnd in record["rounds"])
