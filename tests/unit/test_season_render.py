"""A season in words and as a picture: what a player reads in every language, the announcement
naming the champion and the next places, a player's past seasons, and the picture's rows."""

from __future__ import annotations

from datetime import date

import pytest

from bot.pictures.season import WIDTH, season_picture
from bot.render.season import closed_text, history_text, season_scene, season_text, unknown_player_text
from bot.sessions.ports import ERASED_NAME
from bot.sessions.refs import ChatRef
from bot.sessions.seasons import (
    PastSeason,
    SeasonBoard,
    SeasonClose,
    SeasonHistory,
    Standing,
    month_start,
)

ALICE = Standing(1, "Alice", 14, 4, 5, 2, 3)
BOB = Standing(2, "Bob", 3, 1, 4)
CARLA = Standing(3, "Carla", 3, 1, 6)


def _board(running: bool = True, people: int = 3, asker: tuple[int, Standing] | None = None) -> SeasonBoard:
    return SeasonBoard(date(2026, 11, 1), False, "Friends", running, month_start(date(2026, 12, 1)),
                       ((1, ALICE), (2, BOB), (3, CARLA)), people, asker, None if running else ALICE)


@pytest.mark.parametrize(("lang", "month", "ends", "row"), [
    ("it", "novembre 2026", "1 dicembre", "1. Alice — 14 punti · 4 vittorie su 5 partite · serie +2"),
    ("en", "November 2026", "December 1", "1. Alice — 14 points · 4 wins in 5 matches · streak +2"),
    ("es", "noviembre 2026", "1 de diciembre", "1. Alice — 14 puntos · 4 victorias de 5 partidas · racha +2"),
])
def test_the_standings_in_words(lang: str, month: str, ends: str, row: str) -> None:
    text = season_text(_board(asker=(14, Standing(9, "Zeno", 0, 0, 1))), lang)
    assert month in text and "Friends" in text and ends in text and "00:00 UTC" in text
    assert row in text.splitlines()
    assert text.splitlines()[-4] == "…" and text.splitlines()[-3].startswith("14. Zeno")


def test_a_season_over_names_its_champion_and_an_empty_one_says_so() -> None:
    assert "Champion: Alice" in season_text(_board(running=False), "en")
    empty = SeasonBoard(date(2026, 12, 1), True, None, True, month_start(date(2027, 1, 1)), (), 0)
    assert "everyone" in season_text(empty, "en") and "/newgame" in season_text(empty, "en")


def test_the_champion_announced_with_the_next_places() -> None:
    text = closed_text(SeasonClose(ChatRef("t", "g"), "en", _board(running=False)), "en")
    assert text.splitlines() == [
        "🏆 The season of November 2026 is over! Champion: Alice, with 14 points (4 wins in 5 matches).",
        "Then: 2. Bob 3 points, 3. Carla 3 points.",
        "A new season has begun: /season to follow it."]


def test_a_players_past_seasons() -> None:
    history = SeasonHistory("Alice", False, "Friends", PastSeason(date(2026, 11, 1), 2, 5, ALICE),
                            (PastSeason(date(2026, 10, 1), 1, 4, ALICE),
                             PastSeason(date(2026, 9, 1), 3, 3, BOB)))
    assert history_text(history, "en").splitlines() == [
        "📅 Seasons of Alice · Friends",
        "This month so far: place 2 of 5, 14 points (4 wins in 5 matches)",
        "October 2026: 🏆 champion (4 players), 14 points (4 wins in 5 matches)",
        "September 2026: place 3 of 3, 3 points (1 win in 4 matches)",
        "🏆 1 season won"]
    assert "Zed" in unknown_player_text("Zed", "it")


def test_the_picture_has_a_row_a_player_and_keeps_long_names_inside() -> None:
    three = season_picture(season_scene(_board(), "it"), "it")
    long_name = Standing(4, "Carla Maria Giovanna De Santis Bellini Rossi", 1, 0, 1)
    four = season_picture(season_scene(SeasonBoard(
        date(2026, 11, 1), True, None, True, 0.0, ((1, ALICE), (2, BOB), (3, CARLA), (4, long_name)), 20,
        (20, Standing(9, ERASED_NAME, 0, 0, 1))), "en"), "en")
    assert three.width == four.width == WIDTH
    assert four.height > three.height
    assert season_scene(_board(), "it") == season_scene(_board(), "it"), "an unchanged board: the same scene"
