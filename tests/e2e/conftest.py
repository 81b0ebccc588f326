"""The whole bot against fake Telegram and Discord servers, and the terminal game, as users meet them.

Every test deals the same cards at every run (`seeded_deals`): a failure seen once is seen again."""

import pytest

from ..discord_helpers import seeded_deals, world

__all__ = ["seeded_deals", "world"]


@pytest.fixture(autouse=True)
def _same_deals_every_run(seeded_deals: None) -> None:
    return None
