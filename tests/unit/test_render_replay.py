"""A replay step's words and buttons, the same on every front-end."""

from __future__ import annotations

from bot.engine import Card, Move
from bot.render.replay import step_buttons, step_caption, step_text
from bot.sessions import ReplayStep


def _step(step: int, steps: int = 36, better: str | None = None, loss: float = 0.0,
          equivalent: bool = False) -> ReplayStep:
    return ReplayStep(7, step, steps, 2, 0, "Marco", 5, tuple(Card.parse(c) for c in ("3C", "4S", "7B")),
                      tuple(Card.parse(c) for c in ("7D", "9C")), Move.parse("7D:3C+4S"),
                      None if better is None else Move.parse(better), loss, equivalent=equivalent)


def test_no_button_leads_outside_the_match_or_twice_to_one_play() -> None:
    assert step_buttons(_step(0)) == [("▶", 1), ("⏭", 35)]
    assert step_buttons(_step(1)) == [("◀", 0), ("▶", 2), ("⏭", 35)]
    assert step_buttons(_step(17)) == [("⏮", 0), ("◀", 16), ("▶", 18), ("⏭", 35)]
    assert step_buttons(_step(34)) == [("⏮", 0), ("◀", 33), ("▶", 35)]
    assert step_buttons(_step(35)) == [("⏮", 0), ("◀", 34)]
    assert step_buttons(_step(0, steps=1)) == []


def test_the_caption_names_the_round_the_players_play_and_the_count() -> None:
    assert step_caption(_step(16), "en").splitlines() == [
        "Round 2 · Marco's 5th play · 17 of 36", "Marco: 7🪙 takes 3🏆+4🗡️"]
    assert step_caption(_step(16), "it").splitlines()[0] == "Smazzata 2 · la 5ª giocata di Marco · 17 di 36"
    assert step_caption(_step(16), "es").splitlines()[0] == "Ronda 2 · la 5.ª jugada de Marco · 17 de 36"


def test_a_graded_play_says_the_better_move_and_about_what_it_cost() -> None:
    lines = step_caption(_step(16, better="7D:7B", loss=2.2), "en").splitlines()
    assert lines[-1].startswith("Better: 7🪙 takes 7🪵")
    assert lines[-1].endswith("(about 2 points lost)"), "the review's words for a loss"
    small = step_caption(_step(16, better="7D:7B", loss=0.3), "it").splitlines()[-1]
    assert small.startswith("Meglio: ") and small.endswith("(circa mezzo punto perso)")
    one = step_caption(_step(16, better="7D:7B", loss=1.1), "es").splitlines()[-1]
    assert one.endswith("(alrededor de 1 punto perdido)")


def test_a_play_as_good_as_another_says_they_are_equivalent_and_is_not_graded() -> None:
    for lang, word in (("it", "Equivalente"), ("en", "Equivalent"), ("es", "Equivalente")):
        lines = step_caption(_step(16, equivalent=True), lang).splitlines()
        assert len(lines) == 3 and lines[-1].startswith(word) and "{" not in lines[-1], lines
        assert not any(line.startswith(("Better", "Meglio", "Mejor")) for line in lines)
    assert len(step_caption(_step(16), "en").splitlines()) == 2, "a play not weighed says nothing more"


def test_the_terminal_shows_the_table_and_the_movers_hand() -> None:
    text = step_text(_step(16), "en").splitlines()
    assert text[1] == "Table: 3🏆 4🗡️ 7🪵" and text[2] == "Marco's hand: 7🪙 C🏆"
