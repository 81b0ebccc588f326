"""The state of a match apart from the moves: its fields, dealing, and the records `undo` restores.

`Position` holds everything `Game` keeps up to date in place and deals the rounds (an
explicit step of the state, drawn from the seed alone); `Game` adds the moves on top.
"""

from __future__ import annotations

from typing import Any, Final

from .captures import ESCOBA_SUM, RANK_KEY, Effect, capture_mode, capture_table
from .cards import Card
from .deck import HAND_SIZE, START, fifteen, first_dealer, round_seed, shuffled_deck
from .errors import EngineError
from .log import Deal, RoundLog
from .moves import Move, Play
from .rules import FEDERAL_TARGET, Rules, Seating, Variant, WinKind
from .scoring import RoundResult, ScoringPlan, federal_win_kind

_DEAL: Final = Deal
"""`Deal` as a C static when compiled (a module global would be looked up in a dict each time)."""


class Snapshot:
    """The whole state as it was before a deal, the end of a round or a declared fuori, which
    `restore` puts back for `undo`: the lists that the step replaces are kept as they were,
    those it changes in place are copies."""

    def __init__(self, position: Position, moves: int = 0, then_move: bool = False) -> None:
        """For a snapshot of a deal or a declared fuori, which `undo` takes back on its own:
        `moves`, how many moves `undo` could take back when it was taken; `then_move`, whether
        the last of them goes with it (a declared fuori goes with the play that declared it)."""
        self.hands = position.hands
        self.table = position.table
        self.stock = list(position.stock)
        self.captured = [list(pile) for pile in position.captured]
        self.scope = list(position.scope)
        self.side_taken = list(position.side_taken)
        self.side_scope = list(position.side_scope)
        self.last_capturer = position.last_capturer
        self.plays = position.plays
        self.deals = position._deals
        self.deal_count = len(position._deals)
        self.to_play = position.to_play
        self.dealer = position.dealer
        self.round_number = position.round_number
        self.totals = list(position.totals)
        self.winner = position.winner
        self.result_count = len(position.results)
        self.round_count = len(position._rounds)
        self.table_key = position._table_key
        self.in_hands = position._in_hands
        self.awaiting_deal = position.awaiting_deal
        self.then_move = then_move
        self.moves = moves

    def restore(self, position: Position) -> None:
        position.hands = self.hands
        position.table = self.table
        position.stock = self.stock
        position.captured = self.captured
        position.scope = self.scope
        position.side_taken = self.side_taken
        position.side_scope = self.side_scope
        position.last_capturer = self.last_capturer
        position.plays = self.plays
        del self.deals[self.deal_count:]
        position._deals = self.deals
        position.to_play = self.to_play
        position.dealer = self.dealer
        position.round_number = self.round_number
        position.totals = self.totals
        position.winner = self.winner
        del position.results[self.result_count:]
        del position._rounds[self.round_count:]
        position._table_key = self.table_key
        position._in_hands = self.in_hands
        position.awaiting_deal = self.awaiting_deal


