"""A match of any Scopa-family variant: deal, turns, captures, rounds, the end.

`Game` is the whole state. It is mutated only by `apply`, which validates the
move against `legal_moves` before touching anything, so an illegal move
leaves the game exactly as it was. Randomness comes only from the game's
seed: the same seed and moves always give the same match.
"""

from __future__ import annotations

from hashlib import blake2b
from operator import attrgetter
from typing import Any, Final, NamedTuple

from .captures import ESCOBA_SUM, RANK_KEY, Effect, capture_mode, capture_table
from .cards import DECK, Card
from .errors import GameOverError, IllegalMoveError, InvalidInputError
from .moves import LAYDOWN_BY_INDEX, SINGLE_TAKES, Move, Play, table_order
from .rules import FEDERAL_TARGET, Rules, Seating, Variant, WinKind, parse_variant
from .scoring import (
    RoundResult,
    ScoringPlan,
    federal_win_kind,
    match_winner,
    score_with,
    secured_scores,
)
from .view import SeatView

__all__ = ["Game", "Outcome", "Play", "first_dealer", "round_seed", "seed_number", "shuffled_deck"]

HAND_SIZE = 3
_START = {Variant.SCOPA: (3, 4), Variant.ESCOBA: (3, 4),
          Variant.SCOPONE: (9, 4), Variant.SCOPONE_SCIENTIFICO: (10, 0)}


def round_seed(seed: int | str, round_number: int, attempt: int) -> str:
    return f"{seed}/round/{round_number}/deal/{attempt}"


def seed_number(text: str) -> int:
    """A 256-bit number drawn from `text` alone: the same on every machine and run."""
    digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=32).digest()
    return int.from_bytes(digest, "little")


def first_dealer(seed: int | str, seats: int) -> int:
    """The seat that deals the first round of the match with this seed."""
    return seed_number(f"{seed}/dealer") % seats


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


def _fifteen(table: list[Card]) -> tuple[Card, ...]:
    """The first cards of `table` (in table order) that make 15 together, or () if none do."""
    for mask in range(1, 1 << len(table)):
        cards = tuple([card for index, card in enumerate(table) if mask >> index & 1])
        if sum([card.rank for card in cards]) == ESCOBA_SUM:
            return cards
    return ()


