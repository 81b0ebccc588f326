"""A `scopa-record/1` match (shared/spec/scopa-record-1.md) replayed play by play, to give
each play with the view its player had when making it.

Each round is rebuilt from the record's own deals (the first with its table, later ones
from the stock in dealing order), so no seed is needed; every play is checked against the
engine's legal moves and its `scopa` flag against the engine's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any

from bot.engine import Card, EngineError, Game, Move, Play, Rules, SeatView
from bot.engine.record import RecordError, parse_records
from bot.engine.rules import Seating, Variant, parse_variant


@dataclass(frozen=True, slots=True)
class Turn:
    """One play of a seat, with what that seat saw before making it."""

    round: int
    """Index into the record's `rounds`, from 0."""
    play: int
    """Index into that round's `plays`, from 0."""
    view: SeatView
    played: Move

    @property
    def seat(self) -> int:
        return self.view.seat


def read_records(text: str, source: str = "the record") -> list[dict[str, Any]]:
    """The records of a text of `scopa-record/1` lines (blank lines skipped)."""
    return parse_records(text, source)


def match_key(record: dict[str, Any]) -> str:
    """What seeds a match's review: the record's seed when it has one, else a digest of its
    deals and plays, so that a review depends on the match alone."""
    seed = record.get("seed")
    if isinstance(seed, str | int) and not isinstance(seed, bool):
        return f"seed:{seed}"
    played = json.dumps(record.get("rounds"), sort_keys=True, separators=(",", ":"))
    return "rounds:" + blake2b(played.encode("utf-8"), digest_size=16).hexdigest()


def turns(record: dict[str, Any]) -> Iterator[Turn]:
    """Every play of a card in the match, in order (the escoba dealer's take of the starting
    table, which has no card, is no one's choice and is left out); raises RecordError."""
    try:
        yield from _turns(record)
    except RecordError:
        raise
    except (EngineError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise RecordError(f"the record cannot be replayed: {exc}") from None


def _turns(record: dict[str, Any]) -> Iterator[Turn]:
    variant = parse_variant(record["variant"])
    rules = Rules.from_options(variant, dict(record["rules"]))
    seats = int(record["seats"])
    teams = tuple(tuple(int(seat) for seat in side) for side in record["teams"])
    seating = Seating.make(variant, seats, len(teams) < seats, len(teams))
    if seating.sides != teams:
        raise RecordError("the record's teams are not a seating the rules know")
    rounds = record["rounds"]
    if not isinstance(rounds, list):
        raise RecordError("the record's rounds are not a list")
    totals = [0] * len(teams)
    for index, stored in enumerate(rounds):
        game = _round_start(variant, rules, seating, index, stored, totals)
        plays = stored["plays"]
        for number, play in enumerate(plays):
            if play["card"] is None:
                if game.plays[number:number + 1] != [_play(play)]:
                    raise RecordError(f"round {index}, play {number}: a take without a card that "
                                      "is not the dealer's take of the starting table")
                continue
            seat = int(play["seat"])
            move = _legal(game, seat, play, index, number)
            yield Turn(index, number, game.view(seat), move)
            last = number == len(plays) - 1
            if last and stored.get("fuori") is not None:
                break
            scopa = game.apply(move, seat).play.scopa
            if scopa != bool(play["scopa"]):
                raise RecordError(f"round {index}, play {number}: the record's scopa flag is not "
                                  "what the rules give")
            if game.round_number != index + 1 and not last:
                raise RecordError(f"round {index}: plays go on after the last card")
        for side, score in enumerate(stored["score"]):
            totals[side] += int(score["total"])


def _round_start(variant: Variant, rules: Rules, seating: Seating, index: int, stored: dict[str, Any],
                 totals: list[int]) -> Game:
    """The round as dealt: the first deal's hands and table, the later deals as the stock."""
    seats = seating.seats
    dealer = int(stored["dealer"])
    deals = stored["deals"]
    first = (dealer + 1) % seats
    table = [Card.parse(code) for code in deals[0]["table"]]
    hands = [[Card.parse(code) for code in hand] for hand in deals[0]["hands"]]
    stock: list[Card] = []
    for deal in reversed(deals[1:]):
        stock += reversed(_dealing_order([[Card.parse(c) for c in hand] for hand in deal["hands"]], first))
    if len(hands) != seats or any(len(deal["hands"]) != seats for deal in deals):
        raise RecordError(f"round {index}: a deal without one hand per seat")
    every = table + stock + [card for hand in hands for card in hand]
    if sorted(card.index for card in every) != list(range(40)):
        raise RecordError(f"round {index}: its deals are not the whole deck, each card once")
    captured: list[list[Card]] = [[] for _ in range(seats)]
    scope = [0] * seats
    plays: list[Play] = []
    left = list(table)
    last = None
    for play in stored["plays"]:
        if play["card"] is not None:
            break
        taken = [Card.parse(code) for code in play["captured"]]
        if int(play["seat"]) != dealer or not taken or any(card not in left for card in taken):
            raise RecordError(f"round {index}: a take without a card that is not the dealer's")
        left = [card for card in left if card not in taken]
        captured[dealer] += taken
        scope[dealer] += bool(play["scopa"])
        plays.append(Play(dealer, None, tuple(sorted(taken, key=lambda c: c.order)), bool(play["scopa"])))
        last = dealer
    return Game.restore(
        variant, rules, seating, 0, version=0, round_number=index + 1,
        first_dealer=dealer, dealer=dealer, totals=list(totals), results=[], rounds=[],
        winner=None, to_play=first, hands=hands, table=left, stock=stock, captured=captured,
        scope=scope, last_capturer=last, deals=[{"hands": deals[0]["hands"], "table": deals[0]["table"]}],
        plays=plays, undo=False)


def _dealing_order(hands: list[list[Card]], first: int) -> list[Card]:
    """A later deal's cards in the order dealt: one each from the seat after the dealer on."""
    seats = len(hands)
    count = sum(len(hand) for hand in hands)
    return [hands[(first + turn) % seats][turn // seats] for turn in range(count)]


def _play(play: dict[str, Any]) -> Play:
    return Play(int(play["seat"]), None, tuple(sorted((Card.parse(c) for c in play["captured"]),
                                                      key=lambda c: c.order)), bool(play["scopa"]))


def _legal(game: Game, seat: int, play: dict[str, Any], index: int, number: int) -> Move:
    card = Card.parse(play["card"])
    taken = {Card.parse(code) for code in play["captured"]}
    for move in game.legal_moves(seat):
        if move.card is card and set(move.captures) == taken:
            return move
    raise RecordError(f"round {index}, play {number}: {play['card']} by seat {seat} is not a legal play")
