"""Why a play cost points, from facts of the position alone (never the hidden hands).

A costly play gets one `Reason`, the first that holds of: a scopa the best move made and
the played one did not; a table the played move leaves that the next player, an opponent,
may sweep with a card the player has not seen (and the best move leaves no such table, or
a less likely one); the settebello given up (laid down, or not taken when the best move
takes it); fewer sevens, a lower best card of a suit for the primiera, fewer denari, or fewer
cards taken from the table than the best move takes; the played card laid where the next
player, an opponent, takes it with a card of the same rank; a card laid where no card of its
rank is left unseen (safe) against one that can still be taken. Where no card tells them apart,
the search's own lines after each move (`outlook`) give the reason: the partner's scopa or
settebello on their next play, the last capture when the stock is out, or the scoring part the
better move wins more often (or keeps from the other side), with both chances. Only where
even those favour nothing is the reason the better move alone (`BETTER`, rare). Each
fact holds of the played move against the best one and not the other way round, and names its
cards (`Reason.cards`, `Reason.data` for `scopa-bot review --json`). `EQUIVALENT` is not a fact
of the position: the valuation found the two moves worth the same (`grade.NOISE`). Front-ends
word a reason from the catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.engine import SETTEBELLO, Card, Move, Primiera, SeatView, Suit, Variant
from bot.engine.captures import capture_mode
from bot.engine.game import HAND_SIZE
from bot.engine.moves import table_order

from ..knowledge import Knowledge
from ..medium import holds_any
from ..reading import sweep_ranks
from .outlook import GUESSES, Outlook, outlooks

LIKELIER = 0.1
"""How much likelier a sweep after the played move must be than after the best one to be
the reason."""
MORE_GUESSES = 4 * GUESSES
"""Where the search's lines in `GUESSES` guesses favour nothing, they are followed again in this
many (rare: a few plays in a hundred costly ones)."""
PARTNER_GAP = 0.15
"""How much likelier, in the search's lines, the partner's scopa or settebello must be after the better
move to be the reason (about twice the standard error of the difference)."""
LAST_GAP = 0.25
"""How much likelier, in the search's lines, the last capture must be after the better move."""
PART_GAP = 0.02
"""The least gain, in points of a scoring part, that the search's lines name as the reason (and
the two values must differ as they are shown: in whole percents, or tenths of a scopa)."""


class Fault(Enum):
    MISSED_SCOPA = "missed_scopa"
    LEFT_SWEEP = "left_sweep"
    SETTEBELLO = "settebello"
    SEVENS = "sevens"
    PRIMIERA = "primiera"
    """The better move takes from the table a card that raises the player's side's best card of
    its suit for the primiera (say a six where it has taken no spade better than a five), more than
    the played move does."""
    DENARI = "denari"
    CARDS = "cards"
    LEFT_TAKE = "left_take"
    """The played move lays its card where the next player, an opponent, takes it with a card of
    the same rank the player has not seen, likelier than after the better move."""
    SAFE_LAY = "safe_lay"
    """Both moves lay a card down; every other card of the better move's rank is already seen
    (nobody can take it by its rank), while a card of the played one's rank is still unseen."""
    PARTNER_SWEEP = "partner_sweep"
    """A team game: the partner makes a scopa on their next play likelier after the better move
    (by the search's lines, `outlook`)."""
    PARTNER_SETTEBELLO = "partner_settebello"
    """A team game: the partner takes the settebello on their next play likelier after the better move."""
    LAST_CAPTURE = "last_capture"
    """The stock is out: the player's side is the last to take (and gets the table's leftovers)
    likelier after the better move."""
    OUTLOOK = "outlook"
    """No single card tells the moves apart: the scoring part (`Reason.part`) whose points the
    better move's lines win more often than the played one's, with both chances (`Reason.odds`)."""
    OUTLOOK_AGAINST = "outlook_against"
    """As `OUTLOOK`, where the better move gains by what it keeps from the other side: the chance
    that the other side wins the part, lower after the better move."""
    BETTER = "better"
    EQUIVALENT = "equivalent"
    """The two moves are worth the same within the search's noise (see `grade.NOISE`): neither is graded."""


