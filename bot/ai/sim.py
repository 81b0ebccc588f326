"""A light copy of the rules for search: play and undo, captured cards as bitmasks.

Search replays thousands of short lines per move, and the engine's `Game`
validates and records every move (and has no undo), so the search players use
this `Position` instead. It takes its captures from the engine's own rule
(`bot.engine.captures`) and follows its scopa rule and end-of-round leftover
exactly; tests/test_ai.py plays random rounds on both and checks that the
legal moves and the captured piles agree. At the end of a deal (`boundary`)
the search may `deal` the next hands from a guessed stock.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Card, Move, SeatView
from bot.engine.captures import CaptureMode, capture_mode, capture_options

SimMove = tuple[Card, tuple[Card, ...]]
Undo = tuple[int, int, Card, list[Card], int | None, int, int, bool, int, int]
HAND_SIZE = 3
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


def mask_of(cards: Sequence[Card] | set[Card]) -> int:
    bits = 0
    for card in cards:
        bits |= card.bit
    return bits


class Position:
    """The state a search walks: every hand known (sampled), the table, the captured piles.

    `taken[side]` is the bitmask of the cards that side has captured this
    round; `scope[side]` its scope. `boundary` is true once every hand is
    empty while the stock still holds cards: the next deal, which search does
    not look into.
    """

    __slots__ = ("ace_takes_all", "boundary", "dealer", "hands", "in_hands", "last_capturer", "mode",
                 "must_capture", "scope", "seats", "side_of", "sides", "stock", "table", "taken",
                 "to_play")

    def __init__(self, view: SeatView, hands: Sequence[Sequence[Card]], stock: Sequence[Card]) -> None:
        self.seats = view.seats
        self.side_of = view.side_of
        self.sides = len(view.sides)
        self.mode = capture_mode(view.variant, view.rules)
        self.ace_takes_all = self.mode[1] and not self.mode[0]
        self.must_capture = view.rules.must_capture
        self.hands = [list(hand) for hand in hands]
        self.table = sorted(view.table, key=_order)
        self.stock = list(stock)
        self.in_hands = sum(len(hand) for hand in hands)
        taken = [0] * self.sides
        last = None
        for play in view.plays:
            if play.captured:
                bits = mask_of(play.captured)
                if play.card is not None:
                    bits |= play.card.bit
                taken[self.side_of[play.seat]] |= bits
                last = play.seat
        self.taken = taken
        self.scope = [0] * self.sides
        for seat, count in enumerate(view.scope):
            self.scope[self.side_of[seat]] += count
        self.last_capturer = last
        self.to_play = view.to_play
        self.dealer = view.dealer
        self.boundary = False

    def copy(self) -> Position:
        clone = Position.__new__(Position)
        for name in ("ace_takes_all", "boundary", "dealer", "in_hands", "last_capturer", "mode",
                     "must_capture", "seats", "side_of", "sides", "to_play"):
            setattr(clone, name, getattr(self, name))
        clone.hands = [list(hand) for hand in self.hands]
        clone.table = self.table
        clone.stock = list(self.stock)
        clone.taken = list(self.taken)
        clone.scope = list(self.scope)
        return clone

    @property
    def finished(self) -> bool:
        return self.in_hands == 0 and not self.stock

    def moves(self) -> list[SimMove]:
        hand = self.hands[self.to_play]
        table = self.table
        if not table:
            return [(card, ()) for card in hand]
        options = capture_options(tuple([c.rank for c in table]), self.mode)
        captures: list[SimMove] = []
        laydowns: list[SimMove] = []
        for card in hand:
            sets = options.get(card.rank)
            if sets is None:
                laydowns.append((card, ()))
                continue
            for idx in sets:
                captures.append((card, tuple([table[i] for i in idx])))
        if not captures or not self.must_capture:
            captures.extend(laydowns)
        return captures

    def play(self, move: SimMove) -> Undo:
        """Apply `move` for the seat to play; returns what `undo` needs."""
        card, captured = move
        seat = self.to_play
        hand = self.hands[seat]
        position = hand.index(card)
        del hand[position]
        self.in_hands -= 1
        old_table = self.table
        old_last = self.last_capturer
        side = self.side_of[seat]
        bits = 0
        scopa = False
        if captured:
            bits = card.bit
            for taken_card in captured:
                bits |= taken_card.bit
            remaining = [c for c in old_table if c not in captured]
            last_play = not self.in_hands and not self.stock
            swept_by_ace = (card.rank == 1 and self.ace_takes_all
                            and not any(c.rank == 1 for c in captured))
            scopa = not remaining and not last_play and not swept_by_ace
            self.taken[side] |= bits
            if scopa:
                self.scope[side] += 1
            self.last_capturer = seat
            self.table = remaining
        else:
            table = [*old_table, card]
            table.sort(key=_order)
            self.table = table
        leftover_side = -1
        leftover_bits = 0
        if self.in_hands:
            self.to_play = self._next_with_cards(seat)
        elif self.stock:
            self.boundary = True
            self.to_play = (seat + 1) % self.seats
        else:
            if self.table and self.last_capturer is not None:
                leftover_side = self.side_of[self.last_capturer]
                leftover_bits = mask_of(self.table)
                self.taken[leftover_side] |= leftover_bits
                self.table = []
            self.to_play = (seat + 1) % self.seats
        return (seat, position, card, old_table, old_last, side, bits, scopa, leftover_side,
                leftover_bits)

    def undo(self, token: Undo) -> None:
        seat, position, card, old_table, old_last, side, bits, scopa, leftover_side, leftover_bits = token
        self.hands[seat].insert(position, card)
        self.in_hands += 1
        self.table = old_table
        self.last_capturer = old_last
        if bits:
            self.taken[side] ^= bits
        if scopa:
            self.scope[side] -= 1
        if leftover_side >= 0:
            self.taken[leftover_side] ^= leftover_bits
        self.to_play = seat
        self.boundary = False

    def deal(self) -> int:
        """Deal the next hands from the stock, as the engine does; returns the seat that played last."""
        seats = self.seats
        stock = self.stock
        hands = self.hands
        turn = 0
        while stock and turn < HAND_SIZE * seats:
            hands[(self.dealer + 1 + turn) % seats].append(stock.pop())
            turn += 1
        self.in_hands = turn
        self.boundary = False
        last = (self.to_play - 1) % seats
        self.to_play = self._next_with_cards(last)
        return last

    def undeal(self, last: int) -> None:
        seats = self.seats
        stock = self.stock
        hands = self.hands
        for turn in range(self.in_hands - 1, -1, -1):
            stock.append(hands[(self.dealer + 1 + turn) % seats].pop())
        self.in_hands = 0
        self.boundary = True
        self.to_play = (last + 1) % seats

    def _next_with_cards(self, seat: int) -> int:
        seats = self.seats
        for step in range(1, seats + 1):
            candidate = (seat + step) % seats
            if self.hands[candidate]:
                return candidate
        return (seat + 1) % seats


def _order(card: Card) -> int:
    return card.order
