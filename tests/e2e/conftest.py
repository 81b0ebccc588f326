"""The whole bot against fake Telegram and Discord servers, and the terminal game, as users meet them."""

from ..discord_helpers import seeded_deals, world

__all__ = ["seeded_deals", "world"]
