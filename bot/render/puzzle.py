"""The words of a puzzle from a chat's own matches: the question, the buttons' moves and the
answer to a tap, from the catalogue."""

from __future__ import annotations

from datetime import UTC, datetime

from babel.dates import format_date

from ..engine import Card, Move
from ..i18n import t
from ..sessions.puzzles import Puzzle, PuzzleAnswer
from .review import move_phrase, reason_text
from .words import card_label, move_label


def puzzle_date(puzzle: Puzzle, lang: str) -> str:
    """The day the match ended, `27 Nov` (UTC)."""
    day = datetime.fromtimestamp(puzzle.finished_at, UTC).date()
    return format_date(day, format="d MMM", locale=lang)


def puzzle_text(puzzle: Puzzle, lang: str) -> str:
    """`🧩 Marco held this hand in round 2 of the match of 27 Nov: what is the best play?`"""
    question = t(lang, "puzzle.question", name=puzzle.name, round=puzzle.round + 1,
                 date=puzzle_date(puzzle, lang))
    return question + ("\n" + t(lang, "puzzle.exact") if puzzle.exact else "")


def answer_label(move: Move, puzzle: Puzzle) -> str:
    """A button's words: the move, `7🪙` or `7🪙 → 3🏆+4🗡️`."""
    return move_label(move, puzzle.deck_style)


def answer_text(answer: PuzzleAnswer, lang: str) -> str:
    """`✅ Right: …` or `❌ Wrong: the best play is …`, with what was played and why it was worse."""
    puzzle, graded = answer.puzzle, answer.graded
    style = puzzle.deck_style
    reason = reason_text(graded, lang, puzzle.variant, style) or ""
    return t(lang, "puzzle.right" if answer.right else "puzzle.wrong",
             best=move_phrase(graded.best if not answer.right else answer.chosen, lang, style),
             name=puzzle.name, played=move_label(graded.played, style), reason=reason)


def position_text(puzzle: Puzzle, lang: str) -> str:
    """The table and the hand in words, for a chat that takes no pictures."""
    def cards(shown: tuple[Card, ...]) -> str:
        return " ".join(card_label(card, puzzle.deck_style) for card in shown) or t(lang, "puzzle.empty")

    return "\n".join((t(lang, "puzzle.table", cards=cards(puzzle.table)),
                      t(lang, "puzzle.hand", cards=cards(puzzle.hand))))
