"""The catalogue is complete in both languages, and rendering reads well."""

from __future__ import annotations

from pathlib import Path

from bot.engine import Game
from bot.i18n import catalogue, placeholders, t
from bot.render.round import breakdown_text
from bot.render.words import display_width, lobby_text, move_label, table_text
from bot.sessions import RoundEnded
from bot.sessions.records import PlayerRow
from bot.sessions.views import LobbyView, SeatInfo, table_view
from bot.storage import GameRow, SeatRow


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    it, en = catalogue("it"), catalogue("en")
    assert set(it) == set(en)
    for key in it:
        assert placeholders(it[key]) == placeholders(en[key]), key


def test_every_catalogue_key_used_in_code_exists() -> None:
    import re

    keys = set(catalogue("en"))
    root = Path(__file__).resolve().parents[2] / "bot"
    pattern = re.compile(r"""\btn?\([^,()]+,\s*["']([a-z_]+\.[a-z_.]+)["']""")
    used = {m.group(1) for path in root.rglob("*.py") for m in pattern.finditer(path.read_text())}
    assert used and used <= keys, used - keys


def test_every_house_rule_and_round_limit_has_a_label() -> None:
    from bot.engine.rules import HOUSE_RULES, ROUND_LIMITS_OFFERED
    from bot.render.words import house_rule_label, round_limit_label

    names = {name for names in HOUSE_RULES.values() for name in names}
    for lang in ("it", "en"):
        labels = {house_rule_label(name, lang) for name in names}
        limits = {round_limit_label(n, lang) for n in ROUND_LIMITS_OFFERED}
        assert len(labels) == len(names) and len(limits) == len(ROUND_LIMITS_OFFERED)
        assert not any(label.startswith("option.") for label in labels | limits), "a missing key"


def test_rules_explain_the_house_rules_in_effect_and_only_those() -> None:
    from bot.engine import Rules
    from bot.render.words import rules_text

    scopone = Rules.from_options("scopone", {"fuori": "on", "round_limit": "3", "must_capture": "off"})
    text = rules_text("scopone", scopone, "en")
    assert "Fuori: with any play but the last of a round" in text
    assert "after 3 rounds at the latest" in text and "Capturing is optional card by card" in text
    assert "Napola" not in text and "Re bello" not in text
    assert "ci si può dichiarare fuori" in rules_text("scopone", scopone, "it")
    escoba = rules_text("escoba", Rules.from_options("escoba", {"napola": "on"}), "en")
    assert "Napola" not in escoba, "escoba scores no napola, so it is not announced"


def test_unknown_language_falls_back_to_italian() -> None:
    assert t("xx", "button.join") == "Partecipa"
    assert t("en", "button.join") == "Join"


def _row(game: Game) -> GameRow:
    players = [PlayerRow(i + 1, "test", f"u{i}", name, None, None, True, False, False)
               for i, name in enumerate(["Alice", "Bob"])]
    seats = tuple(SeatRow(i, p.id, None, True, 0, False, p) for i, p in enumerate(players))
    return GameRow(1, 1, 1, "scopa", {}, 2, False, "napoletane", "running", None, game.version,
                   "s", None, None, False, 0.0, 0.0, None, seats)


def test_table_and_breakdown_render_in_both_languages() -> None:
    game = Game.new("scopa", 2, seed=4)
    while not game.results:
        outcome = game.apply(game.legal_moves()[0])
    view = table_view(_row(game), game)
    for lang in ("it", "en"):
        text = table_text(view, lang, now=0)
        assert "Alice" in text and "Bob" in text
    event = RoundEnded(1, "test", "c", outcome.round_result, ("Alice", "Bob"))  # type: ignore[arg-type]
    text = breakdown_text(event, "it")
    assert "Primiera" in text and "Settebello" in text and "Alice" in text
    lines = text.splitlines()
    assert lines[1].split() == ["Alice", "Bob"], "a column per side"
    assert lines[2].startswith("Carte") and lines[-3].startswith("Smazzata")
    assert lines[-2].startswith("Partita")
    assert all(display_width(line) <= 32 for line in lines[1:-1]), "the table fits a phone"
    assert lines[-1].startswith("Conteggi (Alice – Bob): carte ") and "denari" in lines[-1]
    assert "Settebello" in breakdown_text(event, "en") and "7♦" not in breakdown_text(event, "en")


def test_lobby_and_move_labels() -> None:
    from bot.engine import Move, Rules

    view = LobbyView(1, "lobby", "scopone", Rules.default("scopone"), {}, 4, True, "french", 1,
                     (SeatInfo(0, "Alice", 1, False, None, True, False), None,
                      SeatInfo(2, "CPU 🤔", 9, True, "medium", True, False), None), 90)
    text = lobby_text(view, "en")
    assert "Scopone" in text and "(empty)" in text and "team A" in text
    assert move_label(Move.parse("7D:3C+4S"), "french") == "7♦ → 3♥+4♠"
