"""Spanish is a full language of the catalogue: every text, chosen from the player's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.engine import Game, Rules
from bot.i18n import LANGUAGES, catalogue, forms, language_of, placeholders, t
from bot.render.round import breakdown_text
from bot.render.words import refusal_text, rules_text, table_text
from bot.sessions import Reason, Refused, RoundEnded
from bot.sessions.records import PlayerRow
from bot.sessions.views import table_view
from bot.storage import GameRow, SeatRow

FOLDER = Path(__file__).resolve().parents[2] / "bot" / "i18n"

SAME_AS_ENGLISH = {
    # the games' and house rules' own (Italian) names, the same in every language
    "variant.scopa", "variant.scopone", "variant.scopone_scientifico", "variant.escoba",
    "option.re_bello", "option.napola", "option.asso_bello",
    "round.primiera", "round.re_bello", "round.napola", "round.asso_bello", "counts.primiera",
    "pictures.category.primiera", "pictures.category.re_bello", "pictures.category.napola",
    "pictures.category.asso_bello",
    # a sweep is a scopa (scope) or an escoba (escobas) in every language
    "count.scopa", "count.escoba", "round.scope",
    "round.escobas", "counts.scope", "counts.escobas", "draw.card",
    # a language's name is written in that language
    "telegram.language.it", "telegram.language.en", "telegram.language.es",
    "discord.language.it", "discord.language.en", "discord.language.es",
    # emoji, names and numbers only
    "lobby.seat_player", "lobby.seat_computer", "play.computer", "stats.title", "computer.name",
    "telegram.button.computer", "discord.button.computer", "telegram.seconds", "counts.no_primiera",
    "stats.summary", "daily.board.row", "hint.text", "telegram.play.compact_took",
    "telegram.play.compact_laid", "feat.napola", "feats.earned", "feats.line", "replay.played_line",
    "season.asker", "season.closed.next_row", "stats.achievement", "stats.apart", "stats.variant_record",
    # a tournament's table: two names and a dash
    "tournament.pairing",
}
"""The Spanish texts that are rightly the English ones: names, emoji and formats, nothing to translate."""


def _areas() -> list[str]:
    """Each catalogue file's area: `` for `it.json`, `.telegram` for `it.telegram.json`, …"""
    return sorted(path.name[2:-5] for path in FOLDER.glob("it*.json"))


def _load(lang: str, area: str) -> dict[str, str]:
    path = FOLDER / f"{lang}{area}.json"
    assert path.exists(), f"{path.name} is missing"
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("area", _areas())
def test_every_italian_and_english_text_has_a_spanish_one_with_the_same_parameters(area: str) -> None:
    it, en, es = _load("it", area), _load("en", area), _load("es", area)
    assert set(it) == set(en)
    assert set(it) <= set(es), f"es{area}.json lacks {sorted(set(it) - set(es))}"
    for key in it:
        assert placeholders(es[key]) == placeholders(it[key]) == placeholders(en[key]), key
        assert all(text.strip() for text in forms(es[key]).values()), key


def test_the_spanish_catalogue_is_translated_not_copied() -> None:
    es, en = catalogue("es"), catalogue("en")
    copied = {key for key, text in es.items() if text == en.get(key)}
    assert copied <= SAME_AS_ENGLISH, sorted(copied - SAME_AS_ENGLISH)


def test_spanish_uses_the_spanish_names_of_suits_and_figures() -> None:
    es = catalogue("es")
    assert es["round.coins"] == "Oros"
    assert "¡Escoba!" in es["play.escoba"] and "¡escoba!" in es["play.starting_take"]
    assert all(word in es["rules.escoba"] for word in ("sota", "caballo", "rey", "oros", "escobas"))
    words = re.sub(r"\{\w+\}", "", " ".join(text for entry in es.values()
                                             for text in forms(entry).values())).lower()
    assert "denari" not in words and "coppe" not in words and "bastoni" not in words


def test_spanish_discord_command_names_are_valid_slash_command_names() -> None:
    es = catalogue("es")
    names = [text for key, text in es.items() if key.startswith("discord.") and key.endswith(".name")]
    assert names and all(re.fullmatch(r"[-_a-zñ0-9]{1,32}", name) for name in names), names
    commands = [es[key] for key in es if key.startswith("discord.command.") and key.endswith(".name")]
    assert len(set(commands)) == len(commands)


