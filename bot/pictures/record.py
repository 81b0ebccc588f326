"""A stored match (`scopa-record/1`, shared/spec/scopa-record-1.md) replayed with the
engine, to draw its table after any play or the score of any round.

A record carries the match's seed (an added key), so the engine deals the same cards;
every deal and play of the record is checked against the engine on the way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine import Card, EngineError, Game, Move, Primiera
from ..engine.moves import table_order
from ..engine.record import RecordError, parse_records
from ..i18n import t
from .scenes import HandScene, LastPlay, RoundScene, SeatScene, SideLine, TableScene, round_scene
from .styles import Style


@dataclass(frozen=True, slots=True)
class Position:
    """Where to look in a match: round `round_number` (from 1), after `play` plays of it
    (0: as dealt), or its end when `play` is None."""

    round_number: int
    play: int | None = None
    seat: int | None = None
    """A player (from 1): their own picture, the table above their hand."""


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """The records in a file of scopa-record/1 lines."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    return parse_records(text, str(path))


def record_scene(
    record: dict[str, Any], where: Position, style: Style, lang: str = "it", show_taken: bool = True
) -> TableScene | RoundScene | SeatScene:
    try:
        return _Replay(record, style, lang, show_taken).scene(where)
    except (EngineError, KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"the record cannot be replayed: {exc}") from None


