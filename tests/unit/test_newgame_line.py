"""/newgame's typed options: read once in the sessions layer, against the lobby's own options table."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES
from bot.render.words import newgame_help, refusal_text
from bot.sessions import ChatRef, Reason, Refused, UserRef
from bot.sessions.newgame_line import checked_options, line_keys, read_newgame_line
from bot.sessions.options import TARGET, options_for
from bot.sessions.tap import Asker

from ..sessions_helpers import ALICE, CHAT, open_memory_sessions


def asker(user: UserRef = ALICE, chat: ChatRef = CHAT) -> Asker:
    async def no() -> bool:
        return False

    async def reach(game_id: int) -> bool:
        return True

    return Asker(user, chat, no, no, True, reach)


def refused(line: str, variant: str = "scopa") -> Refused:
    with pytest.raises(Refused) as caught:
        asked = read_newgame_line(line)
        checked_options(asked.variant or variant, asked.options)
    return caught.value


@pytest.mark.parametrize(("line", "variant", "options"), [
    ("", None, {}),
    ("scopa", "scopa", {}),
    ("scopone scientifico", "scopone_scientifico", {}),
    ("scopa target=21", "scopa", {"target": "21"}),
    ("Scopone Scientifico TARGET=31 rounds=3", "scopone_scientifico", {"target": "31", "round_limit": "3"}),
    ("target=16", None, {"target": "16"}),
    ("variant=escoba players=4 teams=on", "escoba", {"players": "4", "teams": "on"}),
    ("scopa punti=21 carte=francesi presa=fewest", "scopa", {"target": "21", "deck_style": "french",
                                                            "capture_choice": "fewest"}),
    ("escoba puntos=21 baraja=francesas jugadores=4 parejas=sí", "escoba",
     {"target": "21", "deck_style": "french", "players": "4", "teams": "on"}),
    ("scopa deck=Neapolitan practice=yes ace_takes_all=no", "scopa",
     {"deck_style": "napoletane", "practice": "on", "ace_takes_all": "off"}),
    ("scopone napola=sì fuori=on round-limit=5", "scopone",
     {"napola": "on", "fuori": "on", "round_limit": "5"}),
])
def test_a_valid_line_names_the_game_and_the_lobby_values(line: str, variant: str | None,
                                                          options: dict[str, str]) -> None:
    asked = read_newgame_line(line)
    assert asked.variant == variant
    assert checked_options(variant or "scopa", asked.options) == options


def test_every_value_the_lobby_menus_offer_is_taken_and_only_those() -> None:
    for variant in ("scopa", "scopone", "escoba"):
        for option in options_for(variant):
            if option.key in ("variant", "turn_limit"):
                continue
            for value in option.values:
                asked = read_newgame_line(f"{variant} {option.key}={value}")
                assert checked_options(variant, asked.options) == {option.key: value}


@pytest.mark.parametrize(("line", "reason", "params"), [
    ("scopa target=1000", Reason.OPTION_VALUE, {"asked": "target=1000", "option": "target",
                                                "values": TARGET.values}),
    ("scopa players=9", Reason.OPTION_VALUE, {"option": "players", "values": ("2", "3", "4")}),
    ("scopa deck=tarocchi", Reason.OPTION_VALUE, {"option": "deck_style"}),
    ("scopa practice=maybe", Reason.OPTION_VALUE, {"option": "practice", "values": ("on", "off")}),
    ("scopa colour=red", Reason.OPTION_UNKNOWN, {"option": "colour"}),
    ("scopa napola=on fuori=on", Reason.OPTION_UNKNOWN, {"option": "fuori"}),
    ("scopa turn_limit=60", Reason.OPTION_IN_SETTINGS, {"option": "turn_limit"}),
    ("scopa tempo_mossa=60", Reason.OPTION_IN_SETTINGS, {"option": "turn_limit"}),
    ("scopa target 21", Reason.OPTION_FORM, {"asked": "target"}),
    ("target", Reason.OPTION_FORM, {"asked": "target"}),
    ("scopa target=", Reason.OPTION_FORM, {"asked": "target="}),
    ("scopa =21", Reason.OPTION_FORM, {"asked": "=21"}),
    ("scopa target=21=31", Reason.OPTION_FORM, {"asked": "target=21=31"}),
    ("scopa target=21 escoba", Reason.OPTION_FORM, {"asked": "escoba"}),
    ("scopa target=1000", Reason.OPTION_VALUE, {}),
    ("poker target=21", Reason.UNKNOWN_GAME, {"game": "poker"}),
    ("variant=poker", Reason.UNKNOWN_GAME, {"game": "poker"}),
])
def test_a_wrong_line_is_refused_with_what_it_takes(line: str, reason: Reason,
                                                    params: dict[str, object]) -> None:
    caught = refused(line)
    assert caught.reason is reason
    for key, value in params.items():
        assert caught.params[key] == value
    if reason is Reason.OPTION_UNKNOWN:
        assert "target" in caught.params["options"] and "napola" in caught.params["options"]


def test_the_teams_a_line_may_ask_depend_on_the_players_it_asks_for() -> None:
    assert checked_options("scopa", {"players": "4", "teams": "on"}) == {"players": "4", "teams": "on"}
    with pytest.raises(Refused) as caught:
        checked_options("scopa", {"players": "3", "teams": "on"})
    assert caught.value.reason is Reason.OPTION_VALUE and caught.value.params["values"] == ("off",)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_reads_plainly_in_every_language(lang: str) -> None:
    value = refusal_text(refused("scopa target=1000"), lang)
    assert "target=1000" in value and "8, 11, 15, 16, 21, 31" in value and "{" not in value
    unknown = refusal_text(refused("scopa colour=red"), lang)
    assert "colour" in unknown and "target, round_limit" in unknown and "{" not in unknown
    form = refusal_text(refused("scopa target 21"), lang)
    assert "«target»" in form or "“target”" in form
    assert "=" in form and "{" not in form
    settings = refusal_text(refused("scopa turn_limit=60"), lang)
    assert "/settings" in settings and "{" not in settings
    texts = {value, unknown, form, settings}
    assert len(texts) == 4
    others = [refusal_text(refused("scopa target=1000"), other) for other in LANGUAGES if other != lang]
    assert value not in others, "each language has its own words"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_names_the_form_and_every_option(lang: str) -> None:
    text = newgame_help(lang)
    assert "/newgame" in text and "target=21" in text
    assert all(key in text for key in line_keys())
    assert "turn_limit" not in line_keys() and "variant" not in line_keys()


async def test_newgame_opens_the_lobby_with_the_typed_options_and_a_wrong_line_opens_nothing() -> None:
    sessions = await open_memory_sessions()
    with pytest.raises(Refused) as caught:
        await sessions.taps.new_game(asker(), line="scopa target=1000")
    assert caught.value.reason is Reason.OPTION_VALUE
    assert await sessions.queries.open_game_id(CHAT) is None
    await sessions.taps.new_game(asker(), line="scopone target=21 deck=piacentine practice=on napola=on")
    lobby = await sessions.queries.lobby(CHAT)
    assert (lobby.variant, lobby.rules.target, lobby.deck_style) == ("scopone", 21, "piacentine")
    assert lobby.rules.practice and lobby.rules.napola


async def test_options_without_a_game_are_checked_against_the_chats_default_game() -> None:
    sessions = await open_memory_sessions()
    await sessions.settings.set_chat_defaults(CHAT, {"variant": "scopone"})
    await sessions.taps.new_game(asker(), line="napola=on")
    lobby = await sessions.queries.lobby(CHAT)
    assert lobby.variant == "scopone" and lobby.rules.napola


async def test_a_commands_own_fields_are_checked_the_same_and_the_typed_line_wins() -> None:
    sessions = await open_memory_sessions()
    with pytest.raises(Refused) as caught:
        await sessions.taps.new_game(asker(), "scopa", {"target": 1000})
    assert caught.value.reason is Reason.OPTION_VALUE
    await sessions.taps.new_game(asker(), "scopa", {"target": 16, "teams": None}, "target=31")
    assert (await sessions.queries.lobby(CHAT)).rules.target == 31


def test_a_typed_word_is_quoted_back_without_turning_the_sentence_around() -> None:
    assert read_newgame_line("scopa \u202etarget=21").options == {"target": "21"}
    caught = refused("scopa \u05e2\u05d3\u05d9=1")
    assert caught.params["option"] == "\u2068\u05e2\u05d3\u05d9\u2069"
    value = refusal_text(refused("scopa target=\u202e1000"), "en")
    assert "\u202e" not in value and "“target=1000”" in value
