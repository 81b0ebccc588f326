"""`greedy`: the reference opponent of published Scopa programs, for the arena only.

It takes the capture with the most cards (ties: the capture worth most, the
settebello, denari and sevens first) and, with nothing to take, lays down its
least valuable card. It never looks at what it leaves on the table. Chat
players cannot choose it; `scopa-bot arena --b greedy` puts the levels on the
scale of published results, which are measured against such a player.
"""

from __future__ import annotations

from bot.engine import Move, Primiera, SeatView

from .medium import card_value
from .reading import canonical_moves


def greedy_move(view: SeatView) -> Move:
    sevens_primiera = view.rules.primiera is Primiera.SEVENS

    def worth(move: Move) -> float:
        return sum(card_value(c, sevens_primiera) for c in (move.card, *move.captures))

    moves = canonical_moves(view)
    captures = [move for move in moves if move.captures]
    if captures:
        return max(captures, key=lambda m: (len(m.captures), worth(m)))
    return min(moves, key=lambda m: (worth(m), m.card.rank))