@dataclass(frozen=True, slots=True)
class Reason:
    """A `fault`, and for a sweep left the cards a sentence about it names (the other
    faults name the best move, which the graded play holds)."""

    fault: Fault
    table: tuple[Card, ...] = ()
    """For `LEFT_SWEEP`: the table the played move leaves."""
    ranks: tuple[int, ...] = ()
    """For `LEFT_SWEEP`: the ranks that sweep that table, of which the player has not
    seen every card."""
    chance: float = 0.0
    """For `LEFT_SWEEP`: the chance that the next player holds one of them."""
    cards: tuple[Card, ...] = ()
    """The cards the fact is about: the table swept (`MISSED_SCOPA`) or left (`LEFT_SWEEP`), the
    settebello, the sevens, denari or cards from the table that the better move takes and the
    played one does not; for `EQUIVALENT`, the other move's card."""
    part: str = ""
    """For `OUTLOOK`: the scoring part (a category of `bot.engine.scoring`: cards, coins,
    primiera, settebello, scope…)."""
    odds: tuple[float, ...] = ()
    """For the faults read from the search's lines (`outlook`): the value after the better move,
    then after the played one: a chance (0–1) of the player's side (of the other side for
    `OUTLOOK_AGAINST`), or for `OUTLOOK` on scope the scope the player's side makes from now on
    less the other side's."""

    def data(self) -> dict[str, object]:
        """The reason as `scopa-bot review --json` prints it: its code and the cards it names."""
        out: dict[str, object] = {"code": self.fault.value, "cards": [c.code for c in self.cards]}
        if self.fault in (Fault.LEFT_SWEEP, Fault.LEFT_TAKE):
            out.update(ranks=list(self.ranks), chance=round(self.chance, 3))
        elif self.ranks:
            out["ranks"] = list(self.ranks)
        if self.part:
            out["part"] = self.part
        if self.odds:
            out["odds"] = [round(value, 3) for value in self.odds]
        return out


def reason(view: SeatView, played: Move, best: Move, seed: str = "reason") -> Reason:
    """Why `played` is worse than `best`, both legal moves of `view.seat` in `view`: the first
    fact, in the order of `Fault`, that holds of one move and not of the other.

    Cards are counted from the table alone: a card the player holds is theirs to take later
    whichever move they make now, so "more denari" never means the denaro played. A sweep left
    is a reason only where it is likelier (by `LIKELIER`) after `played` than after `best`.
    Where no card tells the moves apart, both are played out (`outlook`, seeded by `seed`) and
    the reason is what the better move's lines win more often. `BETTER` (no fact found, not
    even in the search's lines) names only the better move."""
    found = _card_fact(view, played, best)
    if found is not None:
        return found
    for guesses in (GUESSES, MORE_GUESSES):
        after_best, after_played = outlooks(view, [best, played], seed, guesses)
        read = _outlook_fact(view, after_best, after_played)
        if read.fault is not Fault.BETTER:
            break
    return read


