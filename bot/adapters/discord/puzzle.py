"""/puzzle on Discord: a position from the channel's own matches (in a DM, the player's own),
posted for the channel with the picture of the table and the hand (or the cards in words)
and a button per legal move; a press is answered with an ephemeral note, to the presser alone.

Each answer button's custom id carries the match, the play and the move's place among the
legal moves (`Action.PUZZLE`); "next puzzle" carries the next one's place
(`Action.PUZZLE_NEXT`): nothing is kept between presses, and the sessions check every field
again (`sessions.puzzles`)."""

from __future__ import annotations

from discord import ui

from ...i18n import t
from ...pictures.puzzle import puzzle_scene
from ...render.puzzle import answer_label, answer_text, position_text, puzzle_text
from ...sessions.puzzles import Puzzle, PuzzleAnswer
from .components import PER_ROW, ROWS, button, layout
from .custom_ids import Action, Press
from .embeds import text_embed
from .pictures import Painter
from .replies import Reply


def puzzle_components(puzzle: Puzzle, lang: str) -> ui.View:
    """One button per legal move (five a row), then "next puzzle" where there is another."""
    answers = [button(answer_label(move, puzzle), Press(Action.PUZZLE, puzzle.game_id, arg=puzzle.spot,
                                                         index=index))
               for index, move in enumerate(puzzle.moves)]
    rows: list[list[ui.Item[ui.View]]] = [list(answers[start:start + PER_ROW])
                                          for start in range(0, len(answers), PER_ROW)]
    if puzzle.count > 1:
        following = Press(Action.PUZZLE_NEXT, index=(puzzle.rank + 1) % puzzle.count)
        rows = [*rows[:ROWS - 1], [button(t(lang, "puzzle.next"), following)]]
    return layout(*rows)


async def puzzle_reply(painter: Painter, puzzle: Puzzle, lang: str, channel_key: str | None) -> Reply:
    """The puzzle for everyone in the channel: the question above the picture where the channel
    shows pictures (a direct message, `channel_key` None, always does), else above the cards in
    words."""
    question = puzzle_text(puzzle, lang)
    picture = None
    if channel_key is None or await painter.wanted(channel_key):
        scene = puzzle_scene(puzzle.deck_style, puzzle.name, puzzle.round, puzzle.table, puzzle.hand)
        picture = await painter.puzzle(scene, lang)
    text = question + "\n\n" + position_text(puzzle, lang)
    return Reply.message(embed=text_embed(text), view=puzzle_components(puzzle, lang), picture=picture,
                         ephemeral=False)


def answer_reply(answer: PuzzleAnswer, lang: str) -> Reply:
    """Right or wrong, the best play and why, for the presser alone."""
    return Reply.note(answer_text(answer, lang))
