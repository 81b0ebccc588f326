"""Export a match as one `scopa-record/1` line (shared/spec/scopa-record-1.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from .cards import DECK, Card
from .errors import InvalidInputError
from .game import Game
from .log import Deal, RoundLog
from .moves import Play

FORMAT = "scopa-record/1"


class RecordError(InvalidInputError):
    """A text that holds no `scopa-record/1` match, or a record whose plays cannot be read
    or replayed."""


def parse_records(text: str, source: str = "the record") -> list[dict[str, Any]]:
    """The records of a text of `scopa-record/1` lines, blank lines skipped; `source` names
    the text in the error (a file's path)."""
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            raise RecordError(f"{source}, line {number}: not JSON") from None
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            raise RecordError(f"{source}, line {number}: not a {FORMAT} record")
        records.append(record)
    if not records:
        raise RecordError(f"{source}: no {FORMAT} record")
    return records


def to_record(game: Game) -> dict[str, Any]:
    """The record of the rounds played so far; `winner` is null until the match ends."""
    return {**_head(game), "rounds": [round_dict(r) for r in game.rounds], **_tail(game)}


def _head(game: Game) -> dict[str, Any]:
    """The record's fields before its rounds."""
    return {
        "format": FORMAT,
        "variant": game.variant.value,
        "rules": game.rules.to_dict(),
        "seats": game.seats,
        "teams": [list(side) for side in game.seating.sides],
    }


def _tail(game: Game) -> dict[str, Any]:
    """The record's fields after its rounds."""
    return {
        "totals": list(game.totals),
        "winner": game.winner,
        "seed": str(game.seed),
        **({} if game.win_kind is None else {"win_kind": game.win_kind.value}),
    }


def round_dict(stored: dict[str, Any]) -> dict[str, Any]:
    """A finished round as the record writes it (plays are kept as `Play` values)."""
    out = dict(stored)
    out["plays"] = [p.to_dict() for p in stored["plays"]]
    return out


def record_line(game: Game) -> str:
    """`record_text(to_record(game))`, the same text, written faster: each play is formatted
    straight to JSON (a card's code needs no escaping) rather than made a dict and encoded."""
    seats = game.seats
    rounds = ",".join([_round_text(log, seats) for log in game.round_logs])
    return f'{record_text(_head(game))[:-1]},"rounds":[{rounds}],{record_text(_tail(game))[1:]}'


def _round_text(log: RoundLog, seats: int) -> str:
    """The round as `RoundLog.to_dict` gives it and `record_text` would write it."""
    dealer = log.dealer
    deals = ",".join([_deal_text(deal, dealer, seats) for deal in log.deals])
    plays = ",".join([_play_text(play) for play in log.plays])
    last = log.last_capture_seat
    score = ",".join([_points_text(points) for points in log.score])
    fuori = "" if log.fuori is None else f',"fuori":{log.fuori}'
    return (f'{{"dealer":{dealer},"deals":[{deals}],"plays":[{plays}],'
            f'"last_capture_seat":{"null" if last is None else last},"score":[{score}]{fuori}}}')


_QUOTED: Final = [f'"{card.code}"' for card in DECK]


def _cards_text(cards: Sequence[Card]) -> str:
    return ",".join([_QUOTED[card.index] for card in cards])


def _deal_text(deal: Deal, dealer: int, seats: int) -> str:
    first = (dealer + 1) % seats
    cards = deal.cards
    hands = ",".join([f"[{_cards_text(cards[(seat - first) % seats::seats])}]" for seat in range(seats)])
    if deal.table is None:
        return f'{{"hands":[{hands}]}}'
    return f'{{"hands":[{hands}],"table":[{_cards_text(deal.table)}]}}'


_PLAY_TEXTS: Final[dict[int, str]] = {}
"""The text of each play with at most one card taken and no scopa (most plays), by seat, card
and card taken: written once, then looked up."""
_PLAY_TEXTS_LIMIT: Final = 10_000


def _play_text(play: Play) -> str:
    card = play.card
    captured = play.captured
    if card is None or play.scopa or len(captured) > 1:
        return _written_play(play)
    key = (play.seat * 40 + card.index) * 41 + (captured[0].index + 1 if captured else 0)
    text = _PLAY_TEXTS.get(key)
    if text is None:
        text = _written_play(play)
        if len(_PLAY_TEXTS) < _PLAY_TEXTS_LIMIT:
            _PLAY_TEXTS[key] = text
    return text


def _written_play(play: Play) -> str:
    card = play.card
    return (f'{{"seat":{play.seat},"card":{"null" if card is None else _QUOTED[card.index]},'
            f'"captured":[{_cards_text(play.captured)}],"scopa":{"true" if play.scopa else "false"}}}')


_KEYS: Final[dict[str, str]] = {}
"""Each score's key as JSON text (the scoring's few category names), worked out once."""


def _points_text(points: dict[str, int]) -> str:
    entries = []
    for key, value in points.items():
        quoted = _KEYS.get(key)
        if quoted is None:
            quoted = json.dumps(key, ensure_ascii=False)
            if len(_KEYS) < 64:
                _KEYS[key] = quoted
        entries.append(f"{quoted}:{value if type(value) is int else json.dumps(value)}")
    return "{" + ",".join(entries) + "}"


def record_text(record: dict[str, Any]) -> str:
    """A record as its one line of JSON."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)
