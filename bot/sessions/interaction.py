"""What a tap on a hand means, the same on every front-end.

A hand shows the player's cards; tapping one plays it when it has a single
play, and otherwise asks which capture to make (or, while declaring fuori,
which play to declare with). What the hand shows is a `HandPrompt`; the
front-ends draw it and put everything a later tap needs (game, version, card
or move) into the button itself, so a restart forgets nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from ..engine import Card, EngineError, Game, Move, Rules
from ..engine.rules import Variant, parse_variant
from .hints import PracticeHint
from .options import DECK_STYLES, default_deck, variant_named
from .refusals import Reason, Refused
from .views import HandView, TableView, hand_view

if TYPE_CHECKING:
    from .service import ChatRef, Sessions, UserRef


class HandMode(StrEnum):
    PLAIN = "plain"
    CHOOSING = "choosing"
    """The captures of one card, to pick from."""
    DECLARING = "declaring"
    """Every play, each declaring fuori with it."""


@dataclass(frozen=True, slots=True)
class HandPrompt:
    """What a player's hand shows: plainly, the captures of `card`, or the plays to declare with."""

    mode: HandMode = HandMode.PLAIN
    card: str | None = None


PLAIN = HandPrompt()


@dataclass(frozen=True, slots=True)
class Blocked:
    """Why a card in the hand cannot be played now: a capture must be made, e.g. `example`."""

    card: Card
    example: Move
    deck_style: str = "napoletane"
    """The game's deck, whose suit signs the refusal's cards are written with."""

    def refusal(self) -> Refused:
        """What a tap on the card answers, on every front-end: "You must capture: …"."""
        return Refused(Reason.MUST_CAPTURE, card=self.card, example=self.example,
                       deck_style=self.deck_style)


def blocked_cards(view: HandView) -> tuple[Blocked, ...]:
    """The cards of the hand that cannot be played now although it is the player's turn,
    each with a capture that can be made instead (compulsory capture)."""
    if not view.my_turn or not view.choices:
        return ()
    playable = {choice.card for choice in view.choices}
    captures = [move for choice in view.choices for move in choice.moves if move.captures]
    if not captures:
        return ()
    return tuple(Blocked(card, captures[0], view.deck_style) for card in view.hand if card not in playable)


class CardUse(StrEnum):
    """What a tap on a card of the hand does, the same on every front-end."""

    PLAY = "play"
    """It has one play: the tap makes it."""
    CHOOSE = "choose"
    """It has several captures: the tap asks which."""
    BLOCKED = "blocked"
    """A compulsory capture bars it now: a live button marked 🚫 whose tap says which capture to
    make instead (`tap_card` refuses it with `Reason.MUST_CAPTURE`)."""
    WAIT = "wait"
    """Not the player's turn (or the computer plays for them): the tap says so."""


@dataclass(frozen=True, slots=True)
class HandCard:
    card: Card
    use: CardUse
    moves: tuple[Move, ...] = ()


def hand_cards(view: HandView, live: bool = True) -> tuple[HandCard, ...]:
    """Each card of the hand with what a tap on it does; `live`: the player plays now (False
    while the computer plays for them)."""
    live = live and view.my_turn
    blocked = {b.card for b in blocked_cards(view)} if live else set()
    cards = []
    for card in view.hand:
        moves = view.moves_for(card) if live else ()
        if len(moves) == 1:
            use = CardUse.PLAY
        elif moves:
            use = CardUse.CHOOSE
        elif card in blocked:
            use = CardUse.BLOCKED
        else:
            use = CardUse.WAIT
        cards.append(HandCard(card, use, moves))
    return tuple(cards)


def _current(view: HandView, version: int | None) -> None:
    if view.finished:
        raise Refused(Reason.GAME_CANCELLED if view.cancelled else Reason.GAME_OVER)
    if version != view.version:
        raise Refused(Reason.STALE)


@dataclass(frozen=True, slots=True)
class Moved:
    """A play made from a hand: the player's hand and the table as the move left them, for
    the front-end to draw the hand tapped without reading the game again."""

    hand: HandView
    table: TableView


@dataclass(frozen=True, slots=True)
class Prompted:
    """Nothing played: what the hand must show now, and the hand as the tap found it."""

    prompt: HandPrompt
    hand: HandView


