"""A Discord hand kept current after every move never hides the captures a player just asked
to choose from: a redraw whose edit was on its way when the choice was drawn puts the choice
back on top."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from discord import ui

from bot.adapters.discord.hands import DrawnHand, HandTracker, draw_hand
from bot.adapters.discord.lanes import Lanes
from bot.adapters.discord.replies import Sent
from bot.sessions import Sessions, UserRef
from bot.sessions.interaction import HandMode, HandPrompt

from ..discord_helpers import seeded_deals  # noqa: F401  (a fixture)
from ..sessions_helpers import ALICE, BOB, open_memory_sessions, start_duel


class ShownMessage:
    """An ephemeral hand as the player sees it: the buttons of the last edit that landed."""

    def __init__(self) -> None:
        self.view: ui.View | None = None

    @property
    def custom_ids(self) -> list[str]:
        return [str(getattr(item, "custom_id", "")) for item in (self.view.children if self.view else [])]


class FakeInteraction:
    """Edits `message` through either of an interaction's routes; while `gate` is closed an
    edit stays on its way (`on_its_way` is set), and lands when the gate opens."""

    def __init__(self, message: ShownMessage, gate: asyncio.Event | None = None) -> None:
        self.message, self.gate = message, gate
        self.on_its_way = asyncio.Event()
        self.followup = self
        self.edits = 0

    async def edit_original_response(self, **fields: Any) -> None:
        await self._land(fields)

    async def edit_message(self, message_id: int, **fields: Any) -> None:
        await self._land(fields)

    async def _land(self, fields: dict[str, Any]) -> None:
        self.on_its_way.set()
        if self.gate is not None:
            await self.gate.wait()
        self.message.view = fields["view"]
        self.edits += 1


def _chooses(drawn: DrawnHand) -> str | None:
    """A card of the player's hand with a choice of captures, on their turn."""
    view = drawn.view
    return next((c.card.code for c in view.choices if len(c.moves) > 1), None) if view.my_turn else None


async def _hand_before_a_choice(sessions: Sessions) -> tuple[int, UserRef, DrawnHand]:
    """Moves are played until the player not to move gets a card with a choice of captures
    by the next move: the game, that player and their hand as drawn before that move."""
    game_id = await start_duel(sessions)
    while True:
        table = await sessions.queries.table(game_id)
        assert not table.finished, "no choice of captures in this match"
        mover, waiting = (ALICE, BOB) if table.to_play == 0 else (BOB, ALICE)
        before = await draw_hand(sessions, game_id, waiting, "en")
        hand = await sessions.queries.hand(game_id, mover)
        await sessions.play.play(game_id, mover, table.version, hand.choices[0].moves[0].code)
        if _chooses(await draw_hand(sessions, game_id, waiting, "en")):
            return game_id, waiting, before


@pytest.mark.usefixtures("seeded_deals")
async def test_a_choice_drawn_while_a_redraw_is_on_its_way_stays_on_top() -> None:
    sessions = await open_memory_sessions()
    lanes = Lanes()
    tracker = HandTracker(sessions, lanes)
    game_id, player, before = await _hand_before_a_choice(sessions)
    hand = ShownMessage()
    gate = asyncio.Event()
    kept = FakeInteraction(hand, gate)
    tracker.track(before, player, "en")(Sent(kept, 1))  # type: ignore[arg-type]

    tracker.refresh(game_id)
    await asyncio.wait_for(kept.on_its_way.wait(), 5)

    now = await draw_hand(sessions, game_id, player, "en")
    card = _chooses(now)
    assert card is not None
    choice = await draw_hand(sessions, game_id, player, "en", HandPrompt(HandMode.CHOOSING, card))
    pressed = FakeInteraction(hand)
    hand.view = choice.components  # the press's answer: the card's captures, in place of the hand
    tracker.track(choice, player, "en")(Sent(pressed, None))  # type: ignore[arg-type]
    gate.set()
    await asyncio.wait_for(lanes.idle(), 5)

    captures = [c for c in hand.custom_ids if f":{now.view.version}:{card}:" in c]
    assert len(captures) == len(next(c.moves for c in now.view.choices if c.card.code == card)) > 1, \
        hand.custom_ids
    assert pressed.edits == 1, "the choice is put back once"

    tracker.refresh(game_id)
    await asyncio.wait_for(lanes.idle(), 5)
    assert hand.custom_ids == [str(getattr(i, "custom_id", "")) for i in choice.components.children], \
        "a redraw at the same version leaves the choice alone"
    await sessions.close()


@pytest.mark.usefixtures("seeded_deals")
async def test_a_choice_drawn_while_a_redraw_is_being_drawn_is_left_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sessions = await open_memory_sessions()
    lanes = Lanes()
    tracker = HandTracker(sessions, lanes)
    game_id, player, before = await _hand_before_a_choice(sessions)
    hand = ShownMessage()
    kept = FakeInteraction(hand)
    tracker.track(before, player, "en")(Sent(kept, 1))  # type: ignore[arg-type]
    now = await draw_hand(sessions, game_id, player, "en")
    card = _chooses(now)
    assert card is not None
    choice = await draw_hand(sessions, game_id, player, "en", HandPrompt(HandMode.CHOOSING, card))

    drawing, gate = asyncio.Event(), asyncio.Event()

    async def slow_draw(*args: Any, **kwargs: Any) -> DrawnHand:
        drawing.set()
        await gate.wait()
        return await draw_hand(*args, **kwargs)

    monkeypatch.setattr("bot.adapters.discord.hands.draw_hand", slow_draw)
    tracker.refresh(game_id)
    await asyncio.wait_for(drawing.wait(), 5)
    hand.view = choice.components
    tracker.track(choice, player, "en")(Sent(FakeInteraction(hand), None))  # type: ignore[arg-type]
    gate.set()
    await asyncio.wait_for(lanes.idle(), 5)
    assert kept.edits == 0, "the redraw saw the newer drawing and did not edit"
    assert hand.view is choice.components
    await sessions.close()
