"""A match of any Scopa-family variant: deal, turns, captures, rounds, the end.

`Game` is the whole state. It is mutated only by `apply`, which validates the
move against `legal_moves` before touching anything, so an illegal move
leaves the game exactly as it was. Randomness comes only from the game's
seed: the same seed and moves always give the same match.
"""

from __future__ import annotations

from hashlib import blake2b
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .captures import ESCOBA_SUM, RANK_KEY, Effect, capture_mode, capture_table, subsets_by_sum
from .cards import DECK, Card
from .errors import GameOverError, IllegalMoveError, InvalidInputError
from .moves import LAYDOWN_BY_INDEX, SINGLE_TAKES, Move
from .rules import Rules, Seating, Variant, parse_variant
from .scoring import RoundResult, ScoringPlan, match_winner, score_with

if TYPE_CHECKING:
    from .view import SeatView

HAND_SIZE = 3
_START = {Variant.SCOPA: (3, 4), Variant.ESCOBA: (3, 4),
          Variant.SCOPONE: (9, 4), Variant.SCOPONE_SCIENTIFICO: (10, 0)}


def round_seed(seed: int | str, round_number: int, attempt: int) -> str:
    return f"{seed}/round/{round_number}/deal/{attempt}"


def seed_number(text: str) -> int:
    """A 256-bit number drawn from `text` alone: the same on every machine and run."""
    digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=32).digest()
    return int.from_bytes(digest, "little")


def shuffled_deck(text: str) -> list[Card]:
    """The deck in the order drawn from `text` (Fisher-Yates on the digits of its number).

    A fresh Mersenne Twister per deal cost more than the rest of a random
    round; 256 bits leave a bias below 2**-96 over the 40! orders.
    """
    number = seed_number(text)
    deck = list(DECK)
    for product, lasts in _SWAP_GROUPS:
        number, chunk = divmod(number, product)
        for last in lasts:
            pick = chunk % (last + 1)
            chunk //= last + 1
            deck[last], deck[pick] = deck[pick], deck[last]
    return deck


