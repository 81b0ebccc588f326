"""What can be checked of the catalogue's language: every key in every language with the same
placeholders, counts as plural entries that Babel's rules fill, no word of one language left in
another, Italian's euphonic *ad*/*ed* before a name, results told with the winner as subject,
and no fuori where the game has none."""

from __future__ import annotations

import re
from string import Formatter

import pytest

from bot.adapters.telegram.markup import hand_lobby_html
from bot.engine import RoundResult, Rules, SideScore, SideTally
from bot.engine.rules import HOUSE_RULES, Variant
from bot.i18n import LANGUAGES, catalogue, fill, forms, placeholders, plural_category, t
from bot.i18n.euphony import euphonic
from bot.render.boards import leaderboard_text
from bot.render.round import match_text, round_caption
from bot.render.words import newgame_help, rules_text
from bot.sessions import MatchEnded, RoundEnded

NAMES = ("Anna", "Andrea", "Alessia", "Elena", "Emma", "Ètore", "Marco", "Ugo", "Ottavio", "Ines",
         "Irene", "Bruna", "🤖 Anna")
"""Names beginning with each vowel and with none, an accent, and a sign before the name."""

NAMED = ("name", "side", "other", "variant", "names", "winner", "partner", "chat")
"""The placeholders that stand for a name or a word, which Italian's euphony looks at."""

GIVEAWAYS = {
    "it": ("tocca", "smazzata", "partita", "giocata", "mossa", "prese", "vince", "della", "questa",
           "giocatore", "carte", "anche", "coppia", "scegli", "tavola", "nessuno", "ancora", "perché",
           "denari", "coppe", "bastoni"),
    "en": ("the", "you", "your", "round", "match", "cards", "player", "turn", "with", "table", "wins",
           "coins"),
    "es": ("ronda", "partida", "jugada", "cartas", "jugador", "mesa", "pareja", "tienes", "también",
           "ninguna", "gana", "contigo", "llevarse", "bazas", "ganadas", "oros"),
}
"""Words that give a text away as written in one language, never right in the others."""

ALLOWED: dict[tuple[str, str], set[str]] = {}
"""Keys where another language's word is meant, by language and word."""


def _words(text: str) -> str:
    """`text` without its placeholders, whose names are English."""
    return re.sub(r"\{[^{}]*\}", " ", text)


def _specs(text: str) -> set[tuple[str, str]]:
    return {(name, spec) for _, name, spec, _ in Formatter().parse(text) if name and spec}


def test_every_key_is_in_every_language_with_the_same_placeholders() -> None:
    keys = {lang: set(catalogue(lang)) for lang in LANGUAGES}
    for lang in LANGUAGES:
        assert keys[lang] == keys["it"], (lang, sorted(keys[lang] ^ keys["it"])[:10])
    for key, entry in catalogue("it").items():
        for lang in LANGUAGES:
            assert placeholders(catalogue(lang)[key]) == placeholders(entry), (lang, key)


def test_a_placeholder_format_is_only_italian_euphony() -> None:
    for lang in LANGUAGES:
        for key, entry in catalogue(lang).items():
            for text in forms(entry).values():
                for name, spec in _specs(text):
                    assert lang == "it" and spec in ("ad", "ed"), (lang, key, spec)
                    assert name in NAMED, (key, name)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_plural_entry_has_the_forms_babel_picks_in_every_language(lang: str) -> None:
    plural = {key for language in LANGUAGES for key, entry in catalogue(language).items()
              if isinstance(entry, dict)}
    used = {plural_category(lang, n) for n in range(200)}
    for key in plural:
        entry = catalogue(lang)[key]
        assert isinstance(entry, dict) and used <= set(entry), (lang, key)
        assert all(form.strip() for form in entry.values())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_carries_a_word_of_another_language(lang: str) -> None:
    found = []
    for other, words in GIVEAWAYS.items():
        if other == lang:
            continue
        for key, entry in catalogue(lang).items():
            for text in forms(entry).values():
                for word in words:
                    if re.search(rf"(?<!\w){word}(?!\w)", _words(text), re.IGNORECASE) \
                            and key not in ALLOWED.get((lang, word), set()):
                        found.append((key, word))
    assert not found, found


@pytest.mark.parametrize("name", NAMES)
def test_italian_writes_ad_and_ed_before_the_same_vowel_alone(name: str) -> None:
    first = name.lstrip("🤖 ")[:1].lower().replace("è", "e")
    a = "ad" if first == "a" and not name.startswith("🤖") else "a"
    e = "ed" if first == "e" and not name.startswith("🤖") else "e"
    assert t("it", "table.turn", name=name) == f"➡️ Tocca {a} {name}"
    assert t("it", "hand.wait_for", name=name) == f"Tocca {a} {name}."
    assert fill("Marco {name:ed}", name=name) == f"Marco {e} {name}"
    assert euphonic(a, name) == a and euphonic(e, name) == e


