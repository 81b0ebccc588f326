"""Seating of tournament rounds: knockout byes to the top seeds, Swiss without rematches."""

from __future__ import annotations

import pytest

from bot.sessions.tournaments import (
    Entrant,
    Format,
    OptionError,
    Pairing,
    Round,
    champion_of,
    knockout_first_round,
    knockout_next_round,
    knockout_rounds,
    parse_options,
    seeded,
    standings,
    swiss_round,
)


def _field(count: int, rated: bool = True) -> tuple[Entrant, ...]:
    players = [
        Entrant(f"u{i}", f"P{i}", rating=1500.0 + (count - i) * 10 if rated else 1500.0) for i in range(count)
    ]
    return seeded(players, seed=7)


def _decide(pairings: tuple[Pairing, ...], pick_first: bool = True) -> Round:
    decided = tuple(
        p if p.winner else Pairing(p.table, p.first, p.second, winner=p.first if pick_first else p.second)
        for p in pairings
    )
    return Round(1, decided)


def test_seeds_follow_rating_then_the_tournament_seed() -> None:
    field = _field(5)
    assert [e.user for e in field] == ["u0", "u1", "u2", "u3", "u4"]
    even = [Entrant(f"u{i}", f"P{i}") for i in range(6)]
    assert seeded(even, 3) == seeded(list(reversed(even)), 3)
    assert {seeded(even, s)[0].user for s in range(20)} != {"u0"}


def test_knockout_of_five_gives_byes_to_the_three_highest_seeds() -> None:
    field = _field(5)
    first = knockout_first_round(field)
    assert len(first) == 4
    byes = sorted(p.first for p in first if p.is_bye)
    assert byes == ["u0", "u1", "u2"]
    assert all(p.winner == p.first for p in first if p.is_bye)
    assert knockout_rounds(5) == 3


def test_knockout_plays_through_to_one_champion_and_top_seeds_meet_last() -> None:
    field = _field(8)
    played = []
    pairings = knockout_first_round(field)
    for _ in range(knockout_rounds(8)):
        played.append(_decide(pairings))
        if len(pairings) == 1:
            break
        pairings = knockout_next_round(played[-1])
    assert len(played) == 3
    final = played[-1].pairings[0]
    assert {final.first, final.second} == {"u0", "u1"}
    rows = standings(field, played, knockout=True)
    assert champion_of(Format.KNOCKOUT, rows, played) == "u0"
    assert sum(not r.out for r in rows) == 1


@pytest.mark.parametrize("count", [4, 5, 6, 7, 8])
def test_swiss_never_rematches_and_gives_each_bye_once(count: int) -> None:
    field = _field(count, rated=False)
    played: list[Round] = []
    rounds = min(count - 1, 3) if count % 2 == 0 else min(count, 3)
    for number in range(rounds):
        pairings = swiss_round(field, played)
        assert sorted(u for p in pairings for u in (p.first, p.second) if u) == sorted(e.user for e in field)
        played.append(Round(number + 1, _decide(pairings, pick_first=number % 2 == 0).pairings))
    pairs = [frozenset((p.first, p.second)) for r in played for p in r.pairings if p.second]
    assert len(pairs) == len(set(pairs))
    byes = [u for r in played for u in r.byes]
    assert len(byes) == len(set(byes)) == (rounds if count % 2 else 0)


def test_swiss_bye_counts_as_a_win_for_the_lowest_without_one() -> None:
    field = _field(5, rated=False)
    first = swiss_round(field, [])
    bye = [p for p in first if p.is_bye]
    assert len(bye) == 1 and bye[0].winner == field[-1].user
    rows = standings(field, [Round(1, _decide(first).pairings)])
    assert next(r for r in rows if r.user == field[-1].user).points == 1


def test_swiss_standings_rank_points_then_opponents() -> None:
    field = _field(4, rated=False)
    played: list[Round] = []
    for number in range(3):
        played.append(Round(number + 1, _decide(swiss_round(field, played)).pairings))
    rows = standings(field, played)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert champion_of(Format.SWISS, rows, played) == rows[0].user


def test_options_read_and_refuse() -> None:
    options = parse_options(["scopone", "swiss=3", "target=11"], ["scopa", "scopone"])
    assert (options.variant, options.format, options.swiss_rounds, options.target) == (
        "scopone",
        Format.SWISS,
        3,
        11,
    )
    assert parse_options([], ["scopa"]).format is Format.KNOCKOUT
    for bad in (["swiss=0"], ["target=0"], ["target=102"], ["fast"], ["swiss=x"]):
        with pytest.raises(OptionError):
            parse_options(bad, ["scopa"])
