"""Random play inside the engine plays the very matches a loop over `randrange` plays."""

from __future__ import annotations

import random

import pytest

from bot.engine import Game
from bot.engine.playout import draw_below, play_to_end
from bot.engine.record import record_line


@pytest.mark.parametrize("count", [1, 2, 3, 5, 8, 13, 16, 17, 40, 1000])
def test_a_draw_is_the_draw_randrange_makes_from_the_same_generator(count: int) -> None:
    ours, theirs = random.Random(f"draw/{count}"), random.Random(f"draw/{count}")
    drawn = [draw_below(ours.getrandbits, count) for _ in range(300)]
    assert drawn == [theirs.randrange(count) for _ in range(300)]
    assert ours.getstate() == theirs.getstate()


def _by_randrange(game: Game, rng: random.Random) -> None:
    while not game.finished:
        moves = game.legal_moves()
        game.apply(moves[rng.randrange(len(moves))])


@pytest.mark.parametrize(("variant", "players", "teams", "rules"), [
    ("scopa", 2, False, {}), ("scopa", 3, False, {"ace_takes_all": "on"}),
    ("scopone", 4, True, {"fuori": "on", "federal": "on"}), ("escoba", 6, False, {}),
])
def test_play_to_end_plays_the_same_match_as_a_randrange_loop(variant: str, players: int, teams: bool,
                                                              rules: dict[str, str]) -> None:
    for number in range(3):
        seed = f"playout/{variant}/{number}"
        ours = Game.new(variant, players, teams=teams, rules=rules, seed=seed, undo=False)
        theirs = Game.new(variant, players, teams=teams, rules=rules, seed=seed)
        played = play_to_end(ours, random.Random(seed))
        _by_randrange(theirs, random.Random(seed))
        assert ours.finished
        assert record_line(ours) == record_line(theirs)
        assert played == sum(len([p for p in log.plays if p.card is not None]) for log in ours.round_logs)


def test_play_to_end_deals_the_rounds_a_game_waits_to_have_dealt() -> None:
    game = Game.new("scopa", 2, seed="playout/deal")
    game.auto_deal = False
    play_to_end(game, random.Random(1))
    assert game.finished and len(game.results) > 1
    assert game.round_number == len(game.results)
