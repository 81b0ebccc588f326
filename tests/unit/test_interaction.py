"""What a tap on a hand means, whatever the front-end: play, choose a capture, or be told why not."""

from __future__ import annotations

import pytest

from bot.render.words import refusal_text
from bot.sessions import ChatRef, Reason, Refused
from bot.sessions import interaction as taps
from bot.sessions.interaction import HandMode, HandPrompt, blocked_cards

from ..sessions_helpers import ALICE, BOB, fuori_match_at_alices_turn, open_memory_sessions, start_duel


async def test_taps_play_single_plays_ask_for_captures_and_explain_blocked_cards() -> None:
    sessions = await open_memory_sessions()
    game_id = await start_duel(sessions)
    seen = {"played": 0, "chose": 0, "blocked": 0}
    for _ in range(60):
        table = await sessions.queries.table(game_id)
        if table.finished:
            break
        user, other = (ALICE, BOB) if table.to_play == 0 else (BOB, ALICE)
        hand = await sessions.queries.hand(game_id, user)
        with pytest.raises(Refused) as wrong_player:
            await taps.tap_card(sessions, game_id, other, hand.version, hand.hand[0].code)
        assert wrong_player.value.reason in (Reason.NOT_YOUR_TURN, Reason.STALE)
        with pytest.raises(Refused) as stale:
            await taps.tap_card(sessions, game_id, user, hand.version - 1, hand.hand[0].code)
        assert stale.value.reason is Reason.STALE
        for blocked in blocked_cards(hand):
            with pytest.raises(Refused) as refused:
                await taps.tap_card(sessions, game_id, user, hand.version, blocked.card.code)
            assert refused.value.reason is Reason.MUST_CAPTURE
            text = refusal_text(refused.value, "en")
            assert text.startswith("You must capture: ") and "→" in text
            seen["blocked"] += 1
        choice = max(hand.choices, key=lambda c: len(c.moves))
        answer = await taps.tap_card(sessions, game_id, user, hand.version, choice.card.code)
        if len(choice.moves) == 1:
            assert isinstance(answer, taps.Moved)
            seen["played"] += 1
        else:
            assert answer == taps.Prompted(HandPrompt(HandMode.CHOOSING, choice.card.code), hand)
            assert await taps.back(sessions, game_id, user, hand.version) == taps.Prompted(taps.PLAIN, hand)
            answer = await taps.play(sessions, game_id, user, hand.version, choice.moves[-1].code)
            seen["chose"] += 1
        assert (await sessions.queries.table(game_id)).version == hand.version + 1
        assert answer.hand == await sessions.queries.hand(game_id, user)
        assert answer.table == await sessions.queries.table(game_id)
    assert seen["played"] and seen["blocked"], seen


async def test_declaring_fuori_is_refused_where_it_is_not_offered() -> None:
    sessions = await open_memory_sessions()
    game_id = await start_duel(sessions)
    table = await sessions.queries.table(game_id)
    user = ALICE if table.to_play == 0 else BOB
    hand = await sessions.queries.hand(game_id, user)
    with pytest.raises(Refused) as refused:
        await taps.open_fuori(sessions, game_id, user, hand.version)
    assert refused.value.reason is Reason.NO_FUORI
    with pytest.raises(Refused) as declared:
        await taps.tap_card(sessions, game_id, user, hand.version, hand.hand[0].code,
                            HandPrompt(HandMode.DECLARING))
    assert declared.value.reason is Reason.NO_FUORI


async def test_a_hand_previews_fuori_by_one_rule() -> None:
    """Early in a match to 8 no play wins by declaring: the plain hand has no winning hint, the
    declaring card lists the outcome of each of its plays, and a hand the computer plays for
    its player (or a hand without fuori) shows nothing."""
    sessions = await open_memory_sessions()
    hand = await fuori_match_at_alices_turn(sessions)
    assert hand.may_declare
    assert await taps.fuori_preview(sessions, hand, ALICE, taps.PLAIN) == taps.NO_FUORI
    card = hand.choices[0]
    with_card = HandPrompt(HandMode.DECLARING, card.card.code)
    declaring = await taps.fuori_preview(sessions, hand, ALICE, with_card)
    assert [move for move, _ in declaring.outcomes] == list(card.moves) and not declaring.wins
    assert all(not outcome.wins and outcome.target == 8 for _, outcome in declaring.outcomes)
    assert await taps.fuori_preview(sessions, hand, ALICE, with_card, autoplay=True) == taps.NO_FUORI
    duel = await start_duel(sessions, ChatRef("test", "group-2", "Two"))
    other = await sessions.queries.hand(duel, ALICE)
    assert await taps.fuori_preview(sessions, other, ALICE, taps.PLAIN) == taps.NO_FUORI


async def test_a_fuori_preview_tries_every_play_on_one_load_of_the_game() -> None:
    """Each play of the hand is declared on a copy of the game loaded once, never rebuilt from
    the store per play, and the game itself is left as it was; each outcome is the one the
    player is told when they ask for that play alone."""
    sessions = await open_memory_sessions()
    hand = await fuori_match_at_alices_turn(sessions)
    loads, rebuilt = 0, 0
    load, stored_game = sessions.games.load, sessions.queries.stored_game

    async def counted_load(game_id: int) -> object:
        nonlocal loads
        loads += 1
        return await load(game_id)

    async def counted_rebuild(game_id: int) -> object:
        nonlocal rebuilt
        rebuilt += 1
        return await stored_game(game_id)

    sessions.games.load = counted_load  # type: ignore[method-assign,assignment]
    sessions.queries.stored_game = counted_rebuild  # type: ignore[method-assign,assignment]
    card = max(hand.choices, key=lambda c: len(c.moves))
    with_card = HandPrompt(HandMode.DECLARING, card.card.code)
    declaring = await taps.fuori_preview(sessions, hand, ALICE, with_card)
    assert (loads, rebuilt) == (1, 0)
    loads = 0
    assert await taps.fuori_preview(sessions, hand, ALICE, taps.PLAIN) == taps.NO_FUORI
    assert (loads, rebuilt) == (1, 0)
    alone = [await taps.fuori_outcome(sessions, hand.game_id, ALICE, hand.version, move)
             for move in card.moves]
    assert [outcome for _, outcome in declaring.outcomes] == alone
    assert await sessions.queries.hand(hand.game_id, ALICE) == hand
