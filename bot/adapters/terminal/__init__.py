"""The terminal game: one human against computer players, through the same sessions layer and
SQLite file as the chat front-ends (`game.py`); lines typed read by `lines.py`."""

from .game import TerminalGame
from .lines import CallableLines, LineSource, StdinLines, stdin_lines

__all__ = ["CallableLines", "LineSource", "StdinLines", "TerminalGame", "stdin_lines"]
