"""Points of a round (smazzata): the one place for every scoring rule.

A side's cards are looked at as a 40-bit mask (`Card.bit`), where bits
10*s .. 10*s+9 are the ranks 1..10 of suit s: the best primiera card of a
suit and the napola run are then table lookups and bit tricks instead of
loops, which matters when millions of rounds are played out in search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from .cards import ASSO_BELLO, DECK, PRIMIERA_VALUE, RE_BELLO, SETTEBELLO, Card, Suit
from .rules import Primiera, Rules, Variant, WinKind

_SUIT_BITS: Final = 10
_SUIT_MASK: Final = (1 << _SUIT_BITS) - 1
_COINS_SHIFT: Final = Suit.DENARI.index * _SUIT_BITS
_COINS: Final = sum(card.bit for card in DECK if card.suit is Suit.DENARI)
_SEVENS: Final = sum(card.bit for card in DECK if card.rank == 7)
_SIXES: Final = sum(card.bit for card in DECK if card.rank == 6)
_SETTEBELLO: Final = SETTEBELLO.bit
_BEST_PRIMIERA: Final[tuple[int, ...]] = tuple(
    max((PRIMIERA_VALUE[rank] for rank in range(1, _SUIT_BITS + 1) if ranks >> (rank - 1) & 1),
        default=0)
    for ranks in range(1 << _SUIT_BITS)
)
"""For the ranks held in one suit (bit r-1 for rank r): the best primiera value, 0 if none."""


_ONES: Final[tuple[int, ...]] = tuple(bin(ranks).count("1") for ranks in range(1 << _SUIT_BITS))
"""How many bits are set in each 10-bit number: `_ones` counts a mask's cards with four
lookups, native arithmetic where `int.bit_count` is a method call when compiled."""


def _ones(mask: int) -> int:
    """How many cards are in `mask`."""
    return (_ONES[mask & _SUIT_MASK] + _ONES[mask >> _SUIT_BITS & _SUIT_MASK]
            + _ONES[mask >> 2 * _SUIT_BITS & _SUIT_MASK] + _ONES[mask >> 3 * _SUIT_BITS & _SUIT_MASK])


def _mask(taken: Sequence[Card]) -> int:
    mask = 0
    for card in taken:
        mask |= card.bit
    return mask


def _listed(taken: Sequence[Card], kind: int) -> int:
    """How many of `taken` are among the cards in `kind`, a card listed twice counted twice."""
    return sum(1 for card in taken if card.bit & kind)


def _primiera(mask: int) -> int | None:
    """The primiera of a side: its best card of each suit, or None when it lacks a suit."""
    total = 0
    for shift in (0, _SUIT_BITS, 2 * _SUIT_BITS, 3 * _SUIT_BITS):
        best = _BEST_PRIMIERA[mask >> shift & _SUIT_MASK]
        if not best:
            return None
        total += best
    return total


class SideTally(NamedTuple):
    """What one side took in a round, as the scoring looks at it.

    The result types are named tuples rather than frozen dataclasses: as
    immutable, while a frozen dataclass's __init__ sets each field through
    object.__setattr__ (1.2 µs for this one, five times a named tuple's).
    """

    cards: int
    coins: int
    sevens: int
    sixes: int
    primiera: int | None
    scope: int
    settebello: bool

    @classmethod
    def of(cls, taken: Sequence[Card], scope: int) -> SideTally:
        return _tally(taken, _mask(taken), scope)


def _tally(taken: Sequence[Card], mask: int, scope: int) -> SideTally:
    if _ones(mask) == len(taken):
        return _mask_tally(mask, scope)
    return tuple.__new__(SideTally, (
        len(taken), _listed(taken, _COINS), _listed(taken, _SEVENS), _listed(taken, _SIXES),
        _primiera(mask), scope, bool(mask & _SETTEBELLO)))


def _mask_tally(mask: int, scope: int) -> SideTally:
    """The tally of a side whose cards (each once) are `mask`."""
    return tuple.__new__(SideTally, (
        _ones(mask), _ones(mask & _COINS), _ones(mask & _SEVENS), _ones(mask & _SIXES),
        _primiera(mask), scope, bool(mask & _SETTEBELLO)))


class SideScore(NamedTuple):
    """The points one side made in a round, category by category."""

    points: dict[str, int]
    tally: SideTally

    @property
    def total(self) -> int:
        return sum(self.points.values())

    def to_dict(self) -> dict[str, Any]:
        return {**self.points, "total": self.total}


class RoundResult(NamedTuple):
    """The breakdown of one finished round and the match totals after it."""

    number: int
    dealer: int
    scores: tuple[SideScore, ...]
    totals: tuple[int, ...]
    winner: int | None = None
    categories: tuple[str, ...] = ()
    fuori: int | None = None
    """The seat that ended the round by declaring fuori (its side's `scores` are then
    what it had secured), or None for a round played to its last card."""

    def to_dict(self) -> dict[str, Any]:
        out = {
            "number": self.number,
            "dealer": self.dealer,
            "scores": [score.to_dict() for score in self.scores],
            "tallies": [score.tally._asdict() for score in self.scores],
            "totals": list(self.totals),
            "winner": self.winner,
        }
        if self.fuori is not None:
            out["fuori"] = self.fuori
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        scores = tuple(
            SideScore({k: int(v) for k, v in points.items() if k != "total"}, SideTally(**tally))
            for points, tally in zip(data["scores"], data["tallies"], strict=True)
        )
        categories = tuple(k for k in data["scores"][0] if k != "total") if scores else ()
        fuori = data.get("fuori")
        return cls(int(data["number"]), int(data["dealer"]), scores,
                   tuple(int(t) for t in data["totals"]), data.get("winner"), categories,
                   None if fuori is None else int(fuori))


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


def _most_sevens(tallies: Sequence[SideTally], sixes_tiebreak: bool) -> int | None:
    """Most sevens; among the sides tied on sevens, most sixes (`sixes_tiebreak`); else nobody."""
    top = max(t.sevens for t in tallies)
    tied = [i for i, t in enumerate(tallies) if t.sevens == top]
    if len(tied) == 1:
        return tied[0]
    if not sixes_tiebreak:
        return None
    best = _sole_best([tallies[i].sixes for i in tied])
    return None if best is None else tied[best]


def napola_points(taken: Sequence[Card]) -> int:
    """Ace, 2, 3 of coins score 3, and one more for each next coin in sequence."""
    return _napola(_mask(taken))


def _napola(mask: int) -> int:
    coins = mask >> _COINS_SHIFT & _SUIT_MASK
    run = ((coins + 1) & ~coins).bit_length() - 1
    return run if run >= 3 else 0


_BASE_CATEGORIES = ("cards", "coins", "settebello", "primiera", "scope")


def categories(variant: Variant, rules: Rules) -> tuple[str, ...]:
    if variant is Variant.ESCOBA:
        sevens = "sevens" if rules.primiera is Primiera.SEVENS else "primiera"
        return ("cards", "coins", "settebello", sevens, "scope")
    if not (rules.re_bello or rules.napola or rules.sevens_point or rules.asso_bello):
        return _BASE_CATEGORIES
    extra = [name for name, on in (("re_bello", rules.re_bello), ("napola", rules.napola),
                                   ("sevens", rules.sevens_point),
                                   ("asso_bello", rules.asso_bello)) if on]
    return (*_BASE_CATEGORIES, *extra)


class ScoringPlan:
    """What a match's variant and rules make of a round's scoring, read once per match.

    A game scores every round with the same plan, so the options are looked up
    once instead of once a round.
    """

    def __init__(self, variant: Variant, rules: Rules) -> None:
        self.categories: tuple[str, ...] = categories(variant, rules)
        self.escoba: bool = variant is Variant.ESCOBA
        self.by_sevens: bool = rules.primiera is Primiera.SEVENS
        self.sixes_tiebreak: bool = rules.sixes_tiebreak
        self.re_bello: bool = rules.re_bello and not self.escoba
        self.asso_bello: bool = rules.asso_bello and not self.escoba
        self.napola: bool = rules.napola and not self.escoba
        self.sevens_point: bool = rules.sevens_point and not self.escoba
        self.extras: bool = self.re_bello or self.asso_bello or self.napola


def score_round(variant: Variant, rules: Rules, taken_by_side: Sequence[Sequence[Card]],
                scope_by_side: Sequence[int]) -> tuple[SideScore, ...]:
    return score_with(ScoringPlan(variant, rules), taken_by_side, scope_by_side)


def score_with(plan: ScoringPlan, taken_by_side: Sequence[Sequence[Card]],
               scope_by_side: Sequence[int]) -> tuple[SideScore, ...]:
    masks = [_mask(taken) for taken in taken_by_side]
    tallies = [_tally(taken, mask, scope)
               for taken, mask, scope in zip(taken_by_side, masks, scope_by_side, strict=True)]
    return _scores(plan, tallies, masks)


def score_masks(plan: ScoringPlan, masks: Sequence[int],
                scope_by_side: Sequence[int]) -> tuple[SideScore, ...]:
    """`score_with` for sides given as the masks (`Card.bit`s) of the cards each took, as a game
    keeps them while it plays: no card list is walked."""
    tallies = [_mask_tally(mask, scope) for mask, scope in zip(masks, scope_by_side, strict=True)]
    return _scores(plan, tallies, masks)


def _scores(plan: ScoringPlan, tallies: list[SideTally], masks: Sequence[int]) -> tuple[SideScore, ...]:
    points = [dict.fromkeys(plan.categories, 0) for _ in tallies]
    _award(points, "cards", _sole_best([t.cards for t in tallies]))
    coins_side = _sole_best([t.coins for t in tallies])
    _award(points, "coins", coins_side)
    for side, tally in enumerate(tallies):
        if tally.settebello:
            points[side]["settebello"] = 1
        points[side]["scope"] = tally.scope
    if plan.escoba:
        if coins_side is not None and tallies[coins_side].coins == 10:
            _award(points, "coins", coins_side)
        if plan.by_sevens:
            sevens_side = _most_sevens(tallies, plan.sixes_tiebreak)
            bonus = 3 if sevens_side is not None and tallies[sevens_side].sevens == 4 else 1
            _award(points, "sevens", sevens_side, bonus)
        else:
            _award(points, "primiera", _sole_best([t.primiera for t in tallies]))
        return _side_scores(points, tallies)

    if plan.by_sevens:
        _award(points, "primiera", _most_sevens(tallies, plan.sixes_tiebreak))
    else:
        _award(points, "primiera", _sole_best([t.primiera for t in tallies]))
    if plan.extras:
        for side, mask in enumerate(masks):
            if plan.re_bello and mask & RE_BELLO.bit:
                points[side]["re_bello"] = 1
            if plan.asso_bello and mask & ASSO_BELLO.bit:
                points[side]["asso_bello"] = 1
            if plan.napola:
                points[side]["napola"] = _napola(mask)
    if plan.sevens_point:
        _award(points, "sevens", _sole_best([t.sevens for t in tallies]))
    return _side_scores(points, tallies)


def _side_scores(points: list[dict[str, int]], tallies: list[SideTally]) -> tuple[SideScore, ...]:
    return tuple([tuple.__new__(SideScore, (p, t)) for p, t in zip(points, tallies, strict=True)])


def _award(points: list[dict[str, int]], name: str, side: int | None, value: int = 1) -> None:
    if side is not None:
        points[side][name] += value


def match_winner(totals: Sequence[int], target: int, rounds_played: int = 0,
                 round_limit: int = 0) -> int | None:
    """The side that reached the target, or played the agreed rounds (`round_limit`, 0 for
    none), with the highest total alone, if any: a tie at the top plays on."""
    if max(totals) < target and not 0 < round_limit <= rounds_played:
        return None
    return _sole_best(list(totals))


def secured_scores(plan: ScoringPlan, taken_by_side: Sequence[Sequence[Card]],
                   scope_by_side: Sequence[int], untaken: Sequence[Card]) -> tuple[SideScore, ...]:
    """Each side's points of the round that no sharing out of `untaken` could take away: what
    a *fuori* declaration counts (004 art. 16; see bot/engine/fuori.py)."""
    sides = len(taken_by_side)
    secured = []
    for side in range(sides):
        worst: dict[str, int] | None = None
        for other in range(sides):
            if other == side:
                continue
            shared = [list(taken) for taken in taken_by_side]
            shared[other] += untaken
            points = score_with(plan, shared, scope_by_side)[side].points
            worst = dict(points) if worst is None else {
                category: min(value, points[category]) for category, value in worst.items()}
        assert worst is not None, "a match has at least two sides"
        secured.append(SideScore(worst, SideTally.of(taken_by_side[side], scope_by_side[side])))
    return tuple(secured)


def federal_win_kind(points: int) -> WinKind:
    """004 art. 16: "si vince semplice se gli avversari hanno ottenuto 4 o più punti, doppia
    se hanno ottenuto 1, 2, o 3 punti, tripla se non hanno ottenuto alcun punto"."""
    if points >= 4:
        return WinKind.SEMPLICE
    return WinKind.DOPPIA if points > 0 else WinKind.TRIPLA
