"""Export a match as one `scopa-record/1` line (shared/spec/scopa-record-1.md)."""

from __future__ import annotations

import json
from typing import Any

from .errors import InvalidInputError
from .game import Game

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
    return {
        "format": FORMAT,
        "variant": game.variant.value,
        "rules": game.rules.to_dict(),
        "seats": game.seats,
        "teams": [list(side) for side in game.seating.sides],
        "rounds": [round_dict(r) for r in game.rounds],
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
    return record_text(to_record(game))


def record_text(record: dict[str, Any]) -> str:
    """A record as its one line of JSON."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)