class _Replay:
    def __init__(self, record: dict[str, Any], style: Style, lang: str, show_taken: bool) -> None:
        if "seed" not in record:
            raise RecordError("the record has no seed, so its deals cannot be replayed")
        teams = [tuple(side) for side in record["teams"]]
        seats = int(record["seats"])
        self.rounds: list[dict[str, Any]] = record["rounds"]
        self.game = Game.new(
            record["variant"],
            seats,
            teams=len(teams) < seats,
            sides=len(teams),
            rules=dict(record["rules"]),
            seed=record["seed"],
            undo=False,
        )
        if [tuple(side) for side in self.game.seating.sides] != teams:
            raise RecordError("the record's teams are not the engine's seating")
        self.style = style
        self.lang = lang
        self.show_taken = show_taken
        self.names = [t(lang, "pictures.player", number=seat + 1) for seat in range(seats)]
        self.side_names = [" & ".join(self.names[s] for s in side) for side in teams]

    def scene(self, where: Position) -> TableScene | RoundScene | SeatScene:
        if where.seat is not None:
            if not 1 <= where.seat <= self.game.seats:
                raise RecordError(f"no player {where.seat}: the match has players 1 to {self.game.seats}")
            if where.play is None:
                raise RecordError("a player's picture is of a table: give the play too")
        if not 1 <= where.round_number <= len(self.rounds):
            raise RecordError(f"no round {where.round_number}: the match has rounds 1 to {len(self.rounds)}")
        for number in range(1, where.round_number):
            self._play_round(number, None)
        plays = self.rounds[where.round_number - 1]["plays"]
        if where.play is not None and not 0 <= where.play <= len(plays):
            raise RecordError(
                f"no play {where.play} in round {where.round_number}: it has plays 0 to {len(plays)}"
            )
        scene = self._play_round(where.round_number, where.play)
        if where.seat is None or not isinstance(scene, TableScene):
            return scene
        return SeatScene(scene, self._hand(where.seat - 1, where.round_number, scene))

    def _hand(self, seat: int, number: int, table: TableScene) -> HandScene:
        """The seat's hand at `table`; empty after the round's last play, when the next is dealt."""
        game = self.game
        if game.round_number != number or game.winner is not None:
            return HandScene(self.style, (), frozenset(), False)
        mine = game.to_play == seat
        playable = frozenset(move.card for move in game.legal_moves(seat)) if mine else frozenset()
        return HandScene(
            self.style,
            tuple(sorted(game.hands[seat], key=table_order)),
            playable,
            mine,
            None if mine else table.to_play,
        )

    def _play_round(self, number: int, stop: int | None) -> TableScene | RoundScene:
        game = self.game
        stored = self.rounds[number - 1]
        if (
            game.round_number != number
            or game.deals[0]["table"] != stored["deals"][0]["table"]
            or game.deals[0]["hands"] != stored["deals"][0]["hands"]
        ):
            raise RecordError(f"round {number}: the record's deal is not the one its seed gives")
        plays = stored["plays"]
        dealt = sum(len(hand) for deal in stored["deals"] for hand in deal["hands"])
        played = sum(1 for play in plays if play["card"] is not None)
        if stop == 0:
            return self._table(None)
        for index, play in enumerate(plays, 1):
            last = index == len(plays)
            if play["card"] is None:
                if stop == index:
                    return self._table(self._last(play))
                continue
            before = self._table(None) if last and stop == index else None
            self._apply(number, index, play, fuori=last and played < dealt)
            if before is not None:
                return self._after_last(before, play)
            if stop == index:
                return self._table(self._last(play))
        result = game.results[number - 1]
        return round_scene(
            result,
            self.side_names,
            self.style.value,
            game.variant.value,
            game.rules.target,
            game.rules.primiera is Primiera.SEVENS,
            None if result.fuori is None else self.names[result.fuori],
        )

    def _apply(self, number: int, index: int, play: dict[str, Any], fuori: bool) -> None:
        game = self.game
        seat = int(play["seat"])
        card = Card.parse(play["card"])
        taken = {Card.parse(code) for code in play["captured"]}
        move = next((m for m in game.legal_moves(seat) if m.card is card and set(m.captures) == taken), None)
        if move is None or game.to_play != seat:
            raise RecordError(
                f"round {number}, play {index}: {play['card']} by seat {seat} is not a legal play"
            )
        if fuori and game.may_declare(seat):
            game.declare_fuori(Move(card, tuple(taken)), seat)
        else:
            game.apply(move, seat)

    def _last(self, play: dict[str, Any]) -> LastPlay:
        card = Card.parse(play["card"]) if play["card"] is not None else None
        return LastPlay(
            self.names[int(play["seat"])],
            card,
            tuple(Card.parse(code) for code in play["captured"]),
            bool(play["scopa"]),
        )

    def _sides(self) -> tuple[SideLine, ...]:
        game = self.game
        return tuple(
            SideLine(
                self.side_names[i],
                game.totals[i],
                sum(game.scope[s] for s in side),
                sum(len(game.captured[s]) for s in side) if self.show_taken else None,
            )
            for i, side in enumerate(game.seating.sides)
        )

    def _table(self, last: LastPlay | None) -> TableScene:
        game = self.game
        winner = self.side_names[game.winner] if game.winner is not None else None
        return TableScene(
            self.style,
            game.variant.value,
            game.round_number,
            game.rules.target,
            game.rules.round_limit,
            tuple(game.table),
            len(game.stock),
            self._sides(),
            None if winner else self.names[game.to_play],
            last,
            winner,
            None if winner else game.side_of[game.to_play],
        )

    def _after_last(self, before: TableScene, play: dict[str, Any]) -> TableScene:
        """The table right after a round's last play, before the cards left over are taken
        and the next round is dealt."""
        last = self._last(play)
        table = tuple(c for c in before.table if c not in last.captured)
        if not last.captured and last.card is not None:
            table = (*table, last.card)
        side = next(i for i, seats in enumerate(self.game.seating.sides) if int(play["seat"]) in seats)
        sides = tuple(
            line
            if i != side
            else SideLine(
                line.name,
                line.total,
                line.scope + int(last.scopa),
                None if line.taken is None else line.taken + len(last.captured) + int(bool(last.captured)),
            )
            for i, line in enumerate(before.sides)
        )
        return TableScene(
            before.style,
            before.variant,
            before.round_number,
            before.target,
            before.round_limit,
            table,
            0,
            sides,
            None,
            last,
            None,
        )
