"""A chat whose key changes (`ChatMove`): a Telegram group upgraded to a supergroup gets a new id.

Games reference their chat by its row's own id, so the move is the row taking the new
key: its games (the one in play too), its settings and its leaderboard go with it. When
the bot saw the new key first (an update from the supergroup came before the word of the
upgrade), a row for it exists already: the old row is merged into it. Its games move
over; the old row's settings win (they are what the group chose; the new row is minutes
old); and of two open games in one thread, the running one (or, both alike, the old
chat's) stays open and the other is cancelled, as a thread has one open game at a time.

One plan of a unit, the same on both databases. Both rows are read first, locked on
PostgreSQL, so that of several processes told of one upgrade at once one moves it and the
others find nothing left to move; a row for the new key inserted meanwhile makes the rename
fail (a unique violation), and the PostgreSQL store tries the unit again, to merge.
"""

from __future__ import annotations

from ..sessions.records import ChatMove, MovedChat
from .changes import Dialect, Plan, Step

_OPEN_OF_BOTH = ("SELECT id, thread FROM games WHERE chat_id IN (?, ?) AND status IN ('lobby','running') "
                 "ORDER BY status='running' DESC, chat_id=? DESC, id")
_MERGE_SETTINGS = ("UPDATE chats SET language=o.language, turn_limit=o.turn_limit, defaults=o.defaults, "
                   "title=COALESCE(chats.title, o.title), home=COALESCE(chats.home, o.home) "
                   "FROM (SELECT * FROM chats WHERE id=?) AS o WHERE chats.id=?")


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


def chat_move(move: ChatMove, now: float, dialect: Dialect) -> Plan:
    """Gives the `MovedChat`, or None when the old key names no chat (nothing written)."""
    rows = yield Step(f"SELECT id, chat_key FROM chats WHERE platform=? AND chat_key IN (?, ?) "
                      f"ORDER BY id{dialect.lock}", (move.platform, move.old_key, move.new_key), every=True)
    ids = {str(row["chat_key"]): int(row["id"]) for row in rows}
    old_id, new_id = ids.get(move.old_key), ids.get(move.new_key)
    if old_id is None:
        return None
    if new_id is None:
        yield Step("UPDATE chats SET chat_key=? WHERE id=?", (move.new_key, old_id))
        return MovedChat(old_id, old_id)
    open_games = yield Step(_OPEN_OF_BOTH, (old_id, new_id, old_id), every=True)
    cancelled = _colliding([(int(r["id"]), str(r["thread"])) for r in open_games])
    for game_id in cancelled:
        yield Step("UPDATE games SET status='cancelled', deadline=NULL, finished_at=?, updated_at=? "
                   "WHERE id=?", (now, now, game_id))
    yield Step("UPDATE games SET chat_id=? WHERE chat_id=?", (new_id, old_id))
    yield Step("UPDATE daily_plays SET chat_id=? WHERE chat_id=?", (new_id, old_id))
    yield Step(_MERGE_SETTINGS, (old_id, new_id))
    yield Step("DELETE FROM chats WHERE id=?", (old_id,))
    return MovedChat(new_id, old_id, cancelled)
