"""What every start repairs in a database, on both databases, in the transaction that migrates
it (one process at a time; PostgreSQL's under the migration lock), so that several processes
starting at once do it once and running it again changes nothing.

Older versions could leave two things nobody can play or clear, each keeping a player from
`/daily` for good: a deal of the day claimed with its game still in its lobby (the bot stopped
between the lobby, the claim and the deal, which were three writes), and a lobby where no lobby
button can be pressed (a Rematch tapped under a deal of the day): a Telegram private chat (its
key is its user's) or a player's deal-of-the-day place of a Discord channel (the thread
`daily-<user>`). Such lobbies are cancelled, and a claim whose game was never dealt is dropped,
so the player's next `/daily` deals them the day's cards."""

from __future__ import annotations

from typing import Any

DEAD_LOBBY = (
    "status='lobby' AND (EXISTS (SELECT 1 FROM daily_plays d WHERE d.game_id=games.id) "
    "OR thread LIKE 'daily-%' "
    "OR EXISTS (SELECT 1 FROM chats c JOIN players p ON p.id=games.creator_id "
    "WHERE c.id=games.chat_id AND c.platform='telegram' AND p.platform=c.platform "
    "AND p.user_key=c.chat_key))")
"""A lobby nobody can play: a deal of the day's, or one in a place of a single player."""


def repairs(now: float) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The statements (with `?` marks) and their parameters, in order."""
    return (
        ("UPDATE games SET status='cancelled', deadline=NULL, finished_at=?, updated_at=? "
         f"WHERE {DEAD_LOBBY}", (now, now)),
        ("DELETE FROM daily_plays WHERE EXISTS (SELECT 1 FROM games g WHERE g.id=daily_plays.game_id "
         "AND g.state IS NULL AND g.status IN ('lobby', 'cancelled'))", ()),
    )
