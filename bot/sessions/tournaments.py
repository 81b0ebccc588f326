"""Tournaments in a chat: the views front-ends and pictures read, and the seating of rounds.

A tournament is opened in a chat (and its forum topic or thread, kept as `place`), takes
sign-ups until its creator or a chat admin starts it, then seats rounds of ordinary matches of
the chat. Two formats:

- knockout: the field is filled with byes to the next power of two, the byes going to the
  highest seeds; seeds are ordered by rating, ties broken by a shuffle drawn from the
  tournament's own seed, so the same tournament always seats the same way;
- swiss: a set number of rounds; each round pairs players of equal points where it can,
  never twice the same pair where another pairing exists, and when the field is odd the
  lowest-ranked player without a bye yet gets one (a bye counts as a win).

Standings rank by points (a win is one point), then by the opponents' points (Buchholz),
then by seed.

With the `duplicate` option every table of a round is dealt the same cards (`duplicate`), and
the results add what each player made of their cards beyond the others who held them. A
duplicate *event* (`Format.DUPLICATE`, `/duplicate`) is seated as a Swiss and ranked by that
alone: the play's part, so the luck of the deal is out of its ranking.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .duplicate import DEALS, MAX_DEALS, DuplicateLine, Holding, compare

MIN_PLAYERS = 2
MAX_PLAYERS = 32
MAX_SWISS_ROUNDS = 9
ROUND_DEADLINE = 24 * 3600.0
"""Seconds a round's match may go on: past it, the match is decided (`decide_late`)."""


class Format(StrEnum):
    KNOCKOUT = "knockout"
    SWISS = "swiss"
    DUPLICATE = "duplicate"


