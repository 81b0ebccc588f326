"""Duplicate play: every table of a round is dealt the same cards, and each player's score is
compared with the others who held the same hand, as in duplicate bridge.

A round's tables all play the round's *board*: one game seed (`board_seed`), so the same
deals in the same order and the same first dealer (the engine draws every deal from the seed
and the round's number alone). At every other table the seats are turned (`turned`): the
first-listed player of those pairings sits where the second sits at the others, so each hand
of the board is held by first- and second-listed players alike. A match of a duplicate
tournament is a fixed number of deals (`DEALS`, or `deals=N`); only those deals are compared
(a tie plays on, and the deals past them are not the other tables').

For each player, over the boards they played: the *score* is the points they made on the
board's deals; the *cards* part is what the others who held the same hand made with it on
average; the *play* part is the difference, what the player made of the cards beyond the others.
A hand nobody else held (a round of one table) counts all its points as the cards'.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

DEALS = 2
MAX_DEALS = 6
TARGET = 101
"""The target of a duplicate match: out of reach in its deals, so that every table plays them all."""


def board_seed(tournament_seed: int | str, round_number: int) -> str:
    """The seed every table of round `round_number` is dealt from: derived from the
    tournament's own secret seed, so nobody knows the board before it is dealt."""
    digest = hashlib.sha256(f"{tournament_seed}/board/{round_number}".encode()).hexdigest()
    return digest[:16]


def turned(table: int) -> bool:
    """Whether the pairing at `table` (from 1) sits the other way round: its second-listed
    player takes the first seat."""
    return table % 2 == 0


@dataclass(frozen=True, slots=True)
class Holding:
    """What one player made with one hand of one board: `hand` is the seat the cards were
    dealt to, `points` the points made over the board's compared deals."""

    user: str
    board: int
    hand: int
    points: int


@dataclass(frozen=True, slots=True)
class DuplicateLine:
    """One player's duplicate result over the boards they played; `cards + play == score`."""

    user: str
    boards: int
    score: int
    cards: float
    play: float


def compare(holdings: Iterable[Holding]) -> tuple[DuplicateLine, ...]:
    """Each player's score split into the cards' part and the play's part, best play first
    (ties by score, then by user key, so the order is always the same)."""
    held = list(holdings)
    by_hand: dict[tuple[int, int], list[Holding]] = defaultdict(list)
    for h in held:
        by_hand[(h.board, h.hand)].append(h)
    score: dict[str, int] = defaultdict(int)
    cards: dict[str, float] = defaultdict(float)
    boards: dict[str, int] = defaultdict(int)
    for h in held:
        others = [o.points for o in by_hand[(h.board, h.hand)] if o is not h]
        score[h.user] += h.points
        cards[h.user] += sum(others) / len(others) if others else float(h.points)
        boards[h.user] += 1
    lines = [DuplicateLine(user, boards[user], score[user], round(cards[user], 2),
                           round(score[user] - cards[user], 2)) for user in score]
    return tuple(sorted(lines, key=lambda line: (-line.play, -line.score, line.user)))
