"""Pure rules of the Scopa family: no I/O, no chat library, deterministic from a seed."""

from ._native import compiled
from .cards import DECK, SETTEBELLO, Card, DeckStyle, Suit, label
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
from .game import Game, Outcome, Play
from .moves import Move
from .record import record_line, to_record
from .rules import CaptureChoice, Primiera, Rules, Seating, Variant
from .scoring import RoundResult, SideScore, SideTally
from .view import SeatView

COMPILED = compiled()
"""Whether the hot modules (cards, captures, scoring, game) run compiled by mypyc."""

__all__ = [
    "COMPILED",
    "DECK",
    "SETTEBELLO",
    "CaptureChoice",
    "Card",
    "DeckStyle",
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
    "Variant",
    "game_from_view",
    "label",
    "record_line",
    "to_record",
    "unseen_cards",
]
