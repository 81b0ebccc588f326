"""A match of any Scopa-family variant: deal, turns, captures, rounds, the end.

`Game` is the whole state. It is mutated only by `apply`, which validates the
move against `legal_moves` before touching anything, so an illegal move
leaves the game exactly as it was. Randomness comes only from the game's
seed: the same seed and moves always give the same match.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, NamedTuple

from .captures import ESCOBA_SUM, capture_mode, capture_options, subsets_by_sum
from .cards import DECK, Card
from .errors import GameOverError, IllegalMoveError, InvalidInputError
from .moves import Move, make_move, table_order
from .rules import Rules, Seating, Variant, parse_variant
from .scoring import RoundResult, categories, match_winner, score_round

if TYPE_CHECKING:
    from .view import SeatView

HAND_SIZE = 3
_START = {Variant.SCOPA: (3, 4), Variant.ESCOBA: (3, 4),
          Variant.SCOPONE: (9, 4), Variant.SCOPONE_SCIENTIFICO: (10, 0)}


class Play(NamedTuple):
    """One card played (or, in escoba, the dealer's take of the starting table)."""

    seat: int
    card: Card | None
    captured: tuple[Card, ...]
    scopa: bool

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "card": self.card.code if self.card else None,
                "captured": [c.code for c in self.captured], "scopa": self.scopa}


class Outcome(NamedTuple):
    """What one applied move did, for front-ends to announce."""

    play: Play
    swept_by_ace: bool = False
    round_result: RoundResult | None = None
    leftover: tuple[Card, ...] = ()
    leftover_seat: int | None = None
    dealt: bool = False
    starting_takes: tuple[Play, ...] = ()

    @property
    def match_over(self) -> bool:
        return self.round_result is not None and self.round_result.winner is not None


def round_seed(seed: int | str, round_number: int, attempt: int) -> str:
    return f"{seed}/round/{round_number}/deal/{attempt}"


