"""Names and titles as every front-end shows them: no stray direction controls, right-to-left
names isolated, long names cut between grapheme clusters."""

from __future__ import annotations

import unicodedata
from html import escape

import regex

from bot.pictures import table_picture, table_scene
from bot.pictures.text import printable
from bot.render.words import score_text
from bot.sessions import ChatRef, UserRef
from bot.sessions.names import FSI, NAME_MOST, PDI, clipped, shown_name

from ..sessions_helpers import CHAT, open_memory_sessions, start_duel
from .test_pictures import _seats, _table_view

RLO = "\u202e"
FAMILY = "👨\u200d👩\u200d👧"
ITALY = "🇮🇹"


def whole_clusters(name: str, raw: str) -> bool:
    """Every grapheme cluster of `name` is one of `raw`'s, whole."""
    return regex.findall(r"\X", name) == regex.findall(r"\X", raw)[:len(regex.findall(r"\X", name))]


def test_an_override_is_dropped_and_a_plain_name_stays_as_typed() -> None:
    assert shown_name(f"Eve{RLO}") == "Eve"
    assert shown_name(f"{RLO}Eve\u202c") == "Eve"
    assert shown_name("Anna") == "Anna"
    assert shown_name("  José Ñandú  ") == "José Ñandú"
    assert UserRef("telegram", "1", f"Eve{RLO}").name == "Eve"
    assert UserRef("telegram", "1", f"{RLO}\u2066").name == "1", "a name of controls alone is its key"


def test_a_right_to_left_name_is_isolated_and_keeps_its_scores_after_it() -> None:
    name = shown_name("עדי")
    assert name == f"{FSI}עדי{PDI}"
    assert shown_name(f"עדי{RLO}") == name and shown_name(name) == name, "made once, the same again"
    line = f"{name} 0 · Anna 11"
    assert line.index(PDI) < line.index(" 0"), "the isolate closes before the score"
    assert sum(unicodedata.bidirectional(ch) in ("RLO", "RLE", "LRO", "LRE") for ch in line) == 0


def test_a_long_name_of_emoji_sequences_is_cut_between_them() -> None:
    raw = FAMILY * 14
    assert len(raw) == 70
    name = shown_name(raw)
    assert len(name) <= NAME_MOST and name == FAMILY * 12
    assert whole_clusters(name, raw)


def test_a_flag_at_the_edge_is_kept_whole_or_left_out() -> None:
    fits = "a" * 62 + ITALY
    assert shown_name(fits) == fits
    over = "a" * 63 + ITALY
    assert shown_name(over) == "a" * 63, "half a flag is another flag's letter: left out"
    toned = "b" * 62 + "👍🏽"
    assert shown_name(toned + "x") == toned
    accent = "c" * 63 + "e\u0301"
    assert shown_name(accent) == "c" * 63


def test_an_isolated_name_fits_with_its_marks() -> None:
    name = shown_name("ש" * 70)
    assert len(name) == NAME_MOST and name.startswith(FSI) and name.endswith(PDI)
    assert clipped("ab", 1) == "a" and clipped("", 5) == ""


def test_a_chat_title_is_made_the_same_way() -> None:
    assert ChatRef("telegram", "-1", f"Friends{RLO}").title == "Friends"
    assert ChatRef("telegram", "-1", "חברים").title == f"{FSI}חברים{PDI}"
    assert ChatRef("telegram", "-1").title is None


def test_html_escaping_holds_around_the_marks() -> None:
    name = shown_name(f"<b>עדי</b>{RLO}&")
    assert escape(name) == f"{FSI}&lt;b&gt;עדי&lt;/b&gt;&amp;{PDI}"


def test_pictures_draw_no_direction_marks() -> None:
    drawn = printable(shown_name("Eve עדי") + " 11")
    assert FSI not in drawn and PDI not in drawn and drawn.endswith(" 11")
    assert printable(f"a{RLO}b") == "ab"


def test_a_table_picture_draws_an_isolated_name_as_the_bare_name() -> None:
    def picture(adi: str) -> bytes:
        view = _table_view(seats=_seats(["Anna", adi, "Carla", "Dario"]),
                           side_names=("Anna & Carla", f"{adi} & Dario"))
        return table_picture(table_scene(view), "en").tobytes()

    assert picture(shown_name("Eve עדי")) == picture("Eve עדי")


async def test_a_scoreline_keeps_each_score_after_its_own_name() -> None:
    sessions = await open_memory_sessions()
    eve = UserRef("telegram", "101", f"Eve{RLO}")
    adi = UserRef("telegram", "102", "עדי")
    game_id = await start_duel(sessions, CHAT, eve, adi)
    view = await sessions.queries.table(game_id)
    line = score_text(view)
    assert RLO not in line
    assert line.startswith("Eve 0 · ") and line.endswith(f"{FSI}עדי{PDI} 0")