def _card_fact(view: SeatView, played: Move, best: Move) -> Reason | None:
    if is_scopa(view, best) and not is_scopa(view, played):
        return Reason(Fault.MISSED_SCOPA, cards=best.captures)
    left = sweep_risk(view, played)
    if left is not None and left[2] > _chance(sweep_risk(view, best)) + LIKELIER:
        return Reason(Fault.LEFT_SWEEP, *left, cards=left[0])
    if _settebello(played) < _settebello(best):
        return Reason(Fault.SETTEBELLO, cards=(SETTEBELLO,))
    gained = tuple(c for c in _sevens(best) if c not in _sevens(played))
    if len(_sevens(best)) > len(_sevens(played)):
        return Reason(Fault.SEVENS, cards=gained)
    if view.rules.primiera is not Primiera.SEVENS:
        better, worse = _primiera_gain(view, best), _primiera_gain(view, played)
        if sum(better.values()) > sum(worse.values()):
            raised = tuple(card for card, gain in better.items()
                           if gain > sum(g for c, g in worse.items() if c.suit is card.suit))
            return Reason(Fault.PRIMIERA, cards=raised or tuple(better))
    for fault, counted in ((Fault.DENARI, _denari), (Fault.CARDS, _cards)):
        gained = tuple(c for c in counted(best) if c not in counted(played))
        if len(counted(best)) > len(counted(played)):
            return Reason(fault, cards=gained)
    laid = take_risk(view, played)
    if laid is not None and laid > _take_chance(view, best) + LIKELIER:
        return Reason(Fault.LEFT_TAKE, ranks=(played.card.rank,), chance=laid, cards=(played.card,))
    if not played.captures and not best.captures:
        unseen = Knowledge.of(view).unseen_by_rank()
        if not unseen[best.card.rank] and unseen[played.card.rank]:
            return Reason(Fault.SAFE_LAY, ranks=(best.card.rank,), cards=(best.card,))
    return None


def _outlook_fact(view: SeatView, best: Outlook, played: Outlook) -> Reason:
    """The first fact of the search's lines that favours the better move: the partner's scopa or
    settebello, the last capture, else the scoring part it gains the most on."""
    for fault, after_best, after_played in (
            (Fault.PARTNER_SWEEP, best.partner_sweep, played.partner_sweep),
            (Fault.PARTNER_SETTEBELLO, best.partner_settebello, played.partner_settebello)):
        if after_best >= after_played + PARTNER_GAP:
            return Reason(fault, odds=(after_best, after_played))
    if not view.stock_count and (best.leftover or played.leftover) \
            and best.last_take >= played.last_take + LAST_GAP:
        return Reason(Fault.LAST_CAPTURE, odds=(best.last_take, played.last_take))
    gains = []
    for part in best.own:
        gain = best.edge(part) - played.edge(part)
        if part == "scope":
            odds, fault = (best.edge(part), played.edge(part)), Fault.OUTLOOK
        elif best.own[part] > played.own[part]:
            odds, fault = (best.own[part], played.own[part]), Fault.OUTLOOK
        else:
            odds, fault = (best.others[part], played.others[part]), Fault.OUTLOOK_AGAINST
        shown = [round(value * (10 if part == "scope" else 100)) for value in odds]
        if gain >= PART_GAP and (shown[0] > shown[1] if fault is Fault.OUTLOOK else shown[0] < shown[1]):
            gains.append((gain, part, odds, fault))
    if gains:
        gain, part, odds, fault = max(gains)
        return Reason(fault, part=part, odds=odds)
    return Reason(Fault.BETTER)


def take_risk(view: SeatView, move: Move) -> float | None:
    """The chance that the next player, an opponent, holds a card of the rank of the card `move`
    lays down (one the player has not seen), which takes it; None when `move` captures, or no
    opponent plays next, or the player has seen every card of that rank."""
    if move.captures:
        return None
    follower = _next_player(view)
    if follower is None or view.side_of[follower[0]] == view.side:
        return None
    seat, hand = follower
    knowledge = Knowledge.of(view)
    rank = move.card.rank
    banned = knowledge.forbidden.get(seat, frozenset()) if hand == view.hand_counts[seat] else frozenset()
    unseen = knowledge.unseen_by_rank()[rank]
    if not unseen or rank in banned:
        return None
    return holds_any(len(knowledge.unseen), unseen, hand)


def _take_chance(view: SeatView, move: Move) -> float:
    found = take_risk(view, move)
    return 0.0 if found is None else found


