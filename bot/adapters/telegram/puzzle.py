"""/puzzle on Telegram: a position from the chat's own matches as a photo (or in words, for a
chat that takes no pictures) with a button per legal move, and an alert to the one who tapped.

Each answer button carries the match, the play and the move's place among the legal moves
(`Action.PUZZLE`); "next puzzle" carries the next one's place among the chat's puzzles
(`Action.PUZZLE_NEXT`). Nothing is kept between taps, so both work after a restart; the
sessions check every field again (`sessions.puzzles`)."""

from __future__ import annotations

from ...i18n import t
from ...pictures.puzzle import puzzle_scene
from ...render.puzzle import answer_label, answer_text, position_text, puzzle_text
from ...sessions.puzzles import Puzzle, PuzzleAnswer
from ...sessions.tap import Action
from .content import Content, Picture
from .keyboards import Keyboard
from .keyboards import tap as button
from .markup import clip, escape

PER_ROW = 3
"""Answer buttons side by side (a capture's label is long: two then)."""


def puzzle_keyboard(puzzle: Puzzle, lang: str) -> Keyboard:
    """One button per legal move, then "next puzzle" where the chat has another."""
    labels = [answer_label(move, puzzle) for move in puzzle.moves]
    per_row = PER_ROW if all(len(label) <= 4 for label in labels) else 2
    answers = [button(label, Action.PUZZLE, puzzle.game_id, arg=puzzle.spot, index=index)
               for index, label in enumerate(labels)]
    rows = [tuple(answers[start:start + per_row]) for start in range(0, len(answers), per_row)]
    if puzzle.count > 1:
        following = (puzzle.rank + 1) % puzzle.count
        rows.append((button(t(lang, "puzzle.next"), Action.PUZZLE_NEXT, index=following),))
    return tuple(rows)


def puzzle_content(puzzle: Puzzle, lang: str, pictures: bool) -> Content:
    """The puzzle's message: with `pictures` a photo of the table and the hand under the
    question, else the question and the cards in words."""
    question = escape(puzzle_text(puzzle, lang))
    text = question + "\n\n" + escape(position_text(puzzle, lang))
    scene = puzzle_scene(puzzle.deck_style, puzzle.name, puzzle.round, puzzle.table, puzzle.hand)
    picture = Picture(scene, lang, question) if pictures else None
    return Content(text, puzzle_keyboard(puzzle, lang), picture)


def answer_alert(answer: PuzzleAnswer, lang: str) -> str:
    """What the tapper alone is shown: right or wrong, the best play and why (an alert holds
    200 characters)."""
    return clip(answer_text(answer, lang))
