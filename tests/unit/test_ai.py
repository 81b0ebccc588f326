"""Computer players: legal in every variant, reproducible, blind to hidden cards, sensible."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
from dataclasses import replace

import pytest

from bot.ai import LEVELS, choose_move
from bot.ai.arena import configure_parser, run
from bot.ai.evaluate import Evaluator
from bot.ai.greedy import greedy_move
from bot.ai.knowledge import Knowledge
from bot.ai.reading import sweep_ranks
from bot.engine import DECK, SETTEBELLO, Card, Game, Rules, SeatView, game_from_view, unseen_cards
from bot.engine.captures import capture_mode
from bot.engine.rules import parse_variant

CONFIGS = [
    ("scopa", 2, False, {}),
    ("scopa", 3, False, {}),
    ("scopa", 4, False, {}),
    ("scopa", 4, True, {}),
    ("scopone", 4, True, {}),
    ("scopone_scientifico", 4, True, {}),
    ("escoba", 2, False, {}),
    ("escoba", 3, False, {}),
    ("escoba", 4, True, {}),
    ("escoba", 5, False, {}),
    ("escoba", 6, True, {}),
    ("scopa", 2, False, {"ace_takes_all": "on", "capture_choice": "fewest", "must_capture": "off"}),
    ("scopa", 2, False, {"re_bello": "on", "napola": "on", "sevens_point": "on", "primiera": "sevens"}),
]
IDS = [f"{v}-{p}{'-teams' if t else ''}{'-options' if r else ''}" for v, p, t, r in CONFIGS]


def _views(variant: str, players: int, teams: bool, rules: dict[str, str], seed: int,
           every: int = 5) -> list[tuple[Game, SeatView]]:
    """Positions of one round played by `medium`, every `every` moves, with a choice to make."""
    game = Game.new(variant, players, teams=teams, rules=rules, seed=seed)
    found = []
    while True:
        view = game.view(game.to_play)
        if game.version % every == 0 and len(view.legal_moves) > 1:
            found.append((game.copy(), view))
        if game.apply(choose_move("medium", view, seed)).round_result is not None:
            return found


@pytest.mark.parametrize(("variant", "players", "teams", "rules"), CONFIGS, ids=IDS)
def test_every_level_plays_a_legal_move(variant: str, players: int, teams: bool,
                                        rules: dict[str, str]) -> None:
    for game, view in _views(variant, players, teams, rules, seed=1, every=7)[:4]:
        for level in LEVELS:
            move = choose_move(level, view, "s", iterations=2)
            assert move in game.legal_moves()


@pytest.mark.parametrize(("variant", "players", "teams", "rules"), CONFIGS[:6], ids=IDS[:6])
def test_hard_under_a_time_budget(variant: str, players: int, teams: bool, rules: dict[str, str]) -> None:
    game, view = _views(variant, players, teams, rules, seed=2)[0]
    assert choose_move("hard", view, 0, time_budget=0.02) in game.legal_moves()


def test_a_whole_round_of_each_level_is_legal() -> None:
    game = Game.new("scopa", 4, teams=True, seed=5)
    levels = ["easy", "medium", "hard", "medium"]
    while True:
        seat = game.to_play
        move = choose_move(levels[seat], game.view(seat), game.version, iterations=2)
        if game.apply(move).round_result is not None:
            break


def test_unknown_level_is_refused() -> None:
    view = Game.new("scopa", 2, seed=1).view(0)
    with pytest.raises(ValueError):
        choose_move("expert", view, 1)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_choice(level: str) -> None:
    for _, view in _views("scopa", 2, False, {}, seed=3)[:6]:
        first = choose_move(level, view, "seed", iterations=4)
        assert all(choose_move(level, view, "seed", iterations=4) == first for _ in range(2))


def test_easy_varies_with_the_seed() -> None:
    _, view = max(_views("scopone", 4, True, {}, seed=4), key=lambda item: len(item[1].legal_moves))
    assert len({choose_move("easy", view, seed) for seed in range(30)}) > 1


def _reshuffled(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game as `seat` sees it, the other hands and the stock dealt anew from the unseen cards."""
    view = game.view(seat)
    pool = unseen_cards(view)
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for other, count in enumerate(view.hand_counts):
        if other == seat:
            hands.append(list(view.hand))
        else:
            hands.append(pool[:count])
            pool = pool[count:]
    return game_from_view(view, hands, pool)


@pytest.mark.parametrize(("variant", "players", "teams"), [
    ("scopa", 2, False), ("scopa", 4, True), ("scopone", 4, True), ("escoba", 3, False)])
def test_choice_ignores_the_hidden_cards(variant: str, players: int, teams: bool) -> None:
    rng = random.Random(9)
    for game, view in _views(variant, players, teams, {}, seed=6, every=4)[:5]:
        expected = {level: choose_move(level, view, "blind", iterations=3) for level in LEVELS}
        for _ in range(3):
            other = _reshuffled(game, view.seat, rng)
            other_view = other.view(view.seat)
            assert set(other_view.legal_moves) == set(view.legal_moves)
            assert replace(other_view, legal_moves=view.legal_moves) == view
            for level in LEVELS:
                assert choose_move(level, other_view, "blind", iterations=3) == expected[level]


