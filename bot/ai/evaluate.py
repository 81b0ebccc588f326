"""Expected points of a round for each side, from the cards each side has taken so far.

Every category is worth what it scores: a scopa or the settebello already
taken counts 1; for the majorities (cards, denari, sevens) and the primiera,
each card still to be taken is assumed to go to any side with equal chance,
which gives each side's chance of ending with the most. At the end of the
round the chances are 0 or 1 and the sum is the engine's score exactly (tests
check it), so the same function scores search leaves and finished rounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.engine import DECK, SETTEBELLO, Card, Primiera, SeatView, Variant
from bot.engine.cards import ASSO_BELLO, RE_BELLO, Suit

ALL_CARDS = (1 << len(DECK)) - 1


def _mask(cards: Sequence[Card]) -> int:
    bits = 0
    for card in cards:
        bits |= card.bit
    return bits


DENARI = _mask([c for c in DECK if c.suit is Suit.DENARI])
SEVENS = _mask([c for c in DECK if c.rank == 7])
SIXES = _mask([c for c in DECK if c.rank == 6])
PRIMIERA_DECIDERS = _mask([c for c in DECK if c.rank in (1, 5, 6, 7)])
_SUIT_BITS = 10
_SUIT_MASK = (1 << _SUIT_BITS) - 1
_PRIMIERA_BY_RANK = {c.rank: c.primiera for c in DECK}
_NAPOLA_LOW = [c.bit for c in sorted((c for c in DECK if c.suit is Suit.DENARI), key=lambda c: c.rank)]

_BEST = [max((_PRIMIERA_BY_RANK[r + 1] for r in range(_SUIT_BITS) if m >> r & 1), default=0)
         for m in range(1 << _SUIT_BITS)]
_VALUES_DESC = [sorted((_PRIMIERA_BY_RANK[r + 1] for r in range(_SUIT_BITS) if m >> r & 1), reverse=True)
                for m in range(1 << _SUIT_BITS)]


def _binomial_tails(limit: int) -> list[list[float]]:
    """tails[n][k] = P(Binomial(n, 1/2) >= k) for k in 0..n+1."""
    tails = []
    for n in range(limit + 1):
        probs = [math.comb(n, k) / 2 ** n for k in range(n + 1)]
        row = [0.0] * (n + 2)
        for k in range(n, -1, -1):
            row[k] = row[k + 1] + probs[k]
        tails.append(row)
    return tails


_TAILS = _binomial_tails(len(DECK))


def _tail(n: int, k: int) -> float:
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return _TAILS[n][k]


def duel(a: int, b: int, remaining: int) -> tuple[float, float]:
    """Chances that a ends strictly ahead of b, and b of a, when `remaining` items split at random."""
    if not remaining:
        return (1.0, 0.0) if a > b else (0.0, 1.0) if b > a else (0.0, 0.0)
    gap = b + remaining - a
    a_wins = _tail(remaining, gap // 2 + 1)
    b_wins = 1.0 - _tail(remaining, -((-gap) // 2))
    return a_wins, b_wins


def majority(counts: Sequence[int], remaining: int) -> list[float]:
    """Each side's chance of holding the most alone (a tie scores nothing)."""
    sides = len(counts)
    if sides == 2:
        return list(duel(counts[0], counts[1], remaining))
    share = round(2 * remaining / sides)
    chances = []
    for i, mine in enumerate(counts):
        chance = 1.0
        for j, theirs in enumerate(counts):
            if i != j:
                chance *= duel(mine, theirs, share)[0]
        chances.append(chance)
    return chances


_expected_cache: dict[tuple[int, int, int], float] = {}


def _expected_best(remaining_suit: int, best: int, sides: int) -> float:
    """Expected best primiera value in one suit, each remaining card coming with chance 1/sides."""
    key = (remaining_suit, best, sides)
    found = _expected_cache.get(key)
    if found is not None:
        return found
    share = 1.0 / sides
    miss = 1.0
    value = 0.0
    for card_value in _VALUES_DESC[remaining_suit]:
        if card_value <= best:
            break
        value += card_value * share * miss
        miss *= 1.0 - share
    value += best * miss
    _expected_cache[key] = value
    return value


def _sigmoid(x: float) -> float:
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def primiera_chances(taken: Sequence[int], remaining: int) -> list[float]:
    sides = len(taken)
    values: list[float | None] = []
    for mask in taken:
        total = 0.0
        possible = True
        for suit in range(4):
            shift = suit * _SUIT_BITS
            best = _BEST[mask >> shift & _SUIT_MASK]
            rest = remaining >> shift & _SUIT_MASK
            if not best and not rest:
                possible = False
                break
            total += _expected_best(rest, best, sides) if rest else best
        values.append(total if possible else None)
    if not remaining:
        best_value = max((v for v in values if v is not None), default=None)
        if best_value is None or sum(v == best_value for v in values) > 1:
            return [0.0] * sides
        return [1.0 if v == best_value else 0.0 for v in values]
    spread = 1.5 + 2.0 * math.sqrt((remaining & PRIMIERA_DECIDERS).bit_count())
    chances = []
    for i, mine in enumerate(values):
        if mine is None:
            chances.append(0.0)
            continue
        chance = 1.0
        for j, theirs in enumerate(values):
            if i != j and theirs is not None:
                chance *= _sigmoid(1.7 * (mine - theirs) / spread)
        chances.append(chance)
    return chances