def _swap_groups() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The Fisher-Yates positions (last card first) in runs whose radices multiply to less
    than 2**30: one division of the big number per run, the rest on small ints, same picks."""
    groups: list[tuple[int, tuple[int, ...]]] = []
    lasts: list[int] = []
    product = 1
    for last in range(len(DECK) - 1, 0, -1):
        if product * (last + 1) >= 1 << 30:
            groups.append((product, tuple(lasts)))
            lasts, product = [], 1
        lasts.append(last)
        product *= last + 1
    groups.append((product, tuple(lasts)))
    return tuple(groups)


_SWAP_GROUPS: Final = _swap_groups()


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


# Final names are static in compiled code (no module dictionary look-up).
_new: Final = tuple.__new__
_ORDER: Final = attrgetter("order")
_LAYDOWN_BY_INDEX: Final = LAYDOWN_BY_INDEX
_SINGLE_TAKES: Final = SINGLE_TAKES
_MOVE: Final = Move
_PLAY: Final = Play
_OUTCOME: Final = Outcome
_RANK_KEY: Final = RANK_KEY

Deal = tuple[list[Card], int, "tuple[Card, ...] | None"]
"""One deal as kept until someone reads `deals`: the cards in the order they were
dealt, the seat dealt to first, and the starting table (None after the first deal)."""

RoundLog = tuple[int, list[Any], list["Play"], "int | None", tuple[Any, ...]]
"""A finished round until someone reads `rounds`: dealer, deals, plays, last capturer, scores."""


def _deal_dict(deal: Deal | dict[str, Any], seats: int) -> dict[str, Any]:
    if isinstance(deal, dict):
        return deal
    cards, first, table = deal
    hands: list[list[str]] = [[] for _ in range(seats)]
    for turn, card in enumerate(cards):
        hands[(first + turn) % seats].append(card.code)
    if table is None:
        return {"hands": hands}
    return {"hands": hands, "table": [c.code for c in table]}


_laid_by_seat: list[dict[Card, Outcome]] = []


_took_by_seat: list[list[list[Outcome]]] = []


def took_outcomes(seats: int) -> list[list[list[Outcome]]]:
    """For each seat, `[card.index][taken.index]`: the outcome of `card` taking `taken` alone
    mid-hand without a scopa; immutable, so shared."""
    while len(_took_by_seat) < seats:
        seat = len(_took_by_seat)
        _took_by_seat.append([
            [Outcome(Play(seat, card, move[1], False)) for move in SINGLE_TAKES[card.index]]
            for card in DECK
        ])
    return _took_by_seat[:seats]


def laid_outcomes(seats: int) -> list[dict[Card, Outcome]]:
    """For each seat, the outcome of laying each card down mid-hand: immutable, so shared."""
    while len(_laid_by_seat) < seats:
        seat = len(_laid_by_seat)
        _laid_by_seat.append({card: Outcome(Play(seat, card, (), False)) for card in DECK})
    return _laid_by_seat[:seats]


class Game:
    """The state of one match.

    `hands`, `table`, `stock`, `captured` and `scope` are lists the game keeps
    up to date in place; `table` is always in table order. Records (`deals`,
    `rounds`) are kept as cards and turned into codes only when read.
    """

    def __init__(self, variant: Variant, rules: Rules, seating: Seating, seed: int | str,
                 copy_of: Game | None = None) -> None:
        if copy_of is not None:
            self._copy(copy_of)
            return
        self.variant = variant
        self.rules = rules
        self.seating = seating
        self.seed = seed
        self.side_of = seating.side_of
        self.version = 0
        self.round_number = 0
        self.first_dealer = seed_number(f"{seed}/dealer") % seating.seats
        self.dealer = self.first_dealer
        self.totals = [0] * len(seating.sides)
        self.results: list[RoundResult] = []
        self._rounds: list[dict[str, Any] | RoundLog] = []
        self.winner: int | None = None
        self.hands: list[list[Card]] = []
        self.table: list[Card] = []
        self.stock: list[Card] = []
        self.captured: list[list[Card]] = []
        self.scope: list[int] = []
        self.last_capturer: int | None = None
        self.to_play = 0
        self._deals: list[dict[str, Any] | Deal] = []
        self.plays: list[Play] = []
        self._seats = seating.seats
        self._legal: list[Move] | None = None
        self._must_capture = rules.must_capture
        self._scoring = ScoringPlan(variant, rules)
        self._effects: list[Effect] = []
        self._laid = laid_outcomes(seating.seats)
        self._took = took_outcomes(seating.seats)
        self._after = tuple((seat + 1) % seating.seats for seat in range(seating.seats))
        self._takes = capture_table(capture_mode(variant, rules))
        self._table_key = 0
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

    @property
    def table_ranks(self) -> tuple[int, ...]:
        return tuple([c.rank for c in self.table])

    @property
    def deals(self) -> list[dict[str, Any]]:
        """This round's deals, e.g. `{"hands": [["7D", ...], ...], "table": [...]}` first."""
        deals = self._deals
        for index, deal in enumerate(deals):
            if not isinstance(deal, dict):
                deals[index] = _deal_dict(deal, self._seats)
        return deals  # type: ignore[return-value]

    @deals.setter
    def deals(self, deals: list[dict[str, Any]]) -> None:
        self._deals = deals  # type: ignore[assignment]

    @property
    def rounds(self) -> list[dict[str, Any]]:
        """The finished rounds as the record writes them, except that plays are `Play` values."""
        rounds = self._rounds
        for index, stored in enumerate(rounds):
            if not isinstance(stored, dict):
                dealer, deals, plays, last, scores = stored
                rounds[index] = {
                    "dealer": dealer,
                    "deals": [_deal_dict(deal, self._seats) for deal in deals],
                    "plays": plays,
                    "last_capture_seat": last,
                    "score": [score.to_dict() for score in scores],
                }
        return rounds  # type: ignore[return-value]

    @rounds.setter
    def rounds(self, rounds: list[dict[str, Any]]) -> None:
        self._rounds = rounds  # type: ignore[assignment]

    def _starting_table(self) -> tuple[Card, ...]:
        if not self._deals:
            return ()
        first = self._deals[0]
        if isinstance(first, dict):
            return tuple(Card.parse(code) for code in first["table"])
        return first[2] or ()

    # ---- dealing --------------------------------------------------------

    def _start_round(self) -> None:
        self.round_number += 1
        seats = self._seats
        per_hand, on_table = _START[self.variant]
        in_hands = per_hand * seats
        attempt = 0
        while True:
            deck = shuffled_deck(round_seed(self.seed, self.round_number, attempt))
            dealt = deck[::-1]
            table = dealt[in_hands:in_hands + on_table]
            if not self._void_deal(table):
                break
            attempt += 1
        first = (self.dealer + 1) % seats
        hands = dealt[:in_hands]
        self.hands = [hands[(seat - first) % seats::seats] for seat in range(seats)]
        self._in_hands = in_hands
        self._set_table(table)
        self.stock = deck[:len(deck) - in_hands - on_table]
        self.captured = [[] for _ in range(seats)]
        self.scope = [0] * seats
        self.last_capturer = None
        self.plays = []
        self._deals = [(hands, first, tuple(self.table))]
        self.to_play = first

    def _void_deal(self, table: list[Card]) -> bool:
        if not table:
            return False
        if self.rules.three_kings_redeal and sum(c.rank == 10 for c in table) >= 3:
            return True
        return self.rules.low_table_redeal and sum(c.rank for c in table) <= 10

    def _escoba_starting_takes(self) -> tuple[Play, ...]:
        """In escoba the dealer takes a starting table that makes 15, or 30 as two escobas."""
        if self.variant is not Variant.ESCOBA:
            return ()
        ranks = self.table_ranks
        total = sum(ranks)
        if total not in (ESCOBA_SUM, 2 * ESCOBA_SUM):
            return ()
        if total == ESCOBA_SUM:
            groups = [tuple(self.table)]
        else:
            split = next((idx for idx in subsets_by_sum(ranks).get(ESCOBA_SUM, ())), None)
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
        seats = self._seats
        stock = self.stock
        count = min(HAND_SIZE * seats, len(stock))
        dealt = stock[-count:][::-1]
        del stock[-count:]
        first = (self.dealer + 1) % seats
        self.hands = [dealt[(seat - first) % seats::seats] for seat in range(seats)]
        self._in_hands = count
        self._deals.append((dealt, first, None))

    def _set_table(self, cards: list[Card]) -> None:
        cards.sort(key=_ORDER)
        self.table = cards
        self._table_key = sum([RANK_KEY[c.rank] for c in cards])
        self._legal = None

    # ---- moves ----------------------------------------------------------

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The moves `seat` (default: the seat to play) may make now; empty if none.

        Computed once per position (with what each capture does to the table,
        for `apply`) and cached until the next move.
        """
        if seat is not None and seat != self.to_play:
            return []
        moves = self._legal
        if moves is not None:
            return moves.copy()
        if self.winner is not None:
            return []
        hand = self.hands[self.to_play]
        table = self.table
        if not table:
            moves = self._legal = [_LAYDOWN_BY_INDEX[card.index] for card in hand]
            return moves.copy()
        picks_by_rank, effects_by_rank = self._takes[self._table_key]
        moves = []
        effects: list[Effect] = []
        for card in hand:
            picks = picks_by_rank[card.rank]
            if picks:
                singles = _SINGLE_TAKES[card.index]
                for pick in picks:
                    if isinstance(pick, int):
                        moves.append(singles[table[pick].index])
                    else:
                        moves.append(_new(_MOVE, (card, pick(table))))
                effects += effects_by_rank[card.rank]
        if not moves:
            moves = [_LAYDOWN_BY_INDEX[card.index] for card in hand]
        elif not self._must_capture:
            moves += [_LAYDOWN_BY_INDEX[card.index] for card in hand if not picks_by_rank[card.rank]]
        self._effects = effects
        self._legal = moves
        return moves.copy()

    def apply(self, move: Move | str, seat: int | None = None) -> Outcome:
        """Play `move` for the seat to play (or check that it is `seat`'s turn)."""
        legal = self._legal
        if legal is None or type(move) is not _MOVE or (seat is not None and seat != self.to_play):
            return self._apply_checked(move, seat)
        try:
            index = legal.index(move)  # type: ignore[arg-type]
        except ValueError:
            return self._apply_checked(move, seat)
        to_play = self.to_play
        card, taken = move
        self.hands[to_play].remove(card)
        self._legal = None
        self.version += 1
        in_hands = self._in_hands = self._in_hands - 1
        if taken:
            table = self.table
            drop, key_change, swept_by_ace = self._effects[index]
            for position in drop:
                del table[position]
            self._table_key -= key_change
            scopa = not table and not swept_by_ace and (in_hands > 0 or len(self.stock) > 0)
            pile = self.captured[to_play]
            pile.append(card)
            pile += taken
            if scopa:
                self.scope[to_play] += 1
            self.last_capturer = to_play
            if scopa or swept_by_ace or len(taken) != 1:
                play = _new(_PLAY, (to_play, card, taken, scopa))
                outcome = _new(_OUTCOME, (play, swept_by_ace, None, (), None, False, ()))
            else:
                outcome = self._took[to_play][card.index][taken[0].index]
                play = outcome[0]
        else:
            table = self.table
            order = card.order
            position = len(table)
            while position and table[position - 1].order > order:
                position -= 1
            table.insert(position, card)
            self._table_key += _RANK_KEY[card.rank]
            outcome = self._laid[to_play][card]
            play = outcome[0]
        self.plays.append(play)
        if in_hands:
            after = self._after[to_play]
            self.to_play = after if self.hands[after] else self._next_with_cards(to_play)
            return outcome
        return self._end_of_hands(play, outcome[1])

    def _apply_checked(self, move: Move | str, seat: int | None) -> Outcome:
        """`apply` for anything but a move just taken from `legal_moves`: says what is wrong."""
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
        legal = self.legal_moves()
        if move not in legal:
            raise IllegalMoveError(self._why_illegal(move, to_play, legal))  # type: ignore[arg-type]
        if move.__class__ is not Move:
            move = Move(*move)
        return self.apply(move)

    def may_declare(self, seat: int) -> bool:
        """Whether `seat` may declare fuori with the play it is about to make (004 art. 16)."""
        return self._why_no_fuori(seat) is None

    def declare_fuori(self, move: Move | str, seat: int | None = None) -> Outcome:
        """Play `move` and declare fuori with it: the match ends, won by the declaring
        side if what it has secured (`fuori.secured_scores`) reaches the target, else
        by the other side. Nothing changes when the move or the declaration is refused."""
        to_play = self.to_play
        refused = self._why_no_fuori(to_play if seat is None else seat)
        if refused is not None:
            raise IllegalMoveError(refused)
        outcome = self.apply(move, to_play)
        return outcome._replace(round_result=self._settle_fuori(to_play))

    def _why_no_fuori(self, seat: int) -> str | None:
        """Why `seat` may not declare now: the option is off, it is not its turn, there are
        not two sides, the round began tied at or above the target, or this is the last
        play of the round; None when it may."""
        rules = self.rules
        if not rules.fuori:
            return "fuori is not played in this match"
        if self.winner is not None:
            return "the match is over"
        if seat != self.to_play:
            return f"it is seat {self.to_play}'s turn, not seat {seat}'s"
        if len(self.seating.sides) != 2:
            return "fuori is declared between two sides only"
        if max(self.totals) >= rules.target:
            return "no fuori in a round begun with the sides tied at the target"
        if self._in_hands <= 1 and not self.stock:
            return "no fuori with the last play of the round"
        return None

    def _settle_fuori(self, seat: int) -> RoundResult:
        from .fuori import secured_scores

        sides = self.seating.sides
        taken = [[c for s in side for c in self.captured[s]] for side in sides]
        scope = [sum(self.scope[s] for s in side) for side in sides]
        untaken = [c for hand in self.hands for c in hand] + self.table + self.stock
        plan = self._scoring
        scores = secured_scores(plan, taken, scope, untaken)
        side = self.side_of[seat]
        reached = self.totals[side] + scores[side].total >= self.rules.target
        for index, score in enumerate(scores):
            self.totals[index] += score.total
        self.winner = side if reached else 1 - side
        result = RoundResult(self.round_number, self.dealer, scores, tuple(self.totals),
                             self.winner, plan.categories, seat)
        self.results.append(result)
        self._rounds.append({
            "dealer": self.dealer,
            "deals": [_deal_dict(deal, self._seats) for deal in self._deals],
            "plays": self.plays,
            "last_capture_seat": None,
            "score": [score.to_dict() for score in scores],
            "fuori": seat,
        })
        self._legal = None
        return result

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

    def _end_of_hands(self, play: Play, swept_by_ace: bool) -> Outcome:
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
            self.dealer = (self.dealer + 1) % self._seats
            self._start_round()
            takes = self._escoba_starting_takes()
        else:
            takes = ()
        return Outcome(play, swept_by_ace, result, leftover, leftover_seat, True, takes)

    def _next_with_cards(self, seat: int) -> int:
        seats = self._seats
        for step in range(1, seats + 1):
            candidate = (seat + step) % seats
            if self.hands[candidate]:
                return candidate
        return (seat + 1) % seats

    def _finish_round(self) -> RoundResult:
        sides = self.seating.sides
        captured = self.captured
        if len(sides) == self._seats:
            taken: list[list[Card]] = [captured[seat] for (seat,) in sides]
            scope = [self.scope[seat] for (seat,) in sides]
        else:
            taken = [[c for seat in side for c in captured[seat]] for side in sides]
            scope = [sum(self.scope[seat] for seat in side) for side in sides]
        plan = self._scoring
        scores = score_with(plan, taken, scope)
        totals = self.totals
        for index, score in enumerate(scores):
            totals[index] += score.total
        rules = self.rules
        self.winner = match_winner(totals, rules.target, self.round_number, rules.round_limit)
        result = RoundResult(self.round_number, self.dealer, scores, tuple(totals),
                             self.winner, plan.categories)
        self.results.append(result)
        self._rounds.append((self.dealer, self._deals, self.plays, self.last_capturer, scores))
        self._legal = None
        return result

    def copy(self) -> Game:
        """An independent copy, for search: later moves on one do not touch the other."""
        return Game(self.variant, self.rules, self.seating, self.seed, self)

    def _copy(self, other: Game) -> None:
        """Become a copy of `other`, sharing immutable values and lists the game replaces
        rather than changes."""
        self.variant = other.variant
        self.rules = other.rules
        self.seating = other.seating
        self.seed = other.seed
        self.side_of = other.side_of
        self.version = other.version
        self.round_number = other.round_number
        self.first_dealer = other.first_dealer
        self.dealer = other.dealer
        self.totals = list(other.totals)
        self.results = list(other.results)
        self._rounds = list(other._rounds)
        self.winner = other.winner
        self.hands = [list(hand) for hand in other.hands]
        self.table = list(other.table)
        self.stock = list(other.stock)
        self.captured = [list(pile) for pile in other.captured]
        self.scope = list(other.scope)
        self.last_capturer = other.last_capturer
        self.to_play = other.to_play
        self._deals = list(other._deals)
        self.plays = list(other.plays)
        self._seats = other._seats
        self._legal = other._legal
        self._must_capture = other._must_capture
        self._scoring = other._scoring
        self._effects = other._effects
        self._laid = other._laid
        self._took = other._took
        self._after = other._after
        self._takes = other._takes
        self._table_key = other._table_key
        self._in_hands = other._in_hands

    # ---- views and saving -----------------------------------------------

    def view(self, seat: int) -> SeatView:
        from .view import seat_view

        return seat_view(self, seat)

    def to_json(self, rounds: bool = True) -> dict[str, object]:
        """The game as a `scopa-state/1` object; with `rounds=False` its finished rounds
        are left out (an empty list), for a store that keeps each round once on its own."""
        from .state import dump_game

        return dump_game(self, rounds)

    @classmethod
    def from_json(cls, data: object) -> Game:
        from .state import load_game

        return load_game(data)

    def record(self) -> dict[str, object]:
        from .record import to_record

        return to_record(self)