async def tap_card(sessions: Sessions, game_id: int, user: UserRef, version: int, card: str,
                   prompt: HandPrompt = PLAIN) -> Moved | Prompted:
    """A tap on `card` of the hand seen at `version`: `Moved` when it was played; otherwise
    what the hand must show now (the captures to choose from, or the plays to declare fuori with)."""
    view = await sessions.queries.hand(game_id, user)
    _current(view, version)
    if not view.my_turn:
        raise Refused(Reason.NOT_YOUR_TURN)
    declaring = prompt.mode is HandMode.DECLARING
    if declaring and not view.may_declare:
        raise Refused(Reason.NO_FUORI)
    choice = next((c for c in view.choices if c.card.code == card), None)
    if choice is None:
        blocked = next((b for b in blocked_cards(view) if b.card.code == card), None)
        if blocked is not None:
            raise blocked.refusal()
        raise Refused(Reason.ILLEGAL_MOVE)
    if len(choice.moves) == 1 and not declaring:
        await sessions.play.play(game_id, user, version, choice.moves[0])
        return await _moved(sessions, game_id, view.seat)
    return Prompted(HandPrompt(HandMode.DECLARING if declaring else HandMode.CHOOSING, card), view)


async def open_fuori(sessions: Sessions, game_id: int, user: UserRef, version: int) -> Prompted:
    """The hand redrawn so that each card declares fuori with its play."""
    view = await sessions.queries.hand(game_id, user)
    _current(view, version)
    if not view.my_turn:
        raise Refused(Reason.NOT_YOUR_TURN)
    if not view.may_declare:
        raise Refused(Reason.NO_FUORI)
    return Prompted(HandPrompt(HandMode.DECLARING), view)


async def back(sessions: Sessions, game_id: int, user: UserRef, version: int) -> Prompted:
    """Leave a choice of captures (or of fuori plays): the plain hand."""
    view = await sessions.queries.hand(game_id, user)
    _current(view, version)
    return Prompted(PLAIN, view)


async def play(sessions: Sessions, game_id: int, user: UserRef, version: int, move: str,
               *, declaring: bool = False) -> Moved:
    """A tap on one capture (or one fuori play) of a prompt."""
    table = await sessions.play.play(game_id, user, version, move, fuori=declaring)
    player = await sessions.queries.find_player(user.platform, user.key)
    seat = next((s.seat for s in table.seats if player is not None and s.player_id == player.id), None)
    if seat is None:
        raise Refused(Reason.NOT_IN_GAME)
    return await _moved(sessions, game_id, seat)


async def _moved(sessions: Sessions, game_id: int, seat: int) -> Moved:
    """The hand of `seat` and the table right after its play, from one load of the game (the
    sessions keep it in memory)."""
    games = sessions.games
    row, game = await games.load(game_id)
    if game is None:
        raise Refused(Reason.NOT_IN_LOBBY)
    hand = hand_view(row, game, seat, games.max_timeouts, games.daily_known(row))
    return Moved(hand, games.table(row, game))


async def hint(sessions: Sessions, game_id: int, user: UserRef, version: int) -> PracticeHint:
    """A tap on 💡: the move the computer would play now, and why. Refused outside a practice
    match, for someone not seated, out of turn, on a hand drawn before the last move, and on a
    hand with one legal move (it offers no 💡: a tap there was forged)."""
    view = await sessions.queries.hand(game_id, user)
    if view.finished:
        raise Refused(Reason.GAME_OVER)
    if not view.practice:
        raise Refused(Reason.NOT_PRACTICE)
    _current(view, version)
    if not view.my_turn:
        raise Refused(Reason.NOT_YOUR_TURN)
    if not view.offers_hint:
        raise Refused(Reason.NO_CHOICE)
    return await sessions.hints.hint(game_id, user, version)


@dataclass(frozen=True, slots=True)
class FuoriOutcome:
    """What declaring fuori with a play would do now: win or lose the match, with the points
    the declaring side is sure of against the target."""

    wins: bool
    points: int
    target: int


async def fuori_outcome(sessions: Sessions, game_id: int, user: UserRef, version: int,
                        move: str | Move) -> FuoriOutcome:
    """Tried before the player confirms (a declaration cannot be taken back), on a copy of
    the game made for this question alone."""
    view = await sessions.queries.hand(game_id, user)
    _current(view, version)
    if not view.may_declare:
        raise Refused(Reason.NO_FUORI)
    game = await _game_at(sessions, game_id, version)
    try:
        chosen = move if isinstance(move, Move) else game.parse_move(move)
    except EngineError:
        raise Refused(Reason.ILLEGAL_MOVE) from None
    return _declared(game, view.seat, chosen)


async def _game_at(sessions: Sessions, game_id: int, version: int) -> Game:
    """The game at `version`, loaded once (from memory where the sessions keep it): the
    declarations are tried on copies of it, never on the game itself."""
    _, game = await sessions.games.load(game_id)
    if game is None or game.version != version:
        raise Refused(Reason.STALE)
    return game


