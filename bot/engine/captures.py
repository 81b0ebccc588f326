"""Which table cards a played card may take: the one place for the capture rule.

The table is kept sorted by rank, so the sums a table offers depend only on
the tuple of its ranks; those are computed once and cached, which keeps
random playouts and search fast.
"""

from __future__ import annotations

from .cards import Card
from .rules import CaptureChoice, Rules, Variant

ESCOBA_SUM = 15
_MAX_SUM = 14
_CACHE_LIMIT = 200_000

_subsets_cache: dict[tuple[int, ...], dict[int, list[tuple[int, ...]]]] = {}


def subsets_by_sum(ranks: tuple[int, ...]) -> dict[int, list[tuple[int, ...]]]:
    """Index subsets of `ranks` (ascending) grouped by their sum, for sums up to 14."""
    found = _subsets_cache.get(ranks)
    if found is not None:
        return found
    found = {}
    count = len(ranks)

    def walk(start: int, total: int, chosen: tuple[int, ...]) -> None:
        for i in range(start, count):
            value = total + ranks[i]
            if value > _MAX_SUM:
                return
            picked = chosen + (i,)
            found.setdefault(value, []).append(picked)
            walk(i + 1, value, picked)

    walk(0, 0, ())
    if len(_subsets_cache) >= _CACHE_LIMIT:
        _subsets_cache.clear()
    _subsets_cache[ranks] = found
    return found


def captures_for(card: Card, table: list[Card], table_ranks: tuple[int, ...],
                 rules: Rules, variant: Variant) -> list[tuple[Card, ...]]:
    """Every set of table cards `card` may capture (empty list: none)."""
    if not table:
        return []
    rank = card.rank
    if variant is Variant.ESCOBA:
        need = ESCOBA_SUM - rank
        options = [tuple(table[i] for i in idx)
                   for idx in subsets_by_sum(table_ranks).get(need, ())]
    else:
        singles = [(c,) for c in table if c.rank == rank]
        if singles:
            return singles
        if rank == 1 and rules.ace_takes_all:
            return [tuple(table)]
        options = [tuple(table[i] for i in idx)
                   for idx in subsets_by_sum(table_ranks).get(rank, ()) if len(idx) > 1]
    if len(options) > 1 and rules.capture_choice is CaptureChoice.FEWEST:
        fewest = min(len(option) for option in options)
        options = [option for option in options if len(option) == fewest]
    return options