def test_the_euphony_forms_read_as_italian_writes_them() -> None:
    assert t("it", "table.turn", name="Anna") == "➡️ Tocca ad Anna"
    assert t("it", "table.turn", name="Andrea") == "➡️ Tocca ad Andrea"
    assert t("it", "table.turn", name="Marco") == "➡️ Tocca a Marco"
    assert t("it", "table.turn", name="Elena") == "➡️ Tocca a Elena"
    assert fill("Marco {name:ed}", name="Elena") == "Marco ed Elena"
    assert fill("Anna {name:ed}", name="Ugo") == "Anna e Ugo"
    assert t("it", "round.fuori_short", name="Ugo", side="Ugo & Ines", points=9,
             other="Anna & Elena").endswith("la partita va ad Anna & Elena.")


def test_no_italian_text_puts_a_bare_a_or_e_before_a_name_or_the_same_vowel() -> None:
    bare = re.compile(r"(?<![\w'])[aAeE] \{(" + "|".join(NAMED) + r")\}")
    same_vowel = re.compile(r"(?<![\w'])(a [aAàÀ]|e [eEèÈ])")
    for key, entry in catalogue("it").items():
        for text in forms(entry).values():
            assert not bare.search(text), f"{key}: write {{name:ad}} or {{name:ed}}: {text}"
            assert not same_vowel.search(_words(text)), f"{key}: ad/ed before the same vowel: {text}"


def _round(totals: tuple[int, ...]) -> RoundResult:
    scores = tuple(SideScore({"cards": total}, SideTally(0, 0, 0, 0, 0, 0, False)) for total in totals)
    return RoundResult(1, 0, scores, totals, None, ("cards",))


@pytest.mark.parametrize(("lang", "one", "team"), [
    ("it", "Marco vince la smazzata 3 a 1", "Anna & Elena vincono la smazzata 3 a 1"),
    ("en", "Marco wins the round 3–1", "Anna & Elena win the round 3–1"),
    ("es", "Marco gana la ronda 3 a 1", "Anna & Elena ganan la ronda 3 a 1"),
])
def test_a_round_is_told_with_its_winner_as_subject(lang: str, one: str, team: str) -> None:
    alone = RoundEnded(1, "test", "c", _round((1, 3)), ("Anna", "Marco"))
    assert one in round_caption(alone, lang, 11).splitlines()
    teams = RoundEnded(1, "test", "c", _round((3, 1)), ("Anna & Elena", "Ugo & Ines"))
    assert team in round_caption(teams, lang, 11).splitlines()


@pytest.mark.parametrize(("lang", "one", "team"), [
    ("it", "Marco vince la partita 11 a 7", "Anna & Elena vincono la partita 11 a 7"),
    ("en", "Marco wins the match 11–7", "Anna & Elena win the match 11–7"),
    ("es", "Marco gana la partida 11 a 7", "Anna & Elena ganan la partida 11 a 7"),
])
def test_a_match_is_told_with_its_winner_as_subject(lang: str, one: str, team: str) -> None:
    assert one in match_text(MatchEnded(1, "test", "c", 1, (7, 11), ("Anna", "Marco")), lang).splitlines()
    teams = MatchEnded(1, "test", "c", 0, (11, 7), ("Anna & Elena", "Ugo & Ines"))
    assert team in match_text(teams, lang).splitlines()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_fuori_where_the_game_has_none(lang: str) -> None:
    for variant in Variant:
        if "fuori" in HOUSE_RULES[variant]:
            continue
        for rules in (Rules.default(variant.value), Rules.from_options(variant.value, {"round_limit": "3"})):
            assert "fuori" not in rules_text(variant.value, rules, lang).lower(), (lang, variant)
        assert "fuori" not in newgame_help(lang, variant=variant.value), (lang, variant)
        assert "fuori" not in newgame_help(lang, "discord.newgame.help", variant.value), (lang, variant)
    for key in ("terminal.help", "help.text", "telegram.help.extra", "discord.help"):
        assert "fuori" not in t(lang, key).lower(), (lang, key)
    scopone = Rules.from_options("scopone", {"fuori": "on"})
    assert "fuori" in rules_text("scopone", scopone, lang).lower()
    assert "fuori" in newgame_help(lang, variant="scopone")


@pytest.mark.parametrize(("lang", "title"), [
    ("it", "🏅 Classifica — «Amici»"), ("en", "🏅 Leaderboard — “Amici”"),
    ("es", "🏅 Clasificación — «Amici»")])
def test_a_groups_board_names_the_group_wherever_it_is_read(lang: str, title: str) -> None:
    assert leaderboard_text([], lang, False, None, "Amici").splitlines()[0] == title


def test_a_seat_in_a_game_of_the_private_chat_itself_is_not_named_after_the_player() -> None:
    here = hand_lobby_html("it", "scopa", "Anna", here=True)
    assert "Anna" not in here and "aperta qui" in here
    assert "in “Amici”" in hand_lobby_html("it", "scopa", "Amici")


@pytest.mark.parametrize(("lang", "tie"), [
    ("it", "Smazzata in parità, 2 a 2"), ("en", "Round tied 2–2"), ("es", "Empate en la ronda, 2 a 2")])
def test_a_tied_round_is_told_as_each_language_tells_a_score(lang: str, tie: str) -> None:
    assert tie in round_caption(RoundEnded(1, "test", "c", _round((2, 2)), ("Anna", "Marco")), lang, 11)
