"""What front-ends draw: the lobby, the public table, one player's hand.

Views are plain values built from the stored game; a per-player view holds
only what that player may see: their hand, the table and their legal moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from ..engine import Card, Game, Move, RoundResult, Rules
from ..engine.federal import draw_teams
from ..engine.moves import table_order
from .day import utc_day
from .records import ChatRow, DeadlineKind, GameRow, GameStatus, PlayerRow, SeatRow
from .refs import ChatRef, language_of

COMPUTER_SIGNS = {"easy": "🙂", "medium": "🤔", "hard": "😈"}
SEAT_NAMES = ("Aldo", "Bruna", "Ciro", "Dora", "Ezio", "Fulvia")
"""The first names of computers that share a table with other computers, by seat (the second
seat is always Bruna, the third Ciro, …): short, told apart at a glance, the same on every
front-end."""

MAX_TIMEOUTS = 3
"""Turns in a row the timer plays for a player before their seat is handed to the computer."""
CANCELLED_BY = "cancelled_by"
"""The key, in a cancelled game's stored options, of the id of the player who cancelled it
(`GameSummary.cancelled_by`): kept with the game, so every process and a restart tell it."""


class PlayedFor(StrEnum):
    """Why the computer played a person's last card for them (`SeatInfo.played_for`)."""

    TIMEOUT = "timeout"
    """Their time ran out (the play that handed their seat to the computer included)."""
    AUTOPLAY = "autoplay"
    """Their seat was handed to the computer after their time ran out too often."""


PlayerProfile = PlayerRow
"""A person (or a computer level) as the bot knows them, as front-ends read it: the stored row
itself (immutable), not a copy of its fields; `language` is the one they chose,
`platform_language` the one their app reports."""


def player_language(player: PlayerProfile | None, fallback: str = "it") -> str:
    """The language to speak to `player` in: the one they chose, else their app's, else `fallback`."""
    if player is None:
        return fallback
    return player.language or language_of(player.platform_language, fallback)


PICTURES = "pictures"
"""The chat setting, kept with its defaults, that says pictures or text."""


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """A chat's settings: its language, seconds per turn, and the defaults of a new game."""

    chat: ChatRef
    language: str
    turn_limit: int
    defaults: dict[str, Any]

    @property
    def pictures(self) -> bool:
        """The table and hands as pictures of cards (the default), or as text."""
        return bool(self.defaults.get(PICTURES, "on") != "off")

    @property
    def title(self) -> str | None:
        return self.chat.title


