"""Declaring *fuori* (004 art. 16): a player ends the match with a play, claiming that
their side has reached the target.

What counts is what the side has made so far and can no longer lose: its scope,
the settebello once taken, most cards or denari once nobody else could reach as
many, and the primiera "only when the opponents could not reach it even with all
the cards not yet taken". One rule covers them all: a point counts when the side
keeps it however the cards nobody has taken yet are shared out, and the worst
sharing for a side is all of them to one other side. The side wins the match if
its total with those points reaches the target, even when the other side has
more; otherwise it loses the match.

`Game.may_declare` and `Game.declare_fuori` apply the rule, counting with
`scoring.secured_scores`; this module adds what a computer player asks, and
depends on the game, never the other way round.
"""

from __future__ import annotations

from .game import Game
from .moves import Move
from .scoring import secured_scores

__all__ = ["declaring_wins", "secured_scores"]


def declaring_wins(game: Game, move: Move) -> bool:
    """Whether declaring fuori with `move` would win the match for the side to play: how a
    computer player decides. It looks at nothing hidden: what counts depends on the cards
    each side has taken and on which cards are still untaken, not on who holds them. The
    declaration is tried on the game and taken back, or on a copy of a game that keeps no
    undo records."""
    seat = game.to_play
    if not game.may_declare(seat):
        return False
    trial = game if game.undoable else game.copy()
    trial.declare_fuori(move, seat)
    wins = trial.winner == trial.side_of[seat]
    if trial is game:
        game.undo()
    return wins
