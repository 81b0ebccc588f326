"""The review's words as players read them: losses in points of the match ("about 2 points
lost"), plays numbered per player ("your 5th play", "Marco's 5th play"), and no search counts
or formulas anywhere a player looks."""

from __future__ import annotations

import pytest

from bot.ai.review import Fault, GradedPlay, Reason, Review
from bot.engine import Card, Move
from bot.i18n import LANGUAGES, catalogue, forms
from bot.render.review import (
    accuracy_help,
    costly_line,
    loss_text,
    personal_review_text,
    play_number,
    play_words,
    review_text,
)

NAMES = ("Anna", "Marco")


def _cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


def _play(round_: int, play: int, seat: int, loss: float = 0.0, played: str = "2B",
          best: str = "6B:6S") -> GradedPlay:
    reason = Reason(Fault.BETTER) if loss > 0 else None
    return GradedPlay(round_, play, seat, Move.parse(played), Move.parse(best), loss, 2,
                      _cards("6S 3C"), _cards("2B 6B 9D"), reason)


def _review(losses: dict[tuple[int, int], float] | None = None, searches: int = 128) -> Review:
    """Two rounds of 2-player scopa, 36 plays each in turn (seat 0 first in round 0, seat 1 in
    round 1), with the given losses by (round, play)."""
    losses = losses or {}
    plays = tuple(_play(r, p, (p + r) % 2, losses.get((r, p), 0.0)) for r in range(2) for p in range(36))
    return Review("scopa", 2, searches, plays)


@pytest.mark.parametrize(("lang", "loss", "text"), [
    ("en", 1.0, "about 1 point lost"), ("en", 2.0, "about 2 points lost"),
    ("en", 0.5, "about half a point lost"), ("en", 1.6, "about 1.5 points lost"),
    ("en", 0.1, "less than a quarter of a point lost"),
    ("it", 1.0, "circa 1 punto perso"), ("it", 2.04, "circa 2 punti persi"),
    ("it", 0.5, "circa mezzo punto perso"),
    ("it", 1.4, "circa 1,5 punti persi"), ("it", 0.2, "meno di un quarto di punto perso"),
    ("es", 0.97, "alrededor de 1 punto perdido"), ("es", 2.0, "alrededor de 2 puntos perdidos"),
    ("es", 0.45, "alrededor de medio punto perdido"), ("es", 2.5, "alrededor de 2,5 puntos perdidos"),
    ("es", 0.05, "menos de un cuarto de punto perdido"),
])
def test_a_loss_is_told_in_points_of_the_match_to_the_nearest_half(lang: str, loss: float, text: str) -> None:
    assert loss_text(loss, lang) == text


@pytest.mark.parametrize(("lang", "numbers"), [
    ("en", {1: "your 1st play", 2: "your 2nd play", 3: "your 3rd play", 4: "your 4th play",
            11: "your 11th play", 12: "your 12th play", 13: "your 13th play", 21: "your 21st play",
            22: "your 22nd play", 23: "your 23rd play"}),
    ("it", {1: "la tua 1ª giocata", 5: "la tua 5ª giocata", 8: "la tua 8ª giocata",
            11: "la tua 11ª giocata"}),
    ("es", {1: "tu 1.ª jugada", 3: "tu 3.ª jugada", 5: "tu 5.ª jugada", 11: "tu 11.ª jugada"}),
])
def test_a_play_is_numbered_with_the_ordinal_of_each_language(lang: str, numbers: dict[int, str]) -> None:
    assert {number: play_words(number, lang) for number in numbers} == numbers


def test_another_players_play_is_named_after_them() -> None:
    assert play_words(5, "en", "Marco") == "Marco's 5th play"
    assert play_words(5, "it", "Marco") == "la 5ª giocata di Marco"
    assert play_words(5, "es", "Marco") == "la 5.ª jugada de Marco"


def test_plays_are_counted_per_player_and_per_round() -> None:
    review = _review()
    assert [play_number(review, review.plays[n]) for n in range(6)] == [1, 1, 2, 2, 3, 3]
    assert play_number(review, review.plays[33]) == 17, "the 34th card of the round, the player's 17th"
    assert play_number(review, review.plays[36]) == 1, "counted again from the next round"


def test_a_costly_line_names_the_round_the_players_own_play_and_the_loss_in_words() -> None:
    review = _review({(1, 9): 2.0})
    play = review.plays[36 + 9]
    assert costly_line(review, play, "en") == \
        "Round 2, your 5th play: 2🪵 instead of 6🪵 → 6🗡️ (about 2 points lost): better: 6🪵 takes 6🗡️"
    assert costly_line(review, play, "en", name="Marco").startswith("Round 2, Marco's 5th play: ")
    assert costly_line(review, play, "it").startswith("Smazzata 2, la tua 5ª giocata: 2🪵 invece di 6🪵 → 6🗡️ "
                                                      "(circa 2 punti persi): ")
    assert costly_line(review, play, "es").startswith("Ronda 2, tu 5.ª jugada: 2🪵 en lugar de 6🪵 → 6🗡️ "
                                                      "(alrededor de 2 puntos perdidos): ")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_review_text_shows_a_search_count_a_formula_or_a_bare_loss(lang: str) -> None:
    review = _review({(0, 8): 2.0, (0, 33): 0.5, (1, 2): 1.0, (1, 7): 0.1}, searches=128)
    texts = [review_text(review, list(NAMES), lang), accuracy_help(lang),
             *(personal_review_text(review, list(NAMES), seat, lang) for seat in range(2))]
    for text in texts:
        for jargon in ("128", "search", "ricerc", "búsqueda", "e^", "×", "−", "(-", "move 34", "mossa 34"):
            assert jargon not in text, (jargon, text)
    assert "Marco" in review_text(review, list(NAMES), lang)


def test_the_whole_review_names_each_players_plays_and_ones_own_review_says_yours() -> None:
    review = _review({(0, 8): 2.0, (0, 33): 0.5})
    whole = review_text(review, list(NAMES), "en")
    assert "Round 1, Anna's 5th play: " in whole and "Round 1, Marco's 17th play: " in whole
    assert "Round 1, your 5th play: " in personal_review_text(review, list(NAMES), 0, "en")
    assert "Anna" not in personal_review_text(review, list(NAMES), 1, "en").split("Marco, ")[1]


def test_accuracy_is_explained_in_plain_words() -> None:
    assert accuracy_help("en").startswith(
        "Accuracy (0–100): 100 means every play was as good as the computer's best")
    assert "67" in accuracy_help("en") and "67" in accuracy_help("it") and "67" in accuracy_help("es")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_review_hint_or_review_picture_text_names_searches_or_a_formula(lang: str) -> None:
    review = ("review.", "hint.", "pictures.review.")
    shown = [(key, text) for key, entry in catalogue(lang).items() if key.startswith(review)
             for text in forms(entry).values()]
    for key, text in shown:
        for jargon in ("search", "ricerc", "búsqued", "e^", "×", "(−"):
            assert jargon not in text, (key, jargon)
