"""A puzzle's words: the question names whose hand, the round and the day; an answer says right
or wrong, the best play, what was played and why; a chat without pictures reads the cards."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.ai.review import Fault, GradedPlay, Reason
from bot.engine import Card, Move
from bot.render.puzzle import answer_text, position_text, puzzle_text
from bot.render.review import move_phrase, reason_text
from bot.sessions.puzzles import Puzzle, PuzzleAnswer

TAKE = Move(Card.parse("7D"), (Card.parse("7C"),))
LAY = Move(Card.parse("2B"), ())


def _puzzle(exact: bool = False) -> Puzzle:
    ended = datetime(2026, 11, 27, 21, 0, tzinfo=UTC).timestamp()
    return Puzzle(4, 1, 7, 0, 3, "Marco", ended, "scopa", "napoletane", (Card.parse("7C"), Card.parse("4S")),
                  (Card.parse("7D"), Card.parse("2B")), (LAY, TAKE), exact)


def _answer(chosen: Move) -> PuzzleAnswer:
    graded = GradedPlay(1, 7, 0, LAY, TAKE, 1.2, 2, _puzzle().table, _puzzle().hand,
                        Reason(Fault.SETTEBELLO))
    return PuzzleAnswer(_puzzle(), chosen, chosen == TAKE, graded)


def test_the_question_names_the_hand_the_round_and_the_day_in_three_languages() -> None:
    assert puzzle_text(_puzzle(), "en") == (
        "🧩 Marco held this hand in round 2 of the match of 27 Nov: what is the best play?")
    assert puzzle_text(_puzzle(), "it") == (
        "🧩 Marco aveva questa mano nella smazzata 2 della partita del 27 nov: qual è la giocata migliore?")
    assert puzzle_text(_puzzle(), "es").startswith(
        "🧩 Marco tenía esta mano en la ronda 2 de la partida del 27 nov")
    assert puzzle_text(_puzzle(exact=True), "en").endswith("counted to the end of the round.")


def test_an_answer_says_right_or_wrong_the_best_play_and_why() -> None:
    best, why = move_phrase(TAKE, "en"), reason_text(_answer(LAY).graded, "en", "scopa")
    assert why
    assert answer_text(_answer(TAKE), "en") == f"✅ Right: {best}. Marco played 2🪵: {why}"
    assert answer_text(_answer(LAY), "en") == f"❌ Wrong: the best play is {best}. Marco played 2🪵: {why}"
    assert answer_text(_answer(LAY), "it").startswith("❌ Sbagliato: la giocata migliore è ")


def test_without_pictures_the_cards_are_in_words() -> None:
    assert position_text(_puzzle(), "en") == "On the table: 7🏆 4🗡️\nIn the hand: 7🪙 2🪵"