def _position(table: list[str], hand: list[str], other: list[str]) -> SeatView:
    """Seat 0 to play in 2-player scopa with this table and hands, the rest in the stock."""
    start = Game.new("scopa", 2, seed=1).view(0)
    cards = {code: Card.parse(code) for code in [*table, *hand, *other]}
    used = set(cards.values())
    stock = [card for card in DECK if card not in used][:20]
    template = replace(start, seat=0, to_play=0, dealer=1, table=tuple(cards[c] for c in table),
                       starting_table=tuple(cards[c] for c in table), hand=tuple(cards[c] for c in hand),
                       hand_counts=(len(hand), len(other)), stock_count=len(stock), plays=(),
                       scope=(0, 0), captured_counts=(0, 0))
    game = game_from_view(template, [[cards[c] for c in hand], [cards[c] for c in other]], stock)
    return game.view(0)


def test_medium_takes_the_settebello() -> None:
    view = _position(["7D", "1C", "2S", "3B", "4C"], ["7S", "10B"], ["5C", "6C"])
    move = choose_move("medium", view, 0)
    assert SETTEBELLO in move.captures


def test_medium_leaves_no_easy_scopa() -> None:
    view = _position(["5C"], ["2S", "4D", "10B"], ["6S", "8B", "9C"])
    assert choose_move("medium", view, 0).code == "10B"


def test_hard_takes_a_scopa_and_the_settebello() -> None:
    view = _position(["3C", "4S"], ["7D", "2B", "9C"], ["6S", "8B", "1C"])
    assert choose_move("hard", view, 0, iterations=20).code == "7D:3C+4S"


def test_greedy_takes_the_most_cards_and_otherwise_lays_its_cheapest_card() -> None:
    assert greedy_move(_position(["2C", "3S", "4B", "10D"], ["5C", "9S"], ["6S"])).code == "9S:2C+3S+4B"
    assert greedy_move(_position(["9C"], ["7D", "1B", "2S"], ["6S"])).code == "2S"


def test_greedy_is_for_the_arena_only() -> None:
    with pytest.raises(ValueError, match="unknown computer level"):
        choose_move("greedy", _position(["9C"], ["7D"], ["6S"]), 0)
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run(parser.parse_args(["--a", "easy", "--b", "greedy", "--deals", "30", "--seed", "3", "--json"]))
    summary = json.loads(out.getvalue().strip().splitlines()[-1])
    assert summary["b"] == "greedy" and summary["rounds"] == 60
    assert summary["losses"] > summary["wins"]


def test_lay_downs_rule_out_capturing_ranks() -> None:
    for variant, players, teams, rules in CONFIGS:
        game = Game.new(variant, players, teams=teams, rules=rules, seed=11)
        while True:
            view = game.view(game.to_play)
            for seat, ranks in Knowledge.of(view).forbidden.items():
                assert not any(card.rank in ranks for card in game.hands[seat])
            if game.apply(choose_move("easy", view, game.version)).round_result is not None:
                break


@pytest.mark.parametrize(("variant", "players", "teams", "rules"), CONFIGS, ids=IDS)
def test_the_evaluator_scores_a_finished_round_as_the_engine_does(variant: str, players: int, teams: bool,
                                                                  rules: dict[str, str]) -> None:
    """The search scores its lines with the evaluator on the engine's own tallies; at the end of a
    round those give the engine's score exactly."""
    for seed in range(6):
        game = Game.new(variant, players, teams=teams, rules=rules, seed=seed)
        game.auto_deal = False
        rng = random.Random(seed)
        evaluator = Evaluator(game.view(game.to_play))
        while not game.round_over:
            outcome = game.apply(rng.choice(game.legal_moves()))
        assert outcome.round_result is not None
        points = evaluator.points(game.side_taken, game.side_scope)
        assert points == [score.total for score in outcome.round_result.scores]


def test_arena_prints_the_summary_as_json() -> None:
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert run(parser.parse_args(["--a", "medium", "--b", "easy", "--deals", "20", "--seed", "7",
                                      "--json"])) == 0
    summary = json.loads(out.getvalue().strip().splitlines()[-1])
    for key in ("a", "b", "deals", "wins", "losses", "ties", "margin", "ci95", "ms_per_move_a",
                "ms_per_move_b"):
        assert key in summary
    assert summary["wins"] + summary["losses"] + summary["ties"] == 40


def test_arena_with_hard_in_teams() -> None:
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run(parser.parse_args(["--a", "hard", "--b", "easy", "--variant", "escoba", "--players", "4",
                               "--teams", "--deals", "1", "--iterations", "2", "--json"]))
    assert json.loads(out.getvalue().strip().splitlines()[-1])["rounds"] == 2


@pytest.mark.parametrize(("variant", "options"), [
    ("scopa", {}), ("scopa", {"ace_takes_all": "on"}), ("scopa", {"capture_choice": "fewest"}),
    ("scopone", {"ace_takes_all": "on"}), ("escoba", {})])
def test_the_engine_helpers_of_the_search_read_the_position_as_the_players_do(
        variant: str, options: dict[str, str]) -> None:
    """`Game.can_sweep` and `Game.search_moves` (compiled, for `hard`'s search) say what
    `reading.sweep_ranks` and a stable sort by capture size say, in every position played."""
    mode = capture_mode(parse_variant(variant), Rules.from_options(parse_variant(variant), options))
    rng = random.Random(variant)
    for number in range(6):
        game = Game.new(variant, 4 if variant == "scopone" else 2, teams=variant == "scopone",
                        rules=options, seed=f"helpers/{number}")
        while not game.finished:
            legal = game.legal_moves()
            assert game.search_moves() == sorted(legal, key=lambda m: len(m.captures), reverse=True)
            sweeping = sweep_ranks(tuple(c.rank for c in game.table), mode)
            last_play = game.in_hands == 1 and not game.stock
            threat = not last_play and any(c.rank in sweeping for c in game.hands[game.to_play])
            assert game.can_sweep() == threat
            game.apply(rng.choice(legal))
