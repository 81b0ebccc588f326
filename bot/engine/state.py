"""Save and resume a game in progress as JSON, exactly.

The saved form names its format; anything else, or a corrupt file, raises
StateFormatError and builds nothing.
"""

from __future__ import annotations

from typing import Any

from .cards import DECK, Card, parse_cards
from .errors import InvalidInputError, StateFormatError
from .game import Game
from .moves import Play
from .record import round_dict
from .rules import Rules, Seating, parse_variant
from .scoring import RoundResult

STATE_FORMAT = "scopa-state/1"


def dump_game(game: Game, rounds: bool = True) -> dict[str, Any]:
    """The game as a `scopa-state/1` object; with `rounds=False` its finished rounds are
    left out (an empty list), for a store that keeps each round once on its own."""
    return {
        "format": STATE_FORMAT,
        "variant": game.variant.value,
        "rules": game.rules.to_dict(),
        "seats": game.seats,
        "sides": [list(side) for side in game.seating.sides],
        "seed": game.seed,
        "version": game.version,
        "round_number": game.round_number,
        "first_dealer": game.first_dealer,
        "dealer": game.dealer,
        "totals": list(game.totals),
        "winner": game.winner,
        "to_play": game.to_play,
        "hands": [[c.code for c in hand] for hand in game.hands],
        "table": [c.code for c in game.table],
        "stock": [c.code for c in game.stock],
        "captured": [[c.code for c in pile] for pile in game.captured],
        "scope": list(game.scope),
        "last_capturer": game.last_capturer,
        "deals": game.deals,
        "plays": [p.to_dict() for p in game.plays],
        "rounds": [round_dict(r) for r in game.rounds] if rounds else [],
        "results": [r.to_dict() for r in game.results],
    }


def load_game(data: Any, *, undo: bool = True) -> Game:
    """The game saved as `data` by `dump_game`; raises StateFormatError for anything else.
    With `undo=False` the moves applied to it cannot be taken back (`Game.new`)."""
    if not isinstance(data, dict):
        raise StateFormatError("a saved game is a JSON object")
    if data.get("format") != STATE_FORMAT:
        raise StateFormatError(
            f"saved game format {data.get('format')!r} is not {STATE_FORMAT!r}; it cannot be resumed"
        )
    try:
        game = _build(data, undo)
    except StateFormatError:
        raise
    except (InvalidInputError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise StateFormatError(f"saved game is corrupt: {exc}") from None
    _check(game)
    return game


def _build(data: dict[str, Any], undo: bool) -> Game:
    variant = parse_variant(data["variant"])
    rules = Rules.from_options(variant, data["rules"])
    sides = tuple(tuple(int(s) for s in side) for side in data["sides"])
    seating = Seating(int(data["seats"]), sides)
    seed = data["seed"]
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise StateFormatError("the seed must be a number or a text")
    return Game.restore(
        variant, rules, seating, seed,
        version=int(data["version"]),
        round_number=int(data["round_number"]),
        first_dealer=int(data["first_dealer"]),
        dealer=int(data["dealer"]),
        totals=[int(t) for t in data["totals"]],
        results=[RoundResult.from_dict(r) for r in data["results"]],
        rounds=[{**stored, "plays": [_play(p) for p in stored["plays"]]} for stored in data["rounds"]],
        winner=None if data["winner"] is None else int(data["winner"]),
        to_play=int(data["to_play"]),
        hands=[parse_cards(hand) for hand in data["hands"]],
        table=parse_cards(data["table"]),
        stock=parse_cards(data["stock"]),
        captured=[parse_cards(pile) for pile in data["captured"]],
        scope=[int(s) for s in data["scope"]],
        last_capturer=None if data["last_capturer"] is None else int(data["last_capturer"]),
        deals=list(data["deals"]),
        plays=[_play(p) for p in data["plays"]], undo=undo,
    )


def _play(data: dict[str, Any]) -> Play:
    card = data["card"]
    return Play(int(data["seat"]), None if card is None else Card.parse(card),
                tuple(parse_cards(data["captured"])), bool(data["scopa"]))


def _check(game: Game) -> None:
    seats = game.seats
    if sorted(s for side in game.seating.sides for s in side) != list(range(seats)):
        raise StateFormatError("saved game sides do not cover the seats")
    if len(game.hands) != seats or len(game.captured) != seats or len(game.scope) != seats:
        raise StateFormatError("saved game has the wrong number of seats")
    if not 0 <= game.to_play < seats or not 0 <= game.dealer < seats:
        raise StateFormatError("saved game has a seat out of range")
    if len(game.totals) != len(game.seating.sides):
        raise StateFormatError("saved game totals do not match its sides")
    every = [c for hand in game.hands for c in hand] + game.table + game.stock
    every += [c for pile in game.captured for c in pile]
    if len(every) != len(DECK) or set(every) != set(DECK):
        raise StateFormatError("saved game does not hold each of the 40 cards exactly once")