class UndoRecords:
    """What `undo` needs: of each move applied, a list per field, the last move last; and the
    snapshots of the deals and declared fuori.

    A list per field rather than a record per move: a record is one more object a move for the
    garbage collector to count and walk, which slowed random play with undo records by about
    15%. The lists only grow (`count` says how many moves they hold), so that a search going up
    and down the same depths writes over the same room instead of freeing and taking it again.
    """

    def __init__(self) -> None:
        self.snapshots: list[Snapshot] = []
        """The state before each deal and declared fuori, which `undo` takes back on their own."""
        self.count = 0
        """How many moves `undo` can take back: the first `count` items of each list below."""
        self.moves: list[Move] = []
        self.places: list[int] = []
        """Where each move's card was in its seat's hand."""
        self.seats: list[int] = []
        self.table_keys: list[int] = []
        """The table's key before each move."""
        self.last_capturers: list[int | None] = []
        """The last capturer before each move."""
        self.legal: list[list[Move]] = []
        """The legal moves before each move."""
        self.effects: list[list[Effect]] = []
        """What each capture among those legal moves does to the table."""
        self.wheres: list[int | tuple[int, ...]] = []
        """Where each card laid down went on the table, or the places of the cards a capture took."""
        self.bits: list[int] = []
        """The cards each move took, as `Card.bit`s (0 for a card laid down)."""
        self.scope: list[bool] = []
        """Whether each move was a scopa."""
        self.after: list[Snapshot | list[list[Card]] | tuple[Card, ...] | None] = []
        """What followed each move and goes back with it: the state before the end of the round
        the move finished, the hands it emptied when new ones were dealt from the stock, or (in a
        round left unscored) the cards the last capturer took from the table at the end."""

    def push(self, move: Move, place: int, seat: int, table_key: int, last_capturer: int | None,
             legal: list[Move], effects: list[Effect], where: int | tuple[int, ...], bits: int,
             scopa: bool) -> None:
        """Add a move's fields, with nothing after it yet (`followed_by`)."""
        count = self.count
        self.count = count + 1
        if count == len(self.moves):
            self.moves.append(move)
            self.places.append(place)
            self.seats.append(seat)
            self.table_keys.append(table_key)
            self.last_capturers.append(last_capturer)
            self.legal.append(legal)
            self.effects.append(effects)
            self.wheres.append(where)
            self.bits.append(bits)
            self.scope.append(scopa)
            self.after.append(None)
            return
        self.moves[count] = move
        self.places[count] = place
        self.seats[count] = seat
        self.table_keys[count] = table_key
        self.last_capturers[count] = last_capturer
        self.legal[count] = legal
        self.effects[count] = effects
        self.wheres[count] = where
        self.bits[count] = bits
        self.scope[count] = scopa
        self.after[count] = None

    def followed_by(self, after: Snapshot | list[list[Card]] | tuple[Card, ...]) -> None:
        """What followed the last move added (see `after`)."""
        self.after[self.count - 1] = after


_KEEPS_NONE: Final = UndoRecords()
"""The records of every game that keeps none (`undo=False`): nothing is ever added to them."""


def _order(card: Card) -> int:
    return card.order