class Status(StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A signed-up player: `user` is the platform's key, `seed` 1 the highest."""

    user: str
    name: str
    seed: int = 0
    rating: float = 0.0


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a round. `second` is None for a bye; `match` the game's id once started;
    `winner` the user key once decided; `forfeit` when decided by a player's absence. In a
    duplicate round, `hands` are the seats (the hands) the first and second held and `board`
    the points each made over the compared deals."""

    table: int
    first: str
    second: str | None
    match: str | None = None
    winner: str | None = None
    score: tuple[int, int] | None = None
    forfeit: bool = False
    hands: tuple[int, int] | None = None
    board: tuple[int, int] | None = None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def decided(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    pairings: tuple[Pairing, ...]
    started_at: float = 0.0

    @property
    def byes(self) -> tuple[str, ...]:
        return tuple(p.first for p in self.pairings if p.second is None)

    @property
    def complete(self) -> bool:
        return all(p.decided for p in self.pairings)


@dataclass(frozen=True, slots=True)
class StandingRow:
    place: int
    user: str
    name: str
    points: int
    wins: int
    losses: int
    byes: int
    tiebreak: int
    """Buchholz: the sum of the points of everyone this player met."""
    out: bool = False
    """Knockout: lost a match, no longer in."""


@dataclass(frozen=True, slots=True)
class TournamentView:
    """What a front-end or a picture needs of a tournament, names included."""

    id: str
    chat: str
    place: str
    variant: str
    format: Format
    rounds: int
    """Rounds planned: Swiss as chosen; knockout log2 of the filled field (0 in sign-up)."""
    status: Status
    creator: str
    target: int | None
    duplicate: bool
    players: tuple[Entrant, ...]
    played: tuple[Round, ...] = ()
    standings: tuple[StandingRow, ...] = ()
    champion: str | None = None
    deals: int = DEALS
    """Duplicate: the deals of each match, compared between the tables."""
    duplicate_lines: tuple[DuplicateLine, ...] = ()
    """Duplicate: each player's score, the cards' part and the play's part, best play first."""
    platform: str = ""
    """Whose chat it is: a front-end tells only its own platform's chats of their tournament."""

    def name_of(self, user: str) -> str:
        for entrant in self.players:
            if entrant.user == user:
                return entrant.name
        return user

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None


@dataclass(frozen=True, slots=True)
class Options:
    format: Format = Format.KNOCKOUT
    swiss_rounds: int = 0
    target: int | None = None
    duplicate: bool = False
    variant: str | None = None
    deals: int = DEALS


@dataclass(slots=True)
class _Tally:
    points: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    met: list[str] = field(default_factory=list)


def seeded(players: Sequence[Entrant], seed: int) -> tuple[Entrant, ...]:
    """The players in seed order: highest rating first, ties by a draw from `seed`."""
    rng = random.Random(seed)
    draws = {p.user: rng.random() for p in sorted(players, key=lambda p: p.user)}
    ordered = sorted(players, key=lambda p: (-p.rating, draws[p.user]))
    return tuple(Entrant(p.user, p.name, seed=i + 1, rating=p.rating) for i, p in enumerate(ordered))


def bracket_size(count: int) -> int:
    size = 1
    while size < count:
        size *= 2
    return size


def _bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order so that 1 and 2 meet only in the final."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_first_round(players: Sequence[Entrant]) -> tuple[Pairing, ...]:
    """The first round of a knockout of seeded `players`: the missing seeds are byes, which
    fall against the highest seeds."""
    by_seed = {p.seed: p.user for p in players}
    order = _bracket_order(bracket_size(len(players)))
    pairings = []
    for table, i in enumerate(range(0, len(order), 2)):
        first, second = by_seed.get(order[i]), by_seed.get(order[i + 1])
        if first is None:
            first, second = second, None
        assert first is not None
        winner = first if second is None else None
        pairings.append(Pairing(table + 1, first, second, winner=winner))
    return tuple(pairings)


def knockout_next_round(previous: Round) -> tuple[Pairing, ...]:
    """Winners of neighbouring tables meet, in bracket order."""
    winners = [p.winner for p in previous.pairings]
    pairings = []
    for table, i in enumerate(range(0, len(winners), 2)):
        first, second = winners[i], winners[i + 1]
        assert first is not None and second is not None
        pairings.append(Pairing(table + 1, first, second))
    return tuple(pairings)


def knockout_rounds(count: int) -> int:
    return max(1, bracket_size(count).bit_length() - 1)


def _tallies(players: Sequence[Entrant], played: Sequence[Round]) -> dict[str, _Tally]:
    tallies = {p.user: _Tally() for p in players}
    for round_ in played:
        for p in round_.pairings:
            if p.second is None:
                if p.winner is not None:
                    tallies[p.first].points += 1
                    tallies[p.first].byes += 1
                continue
            tallies[p.first].met.append(p.second)
            tallies[p.second].met.append(p.first)
            if p.winner is None:
                continue
            loser = p.second if p.winner == p.first else p.first
            tallies[p.winner].points += 1
            tallies[p.winner].wins += 1
            tallies[loser].losses += 1
    return tallies


def standings(
    players: Sequence[Entrant], played: Sequence[Round], knockout: bool = False
) -> tuple[StandingRow, ...]:
    tallies = _tallies(players, played)
    buchholz = {u: sum(tallies[o].points for o in t.met) for u, t in tallies.items()}
    ordered = sorted(players, key=lambda p: (-tallies[p.user].points, -buchholz[p.user], p.seed))
    return tuple(
        StandingRow(
            place=i + 1,
            user=p.user,
            name=p.name,
            points=tallies[p.user].points,
            wins=tallies[p.user].wins,
            losses=tallies[p.user].losses,
            byes=tallies[p.user].byes,
            tiebreak=buchholz[p.user],
            out=knockout and tallies[p.user].losses > 0,
        )
        for i, p in enumerate(ordered)
    )


def swiss_round(players: Sequence[Entrant], played: Sequence[Round]) -> tuple[Pairing, ...]:
    """The next Swiss round: a bye to the lowest-ranked player without one when the field is
    odd, then pairs top-down by standing, avoiding rematches (a search that backtracks; a
    rematch only when no pairing avoids them)."""
    rows = standings(players, played)
    order = [r.user for r in rows]
    tallies = _tallies(players, played)
    bye: str | None = None
    if len(order) % 2:
        without = [u for u in order if tallies[u].byes == 0] or order
        bye = without[-1]
        order.remove(bye)
    met = {u: set(t.met) for u, t in tallies.items()}
    pairs = _pair(order, met) or _pair(order, {u: set() for u in order})
    assert pairs is not None
    pairings = [Pairing(i + 1, a, b) for i, (a, b) in enumerate(pairs)]
    if bye is not None:
        pairings.append(Pairing(len(pairings) + 1, bye, None, winner=bye))
    return tuple(pairings)


def _pair(order: list[str], met: dict[str, set[str]]) -> list[tuple[str, str]] | None:
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if other in met[first]:
            continue
        tail = _pair(rest[:i] + rest[i + 1 :], met)
        if tail is not None:
            return [(first, other), *tail]
    return None


def holdings(played: Sequence[Round]) -> list[Holding]:
    """What each player made of each hand of each duplicate board played to its end."""
    held = []
    for round_ in played:
        for p in round_.pairings:
            if p.second is not None and p.hands is not None and p.board is not None:
                held.append(Holding(p.first, round_.number, p.hands[0], p.board[0]))
                held.append(Holding(p.second, round_.number, p.hands[1], p.board[1]))
    return held


def duplicate_lines(played: Sequence[Round]) -> tuple[DuplicateLine, ...]:
    return compare(holdings(played))


def by_play(rows: Sequence[StandingRow], lines: Sequence[DuplicateLine]) -> tuple[StandingRow, ...]:
    """A duplicate event's standings: by the play's part, players without a compared board last."""
    rank = {line.user: i for i, line in enumerate(lines)}
    ordered = sorted(rows, key=lambda r: (rank.get(r.user, len(rank)), r.place))
    return tuple(StandingRow(i + 1, r.user, r.name, r.points, r.wins, r.losses, r.byes, r.tiebreak)
                 for i, r in enumerate(ordered))


def champion_of(fmt: Format, rows: Sequence[StandingRow], played: Sequence[Round]) -> str:
    if fmt is Format.DUPLICATE:
        return by_play(rows, duplicate_lines(played))[0].user
    if fmt is Format.KNOCKOUT:
        final = played[-1].pairings[0]
        assert final.winner is not None
        return final.winner
    return rows[0].user


class OptionError(ValueError):
    """An option /tournament does not know; `word` is what was typed."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


MAX_TARGET = 101
CANCEL_WORDS = frozenset({"cancel", "annulla", "cancelar", "stop"})
"""A first word of /tournament or /duplicate that stops the chat's tournament, in any language."""


def asks_cancel(words: Sequence[str]) -> bool:
    return bool(words) and words[0].strip().lower() in CANCEL_WORDS


def parse_options(words: Sequence[str], variants: Sequence[str], event: bool = False) -> Options:
    """`/tournament [variant] [knockout|swiss=N] [target=N] [duplicate] [deals=N]`; a duplicate
    event (`event`, `/duplicate [variant] [rounds=N] [deals=N]`) is one round unless told."""
    fmt, rounds, target, duplicate, variant = Format.KNOCKOUT, 0, None, False, None
    deals = DEALS
    if event:
        fmt, rounds, duplicate = Format.DUPLICATE, 1, True
    for raw in words:
        word = raw.strip().lower()
        key, _, value = word.partition("=")
        if word in variants and variant is None:
            variant = word
        elif key == "deals" and value.isdigit() and 1 <= int(value) <= MAX_DEALS:
            deals = int(value)
        elif event and key == "rounds" and value.isdigit() and 1 <= int(value) <= MAX_SWISS_ROUNDS:
            rounds = int(value)
        elif event:
            raise OptionError(raw)
        elif word == "knockout":
            fmt = Format.KNOCKOUT
        elif key == "swiss" and value.isdigit() and 1 <= int(value) <= MAX_SWISS_ROUNDS:
            fmt, rounds = Format.SWISS, int(value)
        elif key == "target" and value.isdigit() and 1 <= int(value) <= MAX_TARGET:
            target = int(value)
        elif word == "duplicate":
            duplicate = True
        else:
            raise OptionError(raw)
    return Options(fmt, rounds, None if duplicate else target, duplicate, variant, deals)
