"""A fast rule-of-thumb policy on a game the search is walking, to play rounds out to the end.

It weighs a move as `medium` does (what it captures, a scopa, and the chance
that the next player sweeps the table it leaves), but counts the cards from
the game itself (a guess of the hidden cards): every card not in the mover's
hand, on the table or taken is one the mover cannot see.
"""

from __future__ import annotations

from bot.engine import DECK, Card, Game, Move, Primiera, SeatView
from bot.engine.captures import capture_mode, capture_options

from .medium import SCOPA, card_value, holds_any
from .reading import sweep_ranks


class RolloutPolicy:
    def __init__(self, view: SeatView) -> None:
        sevens_primiera = view.rules.primiera is Primiera.SEVENS
        self.worth = [0.0] * len(DECK)
        for card in DECK:
            self.worth[card.index] = card_value(card, sevens_primiera)
        self.mode = capture_mode(view.variant, view.rules)

    def choose(self, position: Game) -> Move:
        moves = position.legal_moves()
        if len(moves) == 1:
            return moves[0]
        scores = self.scores(position, moves)
        best = 0
        for index in range(1, len(moves)):
            if scores[index] > scores[best]:
                best = index
        return moves[best]

    def scores(self, position: Game, moves: list[Move]) -> list[float]:
        worth = self.worth
        seat = position.to_play
        seats = position.seats
        nxt = (seat + 1) % seats
        while not position.hands[nxt] and nxt != seat:
            nxt = (nxt + 1) % seats
        if nxt == seat:
            nxt = (seat + 1) % seats if len(position.hands[seat]) == 1 and position.stock else -1
        unseen = [0] * 11
        pool = 0
        for other, hand in enumerate(position.hands):
            if other != seat:
                for card in hand:
                    unseen[card.rank] += 1
                pool += len(hand)
        for card in position.stock:
            unseen[card.rank] += 1
        pool += len(position.stock)
        reply_hand = len(position.hands[nxt]) if nxt >= 0 else 0
        if reply_hand == 0 and position.stock and nxt >= 0:
            reply_hand = min(3, len(position.stock))
        partner = nxt >= 0 and position.side_of[nxt] == position.side_of[seat]
        last_play = position.in_hands <= 2 and not position.stock
        mode = self.mode
        scores = []
        for move in moves:
            card, captured = move
            if captured:
                score = worth[card.index]
                for taken in captured:
                    score += worth[taken.index]
                table = [c for c in position.table if c not in captured]
                if (not table and position.in_hands > 1) or (not table and position.stock):
                    score += SCOPA
            else:
                score = -0.6 * worth[card.index] - 0.02 * card.rank
                table = sorted([*position.table, card], key=_order)
            if table and reply_hand:
                ranks = tuple([c.rank for c in table])
                sweeping = () if last_play else sweep_ranks(ranks, mode)
                outcome = 0.0
                if sweeping:
                    wanted = 0
                    for rank in sweeping:
                        wanted += unseen[rank]
                    chance = holds_any(pool, wanted, reply_hand)
                    if chance:
                        loss = SCOPA + 0.1
                        for c in table:
                            loss += worth[c.index]
                        outcome = chance * loss
                exposed = 0.0
                for rank, sets in capture_options(ranks, mode).items():
                    if rank in sweeping or not unseen[rank]:
                        continue
                    best = 0.0
                    for idx in sets:
                        value = 0.0
                        for i in idx:
                            value += worth[table[i].index]
                        if value > best:
                            best = value
                    exposed = max(exposed, holds_any(pool, unseen[rank], reply_hand) * best)
                outcome += exposed
                score += 0.5 * outcome if partner else -outcome
            scores.append(score)
        return scores


def play_out(position: Game, policy: RolloutPolicy) -> int:
    """Play `position` on to the end of the round (it must not deal the next one by itself);
    gives the number of moves applied, for the caller to `undo`."""
    played = 0
    while not position.round_over:
        position.apply(policy.choose(position))
        played += 1
    return played


def _order(card: Card) -> int:
    return card.order