class Game:
    """The state of one match."""

    def __init__(self, variant: Variant, rules: Rules, seating: Seating, seed: int | str) -> None:
        self.variant = variant
        self.rules = rules
        self.seating = seating
        self.seed = seed
        self.side_of = seating.side_of
        self.version = 0
        self.round_number = 0
        self.first_dealer = random.Random(f"{seed}/dealer").randrange(seating.seats)
        self.dealer = self.first_dealer
        self.totals = [0] * len(seating.sides)
        self.results: list[RoundResult] = []
        self.rounds: list[dict[str, object]] = []
        self.winner: int | None = None
        self.hands: list[list[Card]] = []
        self.table: list[Card] = []
        self.table_ranks: tuple[int, ...] = ()
        self.stock: list[Card] = []
        self.captured: list[list[Card]] = []
        self.scope: list[int] = []
        self.last_capturer: int | None = None
        self.to_play = 0
        self.deals: list[dict[str, object]] = []
        self.plays: list[Play] = []
        self._legal: tuple[int, list[Move]] | None = None
        self._mode = capture_mode(variant, rules)
        self._in_hands = 0

    # ---- creation -------------------------------------------------------

    @classmethod
    def new(cls, variant: Variant | str = Variant.SCOPA, players: int = 2, *, teams: bool = False,
            sides: int | None = None, rules: Rules | dict[str, object] | None = None,
            seed: int | str = 0) -> Game:
        variant = parse_variant(variant)
        if not isinstance(rules, Rules):
            rules = Rules.from_options(variant, rules)
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise InvalidInputError("a game seed is a whole number or a text")
        game = cls(variant, rules, Seating.make(variant, players, teams, sides), seed)
        game._start_round()
        game._escoba_starting_takes()
        return game

    @property
    def seats(self) -> int:
        return self.seating.seats

    @property
    def finished(self) -> bool:
        return self.winner is not None

    # ---- dealing --------------------------------------------------------

    def _start_round(self) -> None:
        self.round_number += 1
        seats = self.seats
        per_hand, on_table = _START[self.variant]
        attempt = 0
        while True:
            deck = list(DECK)
            random.Random(round_seed(self.seed, self.round_number, attempt)).shuffle(deck)
            hands: list[list[Card]] = [[] for _ in range(seats)]
            for turn in range(per_hand * seats):
                hands[(self.dealer + 1 + turn) % seats].append(deck.pop())
            table = [deck.pop() for _ in range(on_table)]
            if not self._void_deal(table):
                break
            attempt += 1
        self.hands = hands
        self._in_hands = per_hand * seats
        self._set_table(table)
        self.stock = deck
        self.captured = [[] for _ in range(seats)]
        self.scope = [0] * seats
        self.last_capturer = None
        self.plays = []
        self.deals = [{"hands": [[c.code for c in hand] for hand in hands],
                       "table": [c.code for c in table]}]
        self.to_play = (self.dealer + 1) % seats

    def _void_deal(self, table: list[Card]) -> bool:
        if not table:
            return False
        if self.rules.three_kings_redeal and sum(c.rank == 10 for c in table) >= 3:
            return True
        return self.rules.low_table_redeal and sum(c.rank for c in table) <= 10

    def _escoba_starting_takes(self) -> tuple[Play, ...]:
        """In escoba the dealer takes a starting table that makes 15, or 30 as two escobas."""
        total = sum(self.table_ranks)
        if self.variant is not Variant.ESCOBA or total not in (ESCOBA_SUM, 2 * ESCOBA_SUM):
            return ()
        if total == ESCOBA_SUM:
            groups = [tuple(self.table)]
        else:
            split = next((idx for idx in subsets_by_sum(self.table_ranks).get(ESCOBA_SUM, ())), None)
            if split is None:
                return ()
            first = tuple(self.table[i] for i in split)
            groups = [first, tuple(c for c in self.table if c not in first)]
        plays = tuple(Play(self.dealer, None, group, True) for group in groups)
        for play in plays:
            self.captured[self.dealer].extend(play.captured)
            self.scope[self.dealer] += 1
            self.plays.append(play)
        self.last_capturer = self.dealer
        self._set_table([])
        return plays

    def _deal_hands(self) -> None:
        seats = self.seats
        hands: list[list[Card]] = [[] for _ in range(seats)]
        turn = 0
        while self.stock and turn < HAND_SIZE * seats:
            hands[(self.dealer + 1 + turn) % seats].append(self.stock.pop())
            turn += 1
        for seat in range(seats):
            self.hands[seat] = hands[seat]
        self._in_hands = turn
        self.deals.append({"hands": [[c.code for c in hand] for hand in hands]})

    def _set_table(self, cards: list[Card]) -> None:
        cards.sort(key=table_order)
        self.table = cards
        self.table_ranks = tuple([c.rank for c in cards])

    # ---- moves ----------------------------------------------------------

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The moves `seat` (default: the seat to play) may make now; empty if none."""
        if seat is None:
            seat = self.to_play
        if self.winner is not None or seat != self.to_play:
            return []
        cached = self._legal
        if cached is not None and cached[0] == self.version:
            return list(cached[1])
        table = self.table
        hand = self.hands[seat]
        if not table:
            moves = [make_move(card, ()) for card in hand]
        else:
            options = capture_options(self.table_ranks, self._mode)
            moves = []
            laydowns = []
            for card in hand:
                sets = options.get(card.rank)
                if sets is None:
                    laydowns.append(make_move(card, ()))
                    continue
                for idx in sets:
                    if len(idx) == 1:
                        moves.append(make_move(card, (table[idx[0]],)))
                    else:
                        moves.append(make_move(card, tuple([table[i] for i in idx])))
            if not moves or not self.rules.must_capture:
                moves.extend(laydowns)
        self._legal = (self.version, moves)
        return list(moves)

    def apply(self, move: Move | str, seat: int | None = None) -> Outcome:
        """Play `move` for the seat to play (or check that it is `seat`'s turn)."""
        if move.__class__ is not Move:
            if isinstance(move, str):
                move = Move.parse(move)
            elif not isinstance(move, Move):
                raise IllegalMoveError(f"not a move: {move!r}")
        if self.winner is not None:
            raise GameOverError("the match is over")
        to_play = self.to_play
        if seat is not None and seat != to_play:
            raise IllegalMoveError(f"it is seat {to_play}'s turn, not seat {seat}'s")
        cached = self._legal
        legal = cached[1] if cached is not None and cached[0] == self.version else self.legal_moves()
        if move not in legal:
            raise IllegalMoveError(self._why_illegal(move, to_play, legal))
        return self._play(to_play, move)  # type: ignore[arg-type]

    def _why_illegal(self, move: Move, seat: int, legal: list[Move]) -> str:
        if move.card not in self.hands[seat]:
            return f"{move.card.code} is not in the hand of seat {seat}"
        missing = [c.code for c in move.captures if c not in self.table]
        if missing:
            return f"{', '.join(missing)} not on the table"
        options = [m for m in legal if m.card is move.card]
        if not options:
            return f"{move.card.code} cannot be played now: a capture is compulsory"
        if not move.captures:
            return f"{move.card.code} must capture: " + " or ".join(m.code for m in options)
        return f"{move.code} is not a legal capture; legal: " + ", ".join(m.code for m in options)

    def _play(self, seat: int, move: Move) -> Outcome:
        card, taken = move
        self.hands[seat].remove(card)
        self.version += 1
        self._legal = None
        self._in_hands -= 1
        last_play = not self._in_hands and not self.stock
        swept_by_ace = False
        if taken:
            remaining = [c for c in self.table if c not in taken]
            swept_by_ace = (card.rank == 1 and self.rules.ace_takes_all
                            and not any(c.rank == 1 for c in taken))
            scopa = not remaining and not last_play and not swept_by_ace
            pile = self.captured[seat]
            pile.append(card)
            pile.extend(taken)
            if scopa:
                self.scope[seat] += 1
            self.last_capturer = seat
            self.table = remaining
            self.table_ranks = tuple([c.rank for c in remaining])
        else:
            scopa = False
            self._set_table([*self.table, card])
        play = Play(seat, card, taken, scopa)
        self.plays.append(play)
        if self._in_hands:
            nxt = seat + 1 if seat + 1 < self.seating.seats else 0
            self.to_play = nxt if self.hands[nxt] else self._next_with_cards(seat)
            return Outcome(play, swept_by_ace)
        return self._end_of_hands(play, swept_by_ace)

    def _end_of_hands(self, play: Play, swept_by_ace: bool) -> Outcome:
        seats = self.seats
        if self.stock:
            self._deal_hands()
            self.to_play = self._next_with_cards(play.seat)
            return Outcome(play, swept_by_ace, dealt=True)
        leftover = tuple(self.table)
        leftover_seat = self.last_capturer
        if leftover and leftover_seat is not None:
            self.captured[leftover_seat].extend(leftover)
            self._set_table([])
        result = self._finish_round()
        if self.winner is None:
            self.dealer = (self.dealer + 1) % seats
            self._start_round()
            takes = self._escoba_starting_takes()
        else:
            takes = ()
        return Outcome(play, swept_by_ace, result, leftover, leftover_seat, True, takes)

    def _next_with_cards(self, seat: int) -> int:
        for step in range(1, self.seats + 1):
            candidate = (seat + step) % self.seats
            if self.hands[candidate]:
                return candidate
        return (seat + 1) % self.seats

    def _finish_round(self) -> RoundResult:
        sides = self.seating.sides
        taken = [[c for seat in side for c in self.captured[seat]] for side in sides]
        scope = [sum(self.scope[seat] for seat in side) for side in sides]
        scores = score_round(self.variant, self.rules, taken, scope)
        for index, score in enumerate(scores):
            self.totals[index] += score.total
        self.winner = match_winner(self.totals, self.rules.target)
        result = RoundResult(self.round_number, self.dealer, scores, tuple(self.totals),
                             self.winner, categories(self.variant, self.rules))
        self.results.append(result)
        self.rounds.append({
            "dealer": self.dealer,
            "deals": self.deals,
            "plays": self.plays,
            "last_capture_seat": self.last_capturer,
            "score": [score.to_dict() for score in scores],
        })
        return result

    def copy(self) -> Game:
        """An independent copy, for search: later moves on one do not touch the other."""
        clone = Game.__new__(Game)
        clone.__dict__.update(self.__dict__)
        clone.totals = list(self.totals)
        clone.results = list(self.results)
        clone.rounds = list(self.rounds)
        clone.hands = [list(hand) for hand in self.hands]
        clone.table = list(self.table)
        clone.stock = list(self.stock)
        clone.captured = [list(pile) for pile in self.captured]
        clone.scope = list(self.scope)
        clone.deals = list(self.deals)
        clone.plays = list(self.plays)
        clone._legal = None
        return clone

    # ---- views and saving -----------------------------------------------

    def view(self, seat: int) -> SeatView:
        from .view import seat_view

        return seat_view(self, seat)

    def to_json(self) -> dict[str, object]:
        from .state import dump_game

        return dump_game(self)

    @classmethod
    def from_json(cls, data: object) -> Game:
        from .state import load_game

        return load_game(data)

    def record(self) -> dict[str, object]:
        from .record import to_record

        return to_record(self)