def is_scopa(view: SeatView, move: Move) -> bool:
    """Whether `move` clears the table as a scopa that scores."""
    card, captured = move
    if not captured or len(captured) != len(view.table):
        return False
    last_play = view.stock_count == 0 and sum(view.hand_counts) == 1
    escoba = view.variant is Variant.ESCOBA
    swept_by_ace = (card.rank == 1 and view.rules.ace_takes_all and not escoba
                    and not any(c.rank == 1 for c in captured))
    return not last_play and not swept_by_ace


def table_after(view: SeatView, move: Move) -> tuple[Card, ...]:
    card, captured = move
    if captured:
        return tuple(c for c in view.table if c not in captured)
    return tuple(sorted((*view.table, card), key=table_order))


def sweep_risk(view: SeatView, move: Move) -> tuple[tuple[Card, ...], tuple[int, ...], float] | None:
    """The table `move` leaves, the ranks that sweep it, and the chance that the next
    player, an opponent, holds one of those cards; None when no opponent plays next or
    no card the player has not seen sweeps it."""
    table = table_after(view, move)
    follower = _next_player(view)
    if not table or follower is None or view.side_of[follower[0]] == view.side:
        return None
    seat, hand = follower
    knowledge = Knowledge.of(view)
    unseen = knowledge.unseen_by_rank()
    banned = knowledge.forbidden.get(seat, frozenset()) if hand == view.hand_counts[seat] else frozenset()
    mode = capture_mode(view.variant, view.rules)
    ranks = tuple(sorted(r for r in sweep_ranks(tuple(c.rank for c in table), mode)
                         if unseen[r] and r not in banned))
    if not ranks:
        return None
    chance = holds_any(len(knowledge.unseen), sum(unseen[r] for r in ranks), hand)
    return table, ranks, chance


def _next_player(view: SeatView) -> tuple[int, int] | None:
    """The seat that plays after `view.seat`'s move, and how many cards it will hold then;
    None after the last play of the round."""
    counts = list(view.hand_counts)
    counts[view.seat] -= 1
    seats = view.seats
    if not any(counts):
        if not view.stock_count:
            return None
        seat = (view.seat + 1) % seats
        return seat, min(HAND_SIZE, max(1, view.stock_count // seats))
    for step in range(1, seats + 1):
        seat = (view.seat + step) % seats
        if counts[seat]:
            return seat, counts[seat]
    return None


def _chance(risk: tuple[tuple[Card, ...], tuple[int, ...], float] | None) -> float:
    return 0.0 if risk is None else risk[2]


def _taken(move: Move) -> tuple[Card, ...]:
    card, captured = move
    return (card, *captured) if captured else ()


def _from_table(move: Move) -> tuple[Card, ...]:
    return tuple(move.captures)


def _settebello(move: Move) -> int:
    """1 when `move` takes the settebello, -1 when it lays it down, else 0."""
    if SETTEBELLO in _taken(move):
        return 1
    return -1 if move.card is SETTEBELLO else 0


def _sevens(move: Move) -> tuple[Card, ...]:
    return tuple(c for c in _from_table(move) if c.rank == 7)


def _denari(move: Move) -> tuple[Card, ...]:
    return tuple(c for c in _from_table(move) if c.suit is Suit.DENARI)


def _cards(move: Move) -> tuple[Card, ...]:
    return _from_table(move)


def _primiera_gain(view: SeatView, move: Move) -> dict[Card, int]:
    """The cards `move` takes from the table that raise the player's side's best primiera card of
    their suit this round, each with how much (of the suit's best value, 0 for no card yet)."""
    best: dict[Suit, int] = {}
    for play in view.plays:
        if view.side_of[play.seat] == view.side and play.captured:
            for card in (*play.captured, *(() if play.card is None else (play.card,))):
                best[card.suit] = max(best.get(card.suit, 0), card.primiera)
    gains: dict[Card, int] = {}
    for card in sorted(_from_table(move), key=lambda c: -c.primiera):
        held = best.get(card.suit, 0)
        if card.primiera > held:
            gains[card] = card.primiera - held
            best[card.suit] = card.primiera
    return gains
