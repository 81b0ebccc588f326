"""Export a match as one `scopa-record/1` line (shared/spec/scopa-record-1.md)."""

from __future__ import annotations

import json
from typing import Any

from .cards import DECK
from .errors import InvalidInputError
from .game import Game
from .log import RoundLog
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
    out = log.to_dict(seats)
    plays = ",".join([_play_text(play) for play in out.pop("plays")])
    first = {"dealer": out.pop("dealer"), "deals": out.pop("deals")}
    return f'{record_text(first)[:-1]},"plays":[{plays}],{record_text(out)[1:]}'


_QUOTED = [f'"{card.code}"' for card in DECK]


def _play_text(play: Play) -> str:
    card = play.card
    captured = ",".join([_QUOTED[taken.index] for taken in play.captured])
    return (f'{{"seat":{play.seat},"card":{"null" if card is None else _QUOTED[card.index]},'
            f'"captured":[{captured}],"scopa":{"true" if play.scopa else "false"}}}')


def record_text(record: dict[str, Any]) -> str:
    """A record as its one line of JSON."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)