class Game:
    """The state of one match.

    `hands`, `table`, `stock`, `captured` and `scope` are lists the game keeps
    up to date in place; `table` is always in table order. Records (`deals`,
    `rounds`) are kept as cards and turned into codes only when read.

    A game starts with `Game.new`; a game in any other position (a saved one, a
    copy, a guess at the hidden cards) is made with `Game.restore`, the one place
    that derives the game's working state from its public fields.
    """

    def __init__(self, variant: Variant, rules: Rules, seating: Seating, seed: int | str) -> None:
        """A game before its first deal; what follows from the variant, rules and seating
        alone is set here, once."""
        self.variant = variant
        self.rules = rules
        self.seating = seating
        self.seed = seed
        self.side_of = seating.side_of
        self.version = 0
        self.round_number = 0
        self.first_dealer = first_dealer(seed, seating.seats)
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
        else:
            rules.check(variant)
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise InvalidInputError("a game seed is a whole number or a text")
        seating = Seating.make(variant, players, teams, sides)
        game = cls(variant, rules, seating, seed)
        game._start_round()
        game._escoba_starting_takes()
        return game

    @classmethod
    def restore(cls, variant: Variant, rules: Rules, seating: Seating, seed: int | str, *,
                version: int, round_number: int, first_dealer: int, dealer: int,
                totals: list[int], results: list[RoundResult], rounds: list[dict[str, Any]],
                winner: int | None, to_play: int, hands: list[list[Card]], table: list[Card],
                stock: list[Card], captured: list[list[Card]], scope: list[int],
                last_capturer: int | None, deals: list[dict[str, Any]], plays: list[Play]) -> Game:
        """The game in the position given by its public fields (the lists are kept, not
        copied): how loading, copying and determinising make a game. `rounds` are the
        finished rounds as `rounds` reads them, `deals` this round's as `deals` reads them.
        The fields are taken as they are; `bot.engine.state` checks a saved game's."""
        game = cls(variant, rules, seating, seed)
        game.version = version
        game.round_number = round_number
        game.first_dealer = first_dealer
        game.dealer = dealer
        game.totals = totals
        game.results = results
        game._rounds = list(rounds)
        game.winner = winner
        game.to_play = to_play
        game.hands = hands
        game.stock = stock
        game.captured = captured
        game.scope = scope
        game.last_capturer = last_capturer
        game._deals = list(deals)
        game.plays = plays
        game._in_hands = sum([len(hand) for hand in hands])
        game._set_table(table)
        return game

    def copy(self) -> Game:
        """An independent copy, for search: later moves on one do not touch the other."""
        return Game.restore(
            self.variant, self.rules, self.seating, self.seed, version=self.version,
            round_number=self.round_number, first_dealer=self.first_dealer, dealer=self.dealer,
            totals=list(self.totals), results=list(self.results),
            rounds=self._rounds,  # type: ignore[arg-type]
            winner=self.winner, to_play=self.to_play, hands=[list(hand) for hand in self.hands],
            table=list(self.table), stock=list(self.stock),
            captured=[list(pile) for pile in self.captured], scope=list(self.scope),
            last_capturer=self.last_capturer,
            deals=self._deals,  # type: ignore[arg-type]
            plays=list(self.plays))

    @property
    def seats(self) -> int:
        return self.seating.seats

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def win_kind(self) -> WinKind | None:
        """How the match was won under `federal` rules to 8 (004 art. 16): by the losers'
        points; a side whose fuori failed loses "come l'avrebbe vinta, cioè col punteggio
        ottenuto dagli avversari, o col proprio se inferiore". None otherwise."""
        winner = self.winner
        rules = self.rules
        if winner is None or not rules.federal or rules.target != FEDERAL_TARGET:
            return None
        totals = self.totals
        points = min([total for side, total in enumerate(totals) if side != winner])
        declared = self.results[-1].fuori if self.results else None
        if declared is not None and self.side_of[declared] != winner:
            points = min(totals[winner], totals[self.side_of[declared]])
        return federal_win_kind(points)

    def hand_visible(self, seat: int) -> bool:
        """Whether `seat` may look at its hand: always, except that under `federal` rules a
        player sees their cards "solo quando giunge il suo primo turno di gioco" (004 art. 5)
        of each round."""
        if not self.rules.federal or self.winner is not None or self.to_play == seat:
            return True
        return any(play.seat == seat and play.card is not None for play in self.plays)

    @property
    def counts_shown(self) -> bool:
        """Whether the number of cards and denari each side has taken may be shown: not while
        a round is played under `federal` rules ("non è consentito rivedere le prese", 004
        art. 18); scope are shown all the same."""
        return not self.rules.federal or self.winner is not None

    @property
    def table_ranks(self) -> tuple[int, ...]:
        return tuple([c.rank for c in self.table])

    @property
    def deals(self) -> list[dict[str, Any]]:
        """This round's deals, e.g. `{"hands": [["7D", ...], ...], "table": [...]}` first
        (a new list each time)."""
        seats = self._seats
        return [_deal_dict(deal, seats) for deal in self._deals]

    @property
    def rounds(self) -> list[dict[str, Any]]:
        """The finished rounds as the record writes them, except that plays are `Play` values
        (a new list of new dicts each time)."""
        seats = self._seats
        rounds: list[dict[str, Any]] = []
        for stored in self._rounds:
            if isinstance(stored, dict):
                rounds.append(dict(stored))
            else:
                dealer, deals, plays, last, scores = stored
                rounds.append({
                    "dealer": dealer,
                    "deals": [_deal_dict(deal, seats) for deal in deals],
                    "plays": plays,
                    "last_capture_seat": last,
                    "score": [score.to_dict() for score in scores],
                })
        return rounds

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
            first = _fifteen(self.table)
            if not first:
                return ()
            groups = [first, tuple([c for c in self.table if c not in first])]
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

    def parse_move(self, text: object) -> Move:
        """The move written as `text` (`7D`, `7D:3C+4S`); raises InvalidMoveError (an
        InvalidInputError) when it is not a move at all. Whether the rules allow it
        now is for `apply` to say."""
        return Move.parse(text)

    def apply(self, move: Move, seat: int | None = None) -> Outcome:
        """Play `move` for the seat to play (or check that it is `seat`'s turn); raises
        IllegalMoveError, changing nothing, when the rules do not allow it now."""
        legal = self._legal
        if legal is None or type(move) is not _MOVE or (seat is not None and seat != self.to_play):
            return self._apply_checked(move, seat)
        try:
            index = legal.index(move)
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

    def _apply_checked(self, move: Move, seat: int | None) -> Outcome:
        """`apply` for anything but a move just taken from `legal_moves`: says what is wrong."""
        if not isinstance(move, Move):
            raise TypeError(f"apply takes a Move, not {move!r}: text is read with parse_move")
        if self.winner is not None:
            raise GameOverError("the match is over")
        to_play = self.to_play
        if seat is not None and seat != to_play:
            raise IllegalMoveError(f"it is seat {to_play}'s turn, not seat {seat}'s")
        legal = self.legal_moves()
        if move not in legal:
            raise IllegalMoveError(self._why_illegal(move, to_play, legal))
        if move.__class__ is not Move:
            move = Move(*move)
        return self.apply(move)

    def may_declare(self, seat: int) -> bool:
        """Whether `seat` may declare fuori with the play it is about to make (004 art. 16)."""
        return self._why_no_fuori(seat) is None

    def declare_fuori(self, move: Move, seat: int | None = None) -> Outcome:
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

    # ---- what a seat sees ---------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What `seat` may see: its own hand (empty until `hand_visible`), the table,
        everything played and taken."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._seats:
            raise ValueError(f"no seat {seat!r} in a game of {self._seats}")
        visible = self.hand_visible(seat)
        return SeatView(
            variant=self.variant,
            rules=self.rules,
            seat=seat,
            sides=self.seating.sides,
            side_of=self.side_of,
            version=self.version,
            round_number=self.round_number,
            dealer=self.dealer,
            to_play=self.to_play,
            hand=tuple(sorted(self.hands[seat], key=table_order)) if visible else (),
            table=tuple(self.table),
            stock_count=len(self.stock),
            hand_counts=tuple([len(h) for h in self.hands]),
            captured_counts=tuple([len(c) for c in self.captured]),
            scope=tuple(self.scope),
            starting_table=self._starting_table(),
            plays=tuple(self.plays),
            totals=tuple(self.totals),
            results=tuple(self.results),
            legal_moves=tuple(self.legal_moves(seat)),
            winner=self.winner,
            hand_visible=visible,
            counts_shown=self.counts_shown,
        )
