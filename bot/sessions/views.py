"""What front-ends draw: the lobby, the public table, one player's hand.

Views are plain values built from the stored game; a per-player view holds
only what that player may see (it is built from the engine's seat view).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Card, Game, Move, Play, RoundResult, Rules
from ..storage import GameRow, SeatRow

COMPUTER_NAMES = {"easy": "CPU 🙂", "medium": "CPU 🤔", "hard": "CPU 😈"}


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    player_id: int | None
    is_computer: bool
    level: str | None
    ready: bool
    autoplay: bool


@dataclass(frozen=True, slots=True)
class LobbyView:
    game_id: int
    status: str
    variant: str
    rules: Rules
    options: dict[str, object]
    players: int
    teams: bool
    deck_style: str
    creator_id: int
    seats: tuple[SeatInfo | None, ...]
    turn_limit: int

    @property
    def full(self) -> bool:
        return all(seat is not None for seat in self.seats)

    @property
    def waiting(self) -> tuple[SeatInfo, ...]:
        return tuple(s for s in self.seats if s is not None and not s.ready)


@dataclass(frozen=True, slots=True)
class PlayLine:
    """One play as the table shows it: who, what, what it took."""

    seat: int
    name: str
    card: Card | None
    captured: tuple[Card, ...]
    scopa: bool


@dataclass(frozen=True, slots=True)
class TableView:
    game_id: int
    status: str
    version: int
    variant: str
    deck_style: str
    target: int
    round_number: int
    dealer: int
    to_play: int
    seats: tuple[SeatInfo, ...]
    sides: tuple[tuple[int, ...], ...]
    side_names: tuple[str, ...]
    table: tuple[Card, ...]
    stock_count: int
    hand_counts: tuple[int, ...]
    captured_counts: tuple[int, ...]
    scope: tuple[int, ...]
    totals: tuple[int, ...]
    last_plays: tuple[PlayLine, ...]
    last_result: RoundResult | None
    winner: int | None
    deadline: float | None

    @property
    def finished(self) -> bool:
        return self.status != "running"


@dataclass(frozen=True, slots=True)
class CardChoice:
    card: Card
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class HandView:
    game_id: int
    version: int
    seat: int
    deck_style: str
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    my_turn: bool
    choices: tuple[CardChoice, ...]
    finished: bool

    def moves_for(self, card: Card) -> tuple[Move, ...]:
        for choice in self.choices:
            if choice.card is card:
                return choice.moves
        return ()


def seat_name(seat: SeatRow | None) -> str:
    if seat is None:
        return "—"
    if seat.player is not None and not seat.player.is_computer:
        return seat.player.display_name
    return COMPUTER_NAMES.get(seat.computer_level or "medium", "CPU")


def seat_info(seat: SeatRow) -> SeatInfo:
    return SeatInfo(seat.seat, seat_name(seat), seat.player_id, seat.is_computer,
                    seat.computer_level, seat.ready, seat.autoplay)


def side_names(game: Game, seats: tuple[SeatInfo, ...]) -> tuple[str, ...]:
    names = {s.seat: s.name for s in seats}
    return tuple(" & ".join(names.get(seat, "?") for seat in side) for side in game.seating.sides)


def lobby_view(row: GameRow, rules: Rules, turn_limit: int) -> LobbyView:
    by_seat = {s.seat: seat_info(s) for s in row.seats}
    return LobbyView(row.id, row.status, row.variant, rules, dict(row.options), row.players,
                     row.teams, row.deck_style, row.creator_id,
                     tuple(by_seat.get(i) for i in range(row.players)), turn_limit)


def table_view(row: GameRow, game: Game, plays_shown: int = 4) -> TableView:
    seats = tuple(seat_info(s) for s in row.seats)
    names = {s.seat: s.name for s in seats}
    plays: list[Play] = list(game.plays[-plays_shown:])
    lines = tuple(PlayLine(p.seat, names.get(p.seat, "?"), p.card, tuple(p.captured), p.scopa)
                  for p in plays)
    return TableView(
        game_id=row.id, status=row.status, version=game.version, variant=row.variant,
        deck_style=row.deck_style, target=game.rules.target, round_number=game.round_number,
        dealer=game.dealer, to_play=game.to_play, seats=seats, sides=game.seating.sides,
        side_names=side_names(game, seats), table=tuple(game.table), stock_count=len(game.stock),
        hand_counts=tuple(len(h) for h in game.hands),
        captured_counts=tuple(len(c) for c in game.captured), scope=tuple(game.scope),
        totals=tuple(game.totals), last_plays=lines,
        last_result=game.results[-1] if game.results else None, winner=game.winner,
        deadline=row.deadline)


def hand_view(row: GameRow, game: Game, seat: int) -> HandView:
    view = game.view(seat)
    grouped: dict[Card, list[Move]] = {}
    for move in view.legal_moves:
        grouped.setdefault(move.card, []).append(move)
    choices = tuple(CardChoice(card, tuple(grouped[card])) for card in view.hand if card in grouped)
    return HandView(row.id, game.version, seat, row.deck_style, view.hand, view.table,
                    view.my_turn and row.status == "running", choices, row.status != "running")
