"""Discord: lobbies and tables as channel messages with buttons, hands in ephemeral messages."""

from .front_end import DiscordFrontEnd

__all__ = ["DiscordFrontEnd"]
