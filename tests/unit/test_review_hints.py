"""Hints that teach: no hint on a forced move, and a scopone hint names the partner's chance."""

from __future__ import annotations

import random

import pytest

from bot.ai.review import Fault, hint
from bot.ai.review.facts import reason
from bot.engine import DECK, Card, Game, Play, Rules, Seating, SeatView, Variant
from bot.i18n import t
from bot.render.review import hint_text
from bot.sessions import Reason, Refused, Sessions
from bot.sessions import interaction as taps

from ..sessions_helpers import ALICE, BOB, play_one, start_duel
from .test_review import move


def scopone(hands: tuple[str, str, str, str], table: str) -> SeatView:
    """A scopone scientifico position, stock out, seat 0 to play with the four hands given (seat 2
    is its partner, seats 1 and 3 the other side, seat 1 playing next); every other card was
    taken, in pairs, by seat 1, so seat 0 has seen it."""
    held = [[Card.parse(code) for code in hand.split()] for hand in hands]
    on_table = [Card.parse(code) for code in table.split()]
    placed = {card for hand in held for card in hand} | set(on_table)
    gone = [card for card in DECK if card not in placed]
    random.Random(7).shuffle(gone)
    odd = len(gone) % 2
    plays = [Play(1, gone[0], (gone[1], gone[2]), False)] if odd else []
    plays += [Play(1, gone[i], (gone[i + 1],), False) for i in range(3 * odd, len(gone), 2)]
    variant = Variant.SCOPONE_SCIENTIFICO
    game = Game.restore(
        variant, Rules.default(variant), Seating.make(variant, 4), 0, version=len(plays), round_number=1,
        first_dealer=3, dealer=3, totals=[0, 0], results=[], rounds=[], winner=None, to_play=0, hands=held,
        table=on_table, stock=[], captured=[[], list(gone), [], []], scope=[0, 0, 0, 0],
        last_capturer=1 if plays else None, deals=[{"hands": [], "table": []}], plays=plays)
    return game.view(0)


async def test_a_forged_hint_tap_on_a_hand_with_one_legal_move_is_refused(memory_sessions: Sessions) -> None:
    game_id = await start_duel(memory_sessions, options={"practice": "on"})
    for _ in range(40):
        table = await memory_sessions.queries.table(game_id)
        user = ALICE if table.to_play == 0 else BOB
        view = await memory_sessions.queries.hand(game_id, user)
        if sum(len(choice.moves) for choice in view.choices) == 1:
            break
        await play_one(memory_sessions, game_id)
    else:
        pytest.fail("no hand with one legal move in the first 40 plays")
    assert not view.offers_hint, "the hand shows no 💡"
    with pytest.raises(Refused) as refused:
        await taps.hint(memory_sessions, game_id, user, view.version)
    assert refused.value.reason is Reason.NO_CHOICE
    assert (await memory_sessions.queries.table(game_id)).version == view.version, "nothing played"
    words = {"en": "only one possible play", "it": "una sola mossa", "es": "una jugada posible"}
    for lang, word in words.items():
        assert word in t(lang, "refused.no_choice")


def test_a_scopone_hint_names_the_partners_chance_where_it_is_the_reason() -> None:
    # Laying 3🏆 makes 11 on the table with 2🗡️ and 6🏆: the partner sweeps it on their next play
    # in some of the ways the three hidden cards can lie; after laying the king, in none.
    view = scopone(("3C 10D", "9C", "4C", "2B"), "2S 6C")
    given = hint((view, "partner", 24))
    assert given.move == move("3C") and given.other == move("10D")
    assert given.reason is not None and given.reason.fault is Fault.PARTNER_SWEEP
    after, before = given.reason.odds
    assert after > before == 0
    words = {"en": "partner", "it": "compagno", "es": "compañero"}
    for lang, word in words.items():
        text = hint_text(given, lang, "scopone_scientifico")
        assert word in text and "%" in text and "{" not in text, text
    assert reason(view, move("3C"), move("10D"), "hint/partner").fault is not Fault.PARTNER_SWEEP