@pytest.mark.parametrize(("code", "language"), [
    ("es", "es"), ("es-ES", "es"), ("es-419", "es"), ("ES_mx", "es"), (" es ", "es"),
    ("it", "it"), ("it-CH", "it"), ("IT", "it"),
    ("en", "en"), ("en-US", "en"), ("en-GB", "en"), ("pt-BR", "en"), ("fr", "en"), ("ca", "en"),
    ("eu", "en"), ("gl", "en"),
])
def test_a_platform_language_code_picks_the_catalogue_language(code: str, language: str) -> None:
    assert language_of(code) == language


def test_no_language_code_takes_the_fallback() -> None:
    assert language_of(None) == "it"
    assert language_of("") == "it" and language_of("  ") == "it"
    assert language_of(None, fallback="es") == "es"
    assert language_of("es", fallback="en") == "es"


def test_spanish_is_chosen_by_its_code_and_unknown_codes_stay_italian() -> None:
    assert "es" in LANGUAGES
    assert t("es", "button.join") == "Unirme"
    assert t(language_of("es-419"), "refused.not_your_turn") == "No te toca."
    assert t("xx", "button.join") == "Partecipa"


def test_a_refusal_renders_in_spanish_with_every_parameter() -> None:
    assert refusal_text(Refused(Reason.SEATS_EMPTY, count=2), "es") == (
        "Faltan 2 jugadores: espera o añade la máquina.")
    assert refusal_text(Refused(Reason.SEATS_EMPTY, count=1), "es") == (
        "Falta 1 jugador: espera o añade la máquina.")
    assert refusal_text(Refused(Reason.ILLEGAL_MOVE, detail="7D"), "es") == "Jugada no válida: 7D"
    assert "30 minutos" in refusal_text(Refused(Reason.GAME_OPEN), "es")
    for reason in Reason:
        needed = placeholders(catalogue("en")[f"refused.{reason.value}"])
        sample: dict[str, object] = {"count": 3, "games": ("scopa", "escoba")}
        given = {name: sample.get(name, "7D") for name in needed}
        shown = {**given, "games": "Scopa, Escoba"}
        text = refusal_text(Refused(reason, **given), "es")
        assert text == t("es", f"refused.{reason.value}", **{"minutes": "30 minutos", **shown})
        assert text != t("en", f"refused.{reason.value}", **{"minutes": "30 minutes", **shown})


def test_the_escoba_rules_render_in_spanish() -> None:
    escoba = Rules.from_options("escoba", {"round_limit": "3", "must_capture": "off"})
    text = rules_text("escoba", escoba, "es")
    assert text.startswith("Escoba: de 2 a 6 jugadores.")
    assert f"Gana quien llega a {escoba.target}." in text
    assert "Reglas: Se juega a" in text and "como muy tarde tras 3 rondas" in text
    assert "Llevarse es obligatorio solo con la carta jugada" in text
    scopone = Rules.from_options("scopone", {"fuori": "on", "napola": "on"})
    assert "se puede cantar fuori" in rules_text("scopone", scopone, "es")


def _row(game: Game, variant: str) -> GameRow:
    players = [PlayerRow(i + 1, "test", f"u{i}", name, "es", None, True, False, False)
               for i, name in enumerate(["Lucía", "Pablo"])]
    seats = tuple(SeatRow(i, p.id, None, True, 0, False, p) for i, p in enumerate(players))
    return GameRow(1, 1, 1, variant, {}, 2, False, "napoletane", "running", None, game.version,
                   "s", None, None, False, 0.0, 0.0, None, seats)


def test_an_escoba_round_summary_and_table_render_in_spanish() -> None:
    game = Game.new("escoba", 2, seed=7)
    while not game.results:
        outcome = game.apply(game.legal_moves()[0])
    table = table_text(table_view(_row(game, "escoba"), game), "es", now=0)
    assert "Escoba · ronda 2" in table and "Lucía" in table and "escobas" in table
    event = RoundEnded(1, "test", "c", outcome.round_result, ("Lucía", "Pablo"),  # type: ignore[arg-type]
                       variant="escoba")
    summary = breakdown_text(event, "es")
    lines = summary.splitlines()
    assert lines[0] == "📊 Fin de la ronda 1"
    assert lines[1].split() == ["Lucía", "Pablo"]
    labels = [line[:10].strip() for line in lines[2:-1]]
    assert labels == ["Cartas", "Oros", "7 de oros", "Sietes", "Escobas", "Ronda", "Partida"]
