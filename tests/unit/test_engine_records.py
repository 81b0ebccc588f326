"""`simulate` writes records that follow docs/rules.md, for every variant and option.

Each record is replayed card by card and every round scored again here, from
docs/rules.md alone, without the engine's scoring code.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from bot.engine import DECK, Card, Game, Rules
from bot.engine.record import record_line, record_text, to_record
from bot.engine.rules import HOUSE_RULES, Primiera, Variant
from bot.simulate import simulate

LAYOUTS = [("scopa", 2, False), ("scopa", 3, False), ("scopa", 4, True),
           ("scopone", 4, True), ("scopone_scientifico", 4, True),
           ("escoba", 2, False), ("escoba", 3, False), ("escoba", 4, False), ("escoba", 4, True),
           ("escoba", 5, False), ("escoba", 6, False), ("escoba", 6, True), ("escoba", 6, 3)]
PRIMIERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}


def option_sets(variant: str) -> list[dict[str, str]]:
    """The defaults, each house rule switched over, the sixes tie-break switched over, and
    the whole federal rulebook (a match to 8 with fuori) in the scopone variants."""
    default = Rules.default(variant)
    sets: list[dict[str, str]] = [{}]
    for name in HOUSE_RULES[Variant(variant)]:
        if name == "primiera":
            other = Primiera.CLASSIC if default.primiera is Primiera.SEVENS else Primiera.SEVENS
            sets.append({"primiera": other.value})
        else:
            sets.append({name: "off" if getattr(default, name) else "on"})
    sets.append({"primiera": "sevens", "sixes_tiebreak": "off" if default.sixes_tiebreak else "on"})
    sets.append({"capture_choice": "fewest"})
    if "federal" in HOUSE_RULES[Variant(variant)]:
        sets.append({"federal": "on", "fuori": "on", "target": "8"})
    return sets


CASES = [(variant, players, teams, options) for variant, players, teams in LAYOUTS
         for options in option_sets(variant)]


def cards(codes: list[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


def sole_best(values: list[int | None]) -> int | None:
    present = [v for v in values if v is not None]
    if not present:
        return None
    top = max(present)
    return values.index(top) if values.count(top) == 1 else None


def primiera(taken: list[Card]) -> int | None:
    best = {}
    for card in taken:
        best[card.suit] = max(best.get(card.suit, 0), PRIMIERA[card.rank])
    return sum(best.values()) if len(best) == 4 else None


def most_sevens(taken: list[list[Card]], sixes_tiebreak: bool) -> int | None:
    sevens = [sum(c.rank == 7 for c in t) for t in taken]
    winner = sole_best(list(sevens))
    if winner is not None or not sixes_tiebreak:
        return winner
    tied = [side for side, n in enumerate(sevens) if n == max(sevens)]
    sixes: list[int | None] = [sum(c.rank == 6 for c in taken[side]) if side in tied else None
                               for side in range(len(taken))]
    return sole_best(sixes)


def expected_score(variant: str, rules: dict[str, Any], taken: list[list[Card]],
                   scope: list[int]) -> list[dict[str, int]]:
    """docs/rules.md, "Common to every variant", "Options" and "Variants"."""
    coins = [sum(c.suit.value == "D" for c in t) for t in taken]
    points = [{"cards": 0, "coins": 0, "settebello": 0, "scope": s} for s in scope]

    def award(category: str, side: int | None, value: int = 1) -> None:
        for index, side_points in enumerate(points):
            side_points.setdefault(category, 0)
            if index == side:
                side_points[category] += value

    award("cards", sole_best([len(t) for t in taken]))
    coins_side = sole_best(list(coins))
    award("coins", coins_side, 2 if variant == "escoba" and coins_side is not None
          and coins[coins_side] == 10 else 1)
    for side, t in enumerate(taken):
        points[side]["settebello"] = int(Card.parse("7D") in t)
    by_sevens = rules["primiera"] == "sevens"
    if variant == "escoba" and by_sevens:
        side = most_sevens(taken, rules["sixes_tiebreak"])
        four = side is not None and sum(c.rank == 7 for c in taken[side]) == 4
        award("sevens", side, 3 if four else 1)
    elif by_sevens:
        award("primiera", most_sevens(taken, rules["sixes_tiebreak"]))
    else:
        award("primiera", sole_best([primiera(t) for t in taken]))
    if variant != "escoba":
        for name, code in (("re_bello", "10D"), ("asso_bello", "1D")):
            if rules[name]:
                for side, t in enumerate(taken):
                    points[side][name] = int(Card.parse(code) in t)
        if rules["napola"]:
            for side, t in enumerate(taken):
                run = 0
                while Card(run + 1, "D") in t:
                    run += 1
                points[side]["napola"] = run if run >= 3 else 0
        if rules["sevens_point"]:
            award("sevens", sole_best([sum(c.rank == 7 for c in t) for t in taken]))
    for side_points in points:
        side_points["total"] = sum(side_points.values())
    return points


def check_capture(variant: str, rules: dict[str, Any], card: Card, taken: list[Card],
                  table: set[Card]) -> None:
    if variant == "escoba":
        assert card.rank + sum(c.rank for c in taken) == 15
        return
    same = [c for c in table if c.rank == card.rank]
    if same:
        assert len(taken) == 1 and taken[0] in same, "same value first"
    elif card.rank == 1 and rules["ace_takes_all"] and set(taken) == table:
        return
    else:
        assert len(taken) > 1 and sum(c.rank for c in taken) == card.rank


def check_record(record: dict[str, Any], variant: str) -> None:
    rules = record["rules"]
    side_of = {seat: i for i, side in enumerate(record["teams"]) for seat in side}
    sides = len(record["teams"])
    totals = [0] * sides
    for number, rnd in enumerate(record["rounds"]):
        seats = record["seats"]
        hands: list[set[Card]] = [set() for _ in range(seats)]
        table = set(cards(rnd["deals"][0].get("table", [])))
        dealt = list(table)
        for deal in rnd["deals"]:
            for seat, hand in enumerate(deal["hands"]):
                hands[seat] |= set(cards(hand))
                dealt += cards(hand)
        assert sorted(dealt, key=lambda c: c.index) == list(DECK)
        taken: list[list[Card]] = [[] for _ in range(sides)]
        scope = [0] * sides
        plays = rnd["plays"]
        starting = [p for p in plays if p["card"] is None]
        start_sum = sum(c.rank for c in table)
        if variant == "escoba" and start_sum == 15:
            assert len(starting) == 1 and set(cards(starting[0]["captured"])) == table
        elif variant == "escoba" and start_sum == 30:
            start = sorted(table, key=lambda c: c.index)
            splits = any(sum(c.rank for i, c in enumerate(start) if mask >> i & 1) == 15
                         for mask in range(1, 16))
            assert len(starting) == (2 if splits else 0), "a table of 30 that splits: two escobas"
            assert all(sum(c.rank for c in cards(p["captured"])) == 15 for p in starting)
        else:
            assert not starting
        assert plays[:len(starting)] == starting, "the dealer's take comes first"
        last_capture = None
        for index, play in enumerate(plays):
            seat, side = play["seat"], side_of[play["seat"]]
            captured = cards(play["captured"])
            if play["card"] is None:
                assert seat == rnd["dealer"] and play["scopa"]
                table -= set(captured)
                taken[side] += captured
                scope[side] += 1
                last_capture = seat
                continue
            card = Card.parse(play["card"])
            assert card in hands[seat]
            hands[seat].discard(card)
            assert set(captured) <= table
            if captured:
                check_capture(variant, rules, card, captured, table)
                table -= set(captured)
                taken[side] += [card, *captured]
                last_capture = seat
            else:
                table.add(card)
            last_play = index == len(plays) - 1 and "fuori" not in rnd
            if play["scopa"]:
                assert not table and not last_play
                scope[side] += 1
            elif captured and not table and not last_play:
                assert rules["ace_takes_all"] and card.rank == 1, "a sweep is a scopa"
        if "fuori" in rnd:
            assert number == len(record["rounds"]) - 1 and rules["fuori"]
            totals = [t + s["total"] for t, s in zip(totals, rnd["score"], strict=True)]
            continue
        assert all(not hand for hand in hands)
        assert rnd["last_capture_seat"] == last_capture
        if last_capture is not None:
            taken[side_of[last_capture]] += table
        assert rnd["score"] == expected_score(variant, rules, taken, scope)
        totals = [t + s["total"] for t, s in zip(totals, rnd["score"], strict=True)]
    assert totals == record["totals"]
    winner = record["winner"]
    assert winner is not None
    assert totals[winner] >= rules["target"] or rules["round_limit"]
    assert all(t < totals[winner] for side, t in enumerate(totals) if side != winner)
    if rules["federal"] and rules["target"] == 8:
        losers = min(t for side, t in enumerate(totals) if side != winner)
        kind = "semplice" if losers >= 4 else "doppia" if losers else "tripla"
        assert record["win_kind"] == kind
    else:
        assert "win_kind" not in record


def case_id(variant: str, players: int, teams: bool | int, options: dict[str, str]) -> str:
    seating = f"t{int(teams) + (teams is True)}" if teams else ""
    return "-".join([f"{variant}{players}{seating}", *(f"{k}={v}" for k, v in options.items())])


@pytest.mark.parametrize(("variant", "players", "teams", "options"), CASES,
                         ids=[case_id(*case) for case in CASES])
def test_simulated_records_follow_the_rules(variant: str, players: int, teams: bool | int,
                                            options: dict[str, str]) -> None:
    out = io.StringIO()
    sides = teams if isinstance(teams, int) and not isinstance(teams, bool) else None
    simulate(variant, players, bool(teams), 2, f"records/{variant}/{players}", options, out,
             sides=sides)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(records) == 2
    for record in records:
        assert record["variant"] == variant and record["seats"] == players
        assert all(record["rules"][key] == Rules.from_options(variant, options).to_dict()[key]
                   for key in options)
        check_record(record, variant)


def test_the_records_of_the_issue_follow_the_rules() -> None:
    """`scopa-bot simulate --variant escoba --players 3 --games 20 --seed 1011`, which deals
    tables of 15 and of 30 (split and not)."""
    out = io.StringIO()
    simulate("escoba", 3, False, 20, 1011, {}, out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    for record in records:
        check_record(record, "escoba")
    starts = [[p for p in r["plays"] if p["card"] is None] for m in records for r in m["rounds"]]
    assert any(len(s) == 2 for s in starts) and any(len(s) == 1 for s in starts)


@pytest.mark.parametrize(("variant", "players", "teams"), LAYOUTS)
def test_a_record_line_is_the_record_written_as_one_line_of_json(variant: str, players: int,
                                                                 teams: bool | int) -> None:
    """`record_line` formats the plays itself: its text must be the record's JSON exactly."""
    sides = teams if isinstance(teams, int) and not isinstance(teams, bool) else None
    for options in option_sets(variant)[:4]:
        game = Game.new(variant, players, teams=bool(teams), sides=sides,
                        rules=options, seed=f"line/{variant}/{players}")
        moves = 0
        while not game.finished and moves < 200:
            game.apply(game.legal_moves()[moves % len(game.legal_moves())])
            moves += 1
            if moves in (1, 50, 200) or game.finished:
                line = record_line(game)
                assert line == record_text(to_record(game))
                assert json.loads(line) == to_record(game)
