"""What a board command (/leaderboard, /daily board, /season) asks for."""

from __future__ import annotations

from collections.abc import Sequence

EVERYONE_WORDS = frozenset({"global", "globale", "all", "tutti", "todos"})
"""What after /leaderboard (or /daily board) asks for everyone's board instead of the chat's,
in any of the catalogue's languages."""


def asks_for_everyone(words: Sequence[str]) -> bool:
    """Whether a board command's first word asks for everyone's board."""
    return bool(words) and words[0].lower() in EVERYONE_WORDS