class Position:
    """The state of one match and what is read off it (how a match was won, whether a seat
    may declare fuori, whether the seat to play threatens a scopa); `Game` adds the moves.

    `hands`, `table`, `stock`, `captured` and `scope` are lists the game keeps
    up to date in place; `table` is always in table order. `side_taken` and
    `side_scope` are each side's cards taken this round (as `Card.bit`s) and scope,
    for a search to score a position without counting piles.
    """

    def __init__(self, variant: Variant, rules: Rules, seating: Seating, seed: int | str,
                 undo: bool = True) -> None:
        """A game before its first deal; what follows from the variant, rules and seating
        alone is set here, once. `undo`: whether applied moves can be taken back."""
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
        self.winner: int | None = None
        self.hands: list[list[Card]] = []
        self.table: list[Card] = []
        self.stock: list[Card] = []
        self.captured: list[list[Card]] = []
        self.scope: list[int] = []
        self.side_taken = [0] * len(seating.sides)
        self.side_scope = [0] * len(seating.sides)
        self.last_capturer: int | None = None
        self.to_play = 0
        self.plays: list[Play] = []
        self.auto_deal = True
        """Whether the next round is dealt as soon as a round ends (how a match is played);
        when False, a finished round waits for `deal` (how a search stops at a round's end)."""
        self.scores_rounds = True
        """Whether a finished round is scored and counted in the match. A search that values a
        finished round itself (from `side_taken` and `side_scope`) sets it False with `auto_deal`:
        the round then ends with the last capturer taking the table, and no more."""
        self.awaiting_deal = False
        self._deals: list[Deal] = []
        self._rounds: list[RoundLog] = []
        self._undos = UndoRecords() if undo else _KEEPS_NONE
        self._undoable = undo
        self._seats = seating.seats
        self._legal: list[Move] | None = None
        self._effects: list[Effect] = []
        self._must_capture = rules.must_capture
        self._scoring = ScoringPlan(variant, rules)
        self._after = tuple((seat + 1) % seating.seats for seat in range(seating.seats))
        self._takes = capture_table(capture_mode(variant, rules))
        self._table_key = 0
        self._in_hands = 0

    @property
    def seats(self) -> int:
        return self.seating.seats

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def in_hands(self) -> int:
        """How many cards the players hold, all together."""
        return self._in_hands

    @property
    def round_over(self) -> bool:
        """Whether every card of this round has been played (the round is scored)."""
        return not self._in_hands and not self.stock

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

    @property
    def undoable(self) -> bool:
        """Whether applied moves can be taken back (`Game.new(..., undo=False)` says not)."""
        return self._undoable

    @property
    def table_ranks(self) -> tuple[int, ...]:
        return tuple([c.rank for c in self.table])

    @property
    def deals(self) -> list[dict[str, Any]]:
        """This round's deals, e.g. `{"hands": [["7D", ...], ...], "table": [...]}` first
        (a new list each time)."""
        dealer = self.dealer
        seats = self._seats
        return [deal.to_dict(dealer, seats) for deal in self._deals]

    @property
    def rounds(self) -> list[dict[str, Any]]:
        """The finished rounds as the record writes them, except that plays are `Play` values
        (a new list of new dicts each time)."""
        seats = self._seats
        return [log.to_dict(seats) for log in self._rounds]

    @property
    def round_logs(self) -> tuple[RoundLog, ...]:
        """The finished rounds as the game keeps them."""
        return tuple(self._rounds)

    @property
    def starting_table(self) -> tuple[Card, ...]:
        """The table as this round's first deal laid it."""
        if not self._deals:
            return ()
        return self._deals[0].table or ()

    def may_declare(self, seat: int) -> bool:
        """Whether `seat` may declare fuori with the play it is about to make (004 art. 16)."""
        return self._why_no_fuori(seat) is None

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

    def can_sweep(self) -> bool:
        """Whether the seat to play holds a card that would take the whole table as a scopa
        (the round's last play makes none): the threat a search weighs at its leaves."""
        table = self.table
        if not table or (self._in_hands <= 1 and not self.stock) or self.winner is not None:
            return False
        key = self._table_key
        effects_by_rank = self._takes.takes(key)[1]
        for card in self.hands[self.to_play]:
            for effect in effects_by_rank[card.rank]:
                if effect[1] == key and not effect[2]:
                    return True
        return False

    # ---- dealing --------------------------------------------------------

    def deal(self) -> tuple[Play, ...]:
        """Deal the next round after one has ended with `auto_deal` off (an explicit step,
        which `undo` takes back); gives the escoba dealer's takes of the starting table."""
        if not self.awaiting_deal:
            raise EngineError("no round is waiting to be dealt")
        if self._undoable:
            self._undos.snapshots.append(Snapshot(self, self._undos.count))
        return self._next_round()

    def _next_round(self) -> tuple[Play, ...]:
        self.dealer = (self.dealer + 1) % self._seats
        return self._deal_round()

    def _deal_round(self) -> tuple[Play, ...]:
        """The round's deal, drawn from the seed and the round's number alone: the hands, the
        starting table (dealt again while it is void), then the escoba dealer's takes."""
        self.round_number += 1
        seats = self._seats
        per_hand, on_table = START[self.variant]
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
        sides = len(self.seating.sides)
        self.side_taken = [0] * sides
        self.side_scope = [0] * sides
        self.last_capturer = None
        self.plays = []
        self._deals = [tuple.__new__(_DEAL, (tuple(hands), tuple(self.table)))]
        self.to_play = first
        self.awaiting_deal = False
        return self._escoba_starting_takes()

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
            first = fifteen(self.table)
            if not first:
                return ()
            groups = [first, tuple([c for c in self.table if c not in first])]
        dealer = self.dealer
        side = self.side_of[dealer]
        plays = tuple(Play(dealer, None, group, True) for group in groups)
        for play in plays:
            self.captured[dealer].extend(play.captured)
            for card in play.captured:
                self.side_taken[side] |= card.bit
            self.scope[dealer] += 1
            self.side_scope[side] += 1
            self.plays.append(play)
        self.last_capturer = dealer
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
        self._deals.append(tuple.__new__(_DEAL, (tuple(dealt), None)))

    def _set_table(self, cards: list[Card]) -> None:
        cards.sort(key=_order)
        self.table = cards
        self._table_key = sum([RANK_KEY[c.rank] for c in cards])
        self._legal = None

    @property
    def history(self) -> int:
        """How many steps `undo` can take back."""
        return self._undos.count + len(self._undos.snapshots)

    def _undeal(self, hands: list[list[Card]]) -> None:
        """Put the hands dealt from the stock back on it (as `_deal_hands` took them)."""
        deal = self._deals.pop()
        self.stock += deal.cards[::-1]
        self.hands = hands
        self._in_hands = 0

    def _next_with_cards(self, seat: int) -> int:
        seats = self._seats
        for step in range(1, seats + 1):
            candidate = (seat + step) % seats
            if self.hands[candidate]:
                return candidate
        return (seat + 1) % seats