def _declared(game: Game, seat: int, move: Move) -> FuoriOutcome:
    """What declaring fuori with `move` would do, tried on a copy of `game`."""
    trial = game.copy()
    try:
        trial.declare_fuori(move, seat)
    except EngineError:
        raise Refused(Reason.ILLEGAL_MOVE) from None
    side = trial.side_of[seat]
    return FuoriOutcome(trial.winner == side, trial.totals[side], trial.rules.target)


@dataclass(frozen=True, slots=True)
class FuoriPreview:
    """What a hand tells about declaring fuori now: while declaring with one card, what each
    of its plays would do; otherwise whether some play of the hand would win (`wins`)."""

    outcomes: tuple[tuple[Move, FuoriOutcome], ...] = ()
    wins: bool = False


NO_FUORI = FuoriPreview()


async def fuori_preview(sessions: Sessions, view: HandView, user: UserRef, prompt: HandPrompt,
                        autoplay: bool = False) -> FuoriPreview:
    """The one rule both chat front-ends draw a hand by: nothing unless the player may declare
    now (and plays themselves); declaring with a card, the outcome of each of its plays; else
    the plays are tried in order until one would win. The game is loaded once for all of them
    (each play is a trial on a copy of it): `view` already says the player may declare."""
    if not view.my_turn or not view.may_declare or autoplay:
        return NO_FUORI
    if view.finished:
        raise Refused(Reason.GAME_CANCELLED if view.cancelled else Reason.GAME_OVER)
    game = await _game_at(sessions, view.game_id, view.version)
    if prompt.mode is HandMode.DECLARING:
        moves = next((c.moves for c in view.choices if c.card.code == prompt.card), ())
        return FuoriPreview(tuple([(move, _declared(game, view.seat, move)) for move in moves]))
    for choice in view.choices:
        for move in choice.moves:
            if _declared(game, view.seat, move).wins:
                return FuoriPreview(wins=True)
    return NO_FUORI


async def require_open_game(sessions: Sessions, chat: ChatRef, game_id: int) -> None:
    """A button of a chat's game still means something only while it is the chat's open game."""
    current = await sessions.queries.open_game_id(chat)
    if current is None:
        raise Refused(Reason.NO_GAME)
    if current != game_id:
        raise Refused(Reason.STALE)


async def play_capture(sessions: Sessions, game_id: int, user: UserRef, version: int, card: str,
                       index: int | None, *, declaring: bool = False) -> Moved:
    """A tap on a capture sent by its place among `card`'s captures (one too long to name)."""
    view = await sessions.queries.hand(game_id, user)
    _current(view, version)
    moves = next((c.moves for c in view.choices if c.card.code == card), ())
    if index is None or not 0 <= index < len(moves):
        raise Refused(Reason.ILLEGAL_MOVE, detail=card)
    await sessions.play.play(game_id, user, version, moves[index], fuori=declaring)
    return await _moved(sessions, game_id, view.seat)


async def rules_to_show(sessions: Sessions, chat: ChatRef | None, variant: str | None) -> tuple[str, Rules]:
    """What /rules shows: the variant asked for; else the chat's open game as set in its lobby;
    else the chat's default variant (scopa outside a chat)."""
    try:
        if variant is not None:
            name = variant_named(variant)
            return name, Rules.default(name)
        if chat is not None and await sessions.queries.open_game_id(chat) is not None:
            lobby = await sessions.queries.lobby(chat)
            return lobby.variant, lobby.rules
        defaults = (await sessions.queries.chat(chat)).defaults if chat is not None else {}
        name = parse_variant(str(defaults.get("variant", "scopa"))).value
        return name, Rules.default(name)
    except EngineError as exc:
        raise Refused(Reason.BAD_OPTION, detail=str(exc)) from None


async def deck_to_show(sessions: Sessions, chat: ChatRef | None) -> str:
    """The deck whose cards /help explains: the chat's open game's; else the deck the chat
    chose; else the one its default variant is dealt with in its language (an escoba in a
    Spanish chat: the Spanish deck)."""
    if chat is None:
        return default_deck("scopa", None)
    if await sessions.queries.open_game_id(chat) is not None:
        return (await sessions.queries.lobby(chat)).deck_style
    settings = await sessions.queries.chat(chat)
    chosen = str(settings.defaults.get("deck_style", ""))
    if chosen in DECK_STYLES:
        return chosen
    return default_deck(str(settings.defaults.get("variant", "scopa")), settings.language)


async def variant_to_show(sessions: Sessions, chat: ChatRef | None) -> str:
    """The game /help speaks of: the chat's open game's, else the chat's default (scopa outside
    a chat, or where the default is not a game)."""
    try:
        return (await rules_to_show(sessions, chat, None))[0]
    except Refused:
        return Variant.SCOPA.value
