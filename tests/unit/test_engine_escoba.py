"""Escoba to the letter of 001, and fuori refused outside scopone."""

from __future__ import annotations

import io
import json

import pytest

from bot.cli import main
from bot.engine import Card, Game, InvalidRulesError, Rules
from bot.engine.cards import parse_cards
from bot.engine.rules import Variant
from bot.engine.scoring import score_round
from bot.simulate import simulate


def _ranks(codes: list[str]) -> int:
    return sum(Card.parse(code).rank for code in codes)


def test_the_dealer_takes_a_starting_table_of_thirty_as_two_escobas() -> None:
    # docs/rules.md (001): "when it makes 30 and splits into two fifteens, two escobas".
    # `simulate --variant escoba --players 3 --games 20 --seed 1011`, match 1011/15: the
    # dealer's table 6B 7S 8B 9B is 6+9 and 7+8.
    records = io.StringIO()
    simulate("escoba", 3, False, 20, 1011, {}, records)
    match = [json.loads(line) for line in records.getvalue().splitlines()][15]
    assert match["seed"] == "1011/15"
    found = [r for r in match["rounds"] if sorted(r["deals"][0]["table"]) == ["6B", "7S", "8B", "9B"]]
    assert found, "the round of the issue is played"
    takes = found[0]["plays"][:2]
    assert all(p["card"] is None and p["scopa"] and p["seat"] == found[0]["dealer"] for p in takes)
    assert sorted(c for p in takes for c in p["captured"]) == ["6B", "7S", "8B", "9B"]
    assert [_ranks(p["captured"]) for p in takes] == [15, 15]
    assert found[0]["plays"][2]["card"] is not None


def test_a_starting_table_of_thirty_that_does_not_split_stays() -> None:
    split = kept = 0
    for seed in range(1500):
        game = Game.new("escoba", 2, seed=seed)
        table = game.deals[0]["table"]
        if _ranks(table) != 30:
            continue
        cards = parse_cards(table)
        halves = any(sum(c.rank for i, c in enumerate(cards) if mask >> i & 1) == 15
                     for mask in range(1, 16))
        if halves:
            split += 1
            assert len(game.plays) == 2 and game.scope[game.dealer] == 2 and not game.table
        else:
            kept += 1
            assert not game.plays and len(game.table) == 4
    assert split and kept


def _escoba(taken: list[list[str]], **options: str) -> list[dict[str, int]]:
    rules = Rules.from_options("escoba", options)
    scores = score_round(Variant.ESCOBA, rules, [parse_cards(t) for t in taken], [0] * len(taken))
    return [dict(score.points) for score in scores]


def test_a_tie_on_sevens_is_no_majority() -> None:
    # 001: "1 punto per una maggioranza di 7": two sevens each is no majority, whoever has
    # more sixes.
    points = _escoba([["7D", "7C", "6D", "6C", "6S"], ["7S", "7B", "1D"]])
    assert points[0]["sevens"] == 0 and points[1]["sevens"] == 0
    # 003's Sicilian primiera breaks the tie by most sixes, as an option.
    points = _escoba([["7D", "7C", "6D", "6C", "6S"], ["7S", "7B", "1D"]], sixes_tiebreak="on")
    assert points[0]["sevens"] == 1 and points[1]["sevens"] == 0
    assert not Rules.default("escoba").sixes_tiebreak and Rules.default("scopa").sixes_tiebreak


def test_the_four_sevens_score_three_with_sevens_and_the_setenta_with_classic() -> None:
    # 001: "3 punti per un quadrato di 7".
    taken = [["7D", "7C", "7S", "7B"], ["1D", "2D"]]
    assert _escoba(taken)[0]["sevens"] == 3
    assert _escoba(taken, sixes_tiebreak="on")[0]["sevens"] == 3
    classic = _escoba([["7D", "7C", "7S", "7B"], ["6D", "6C", "6S", "6B"]], primiera="classic")
    assert "sevens" not in classic[0] and classic[0]["primiera"] == 1


def test_all_ten_denari_score_two_and_most_denari_one() -> None:
    # 001: "2 punti per il giocatore che possiede tutte le denari" and "1 punto per il
    # giocatore con il maggior numero di diamanti": the two points replace the one.
    denari = [f"{rank}D" for rank in range(1, 11)]
    assert _escoba([denari, ["1C"]])[0]["coins"] == 2
    assert _escoba([denari[:6], denari[6:]])[0]["coins"] == 1


@pytest.mark.parametrize(("variant", "players", "teams"),
                         [("scopa", 2, False), ("scopa", 4, True), ("escoba", 2, False),
                          ("escoba", 4, True)])
def test_fuori_is_refused_outside_scopone(variant: str, players: int, teams: bool) -> None:
    # docs/rules.md: fuori (004 art. 16) is offered in the scopone variants only.
    with pytest.raises(InvalidRulesError, match="scopone"):
        Game.new(variant, players, teams=teams, rules={"fuori": "on"})
    with pytest.raises(InvalidRulesError, match="scopone"):
        Game.new(variant, players, teams=teams, rules=Rules(fuori=True))
    assert Game.new("scopone", 4, rules={"fuori": "on"}).rules.fuori


def test_the_command_line_refuses_fuori_in_scopa(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "scopa", "--rule", "fuori=on", "--games", "1"]) == 2
    assert "scopone" in capsys.readouterr().err
