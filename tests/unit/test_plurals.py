"""Counts agree with their number in every language, by the CLDR plural rules (Babel)."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, PLURAL_CATEGORIES, catalogue, forms, plural_category, t, tn
from bot.render.boards import leaderboard_text, stats_text
from bot.sessions import LeaderboardLine

PLURALS = sorted({key for lang in LANGUAGES for key, entry in catalogue(lang).items()
                  if isinstance(entry, dict)})


def test_the_catalogue_has_plural_texts() -> None:
    assert {"count.games", "count.wins", "count.points", "count.scopa", "table.stock"} <= set(PLURALS)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", PLURALS)
def test_a_plural_text_has_every_form_its_language_uses(lang: str, key: str) -> None:
    entry = catalogue(lang)[key]
    assert isinstance(entry, dict), f"{key} is plural in some language, so in {lang} too"
    assert "other" in entry and set(entry) <= set(PLURAL_CATEGORIES), entry
    used = {plural_category(lang, n) for n in range(1001)}
    assert used - {"many"} <= set(entry), f"{lang} {key} lacks {used - set(entry)}"
    assert all(text.strip() for text in entry.values())


def test_a_category_without_its_own_form_takes_other() -> None:
    assert plural_category("it", 1_000_000) == "many"
    assert tn("it", "count.games", 1_000_000) == "1000000 partite"
    assert forms("plain") == {"other": "plain"}


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("it", "1 partita", "2 partite"), ("en", "1 game", "2 games"), ("es", "1 partida", "2 partidas")])
def test_games_agree_with_their_number(lang: str, one: str, two: str) -> None:
    assert tn(lang, "count.games", 1) == one and tn(lang, "count.games", 2) == two
    assert t(lang, "count.games", count=0) == two.replace("2", "0")


@pytest.mark.parametrize(("lang", "once", "twice"), [
    ("it", "1 partita, 1 vinta", "2 partite, 2 vinte"),
    ("en", "1 game, 1 win", "2 games, 2 wins"),
    ("es", "1 partida, 1 ganada", "2 partidas, 2 ganadas")])
def test_the_leaderboard_agrees_its_counts(lang: str, once: str, twice: str) -> None:
    rows = [LeaderboardLine(1, "Anna", 2.0, 2, 2, 2), LeaderboardLine(2, "Marco", 1.0, 1, 1, 1)]
    board = leaderboard_text(rows, lang, False).splitlines()
    assert twice in board[1] and "2 scope" in board[1]
    assert once in board[2] and "1 scopa" in board[2]


@pytest.mark.parametrize(("lang", "once", "twice"), [
    ("it", "1 partita, 1 vinta, 1 scopa, 1 punto", "2 partite, 2 vinte, 2 scope, 2 punti"),
    ("en", "1 game, 1 win, 1 scopa, 1 point", "2 games, 2 wins, 2 scope, 2 points"),
    ("es", "1 partida, 1 ganada, 1 scopa, 1 punto", "2 partidas, 2 ganadas, 2 scope, 2 puntos")])
def test_stats_agree_their_counts(lang: str, once: str, twice: str) -> None:
    for n, expected in ((1, once), (2, twice)):
        stats = {"games": n, "wins": n, "scope": n, "points": n,
                 "ratings": {"duel": {"rating": 1.0, "games": n, "wins": n}}}
        text = stats_text("Anna", stats, lang)
        assert expected in text
        assert expected.rsplit(", ", 2)[0] in text.splitlines()[-1], "the ladder line agrees too"


def test_an_escoba_chat_counts_escobas_on_its_leaderboard_and_stats() -> None:
    board = leaderboard_text([LeaderboardLine(1, "Ana", 2.0, 3, 2, 12)], "es", False, "escoba")
    assert "12 escobas" in board and "scope" not in board
    assert "1 escoba," in stats_text("Ana", {"games": 1, "wins": 1, "scope": 1, "points": 9}, "es", "escoba")


@pytest.mark.parametrize(("lang", "one", "three"), [
    ("it", "Mazzo: 1 carta", "Mazzo: 3 carte"), ("en", "Deck: 1 card left", "Deck: 3 cards left"),
    ("es", "Mazo: 1 carta", "Mazo: 3 cartas")])
def test_the_stock_agrees_with_its_cards(lang: str, one: str, three: str) -> None:
    assert t(lang, "table.stock", count=1) == one and t(lang, "table.stock", count=3) == three
