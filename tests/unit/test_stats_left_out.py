"""/stats names the finished matches it leaves out, in every language, plurals included."""

from __future__ import annotations

from bot.render.boards import stats_text

NOTHING_COUNTED = {"games": 0, "wins": 0, "scope": 0, "points": 0, "ratings": {}}


def test_stats_with_no_counted_match_say_why_instead_of_no_match_yet() -> None:
    said = stats_text("Anna", {**NOTHING_COUNTED, "practice": 2, "dailies": 1}, "en")
    assert "No finished matches yet." not in said
    assert "No match counted yet." in said
    assert "Not counted: 2 practice matches, 1 deal of the day (no rating or board)." in said
    assert "1 partita di allenamento, 3 smazzate del giorno" in stats_text(
        "Anna", {**NOTHING_COUNTED, "practice": 1, "dailies": 3}, "it")
    assert "No cuentan: 1 mano del día" in stats_text("Anna", {**NOTHING_COUNTED, "dailies": 1}, "es")


def test_stats_with_nothing_left_out_say_nothing_of_it() -> None:
    assert stats_text("Anna", NOTHING_COUNTED, "en").endswith("No finished matches yet.")
    counted = {**NOTHING_COUNTED, "games": 3, "wins": 2, "scope": 1, "points": 20, "practice": 1}
    assert "Not counted: 1 practice match" in stats_text("Anna", counted, "en")
