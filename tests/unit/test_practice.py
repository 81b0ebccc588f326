"""Practice matches: the lobby option in every menu, the hint (the move `hard` would play and
why, from the player's own view), its refusals, and no rating for the match."""

from __future__ import annotations

import pytest

from bot.adapters.common.codec import Action, Tap
from bot.adapters.discord.components import lobby_components
from bot.adapters.discord.custom_ids import CODEC as DISCORD
from bot.adapters.telegram.callbacks import CODEC as TELEGRAM
from bot.adapters.telegram.keyboards import hand_keyboard, lobby_keyboard
from bot.ai.review import Fault, hint
from bot.render.review import hint_text
from bot.sessions import ChatRef, Reason, Refused, Sessions
from bot.sessions import interaction as taps
from bot.sessions.options import VARIANTS, options_for, parse

from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, practice_changes_no_rating, start_duel
from .test_review import move, position


def test_practice_is_offered_on_and_off_in_every_variant() -> None:
    for variant in VARIANTS:
        practice = next(o for o in options_for(variant) if o.key == "practice")
        assert practice.values == ("on", "off")
        assert parse(variant, "practice", True) == ("practice", "on")
    with pytest.raises(Refused):
        parse("scopa", "practice", "maybe")


def test_the_practice_buttons_travel_on_both_platforms() -> None:
    for codec in (TELEGRAM, DISCORD):
        for tap in (Tap(Action.OPTION, 12, arg="practice=on"), Tap(Action.HINT, 12, 34)):
            assert codec.decode(codec.encode(tap)) == tap
        assert codec.decode(codec.encode(Tap(Action.OPTION, 12, arg="practice=on")).replace("=on", "=yes")) \
            is None


async def test_the_option_appears_in_both_front_ends_menus(memory_sessions: Sessions) -> None:
    lobby = await memory_sessions.lobby.new_game(CHAT, ALICE, "scopa")
    options = [b.label for row in lobby_keyboard(lobby, "en", "options") for b in row]
    assert any("Practice" in label for label in options)
    values = [b.label for row in lobby_keyboard(lobby, "en", "practice") for b in row]
    assert "✅ Practice: off" in values and "💡 Practice: on" in values
    for variant in VARIANTS:
        shown = await memory_sessions.lobby.set_option(CHAT, ALICE, "variant", variant)
        table_menu = next(c for c in lobby_components(shown, "en").children
                          if getattr(c, "custom_id", "").endswith(":table"))
        values = [o.value for o in table_menu.options]  # type: ignore[attr-defined]
        assert {"practice=on", "practice=off"} <= set(values) and len(values) <= 25
    switched = await memory_sessions.lobby.set_option(CHAT, ALICE, "practice", "on")
    assert switched.rules.practice


async def test_a_practice_match_changes_no_rating(memory_sessions: Sessions) -> None:
    await practice_changes_no_rating(memory_sessions)


async def test_the_hint_is_a_legal_move_with_a_reason_and_plays_nothing(memory_sessions: Sessions) -> None:
    game_id = await start_duel(memory_sessions, options={"practice": "on"})
    table = await memory_sessions.queries.table(game_id)
    user, other = (ALICE, BOB) if table.to_play == 0 else (BOB, ALICE)
    view = await memory_sessions.queries.hand(game_id, user)
    assert view.practice
    keyboard = hand_keyboard(view, "en")
    choice = sum(len(c.moves) for c in view.choices) > 1
    assert view.offers_hint is choice, "💡 only where there is a choice"
    assert any(b.label == "💡 Hint" for row in keyboard for b in row) is choice
    if not choice:
        with pytest.raises(Refused) as refused:
            await taps.hint(memory_sessions, game_id, user, view.version)
        assert refused.value.reason is Reason.NO_CHOICE
        return
    given = await taps.hint(memory_sessions, game_id, user, view.version)
    assert any(given.hint.move in choice.moves for choice in view.choices)
    again = await taps.hint(memory_sessions, game_id, user, view.version)
    assert again == given, "the same position gives the same hint"
    for lang in ("it", "en", "es"):
        text = hint_text(given.hint, lang, given.variant, given.deck_style)
        assert text.startswith("💡 ") and len(text) <= 200 and "{" not in text
    assert (await memory_sessions.queries.table(game_id)).version == view.version
    waiting = await memory_sessions.queries.hand(game_id, other)
    assert not any("Hint" in b.label for row in hand_keyboard(waiting, "en") for b in row)


async def test_a_hint_is_refused_outside_practice_out_of_turn_and_to_strangers(
        memory_sessions: Sessions) -> None:
    rated = await start_duel(memory_sessions)
    table = await memory_sessions.queries.table(rated)
    user, other = (ALICE, BOB) if table.to_play == 0 else (BOB, ALICE)
    cases = [(rated, user, table.version, Reason.NOT_PRACTICE)]
    practice = await start_duel(memory_sessions, ChatRef("test", "group-2", "Others"),
                                options={"practice": "on"})
    table = await memory_sessions.queries.table(practice)
    user, other = (ALICE, BOB) if table.to_play == 0 else (BOB, ALICE)
    cases += [(practice, other, table.version, Reason.NOT_YOUR_TURN),
              (practice, CARLA, table.version, Reason.NOT_IN_GAME),
              (practice, user, table.version + 1, Reason.STALE)]
    for game_id, asking, version, reason in cases:
        for ask in (taps.hint(memory_sessions, game_id, asking, version),
                    memory_sessions.hints.hint(game_id, asking, version)):
            with pytest.raises(Refused) as refused:
                await ask
            assert refused.value.reason is reason, (asking, reason)


def test_the_hint_takes_a_scopa_and_says_so() -> None:
    view = position("5D 2B 9B", "1S 8C 10D", "2S 3C", fill=24)
    given = hint((view, "scopa", 8))
    assert given.move == move("5D:2S+3C") and given.reason is not None
    assert given.reason.fault is Fault.MISSED_SCOPA
    assert hint_text(given, "en", "scopa").endswith(": it is a scopa.")
    assert hint_text(given, "es", "escoba").endswith(": es una escoba.")


def test_the_hint_names_the_sweep_the_other_move_would_leave() -> None:
    view = position("1B 8S", "3C 9D", "2B")
    given = hint((view, "left", 8))
    assert given.move == move("8S") and given.other == move("1B")
    assert given.reason is not None and given.reason.fault is Fault.LEFT_SWEEP
    text = hint_text(given, "en", "scopa")
    assert "would leave" in text and "three" in text


def test_a_forced_move_is_the_only_play() -> None:
    view = position("8S", "3C", "2B")
    given = hint((view, "only", 8))
    assert given.move == move("8S") and given.reason is None
    assert hint_text(given, "it", "scopa").endswith("è l'unica mossa possibile.")
