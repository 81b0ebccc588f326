"""Discord's typed press items: one per action, each taking only its own custom ids."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

from bot.adapters.discord.client import press_items
from bot.adapters.discord.custom_ids import CODEC, Action, Tap, encode

from .test_codec import taps


async def _ignore(interaction: Any, tap: Tap | None, custom_id: str) -> None:
    return None


ITEMS = {item.__name__: item for item in press_items(_ignore)}


def _takers(custom_id: str) -> list[str]:
    return [name for name, item in ITEMS.items()
            if item.__discord_ui_compiled_template__.fullmatch(custom_id)]


def test_there_is_one_item_per_action() -> None:
    assert len(ITEMS) == len(Action)


@given(taps())
def test_each_custom_id_is_taken_by_its_action_alone_and_parsed_back(tap: Tap) -> None:
    custom_id = encode(tap)
    takers = _takers(custom_id)
    assert takers == [f"{tap.action.name.title().replace('_', '')}Press"]
    match = CODEC.pattern(tap.action).fullmatch(custom_id)
    assert match is not None and CODEC.from_match(tap.action, match) == tap


@pytest.mark.parametrize("custom_id", [
    "scopa:join:12", "scopa:j:12:3", "scopa:p:1:2:ZZ", "scopa:o:1:t=99999", "other:j:1", "scopa:j:1\n",
    "x" * 100, "scopa:g:0:cl=fr",
])
def test_forged_and_old_custom_ids_match_no_item(custom_id: str) -> None:
    """Such a press reaches `ScopaClient.on_interaction`, which answers it and changes nothing."""
    assert _takers(custom_id) == [] and CODEC.decode(custom_id) is None
