"""Exceptions of the rules engine.

Two kinds, as in python-chess: input that cannot be understood at all
(a bad card code, a malformed option or state) and input that is well formed
but not allowed by the rules right now (an illegal move).
"""


class EngineError(Exception):
    """Base class of every error the engine raises."""


class InvalidInputError(EngineError, ValueError):
    """Input that is not well formed: it means nothing in this game."""


class InvalidCardError(InvalidInputError):
    """A card code that names no card of the 40-card deck."""


class InvalidMoveError(InvalidInputError):
    """A move that cannot be parsed."""


class InvalidRulesError(InvalidInputError):
    """An unknown rule option or a value out of range."""


class StateFormatError(InvalidInputError):
    """A saved game that is corrupt or from an incompatible version."""


class IllegalMoveError(EngineError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


class GameOverError(IllegalMoveError):
    """A move after the match has ended."""
