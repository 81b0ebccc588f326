"""Telegram: lobbies and tables in group chats, hands in private chats, via python-telegram-bot."""

from .front_end import TelegramFrontEnd

__all__ = ["TelegramFrontEnd"]
