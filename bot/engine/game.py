"""A match of any Scopa-family variant as one state: legal moves, apply, undo.

`Game` is the state of a match. `apply` validates a move against `legal_moves`
before touching anything, so an illegal move leaves the game exactly as it was;
every applied move is pushed on a stack that `undo` pops, so a search walks the
state in place. Dealing is a step of the state (`position`), drawn from the game's
seed alone (`deck`): the same seed and moves always give the same match. What a seat
may see is for the observers of `observe`, the record's forms for `log` and `record`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .captures import RANK_KEY, Effect
from .cards import Card
from .deck import HAND_SIZE, MAX_SEATS, first_dealer, round_seed, seed_number, shuffled_deck
from .errors import EngineError, GameOverError, IllegalMoveError, InvalidInputError
from .log import Deal, RoundLog
from .moves import LAYDOWN_BY_INDEX, SINGLE_TAKES, Move, Play, why_illegal
from .observe import counts_shown, hand_visible, seat_view
from .outcome import LAID, TOOK, Outcome
from .position import Position, Snapshot
from .rules import Rules, Seating, Variant, parse_variant
from .scoring import RoundResult, match_winner, score_masks, secured_scores
from .shared import capture_move, outcome_of
from .view import SeatView

_LAYDOWNS: Final = LAYDOWN_BY_INDEX
_SINGLES: Final = SINGLE_TAKES
_LAID: Final = LAID
_TOOK: Final = TOOK
_MOVE: Final = Move
_OUTCOME: Final = Outcome
_RESULT: Final = RoundResult
_ROUND_LOG: Final = RoundLog
"""The shared tables and types of `legal_moves` and `apply` as this module's constants (C
statics when compiled, rather than a dict lookup on every move)."""

__all__ = ["HAND_SIZE", "MAX_SEATS", "Game", "Outcome", "Play", "first_dealer", "round_seed",
           "seed_number", "shuffled_deck"]


class Game(Position):
    """The state of one match, with its moves.

    A game starts with `Game.new`; a game in any other position (a saved one, a
    copy, a guess at the hidden cards) is made with `Game.restore`, the one place
    that derives the game's working state from its public fields. Each applied move
    (and each `deal`) can be taken back with `undo`, last first.
    """

    # ---- creation -------------------------------------------------------

    @classmethod
    def new(cls, variant: Variant | str = Variant.SCOPA, players: int = 2, *, teams: bool = False,
            sides: int | None = None, rules: Rules | dict[str, object] | None = None,
            seed: int | str = 0, undo: bool = True) -> Game:
        """A match dealt from `seed`. With `undo=False` it keeps no undo records (`undo` then
        refuses): for play that never takes a move back, such as `simulate`'s, which then
        allocates less per move and leaves less for the garbage collector to walk."""
        variant = parse_variant(variant)
        if not isinstance(rules, Rules):
            rules = Rules.from_options(variant, rules)
        else:
            rules.check(variant)
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise InvalidInputError("a game seed is a whole number or a text")
        seating = Seating.make(variant, players, teams, sides)
        game = cls(variant, rules, seating, seed, undo)
        game._deal_round()
        return game

    @classmethod
    def replay(cls, variant: Variant | str, players: int, moves: list[Move], *, teams: bool = False,
               sides: int | None = None, rules: Rules | dict[str, object] | None = None,
               seed: int | str = 0) -> Game:
        """The match with this seed after `moves`, each applied in turn (and checked)."""
        game = cls.new(variant, players, teams=teams, sides=sides, rules=rules, seed=seed)
        for move in moves:
            game.apply(move)
        return game

    @classmethod
    def restore(cls, variant: Variant, rules: Rules, seating: Seating, seed: int | str, *,
                version: int, round_number: int, first_dealer: int, dealer: int,
                totals: list[int], results: list[RoundResult],
                rounds: Sequence[dict[str, Any] | RoundLog], winner: int | None, to_play: int,
                hands: list[list[Card]], table: list[Card], stock: list[Card],
                captured: list[list[Card]], scope: list[int], last_capturer: int | None,
                deals: Sequence[dict[str, Any] | Deal], plays: list[Play], undo: bool = True) -> Game:
        """The game in the position given by its public fields (the lists are kept, not
        copied): how loading, copying and determinising make a game. `rounds` are the
        finished rounds and `deals` this round's, as `rounds` and `deals` read them or as
        the game keeps them. The fields are taken as they are; `bot.engine.state` checks
        a saved game's. `undo`: as for `new`."""
        game = cls(variant, rules, seating, seed, undo)
        seats = seating.seats
        game.version = version
        game.round_number = round_number
        game.first_dealer = first_dealer
        game.dealer = dealer
        game.totals = totals
        game.results = results
        game._rounds = [r if isinstance(r, RoundLog) else RoundLog.from_dict(r, seats) for r in rounds]
        game.winner = winner
        game.to_play = to_play
        game.hands = hands
        game.stock = stock
        game.captured = captured
        game.scope = scope
        game.last_capturer = last_capturer
        game._deals = [d if isinstance(d, Deal) else Deal.from_dict(d, dealer, seats) for d in deals]
        game.plays = plays
        game._in_hands = sum([len(hand) for hand in hands])
        side_of = game.side_of
        for seat in range(seats):
            side = side_of[seat]
            for card in captured[seat]:
                game.side_taken[side] |= card.bit
            game.side_scope[side] += scope[seat]
        game._set_table(table)
        return game

    def copy(self) -> Game:
        """An independent copy: later moves on one do not touch the other (nor can the
        copy undo what was played before it was made)."""
        game = Game.restore(
            self.variant, self.rules, self.seating, self.seed, version=self.version,
            round_number=self.round_number, first_dealer=self.first_dealer, dealer=self.dealer,
            totals=list(self.totals), results=list(self.results), rounds=self._rounds,
            winner=self.winner, to_play=self.to_play, hands=[list(hand) for hand in self.hands],
            table=list(self.table), stock=list(self.stock),
            captured=[list(pile) for pile in self.captured], scope=list(self.scope),
            last_capturer=self.last_capturer, deals=list(self._deals), plays=list(self.plays))
        game.auto_deal = self.auto_deal
        game._undoable = self._undoable
        game.awaiting_deal = self.awaiting_deal
        return game

    def hand_visible(self, seat: int) -> bool:
        """Whether `seat` may look at its hand now (`observe.hand_visible`)."""
        return hand_visible(self, seat)

    @property
    def counts_shown(self) -> bool:
        """Whether each side's taken cards may be counted now (`observe.counts_shown`)."""
        return counts_shown(self)

    # ---- moves ----------------------------------------------------------

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The moves `seat` (default: the seat to play) may make now; empty if none.

        Computed once per position (with what each capture does to the table,
        for `apply`) and kept until the next move.
        """
        if seat is not None and seat != self.to_play:
            return []
        return self._moves().copy()

    def _moves(self) -> list[Move]:
        """The legal moves of the seat to play, as the game keeps them until the next move
        (not to be changed: `legal_moves` hands out copies)."""
        moves = self._legal
        if moves is not None:
            return moves
        if self.winner is not None:
            return []
        hand = self.hands[self.to_play]
        table = self.table
        if not table:
            moves = self._legal = [_LAYDOWNS[card.index] for card in hand]
            return moves
        picks_by_rank, effects_by_rank = self._takes.takes(self._table_key)
        moves = []
        effects: list[Effect] = []
        for card in hand:
            picks = picks_by_rank[card.rank]
            if picks:
                singles = _SINGLES[card.index]
                for pick in picks:
                    if isinstance(pick, int):
                        moves.append(singles[table[pick].index])
                    else:
                        moves.append(capture_move(card, pick(table)))
                effects += effects_by_rank[card.rank]
        if not moves:
            moves = [_LAYDOWNS[card.index] for card in hand]
        elif not self._must_capture:
            moves += [_LAYDOWNS[card.index] for card in hand if not picks_by_rank[card.rank]]
        self._effects = effects
        self._legal = moves
        return moves

    def search_moves(self) -> list[Move]:
        """`legal_moves`, those taking the most cards first and otherwise in the same order:
        the order an alpha-beta search tries them in, to cut off sooner. Not to be changed:
        it may be the list the game keeps."""
        moves = self._moves()
        least = most = len(moves[0][1]) if moves else 0
        for move in moves:
            size = len(move[1])
            if size > most:
                most = size
            elif size < least:
                least = size
        if least == most:
            return moves
        ordered: list[Move] = []
        for size in range(most, least - 1, -1):
            ordered += [move for move in moves if len(move[1]) == size]
        return ordered

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
        hand = self.hands[to_play]
        at = hand.index(card)
        hand.pop(at)
        effects = self._effects
        key = self._table_key
        last = self.last_capturer
        self._legal = None
        self.version += 1
        in_hands = self._in_hands = self._in_hands - 1
        table = self.table
        bits = 0
        scopa = False
        swept_by_ace = False
        where: int | tuple[int, ...]
        if taken:
            drop, key_change, swept_by_ace = effects[index]
            for position in drop:
                table.pop(position)
            where = drop
            self._table_key = key - key_change
            scopa = not table and not swept_by_ace and (in_hands > 0 or len(self.stock) > 0)
            pile = self.captured[to_play]
            pile.append(card)
            pile += taken
            bits = card.bit
            for other in taken:
                bits |= other.bit
            side = self.side_of[to_play]
            self.side_taken[side] |= bits
            if scopa:
                self.scope[to_play] += 1
                self.side_scope[side] += 1
            self.last_capturer = to_play
            if scopa or swept_by_ace or len(taken) != 1:
                outcome = outcome_of(to_play, card, taken, bits, scopa, swept_by_ace, False)
                play = outcome[0]
            else:
                outcome = _TOOK[to_play][card.index][taken[0].index]
                play = outcome[0]
        else:
            order = card.order
            position = len(table)
            while position and table[position - 1].order > order:
                position -= 1
            table.insert(position, card)
            where = position
            self._table_key = key + RANK_KEY[card.rank]
            outcome = _LAID[to_play][card.index]
            play = outcome[0]
        self.plays.append(play)
        undoable = self._undoable
        if undoable:
            self._undos.push(move, place=at, seat=to_play, table_key=key, last_capturer=last, legal=legal,
                             effects=effects, where=where, bits=bits, scopa=scopa)
        if in_hands:
            after = self._after[to_play]
            self.to_play = after if self.hands[after] else self._next_with_cards(to_play)
            return outcome
        if self.stock:
            if undoable:
                self._undos.followed_by(self.hands)
            self._deal_hands()
            self.to_play = self._next_with_cards(to_play)
            return outcome_of(to_play, card, taken, bits, scopa, swept_by_ace, True)
        if not self.scores_rounds:
            leftover = tuple(table)
            leftover_seat = self.last_capturer
            taken_back = self._take_leftover()
            if undoable:
                self._undos.followed_by(taken_back)
            return Outcome(play, swept_by_ace, None, leftover, leftover_seat)
        if undoable:
            self._undos.followed_by(Snapshot(self))
        return self._end_of_round(play, swept_by_ace)

    def undo(self) -> Move | None:
        """Take back the last move applied (or the last `deal`), restoring the game exactly as
        it was before it; gives the move taken back (None for a deal). Raises EngineError when
        there is nothing to take back."""
        undos = self._undos
        snapshots = undos.snapshots
        count = undos.count
        if snapshots and snapshots[-1].moves == count:
            snapshot = snapshots.pop()
            snapshot.restore(self)
            self._legal = None
            if not snapshot.then_move:
                return None
        elif not count:
            if not self._undoable:
                raise EngineError("this game keeps no undo records (made with undo=False)")
            raise EngineError("there is no move to take back")
        last = undos.count = count - 1
        after = undos.after[last]
        if isinstance(after, Snapshot):
            after.restore(self)
        elif isinstance(after, tuple):
            if after:
                self._give_back_leftover(after)
        elif after is not None:
            self._undeal(after)
        play = self.plays.pop()
        seat = undos.seats[last]
        move = undos.moves[last]
        self.to_play = seat
        self.version -= 1
        self._in_hands += 1
        self.hands[seat].insert(undos.places[last], move[0])
        table = self.table
        bits = undos.bits[last]
        where = undos.wheres[last]
        if bits:
            taken = play[2]
            del self.captured[seat][-1 - len(taken):]
            side = self.side_of[seat]
            self.side_taken[side] ^= bits
            if undos.scope[last]:
                self.scope[seat] -= 1
                self.side_scope[side] -= 1
            if isinstance(where, tuple):
                last_at = len(where) - 1
                for index in range(last_at + 1):
                    table.insert(where[last_at - index], taken[index])
        elif isinstance(where, int):
            table.pop(where)
        self._table_key = undos.table_keys[last]
        self.last_capturer = undos.last_capturers[last]
        self._legal = undos.legal[last]
        self._effects = undos.effects[last]
        return move

    def _apply_checked(self, move: Move, seat: int | None) -> Outcome:
        """`apply` for anything but a move just taken from `legal_moves`: says what is wrong."""
        if not isinstance(move, Move):
            raise TypeError(f"apply takes a Move, not {move!r}: text is read with parse_move")
        if self.winner is not None:
            raise GameOverError("the match is over")
        if self.awaiting_deal:
            raise IllegalMoveError("the round is over: the next one is not dealt yet")
        to_play = self.to_play
        if seat is not None and seat != to_play:
            raise IllegalMoveError(f"it is seat {to_play}'s turn, not seat {seat}'s")
        legal = self._moves()
        if move not in legal:
            raise IllegalMoveError(why_illegal(move, seat=to_play, hand=self.hands[to_play],
                                              table=self.table, legal=legal))
        if move.__class__ is not Move:
            move = Move(*move)
        return self.apply(move)

    def declare_fuori(self, move: Move, seat: int | None = None) -> Outcome:
        """Play `move` and declare fuori with it: the match ends, won by the declaring
        side if what it has secured (`fuori.secured_scores`) reaches the target, else
        by the other side. Nothing changes when the move or the declaration is refused;
        `undo` takes back the move and the declaration together."""
        to_play = self.to_play
        refused = self._why_no_fuori(to_play if seat is None else seat)
        if refused is not None:
            raise IllegalMoveError(refused)
        outcome = self.apply(move, to_play)
        if self._undoable:
            self._undos.snapshots.append(Snapshot(self, self._undos.count, True))
        return outcome._replace(round_result=self._settle_fuori(to_play))

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
        self._rounds.append(RoundLog(self.dealer, self._deals, self.plays, None,
                                     tuple([score.to_dict() for score in scores]), seat))
        self._legal = None
        return result

    def _take_leftover(self) -> tuple[Card, ...]:
        """The last capturer takes what is left on the table at the round's end; gives those
        cards (none when nobody captured)."""
        seat = self.last_capturer
        leftover = tuple(self.table)
        if not leftover or seat is None:
            return ()
        self.captured[seat].extend(leftover)
        side = self.side_of[seat]
        for card in leftover:
            self.side_taken[side] |= card.bit
        self._set_table([])
        return leftover

    def _give_back_leftover(self, leftover: tuple[Card, ...]) -> None:
        seat = self.last_capturer
        assert seat is not None
        del self.captured[seat][-len(leftover):]
        side = self.side_of[seat]
        for card in leftover:
            self.side_taken[side] ^= card.bit
        self.table = list(leftover)

    def _end_of_round(self, play: Play, swept_by_ace: bool) -> Outcome:
        leftover = tuple(self.table)
        leftover_seat = self.last_capturer
        self._take_leftover()
        result = self._finish_round()
        takes: tuple[Play, ...] = ()
        if not self.auto_deal:
            self.awaiting_deal = self.winner is None
        elif self.winner is None:
            takes = self._next_round()
        return tuple.__new__(_OUTCOME, (play, swept_by_ace, result, leftover, leftover_seat,
                                         self.auto_deal, takes))

    def _finish_round(self) -> RoundResult:
        plan = self._scoring
        scores = score_masks(plan, self.side_taken, self.side_scope)
        totals = self.totals
        for index, score in enumerate(scores):
            totals[index] += score.total
        rules = self.rules
        self.winner = match_winner(totals, rules.target, self.round_number, rules.round_limit)
        result = tuple.__new__(_RESULT, (self.round_number, self.dealer, scores, tuple(totals),
                                         self.winner, plan.categories, None))
        self.results.append(result)
        self._rounds.append(tuple.__new__(_ROUND_LOG, (
            self.dealer, self._deals, self.plays, self.last_capturer,
            tuple([score.to_dict() for score in scores]), None)))
        self._legal = None
        return result

    # ---- what a seat sees ---------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What `seat` may see (`observe.seat_view`)."""
        return seat_view(self, seat)
