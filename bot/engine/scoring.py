"""Points of a round (smazzata): the one place for every scoring rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import ASSO_BELLO, RE_BELLO, SETTEBELLO, Card, Suit
from .rules import Primiera, Rules, Variant


@dataclass(frozen=True, slots=True)
class SideTally:
    """What one side took in a round, as the scoring looks at it."""

    cards: int
    coins: int
    sevens: int
    sixes: int
    primiera: int | None
    scope: int
    settebello: bool

    @classmethod
    def of(cls, taken: Sequence[Card], scope: int) -> SideTally:
        best: dict[Suit, int] = {}
        sevens = sixes = coins = 0
        settebello = False
        for card in taken:
            if card.primiera > best.get(card.suit, 0):
                best[card.suit] = card.primiera
            if card.rank == 7:
                sevens += 1
            elif card.rank == 6:
                sixes += 1
            if card.suit is Suit.DENARI:
                coins += 1
            if card is SETTEBELLO:
                settebello = True
        primiera = sum(best.values()) if len(best) == 4 else None
        return cls(len(taken), coins, sevens, sixes, primiera, scope, settebello)


@dataclass(frozen=True, slots=True)
class SideScore:
    """The points one side made in a round, category by category."""

    points: dict[str, int]
    tally: SideTally

    @property
    def total(self) -> int:
        return sum(self.points.values())

    def to_dict(self) -> dict[str, Any]:
        return {**self.points, "total": self.total}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The breakdown of one finished round and the match totals after it."""

    number: int
    dealer: int
    scores: tuple[SideScore, ...]
    totals: tuple[int, ...]
    winner: int | None = None
    categories: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "scores": [score.to_dict() for score in self.scores],
            "tallies": [_tally_dict(score.tally) for score in self.scores],
            "totals": list(self.totals),
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        scores = tuple(
            SideScore({k: int(v) for k, v in points.items() if k != "total"}, SideTally(**tally))
            for points, tally in zip(data["scores"], data["tallies"], strict=True)
        )
        categories = tuple(k for k in data["scores"][0] if k != "total") if scores else ()
        return cls(int(data["number"]), int(data["dealer"]), scores,
                   tuple(int(t) for t in data["totals"]), data.get("winner"), categories)


def _tally_dict(tally: SideTally) -> dict[str, Any]:
    return {"cards": tally.cards, "coins": tally.coins, "sevens": tally.sevens,
            "sixes": tally.sixes, "primiera": tally.primiera, "scope": tally.scope,
            "settebello": tally.settebello}


def _sole_best(values: Sequence[int | None]) -> int | None:
    """The index holding the single highest value; None on a tie or if all are None."""
    best: int | None = None
    best_index: int | None = None
    tied = False
    for index, value in enumerate(values):
        if value is None:
            continue
        if best is None or value > best:
            best, best_index, tied = value, index, False
        elif value == best:
            tied = True
    return None if tied else best_index


def _most_sevens(tallies: Sequence[SideTally]) -> int | None:
    """Most sevens; among the sides tied on sevens, most sixes; else nobody."""
    top = max(t.sevens for t in tallies)
    tied = [i for i, t in enumerate(tallies) if t.sevens == top]
    if len(tied) == 1:
        return tied[0]
    best = _sole_best([tallies[i].sixes for i in tied])
    return None if best is None else tied[best]


def napola_points(taken: Sequence[Card]) -> int:
    """Ace, 2, 3 of coins score 3, and one more for each next coin in sequence."""
    ranks = {card.rank for card in taken if card.suit is Suit.DENARI}
    run = 0
    while run + 1 in ranks:
        run += 1
    return run if run >= 3 else 0


def categories(variant: Variant, rules: Rules) -> tuple[str, ...]:
    if variant is Variant.ESCOBA:
        sevens = "sevens" if rules.primiera is Primiera.SEVENS else "primiera"
        return ("cards", "coins", "settebello", sevens, "scope")
    extra = [name for name, on in (("re_bello", rules.re_bello), ("napola", rules.napola),
                                   ("sevens", rules.sevens_point),
                                   ("asso_bello", rules.asso_bello)) if on]
    return ("cards", "coins", "settebello", "primiera", "scope", *extra)


def score_round(variant: Variant, rules: Rules, taken_by_side: Sequence[Sequence[Card]],
                scope_by_side: Sequence[int]) -> tuple[SideScore, ...]:
    tallies = [SideTally.of(taken, scope) for taken, scope in zip(taken_by_side, scope_by_side,
                                                                   strict=True)]
    names = categories(variant, rules)
    points = [dict.fromkeys(names, 0) for _ in tallies]

    def award(name: str, side: int | None, value: int = 1) -> None:
        if side is not None:
            points[side][name] += value

    award("cards", _sole_best([t.cards for t in tallies]))
    coins_side = _sole_best([t.coins for t in tallies])
    award("coins", coins_side)
    for side, tally in enumerate(tallies):
        if tally.settebello:
            points[side]["settebello"] = 1
        points[side]["scope"] = tally.scope
    if variant is Variant.ESCOBA:
        if coins_side is not None and tallies[coins_side].coins == 10:
            award("coins", coins_side)
        if rules.primiera is Primiera.SEVENS:
            sevens_side = _most_sevens(tallies)
            bonus = 3 if sevens_side is not None and tallies[sevens_side].sevens == 4 else 1
            award("sevens", sevens_side, bonus)
        else:
            award("primiera", _sole_best([t.primiera for t in tallies]))
        return tuple(SideScore(p, t) for p, t in zip(points, tallies, strict=True))

    if rules.primiera is Primiera.SEVENS:
        award("primiera", _most_sevens(tallies))
    else:
        award("primiera", _sole_best([t.primiera for t in tallies]))
    for side, taken in enumerate(taken_by_side):
        if rules.re_bello and RE_BELLO in taken:
            points[side]["re_bello"] = 1
        if rules.asso_bello and ASSO_BELLO in taken:
            points[side]["asso_bello"] = 1
        if rules.napola:
            points[side]["napola"] = napola_points(taken)
    if rules.sevens_point:
        award("sevens", _sole_best([t.sevens for t in tallies]))
    return tuple(SideScore(p, t) for p, t in zip(points, tallies, strict=True))


def match_winner(totals: Sequence[int], target: int) -> int | None:
    """The side that reached the target with the highest total alone, if any."""
    if max(totals) < target:
        return None
    return _sole_best(list(totals))