def _sevens_chances(taken: Sequence[int], remaining: int, sixes_tiebreak: bool) -> list[float]:
    """Most sevens, a tie on sevens broken by most sixes with `sixes_tiebreak` (the `sevens`
    primiera)."""
    if not remaining & (SEVENS | SIXES):
        counts = [(m & SEVENS).bit_count() for m in taken]
        top = max(counts)
        tied = [i for i, count in enumerate(counts) if count == top]
        if len(tied) > 1 and sixes_tiebreak:
            sixes = {i: (taken[i] & SIXES).bit_count() for i in tied}
            most = max(sixes.values())
            tied = [i for i in tied if sixes[i] == most]
        return [1.0 if len(tied) == 1 and i == tied[0] else 0.0 for i in range(len(taken))]
    sevens = majority([(m & SEVENS).bit_count() for m in taken], (remaining & SEVENS).bit_count())
    if len(taken) != 2 or not sixes_tiebreak:
        return sevens
    tie = max(0.0, 1.0 - sevens[0] - sevens[1])
    by_sixes = majority([(m & SIXES).bit_count() for m in taken], (remaining & SIXES).bit_count())
    return [sevens[i] + tie * by_sixes[i] for i in range(2)]


def _sweep_all(taken: Sequence[int], remaining: int, group: int) -> list[float]:
    """Each side's chance of taking every card of `group` (escoba's bonuses)."""
    sides = len(taken)
    left = (remaining & group).bit_count()
    chances = []
    for i in range(sides):
        others = any(m & group for j, m in enumerate(taken) if j != i)
        chances.append(0.0 if others else (1.0 / sides) ** left)
    return chances


def napola(mask: int) -> int:
    run = 0
    while run < len(_NAPOLA_LOW) and mask & _NAPOLA_LOW[run]:
        run += 1
    return run if run >= 3 else 0


class Evaluator:
    """Expected round points per side for one variant and set of rules."""

    def __init__(self, view: SeatView) -> None:
        rules = view.rules
        self.sides = len(view.sides)
        self.escoba = view.variant is Variant.ESCOBA
        self.sevens_primiera = rules.primiera is Primiera.SEVENS
        self.sixes_tiebreak = rules.sixes_tiebreak
        self.re_bello = rules.re_bello and not self.escoba
        self.asso_bello = rules.asso_bello and not self.escoba
        self.napola = rules.napola and not self.escoba
        self.sevens_point = rules.sevens_point and not self.escoba
        self._cache: dict[tuple[int, ...], list[float]] = {}

    def clear(self) -> None:
        """Forget the cached scores."""
        self._cache = {}

    def points(self, taken: Sequence[int], scope: Sequence[int]) -> list[float]:
        key = tuple(taken)
        found = self._cache.get(key)
        if found is None:
            found = self._categories(taken)
            if len(self._cache) > 200_000:
                self._cache.clear()
            self._cache[key] = found
        return [found[i] + scope[i] for i in range(len(found))]

    def _categories(self, taken: Sequence[int]) -> list[float]:
        held = 0
        for mask in taken:
            held |= mask
        remaining = ALL_CARDS & ~held
        points = majority([m.bit_count() for m in taken], remaining.bit_count())
        denari = majority([(m & DENARI).bit_count() for m in taken], (remaining & DENARI).bit_count())
        if self.sevens_primiera:
            primiera = _sevens_chances(taken, remaining, self.sixes_tiebreak)
        else:
            primiera = primiera_chances(taken, remaining)
        settebello = SETTEBELLO.bit
        for i, mask in enumerate(taken):
            points[i] += denari[i] + primiera[i] + (1.0 if mask & settebello else 0.0)
        if self.escoba:
            for i, chance in enumerate(_sweep_all(taken, remaining, DENARI)):
                points[i] += chance
            if self.sevens_primiera:
                for i, chance in enumerate(_sweep_all(taken, remaining, SEVENS)):
                    points[i] += 2 * chance
            return points
        for i, mask in enumerate(taken):
            if self.re_bello and mask & RE_BELLO.bit:
                points[i] += 1
            if self.asso_bello and mask & ASSO_BELLO.bit:
                points[i] += 1
            if self.napola:
                points[i] += napola(mask)
        if self.sevens_point:
            for i, chance in enumerate(majority([(m & SEVENS).bit_count() for m in taken],
                                                (remaining & SEVENS).bit_count())):
                points[i] += chance
        return points


def margin(points: Sequence[float], side: int) -> float:
    """Points of `side` less the mean of the other sides': what every player maximises."""
    others = len(points) - 1
    return points[side] - (sum(points) - points[side]) / others
