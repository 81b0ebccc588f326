"""A chat whose key changes: a Telegram group upgraded to a supergroup gets a new id.

Games reference their chat by its row's own id, so the move is the row taking the new
key: its games (the one in play too), its settings and its leaderboard go with it. When
the bot saw the new key first (an update from the supergroup came before the word of the
upgrade), a row for it exists already: the old row is merged into it. Its games move
over; the old row's settings win (they are what the group chose; the new row is minutes
old); and of two open games in one thread, the running one (or, both alike, the old
chat's) stays open and the other is cancelled, as a thread has one open game at a time. One
transaction, in SQLite (`sqlite_move_chat`) as in PostgreSQL (`postgres_move_chat`).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import asyncpg


@dataclass(frozen=True, slots=True)
class ChatMoved:
    chat_id: int
    """The row now under the new key."""
    old_id: int
    """The row the old key had (the same, unless the two were merged)."""
    cancelled: tuple[int, ...] = ()
    """Open games cancelled by the merge."""


_OPEN_OF_BOTH = ("SELECT id, thread FROM games WHERE chat_id IN ({old}, {new}) "
                 "AND status IN ('lobby','running') ORDER BY status='running' DESC, chat_id={old} DESC, id")


def _colliding(open_games: list[tuple[int, str]]) -> tuple[int, ...]:
    """Of the open games of both rows (best first), those after the first of their thread:
    a chat's thread has one open game at a time."""
    seen: set[str] = set()
    cancelled = []
    for game_id, thread in open_games:
        if thread in seen:
            cancelled.append(game_id)
        seen.add(thread)
    return tuple(cancelled)
_MERGE_SETTINGS = ("UPDATE chats SET language=o.language, turn_limit=o.turn_limit, defaults=o.defaults, "
                   "title=COALESCE(chats.title, o.title), home=COALESCE(chats.home, o.home) "
                   "FROM (SELECT * FROM chats WHERE id={old}) AS o WHERE chats.id={new}")


def sqlite_move_chat(conn: sqlite3.Connection, platform: str, old_key: str, new_key: str,
                     now: float) -> ChatMoved | None:
    """Inside the caller's transaction; None when the old key names no chat."""
    old = conn.execute("SELECT id FROM chats WHERE platform=? AND chat_key=?", (platform, old_key)).fetchone()
    if old is None:
        return None
    old_id = int(old[0])
    new = conn.execute("SELECT id FROM chats WHERE platform=? AND chat_key=?", (platform, new_key)).fetchone()
    if new is None:
        conn.execute("UPDATE chats SET chat_key=? WHERE id=?", (new_key, old_id))
        return ChatMoved(old_id, old_id)
    new_id = int(new[0])
    cancelled = _colliding([(int(r[0]), str(r[1])) for r in conn.execute(
        _OPEN_OF_BOTH.format(old="?", new="?"), (old_id, new_id, old_id))])
    for game_id in cancelled:
        conn.execute("UPDATE games SET status='cancelled', deadline=NULL, finished_at=?, updated_at=? "
                     "WHERE id=?", (now, now, game_id))
    conn.execute("UPDATE games SET chat_id=? WHERE chat_id=?", (new_id, old_id))
    conn.execute("UPDATE daily_plays SET chat_id=? WHERE chat_id=?", (new_id, old_id))
    conn.execute(_MERGE_SETTINGS.format(old="?", new="?"), (old_id, new_id))
    conn.execute("DELETE FROM chats WHERE id=?", (old_id,))
    return ChatMoved(new_id, old_id, cancelled)


async def postgres_move_chat(conn: asyncpg.Connection, platform: str, old_key: str, new_key: str,
                             now: float) -> ChatMoved | None:
    """Inside the caller's transaction. Both rows are locked first, so that of several
    processes told of one upgrade at once one moves it and the others find nothing left to
    move; a row for the new key inserted meanwhile makes the rename fail (a unique
    violation), and the caller tries again, to merge."""
    rows = await conn.fetch("SELECT id, chat_key FROM chats WHERE platform=$1 AND chat_key IN ($2, $3) "
                            "ORDER BY id FOR UPDATE", platform, old_key, new_key)
    ids = {row["chat_key"]: int(row["id"]) for row in rows}
    old_id, new_id = ids.get(old_key), ids.get(new_key)
    if old_id is None:
        return None
    if new_id is None:
        await conn.execute("UPDATE chats SET chat_key=$1 WHERE id=$2", new_key, old_id)
        return ChatMoved(old_id, old_id)
    cancelled = _colliding([(int(r["id"]), str(r["thread"])) for r in await conn.fetch(
        _OPEN_OF_BOTH.format(old="$1", new="$2"), old_id, new_id)])
    if cancelled:
        await conn.execute("UPDATE games SET status='cancelled', deadline=NULL, finished_at=$1, "
                           "updated_at=$1 WHERE id = ANY($2::bigint[])", now, list(cancelled))
    await conn.execute("UPDATE games SET chat_id=$1 WHERE chat_id=$2", new_id, old_id)
    await conn.execute("UPDATE daily_plays SET chat_id=$1 WHERE chat_id=$2", new_id, old_id)
    await conn.execute(_MERGE_SETTINGS.format(old="$1", new="$2"), old_id, new_id)
    await conn.execute("DELETE FROM chats WHERE id=$1", old_id)
    return ChatMoved(new_id, old_id, cancelled)
