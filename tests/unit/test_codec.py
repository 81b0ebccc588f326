"""The shared button codec: what both chat platforms put in a button, and nothing else."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.adapters.common.codec import (
    MAX_INDEX,
    MAX_NUMBER,
    MENUS,
    OPTION_CODES,
    SELECTS,
    SETTINGS,
    SHAPES,
    Action,
    Arg,
    Codec,
    Tap,
    TooLong,
)
from bot.adapters.discord.custom_ids import CODEC as DISCORD
from bot.adapters.discord.custom_ids import MENU_KEYS, Menu
from bot.adapters.telegram.callbacks import CODEC as TELEGRAM
from bot.engine import DECK, Move
from bot.sessions.options import ALL_OPTIONS, HOUSE_OPTIONS, LEVELS, VARIANTS, options_for

CODECS = {"telegram": TELEGRAM, "discord": DISCORD}
CARD_CODES = [card.code for card in DECK]

numbers = st.integers(0, MAX_NUMBER)


@st.composite
def moves(draw: st.DrawFn) -> str:
    played, *taken = draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=17, unique=True))
    return Move(played, tuple(taken)).code


ARGS: dict[Arg, st.SearchStrategy[str]] = {
    Arg.NONE: st.just(""),
    Arg.LEVEL: st.sampled_from(LEVELS),
    Arg.MENU: st.sampled_from(MENUS),
    Arg.SELECT: st.sampled_from(SELECTS),
    Arg.OPTION: st.sampled_from([f"{key}={value}" for key, option in ALL_OPTIONS.items()
                                 for value in option.values]),
    Arg.SETTING: st.sampled_from([f"{key}={value}" for key, values in SETTINGS.items() for value in values]),
    Arg.CARD: st.sampled_from(CARD_CODES),
    Arg.MOVE: moves(),
    Arg.OFFER: st.builds("{}.{}".format, st.integers(10000000, 99999999).map(str),
                         st.integers(1, 10 ** 20 - 1).map(str)),
    Arg.SPOT: st.builds("{}.{}".format, st.integers(0, 99), st.integers(0, 99)),
    Arg.STEP: st.integers(0, 9999).map(str),
}


@st.composite
def taps(draw: st.DrawFn, action: Action | None = None) -> Tap:
    action = action or draw(st.sampled_from(list(Action)))
    shape = SHAPES[action]
    return Tap(action, draw(numbers), draw(numbers) if shape.versioned else None, draw(ARGS[shape.arg]),
               draw(st.integers(0, MAX_INDEX)) if shape.indexed else None)


def _round_trip(codec: Codec, tap: Tap) -> str | None:
    """The data for `tap`, checked to decode to it within the limit; None if it is too long."""
    try:
        data = codec.encode(tap)
    except TooLong:
        assert SHAPES[tap.action].arg is Arg.MOVE, "only a whole move may not fit"
        return None
    assert codec.platform.size(data) <= codec.platform.limit
    assert codec.decode(data) == tap
    return data


@pytest.mark.parametrize("name", CODECS)
@given(tap=taps())
def test_every_tap_round_trips_within_the_limit(name: str, tap: Tap) -> None:
    _round_trip(CODECS[name], tap)


@pytest.mark.parametrize("name", CODECS)
def test_every_action_but_a_whole_move_always_fits(name: str) -> None:
    codec = CODECS[name]
    for action, shape in SHAPES.items():
        if name == "discord" or shape.arg is not Arg.MOVE:
            assert codec.platform.worst(action) <= codec.platform.limit, action


@given(move=moves(), game=numbers, version=numbers)
def test_a_move_too_long_for_telegram_fits_by_its_place(move: str, game: int, version: int) -> None:
    for whole, by_place in ((Action.PLAY, Action.CAPTURE), (Action.DECLARE, Action.DECLARE_CAPTURE)):
        if _round_trip(TELEGRAM, Tap(whole, game, version, move)) is None:
            card = move.partition(":")[0]
            assert _round_trip(TELEGRAM, Tap(by_place, game, version, card, MAX_INDEX)) is not None
        assert _round_trip(DISCORD, Tap(whole, game, version, move)) is not None


@given(version=numbers, card=st.sampled_from(CARD_CODES), index=st.integers(0, MAX_INDEX))
def test_a_capture_choice_travels_on_both_platforms(version: int, card: str, index: int) -> None:
    for codec in CODECS.values():
        for action in (Action.CAPTURE, Action.DECLARE_CAPTURE):
            data = _round_trip(codec, Tap(action, 42, version, card, index))
            assert data is not None


@pytest.mark.parametrize("name", CODECS)
@given(data=st.one_of(st.text(max_size=120),
                      st.text(alphabet="|:0123456789jpChoFDescopaK=+DCSB", max_size=90)))
def test_any_other_string_decodes_to_nothing_and_never_raises(name: str, data: str) -> None:
    codec = CODECS[name]
    tap = codec.decode(data)
    if tap is not None:
        assert codec.encode(tap) == data


@pytest.mark.parametrize("name", CODECS)
@given(tap=taps(), cut=st.integers(0, 200))
def test_truncated_data_is_refused_or_is_exactly_another_button(name: str, tap: Tap, cut: int) -> None:
    codec = CODECS[name]
    data = _round_trip(codec, tap)
    if data is None:
        return
    shorter = data[:cut % max(len(data), 1)]
    found = codec.decode(shorter)
    assert found is None or codec.encode(found) == shorter


@given(tap=taps())
def test_one_platform_never_accepts_the_other_platforms_data(tap: Tap) -> None:
    for mine, theirs in ((TELEGRAM, DISCORD), (DISCORD, TELEGRAM)):
        data = _round_trip(mine, tap)
        if data is not None:
            assert theirs.decode(data) is None


@pytest.mark.parametrize("name", CODECS)
@given(tap=taps(), field=st.integers(0, 4), junk=st.one_of(
    st.integers(MAX_NUMBER + 1, 10**40).map(str), st.text(max_size=12),
    st.sampled_from(["-1", "01", "1 ", "１", "٣", "1e3", "0x1", "ａ", "7D ", "🃏", "\u200b", "⁴"])))
def test_forged_fields_are_refused(name: str, tap: Tap, field: int, junk: str) -> None:
    codec = CODECS[name]
    data = _round_trip(codec, tap)
    if data is None:
        return
    sep = codec.platform.separator
    head = codec.platform.head
    parts = data[len(head):].split(sep)
    parts[field % len(parts)] = junk
    forged = head + sep.join(parts)
    found = codec.decode(forged)
    assert found is None or codec.encode(found) == forged


@pytest.mark.parametrize("name", CODECS)
def test_what_is_not_text_or_too_big_is_refused(name: str) -> None:
    codec = CODECS[name]
    for data in (None, 7, b"j|1", ["j|1"], {"j": 1}, 3.5, "", "j|" + "9" * 10, "j|" + "1" * 200):
        assert codec.decode(data) is None
    with pytest.raises(ValueError):
        codec.encode(Tap(Action.JOIN, MAX_NUMBER + 1))
    with pytest.raises(ValueError):
        codec.encode(Tap(Action.CAPTURE, 1, 1, "7D", MAX_INDEX + 1))
    with pytest.raises(ValueError):
        codec.encode(Tap(Action.OPTION, 1, arg="turn_limit=45"))


def test_every_lobby_option_and_select_menu_has_its_name_in_buttons() -> None:
    assert set(OPTION_CODES) == set(ALL_OPTIONS)
    assert len(set(OPTION_CODES.values())) == len(OPTION_CODES)
    assert tuple(Menu) == SELECTS and set(MENU_KEYS[Menu.TABLE]) >= set(HOUSE_OPTIONS)
    assert len({action.value for action in Action}) == len(Action) == len(SHAPES)


def test_lobby_options_travel_with_their_full_names() -> None:
    for variant in VARIANTS:
        for option in options_for(variant):
            for value in option.values:
                tap = Tap(Action.OPTION, 3, arg=f"{option.key}={value}")
                for codec in CODECS.values():
                    assert codec.decode(codec.encode(tap)) == tap
                    assert tap.option == (option.key, value)
    assert TELEGRAM.encode(Tap(Action.OPTION, 3, arg="variant=escoba")) == "o|3|v=escoba"
    assert DISCORD.encode(Tap(Action.OPTION, 3, arg="turn_limit=600")) == "scopa:o:3:l=600"
