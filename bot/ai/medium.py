"""`medium`: a rule-based player, the way a decent club player reasons about one move.

Each legal move gets a score in points: what it captures (the settebello, a
scopa, sevens and the primiera cards, denari, many cards), less what it
risks: counting the cards still unseen, the chance that the next player holds
a card that sweeps the table this move leaves (a scopa for them), and the
value of the good cards it leaves on the table for them to take. Playing for
a side, it counts a partner's sweep as a gain instead.
"""

from __future__ import annotations

import math
import random

from bot.engine import SETTEBELLO, Card, Move, Primiera, SeatView, Variant
from bot.engine.captures import capture_mode, capture_options
from bot.engine.cards import Suit

from .knowledge import Knowledge
from .reading import canonical_moves, sweep_ranks

SCOPA = 1.0
CARD = 0.05
DENARO = 0.1


def card_value(card: Card, sevens_primiera: bool) -> float:
    """What taking `card` is worth, roughly, in points of the round."""
    value = CARD
    if card.suit is Suit.DENARI:
        value += DENARO
    if card is SETTEBELLO:
        value += 1.0
    if card.rank == 7:
        value += 0.3
    elif card.rank == 6:
        value += 0.05 if sevens_primiera else 0.12
    elif card.rank == 1 and not sevens_primiera:
        value += 0.06
    return value


def holds_any(unseen: int, wanted: int, hand: int) -> float:
    """Chance that a hand of `hand` cards drawn from `unseen` holds one of `wanted` cards."""
    if wanted <= 0 or hand <= 0:
        return 0.0
    if wanted >= unseen or hand > unseen - wanted:
        return 1.0
    return 1.0 - math.comb(unseen - wanted, hand) / math.comb(unseen, hand)


class MediumPlayer:
    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.knowledge = Knowledge.of(view)
        self.mode = capture_mode(view.variant, view.rules)
        self.sevens_primiera = view.rules.primiera is Primiera.SEVENS
        self.escoba = view.variant is Variant.ESCOBA

    def scores(self) -> dict[Move, float]:
        return {move: self.score(move) for move in canonical_moves(self.view)}

    def choose(self, rng: random.Random) -> Move:
        scored = self.scores()
        best = max(scored.values())
        top = [move for move, score in scored.items() if score >= best - 1e-9]
        return top[rng.randrange(len(top))] if len(top) > 1 else top[0]

    def score(self, move: Move) -> float:
        view = self.view
        card, captured = move
        worth = self._worth
        if captured:
            table = [c for c in view.table if c not in captured]
            score = worth(card) + sum(worth(c) for c in captured)
            if not table and self._scopa_counts(card, captured):
                score += SCOPA
        else:
            table = sorted([*view.table, card], key=lambda c: c.order)
            score = -0.6 * worth(card) - 0.02 * card.rank
        return score + self._reply(table)

    def _worth(self, card: Card) -> float:
        return card_value(card, self.sevens_primiera)

    def _scopa_counts(self, card: Card, captured: tuple[Card, ...]) -> bool:
        view = self.view
        last_play = view.stock_count == 0 and sum(view.hand_counts) == 1
        swept_by_ace = (card.rank == 1 and view.rules.ace_takes_all and not self.escoba
                        and not any(c.rank == 1 for c in captured))
        return not last_play and not swept_by_ace

    def _reply(self, table: list[Card]) -> float:
        """What the next player is expected to make of `table`, good for us if a partner."""
        view = self.view
        cards_left = sum(view.hand_counts) - 1
        if cards_left <= 0:
            return 0.0
        nxt = (view.seat + 1) % view.seats
        for _ in range(view.seats):
            if view.hand_counts[nxt] - (1 if nxt == view.seat else 0) > 0:
                break
            nxt = (nxt + 1) % view.seats
        if nxt == view.seat:
            return 0.0
        hand = view.hand_counts[nxt]
        unseen = len(self.knowledge.unseen)
        by_rank = self.knowledge.unseen_by_rank()
        banned = self.knowledge.forbidden.get(nxt, frozenset())
        ranks = tuple(c.rank for c in table)
        outcome = 0.0
        if table:
            sweeping = [r for r in sweep_ranks(ranks, self.mode) if r not in banned]
            last_play = cards_left == 1 and view.stock_count == 0
            if sweeping and not last_play:
                chance = holds_any(unseen, sum(by_rank[r] for r in sweeping), hand)
                outcome += chance * (SCOPA + sum(self._worth(c) for c in table) + 0.1)
            exposed = 0.0
            options = capture_options(ranks, self.mode)
            for rank, sets in options.items():
                if rank in banned or rank in sweeping:
                    continue
                best = max(sum(self._worth(table[i]) for i in idx) for idx in sets)
                exposed = max(exposed, holds_any(unseen, by_rank[rank], hand) * best)
            outcome += exposed
        same_side = view.side_of[nxt] == view.side
        return 0.5 * outcome if same_side else -outcome