@dataclass(frozen=True, slots=True)
class GameSeat:
    seat: int
    player: PlayerProfile | None
    """Who sits there; None for a computer."""
    computer_level: str | None
    ready: bool
    autoplay: bool

    @property
    def is_computer(self) -> bool:
        return self.player is None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game as front-ends look it up: where it is played, its state and its seats."""

    id: int
    chat: ChatRef
    status: GameStatus
    variant: str
    options: dict[str, Any]
    deck_style: str
    version: int
    creator_id: int
    started: bool
    """It was dealt (a cancelled game may have been cancelled in its lobby)."""
    seats: tuple[GameSeat, ...]
    cancelled_by: str | None = None
    """Who cancelled the game (`CANCELLED_BY`); None when nobody did (it closed on its own)."""
    practice: bool = False
    """A practice match (the lobby's option): it counts for no rating or board."""
    daily: str | None = None
    """The day (YYYY-MM-DD) whose deal of the day this game is; None for any other game."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    player_id: int | None
    is_computer: bool
    level: str | None
    ready: bool
    autoplay: bool
    played_for: PlayedFor | None = None
    """The computer played this person's last card for them, and why; None when they played it."""


@dataclass(frozen=True, slots=True)
class LobbyView:
    game_id: int
    status: GameStatus
    variant: str
    rules: Rules
    options: dict[str, object]
    players: int
    teams: int
    """How many teams the players form; 0 when every player is on their own."""
    deck_style: str
    creator_id: int
    seats: tuple[SeatInfo | None, ...]
    turn_limit: int
    """Seconds a player has for a move; 0: no clock (`options.NO_CLOCK`)."""
    version: int = 0
    """The lobby's version: a button that moves seats carries it, so a tap on a lobby drawn
    before another change is refused."""

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
    leftover: bool = False
    """Not a play: the cards left on the table at the round's end, `captured` by the last
    player to capture (`card` is None)."""


@dataclass(frozen=True, slots=True)
class TableView:
    game_id: int
    status: GameStatus
    version: int
    variant: str
    deck_style: str
    target: int
    round_number: int
    round_limit: int
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
    counts_shown: bool = True
    """Whether the cards taken may be counted: under `federal` rules (004 art. 18) not while a
    round is played, and then `captured_counts` is empty; the scope are always shown."""
    team_draw: tuple[tuple[int, Card], ...] = ()
    """Under `federal` rules, the card each seat drew to form the teams (004 art. 3): (seat, card)."""
    practice: bool = False
    """A practice match: it counts for no rating or board, and the table says so."""
    daily: str | None = None
    """The day (YYYY-MM-DD) whose deal of the day this match is; None for any other match."""

    @property
    def finished(self) -> bool:
        return self.status != GameStatus.RUNNING

    @property
    def timed_out(self) -> bool:
        """The table's last play was made by the turn timer, for a player whose time ran out."""
        last = next((play for play in reversed(self.last_plays) if not play.leftover), None)
        seat = next((s for s in self.seats if last is not None and s.seat == last.seat), None)
        return seat is not None and seat.played_for is PlayedFor.TIMEOUT


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
    may_declare: bool = False
    """The player may declare fuori with the play they are about to make."""
    face_down: int = 0
    """Under `federal` rules (004 art. 5) the hand stays face down until the player's first turn
    of the round: `hand` is then empty and this says how many cards lie face down."""
    first_hand: bool = False
    """The player's first hand of the match, before their first play (see `shows_legend`)."""
    waiting_for: str | None = None
    """Who is to play while it is not the player's turn (None on their turn and once it is over)."""
    practice: bool = False
    """A practice match: the hand offers a hint (what the computer would play) on the player's turn."""
    since_turn: tuple[PlayLine, ...] = ()
    """The round's plays made since the player's own last play (all of the round's before their
    first), oldest first: at their turn in a game of four, the three plays of the others, the
    partner's among them. Every front-end's hand shows these (`shown_plays`)."""
    cancelled: bool = False
    """The match was cancelled (`finished` too): its hand says so rather than "over"."""
    played_for: PlayedFor | None = None
    """The computer played the player's last card for them, and why (`SeatInfo.played_for`)."""
    daily: str | None = None
    """The day (YYYY-MM-DD) whose deal of the day this match is; None for any other match."""

    def shown_plays(self, last: PlayLine | None) -> tuple[PlayLine, ...]:
        """The plays a hand shows: those since the player's last play, or, right after it (none
        since), the table's `last` play alone."""
        if self.since_turn:
            return self.since_turn
        return (last,) if last is not None else ()

    @property
    def offers_hint(self) -> bool:
        """Whether the hand offers a hint (💡): in a practice match, on the player's turn, and only
        where there is a real choice; a hand with one legal move already says what to play."""
        return (self.practice and self.my_turn and not self.finished
                and sum(len(choice.moves) for choice in self.choices) > 1)

    @property
    def shows_legend(self) -> bool:
        """Whether this hand explains the cards' letters and suit signs (`render.words.card_legend`):
        only the first hand of the match, on every front-end; later, /help shows it on request."""
        return self.first_hand and not self.finished

    def moves_for(self, card: Card) -> tuple[Move, ...]:
        for choice in self.choices:
            if choice.card is card:
                return choice.moves
        return ()


def seat_name(seat: SeatRow | None, seats: Sequence[SeatRow] = ()) -> str:
    """A player's name. A computer is named as a person is, by the first name of its seat
    (`Bruna`), so that every text that names a player reads as it does for people ("Tocca a
    Bruna", "Bruna vince la smazzata"); the lobby says it is a computer, and at which level.
    Computers that share the table (`seats`) with another computer add the sign of their level
    (`Ciro 🤔`), so that a table of several computers tells them apart (as does one whose seat's
    name a person at the table has). The names computer players are stored with (`CPU easy`,
    `Computer hard`) are never shown."""
    if seat is None:
        return "—"
    if seat.player is not None and not seat.player.is_computer:
        return seat.player.display_name
    name = SEAT_NAMES[seat.seat % len(SEAT_NAMES)]
    if any(other.seat != seat.seat and (other.is_computer or (
            other.player is not None and other.player.display_name == name)) for other in seats):
        level = seat.computer_level or "medium"
        return f"{name} {COMPUTER_SIGNS.get(level, COMPUTER_SIGNS['medium'])}"
    return name


def played_for(seat: SeatRow, max_timeouts: int = MAX_TIMEOUTS) -> PlayedFor | None:
    """Why the computer played the person of `seat`'s last card, read from the seat as stored:
    `timeouts` counts the plays made for them since they last played, the timer's and then, once
    `max_timeouts` of them handed the seat to the computer, the computer's (`Play.commit`)."""
    if seat.is_computer or seat.timeouts <= 0:
        return None
    if seat.autoplay and seat.timeouts > max_timeouts:
        return PlayedFor.AUTOPLAY
    return PlayedFor.TIMEOUT


def seat_info(seat: SeatRow, seats: Sequence[SeatRow] = (), max_timeouts: int = MAX_TIMEOUTS) -> SeatInfo:
    return SeatInfo(seat.seat, seat_name(seat, seats), seat.player_id, seat.is_computer,
                    seat.computer_level, seat.ready, seat.autoplay, played_for(seat, max_timeouts))


def side_names(game: Game, seats: tuple[SeatInfo, ...]) -> tuple[str, ...]:
    names = {s.seat: s.name for s in seats}
    return tuple(" & ".join(names.get(seat, "?") for seat in side) for side in game.seating.sides)


def lobby_view(row: GameRow, rules: Rules, turn_limit: int) -> LobbyView:
    by_seat = {s.seat: seat_info(s, row.seats) for s in row.seats}
    return LobbyView(row.id, GameStatus(row.status), row.variant, rules, dict(row.options), row.players,
                     row.teams, row.deck_style, row.creator_id,
                     tuple(by_seat.get(i) for i in range(row.players)), turn_limit, row.version)


def table_view(row: GameRow, game: Game, plays_shown: int = 4,
               seats: tuple[SeatInfo, ...] | None = None,
               names: tuple[str, ...] | None = None, daily: str | None = None) -> TableView:
    """The public table; `seats` and `names` may be passed when already built for `row`;
    `daily`: the day whose deal of the day it is (`daily_of`)."""
    if seats is None:
        seats = tuple(seat_info(s, row.seats) for s in row.seats)
    if names is None:
        names = side_names(game, seats)
    by_seat = {s.seat: s.name for s in seats}
    lines = tuple(PlayLine(p.seat, by_seat.get(p.seat, "?"), p.card, tuple(p.captured), p.scopa)
                  for p in game.plays[-plays_shown:])
    swept = leftover_line(game, by_seat)
    if swept is not None:
        lines = (*lines, swept)[-plays_shown:]
    shown = game.counts_shown
    return TableView(
        row.id, GameStatus(row.status), game.version, row.variant, row.deck_style, game.rules.target,
        game.round_number, game.rules.round_limit, game.dealer, game.to_play, seats,
        game.seating.sides, names,
        tuple(game.table), len(game.stock), tuple([len(h) for h in game.hands]),
        tuple([len(c) for c in game.captured]) if shown else (), tuple(game.scope), tuple(game.totals),
        lines, game.results[-1] if game.results else None, game.winner, _clock_of(row), shown,
        team_draw(row, game), game.rules.practice, daily)


def _clock_of(row: GameRow) -> float | None:
    """The deadline a table tells: none while a turn with no clock waits for its reminder."""
    return None if row.deadline_kind in (DeadlineKind.REMIND, DeadlineKind.DAY_OVER) else row.deadline


def leftover_line(game: Game, names: dict[int, str]) -> PlayLine | None:
    """Once the match is over, who took the cards its last round left on the table: the table
    is empty then, and the last play alone would not say where they went. (While the match goes
    on, the next round is dealt at once and the table shows it.)"""
    if game.winner is None or not game.results or game.results[-1].fuori is not None:
        return None
    seat = game.last_capturer
    if seat is None or game.table:
        return None
    left = list(game.view(seat).starting_table)
    for play in game.plays:
        if play.captured:
            left = [card for card in left if card not in play.captured]
        elif play.card is not None:
            left.append(play.card)
    if not left:
        return None
    return PlayLine(seat, names.get(seat, "?"), None, tuple(sorted(left, key=table_order)), False,
                    leftover=True)


def team_draw(row: GameRow, game: Game) -> tuple[tuple[int, Card], ...]:
    """The cards drawn for the teams of a `federal` match (the draw `Lobby.start` seated it by),
    shown during its first round."""
    if not game.rules.federal or game.seats != 4 or game.round_number != 1 or not row.seed:
        return ()
    draw = draw_teams(row.seed)
    return tuple(sorted((draw.seat_of[player], card) for player, card in enumerate(draw.cards)))


def since_turn(row: GameRow, game: Game, seat: int) -> tuple[PlayLine, ...]:
    """The round's plays after `seat`'s last play of a card (`HandView.since_turn`)."""
    plays = game.plays
    last = max((i for i, p in enumerate(plays) if p.seat == seat and p.card is not None), default=-1)
    if last == len(plays) - 1:
        return ()
    names = {s.seat: seat_name(s, row.seats) for s in row.seats}
    return tuple(PlayLine(p.seat, names.get(p.seat, "?"), p.card, tuple(p.captured), p.scopa)
                 for p in plays[last + 1:])


def hand_view(row: GameRow, game: Game, seat: int, max_timeouts: int = MAX_TIMEOUTS,
              daily: str | None = None) -> HandView:
    """`seat`'s hand; `daily`: the day whose deal of the day it is (`daily_of`)."""
    hand = tuple(sorted(game.hands[seat], key=table_order))
    grouped: dict[Card, list[Move]] = {}
    for move in game.legal_moves(seat):
        grouped.setdefault(move.card, []).append(move)
    choices = tuple(CardChoice(card, tuple(grouped[card])) for card in hand if card in grouped)
    running = row.status == GameStatus.RUNNING
    my_turn = running and game.winner is None and game.to_play == seat
    first = running and game.round_number == 1 and not any(
        play.seat == seat and play.card is not None for play in game.plays)
    playing = next((s for s in row.seats if s.seat == game.to_play), None)
    waiting = running and game.winner is None and not my_turn and playing is not None
    waiting_for = seat_name(playing, row.seats) if waiting else None
    recent = since_turn(row, game, seat) if running else ()
    mine = next((s for s in row.seats if s.seat == seat), None)
    for_them = played_for(mine, max_timeouts) if mine is not None else None
    if not game.hand_visible(seat):
        return HandView(row.id, game.version, seat, row.deck_style, (), tuple(game.table), False, (),
                        not running, False, face_down=len(hand), first_hand=first, waiting_for=waiting_for,
                        practice=game.rules.practice, since_turn=recent,
                        cancelled=row.status == GameStatus.CANCELLED, played_for=for_them, daily=daily)
    return HandView(row.id, game.version, seat, row.deck_style, hand, tuple(game.table),
                    my_turn, choices, not running, my_turn and game.may_declare(seat), first_hand=first,
                    waiting_for=waiting_for, practice=game.rules.practice, since_turn=recent,
                    cancelled=row.status == GameStatus.CANCELLED, played_for=for_them, daily=daily)


def chat_ref(row: ChatRow) -> ChatRef:
    return ChatRef(row.platform, row.chat_key, row.title, row.home)


def chat_settings(row: ChatRow) -> ChatSettings:
    return ChatSettings(chat_ref(row), row.language, row.turn_limit, dict(row.defaults))


def game_summary(row: GameRow, chat: ChatRow, cancelled_by: str | None = None,
                 daily: bool = False) -> GameSummary:
    """The summary of `row`; `cancelled_by`: the name of who cancelled it (`CANCELLED_BY`);
    `daily`: whether it is a deal of the day (the store's claim)."""
    seats = tuple(GameSeat(s.seat, None if s.is_computer or s.player is None else s.player,
                           s.computer_level, s.ready, s.autoplay) for s in row.seats)
    return GameSummary(row.id, replace(chat_ref(chat), thread=row.thread or None),
                       GameStatus(row.status), row.variant, rule_options(row),
                       row.deck_style, row.version, row.creator_id, row.state is not None, seats,
                       cancelled_by, is_practice(row), daily_of(row, daily))


def is_practice(row: GameRow) -> bool:
    """Whether `row` is a practice match, as its options say (`options.PRACTICE`)."""
    return "practice" in row.options and Rules.from_options(row.variant, rule_options(row)).practice


def daily_of(row: GameRow, daily: bool) -> str | None:
    """The day (UTC, YYYY-MM-DD) whose deal of the day `row` is, when it is one (`daily`, as the
    store's claim says): the day it was dealt on."""
    return utc_day(row.created_at).isoformat() if daily else None


def rule_options(row: GameRow) -> dict[str, Any]:
    """The game's options without who cancelled it (`CANCELLED_BY`): the rules it was played by."""
    return {key: value for key, value in row.options.items() if key != CANCELLED_BY}


def cancelled_by(row: GameRow) -> int | None:
    """The id of the player who cancelled the game, if anyone did (`CANCELLED_BY`)."""
    value = row.options.get(CANCELLED_BY) if row.status == GameStatus.CANCELLED else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None

