"""Pure rules of the Scopa family: no I/O, no chat library, deterministic from a seed."""

from . import game as _game
from .cards import DECK, SETTEBELLO, Card, Suit
from .determinize import game_from_view, unseen_cards
from .errors import (
    EngineError,
    GameOverError,
    IllegalMoveError,
    InvalidCardError,
    InvalidInputError,
    InvalidMoveError,
    InvalidRulesError,
    StateFormatError,
)
from .federal import TeamDraw, draw_teams
from .game import Game, Outcome
from .moves import Move, Play
from .record import record_line, to_record
from .rules import CaptureChoice, Primiera, Rules, Seating, Variant, WinKind
from .scoring import RoundResult, SideScore, SideTally
from .state import dump_game, load_game
from .view import SeatView

COMPILED = not (_game.__file__ or "").endswith(".py")
"""Whether the hot modules (those setup.py lists: the engine's rules, hard's search) run compiled: they are
when `pip install` built them (setup.py), and Python then imports them ahead of the sources."""

__all__ = [
    "COMPILED",
    "DECK",
    "SETTEBELLO",
    "CaptureChoice",
    "Card",
    "EngineError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidInputError",
    "InvalidMoveError",
    "InvalidRulesError",
    "Move",
    "Outcome",
    "Play",
    "Primiera",
    "RoundResult",
    "Rules",
    "SeatView",
    "Seating",
    "SideScore",
    "SideTally",
    "StateFormatError",
    "Suit",
    "TeamDraw",
    "Variant",
    "WinKind",
    "draw_teams",
    "dump_game",
    "game_from_view",
    "load_game",
    "record_line",
    "to_record",
    "unseen_cards",
]
