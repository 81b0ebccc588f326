"""Reading a position the way every computer player does: its legal moves in an order fixed by
the cards alone, and the ranks that would sweep a table."""

from __future__ import annotations

from bot.engine import Move, SeatView
from bot.engine.captures import CaptureMode, capture_options

_CACHE_LIMIT = 100_000
_sweep_cache: dict[CaptureMode, dict[tuple[int, ...], frozenset[int]]] = {}


def sweep_ranks(ranks: tuple[int, ...], mode: CaptureMode) -> frozenset[int]:
    """The ranks whose card would take the whole table as a scopa (empty table: none)."""
    by_ranks = _sweep_cache.setdefault(mode, {})
    found = by_ranks.get(ranks)
    if found is not None:
        return found
    whole = len(ranks)
    sweeping = set()
    if whole:
        ace_sweep = mode[1] and not mode[0] and 1 not in ranks
        for rank, options in capture_options(ranks, mode).items():
            if rank == 1 and ace_sweep:
                continue
            if any(len(option) == whole for option in options):
                sweeping.add(rank)
    found = frozenset(sweeping)
    if len(by_ranks) >= _CACHE_LIMIT:
        by_ranks.clear()
    by_ranks[ranks] = found
    return found


def canonical_moves(view: SeatView) -> list[Move]:
    """The legal moves in an order fixed by the cards alone.

    The engine lists them in the order of the hand as dealt, which a view
    rebuilt from the same facts may not share; players iterate over this
    order so that their choice depends on the view's content only.
    """
    return sorted(view.legal_moves, key=lambda m: (m.card.order, [c.order for c in m.captures]))
