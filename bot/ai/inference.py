"""What the other seats' plays of this deal say about the cards they still hold.

A player who plays reasonably does not pick a move at random: the card they
laid down was the one they least minded giving up, the capture they made the
best one they had. `PlayModel` replays the plays of the current deal on a
guess of the hidden hands (the cards each seat still holds, plus the ones it
has played since the deal) and asks how likely each other seat's play was if
they weighed their moves the way `medium` does: a softmax over medium's
score of each legal move, at a low temperature, mixed with a small floor so
that a guess is never ruled out altogether (a human may play anything).

The search draws several guesses and keeps one in proportion to this weight
(sampling-importance-resampling), so the guesses it searches lean towards the
hands the plays point to.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.engine import DECK, Card, Play, Primiera, SeatView
from bot.engine.captures import capture_options

from .medium import SCOPA, card_value, holds_any
from .sim import Position, SimMove, mask_of, sweep_ranks

TEMPERATURE = 0.05
FLOOR = 0.05


def deal_start_state(view: SeatView, start: int) -> tuple[list[Card], list[int], list[int], int | None]:
    """The table, captured piles (per side), scope (per side) and last capturer when this deal began."""
    table = list(view.starting_table)
    taken = [0] * len(view.sides)
    scope = [0] * len(view.sides)
    last = None
    for index, play in enumerate(view.plays):
        if play.card is not None and index >= start:
            continue
        if play.card is None or play.captured:
            gone = set(play.captured)
            table = [card for card in table if card not in gone]
            taken[view.side_of[play.seat]] |= mask_of(play.captured) | (play.card.bit if play.card else 0)
            scope[view.side_of[play.seat]] += play.scopa
            last = play.seat
        else:
            table.append(play.card)
    return sorted(table, key=_order), taken, scope, last


class PlayModel:
    """Likelihood of the other seats' plays of the current deal, for a guess of the hidden hands."""

    def __init__(self, view: SeatView, start: int | None, temperature: float = TEMPERATURE,
                 floor: float = FLOOR) -> None:
        self.view = view
        self.temperature = temperature
        self.floor = floor
        self.plays: list[Play] = []
        if start is not None:
            self.plays = [play for play in view.plays[start:] if play.card is not None]
        self.active = any(play.seat != view.seat for play in self.plays)
        if self.active and start is not None:
            self.table, self.taken, self.scope, self.last = deal_start_state(view, start)
        sevens_primiera = view.rules.primiera is Primiera.SEVENS
        self.worth = [0.0] * len(DECK)
        for card in DECK:
            self.worth[card.index] = card_value(card, sevens_primiera)
        self.must_capture = view.rules.must_capture

    def weight(self, position: Position) -> float:
        """How likely the other seats' plays were with the hands of `position` (1.0 if nothing to judge)."""
        if not self.active:
            return 1.0
        view = self.view
        replay = position.copy()
        for play in self.plays:
            replay.hands[play.seat].append(play.card)
        replay.table = list(self.table)
        replay.taken = list(self.taken)
        replay.scope = list(self.scope)
        replay.last_capturer = self.last
        replay.in_hands = sum(len(hand) for hand in replay.hands)
        replay.boundary = False
        banned: dict[int, set[int]] = {}
        weight = 1.0
        for play in self.plays:
            move = (play.card, play.captured)
            replay.to_play = play.seat
            table = replay.table
            if play.seat != view.seat:
                moves = replay.moves()
                if len(moves) > 1:
                    if move not in moves:
                        return self.floor ** 2
                    scores = self.scores(replay, moves, banned)
                    top = max(scores)
                    total = 0.0
                    for score in scores:
                        total += math.exp((score - top) / self.temperature)
                    chance = math.exp((scores[moves.index(move)] - top) / self.temperature) / total
                    weight *= self.floor / len(moves) + (1.0 - self.floor) * chance
            if self.must_capture and not play.captured and table:
                capturing = capture_options(tuple([c.rank for c in table]), replay.mode)
                if capturing:
                    banned.setdefault(play.seat, set()).update(capturing)
            replay.play(move)
        return weight

    def scores(self, position: Position, moves: list[SimMove], banned: dict[int, set[int]]) -> list[float]:
        """medium's score of each move, from the mover's own knowledge in `position`."""
        worth = self.worth
        seat = position.to_play
        seats = position.seats
        cards_left = position.in_hands - 1
        nxt = -1
        if cards_left > 0:
            for step in range(1, seats + 1):
                candidate = (seat + step) % seats
                if len(position.hands[candidate]) - (1 if candidate == seat else 0) > 0:
                    nxt = candidate
                    break
            if nxt == seat:
                nxt = -1
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
        hand_size = len(position.hands[nxt]) if nxt >= 0 else 0
        no = banned.get(nxt, set()) if nxt >= 0 else set()
        partner = nxt >= 0 and position.side_of[nxt] == position.side_of[seat]
        last_play = cards_left == 1 and not position.stock
        scopa_possible = not (not position.stock and position.in_hands == 1)
        mode = position.mode
        scores = []
        for card, captured in moves:
            if captured:
                score = worth[card.index]
                for taken in captured:
                    score += worth[taken.index]
                table = [c for c in position.table if c not in captured]
                if not table and scopa_possible and not (
                        card.rank == 1 and position.ace_takes_all and not any(c.rank == 1 for c in captured)):
                    score += SCOPA
            else:
                score = -0.6 * worth[card.index] - 0.02 * card.rank
                table = sorted([*position.table, card], key=_order)
            if table and hand_size:
                ranks = tuple([c.rank for c in table])
                sweeping = [r for r in sweep_ranks(ranks, mode) if r not in no]
                outcome = 0.0
                if sweeping and not last_play:
                    wanted = 0
                    for rank in sweeping:
                        wanted += unseen[rank]
                    chance = holds_any(pool, wanted, hand_size)
                    if chance:
                        loss = SCOPA + 0.1
                        for c in table:
                            loss += worth[c.index]
                        outcome += chance * loss
                exposed = 0.0
                for rank, sets in capture_options(ranks, mode).items():
                    if rank in no or rank in sweeping or not unseen[rank]:
                        continue
                    best = 0.0
                    for idx in sets:
                        value = 0.0
                        for i in idx:
                            value += worth[table[i].index]
                        if value > best:
                            best = value
                    exposed = max(exposed, holds_any(pool, unseen[rank], hand_size) * best)
                outcome += exposed
                score += 0.5 * outcome if partner else -outcome
            scores.append(score)
        return scores


def _order(card: Card) -> int:
    return card.order


def choose_weighted(weights: Sequence[float], draw: float) -> int:
    """The index picked by `draw` (uniform in [0, 1)) in proportion to `weights`."""
    total = sum(weights)
    if total <= 0:
        return 0
    point = draw * total
    for index, weight in enumerate(weights):
        point -= weight
        if point < 0:
            return index
    return len(weights) - 1
