"""What the SQLite and PostgreSQL stores do alike, written once: the statements are the same
on both (with `?` marks, numbered for PostgreSQL), and each store gives the few ways to run
them (`_row`, `_rows`, `_report`, `_change`, `_transact`) and its `dialect` for the rest.
Each store keeps what its database does its own way: games with their seats, deadlines and
claims, message holds and send counts."""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any

from ..sessions.records import (
    AchievementRow,
    Change,
    ChatMove,
    ChatRow,
    ChatSeen,
    DailyRow,
    Erasure,
    LeaderboardLine,
    MoveRow,
    PlayedMatch,
    PlayerRow,
    PlayerSeen,
    RatingRow,
    RecentMatch,
    ResultRow,
)
from .base import UnitStore
from .changes import Dialect, Plan, Step, plan, single
from .chat_moves import chat_move
from .erasure import (
    DATA_QUERIES,
    DIRECT_MESSAGES,
    PRIVATE_CHATS,
    Seen,
    erase_reads,
    erasure_plan,
    plain,
    seen,
)
from .owner_sql import OwnerSql
from .rows import (
    Row,
    chat_row,
    leaderboard_row,
    match_player,
    move_row,
    played_match,
    player_row,
    player_stats,
)
from .season_sql import SeasonSql
from .tournament_sql import TournamentSql

PLAYER_COLUMNS = ("id", "platform", "user_key", "display_name", "language", "platform_language",
                  "can_dm", "dm_pings", "is_computer", "quiet_turns")
GAME_COLUMNS = ("id", "chat_id", "creator_id", "variant", "options", "players", "teams", "deck_style",
                "status", "state", "version", "seed", "deadline", "deadline_kind", "warned",
                "created_at", "updated_at", "finished_at", "thread")
_PLAYER_SELECT = f"SELECT {', '.join(PLAYER_COLUMNS)} FROM players"


class SqlStore(OwnerSql, SeasonSql, TournamentSql, UnitStore):
    dialect: Dialect
    clock: Any

    # ---- how each database runs a statement --------------------------------

    @abstractmethod
    async def _row(self, sql: str, params: tuple[Any, ...] = ()) -> Row | None:
        ...

    @abstractmethod
    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        ...

    async def _report(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        """A query that may read much of the database (SQLite keeps it off the event loop)."""
        return await self._rows(sql, params)

    @abstractmethod
    async def _change(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        """One statement as its own transaction; the rows it changed."""

    @abstractmethod
    async def _transact(self, plans: Sequence[Plan]) -> list[Any]:
        """The plans' steps in one transaction; what each plan gives."""

    async def _commit_changes(self, changes: tuple[Change, ...]) -> Sequence[Any]:
        """An erasure's notes, holds and send counts are read before the transaction, which
        writes each change to them only where it is still as read (`erasure`)."""
        reads = {index: seen([await self._rows(sql, params) for sql, params in erase_reads(change)])
                 for index, change in enumerate(changes) if isinstance(change, Erasure)}
        now = float(self.clock())
        return await self._transact([self._plan(change, now, reads.get(index))
                                     for index, change in enumerate(changes)])

    def _plan(self, change: Change, now: float, read: Seen | None) -> Plan:
        if isinstance(change, Erasure):
            assert read is not None
            return erasure_plan(change, read, now, self.dialect)
        if isinstance(change, ChatMove):
            return chat_move(change, now, self.dialect)
        return plan(change, now, self.dialect)

    # ---- chats and players -------------------------------------------------

    async def ensure_chat(self, platform: str, chat_key: str, title: str | None = None,
                          language: str | None = None, home: str | None = None) -> ChatRow:
        select = "SELECT * FROM chats WHERE platform=? AND chat_key=?"
        row = await self._row(select, (platform, chat_key))
        if row is None or (title and row["title"] != title) or (home and row["home"] != home):
            async with self.unit() as uow:
                uow.add(ChatSeen(platform, chat_key, title, language, home))
            row = await self._row(select, (platform, chat_key))
        assert row is not None
        return chat_row(row)

    async def get_chat(self, chat_id: int) -> ChatRow | None:
        row = await self._row("SELECT * FROM chats WHERE id=?", (chat_id,))
        return chat_row(row) if row else None

    async def ensure_player(self, platform: str, user_key: str, display_name: str,
                            platform_language: str | None = None,
                            is_computer: bool = False) -> PlayerRow:
        select = f"{_PLAYER_SELECT} WHERE platform=? AND user_key=?"
        row = await self._row(select, (platform, user_key))
        name = display_name.strip()[:64] or user_key
        if row is None or row["display_name"] != name or (
                platform_language and row["platform_language"] != platform_language):
            async with self.unit() as uow:
                uow.add(PlayerSeen(platform, user_key, name, platform_language, is_computer))
            row = await self._row(select, (platform, user_key))
        assert row is not None
        return player_row(row)

    async def get_player(self, player_id: int) -> PlayerRow | None:
        row = await self._row(f"{_PLAYER_SELECT} WHERE id=?", (player_id,))
        return player_row(row) if row else None

    async def find_player(self, platform: str, user_key: str) -> PlayerRow | None:
        row = await self._row(f"{_PLAYER_SELECT} WHERE platform=? AND user_key=?", (platform, user_key))
        return player_row(row) if row else None

    # ---- a player's data ----------------------------------------------------

    async def private_chats(self, player_id: int) -> list[ChatRow]:
        player = await self.get_player(player_id)
        if player is None:
            return []
        rows = await self._rows(PRIVATE_CHATS, (player.platform, player.user_key, DIRECT_MESSAGES,
                                                player.display_name, player_id))
        return [chat_row(r) for r in rows]

    async def player_data(self, player_id: int) -> dict[str, Any]:
        data: dict[str, Any] = {part: [plain(r) for r in await self._report(sql, (player_id,))]
                                for part, sql in DATA_QUERIES}
        data["profile"] = data["profile"][0] if data["profile"] else None
        return data

    async def ask_erasure(self, platform: str, user_key: str, now: float) -> None:
        await self._change("INSERT INTO erasures (platform, user_key, asked_at) VALUES (?, ?, ?) "
                           "ON CONFLICT (platform, user_key) DO NOTHING", (platform, user_key, float(now)))

    async def erasures_asked(self, platform: str) -> list[str]:
        rows = await self._rows("SELECT user_key FROM erasures WHERE platform=? ORDER BY asked_at",
                                (platform,))
        return [str(r["user_key"]) for r in rows]

    async def drop_erasure(self, platform: str, user_key: str) -> None:
        await self._change("DELETE FROM erasures WHERE platform=? AND user_key=?", (platform, user_key))

    # ---- a game's moves and rounds -----------------------------------------

    async def moves(self, game_id: int, after: int = 0) -> list[MoveRow]:
        """The game's moves numbered above `after`, in order."""
        rows = await self._rows("SELECT number, seat, move, by_computer, created_at FROM moves "
                                "WHERE game_id=? AND number>? ORDER BY number", (game_id, after))
        return [move_row(r) for r in rows]

    async def round_records(self, game_id: int) -> list[dict[str, Any]]:
        """The finished rounds of a game, as its scopa-record/1 round objects."""
        rows = await self._rows("SELECT record FROM rounds WHERE game_id=? ORDER BY number", (game_id,))
        return [json.loads(r["record"]) for r in rows]

    # ---- front-ends' notes, claims --------------------------------------------

    async def get_refs(self, game_id: int) -> dict[str, str]:
        rows = await self._rows("SELECT key, value FROM ui_refs WHERE game_id=?", (game_id,))
        return {r["key"]: r["value"] for r in rows}

    async def refs_with_prefix(self, prefix: str) -> list[tuple[int, str, str]]:
        rows = await self._rows("SELECT game_id, key, value FROM ui_refs WHERE substr(key, 1, ?) = ? "
                                "ORDER BY game_id, key", (len(prefix), prefix))
        return [(int(r["game_id"]), r["key"], r["value"]) for r in rows]

    async def set_ref(self, game_id: int, key: str, value: str | None) -> None:
        if value is None:
            await self._change("DELETE FROM ui_refs WHERE game_id=? AND key=?", (game_id, key))
        else:
            await self._change("INSERT INTO ui_refs (game_id, key, value) VALUES (?, ?, ?) "
                               "ON CONFLICT (game_id, key) DO UPDATE SET value=excluded.value",
                               (game_id, key, value))

    async def release_claim(self, game_id: int, owner: str) -> None:
        await self._change("DELETE FROM claims WHERE game_id=? AND owner=?", (game_id, owner))

    async def mark_message(self, game_id: int, message: str, owner: str, now: float) -> float | None:
        row = (await self._transact([single(
            "UPDATE message_holds SET redraw=? WHERE game_id=? AND message=? AND owner<>? AND until>? "
            "RETURNING until", (True, game_id, message, owner, float(now)), returns=True)]))[0]
        return float(row["until"]) if row is not None else None

    async def release_message(self, game_id: int, message: str, owner: str) -> bool:
        """The holder's row is locked first (on PostgreSQL; SQLite writes one at a time): a mark
        that comes meanwhile waits, then finds the message let go or still held, to draw again."""
        return bool((await self._transact([_release(game_id, message, owner, self.dialect)]))[0])

    # ---- results, ratings, reports ----------------------------------------------

    async def ratings(self, player_ids: Iterable[int], ladder: str) -> dict[int, RatingRow]:
        ids = [int(i) for i in player_ids]
        if not ids:
            return {}
        rows = await self._rows(
            "SELECT player_id, ladder, mu, sigma, games, wins FROM ratings WHERE ladder=? AND "
            f"player_id IN ({', '.join('?' * len(ids))})", (ladder, *ids))
        return {int(r["player_id"]): RatingRow(int(r["player_id"]), r["ladder"], float(r["mu"]),
                                               float(r["sigma"]), int(r["games"]), int(r["wins"]))
                for r in rows}

    async def results(self, game_id: int) -> list[ResultRow]:
        rows = await self._rows("SELECT * FROM results WHERE game_id=? ORDER BY seat", (game_id,))
        return [ResultRow(int(r["seat"]), r["player_id"], int(r["side"]), int(r["points"]),
                          bool(r["won"]), int(r["scope"]), r["rating_before"], r["rating_after"])
                for r in rows]

    async def leaderboard(self, chat_id: int | None, ladder: str | None = None,
                          limit: int = 10) -> list[LeaderboardLine]:
        """Players ranked by rating (mu - 3 sigma), with games, wins and scope from results."""
        in_ladder = "" if ladder is None else "AND r.ladder=?"
        in_chat = "" if chat_id is None else "AND g.chat_id=?"
        rows = await self._report(
            "SELECT p.id AS player_id, p.display_name AS name, COUNT(*) AS games, "
            "SUM(CASE WHEN res.won THEN 1 ELSE 0 END) AS wins, SUM(res.scope) AS scope, "
            f"(SELECT MAX(r.mu - 3 * r.sigma) FROM ratings r WHERE r.player_id=p.id {in_ladder}) AS rating "
            "FROM results res JOIN games g ON g.id=res.game_id JOIN players p ON p.id=res.player_id "
            f"WHERE g.status='finished' AND NOT p.is_computer AND {self.dialect.counted} {in_chat} "
            "GROUP BY p.id, p.display_name ORDER BY rating DESC NULLS LAST, wins DESC, games DESC LIMIT ?",
            (*(() if ladder is None else (ladder,)), *(() if chat_id is None else (chat_id,)), limit))
        return [leaderboard_row(r) for r in rows]

    async def player_stats(self, player_id: int) -> dict[str, Any]:
        counted = self.dialect.counted
        totals = await self._report(
            "SELECT COUNT(*) AS games, COALESCE(SUM(CASE WHEN res.won THEN 1 ELSE 0 END), 0) AS wins, "
            "COALESCE(SUM(res.scope), 0) AS scope, COALESCE(SUM(res.points), 0) AS points "
            "FROM results res JOIN games g ON g.id=res.game_id "
            f"WHERE res.player_id=? AND g.status='finished' AND {counted}", (player_id,))
        ratings = await self._report(
            "SELECT ladder, mu, sigma, games, wins FROM ratings WHERE player_id=?", (player_id,))
        kind = self.dialect.win_kind
        kinds = await self._report(
            f"SELECT {kind} AS kind, COUNT(*) AS n FROM results res "
            "JOIN records rec ON rec.game_id=res.game_id JOIN games g ON g.id=res.game_id "
            f"WHERE res.player_id=? AND res.won AND g.status='finished' AND {counted} "
            f"AND {kind} IS NOT NULL GROUP BY 1", (player_id,))
        reviewed = await self._report(
            "SELECT COUNT(*) AS n, AVG(accuracy) AS accuracy FROM review_seats WHERE player_id=?",
            (player_id,))
        finished = await self._report(
            "SELECT COUNT(*) AS n, COALESCE(SUM(CASE WHEN EXISTS (SELECT 1 FROM daily_plays d "
            "WHERE d.game_id=g.id) THEN 1 ELSE 0 END), 0) AS dailies "
            "FROM results res JOIN games g ON g.id=res.game_id WHERE res.player_id=? AND g.status='finished'",
            (player_id,))
        stats = player_stats(totals[0], kinds, ratings, reviewed[0])
        stats["dailies"] = int(finished[0]["dailies"])
        stats["practice"] = int(finished[0]["n"]) - stats["dailies"] - stats["games"]
        return stats

    async def played_matches(self, player_id: int) -> list[PlayedMatch]:
        rows = await self._report(
            "SELECT g.id, res.seat, g.variant, res.won, g.finished_at, rec.line, "
            "EXISTS (SELECT 1 FROM daily_plays d WHERE d.game_id=g.id) AS daily, "
            f"{self.dialect.practice} AS practice "
            "FROM results res JOIN games g ON g.id=res.game_id LEFT JOIN records rec ON rec.game_id=g.id "
            "WHERE res.player_id=? AND g.status='finished' ORDER BY g.finished_at, g.id", (player_id,))
        return [played_match(r) for r in rows]

    async def achievements(self, player_ids: Iterable[int]) -> list[AchievementRow]:
        ids = [int(i) for i in player_ids]
        if not ids:
            return []
        rows = await self._report(
            "SELECT player_id, code, game_id, earned_at FROM achievements WHERE player_id IN "
            f"({', '.join('?' * len(ids))}) ORDER BY earned_at, player_id, code", tuple(ids))
        return [AchievementRow(int(r["player_id"]), str(r["code"]), int(r["game_id"]), float(r["earned_at"]))
                for r in rows]

    async def recent_matches(self, chat_id: int, limit: int = 5) -> list[RecentMatch]:
        games = await self._report(
            "SELECT id, variant, finished_at FROM games WHERE chat_id=? AND status='finished' "
            "ORDER BY finished_at DESC, id DESC LIMIT ?", (chat_id, limit))
        if not games:
            return []
        ids = [int(g["id"]) for g in games]
        rows = await self._report(
            "SELECT res.game_id, COALESCE(p.display_name, 'CPU') AS name, res.points, res.won "
            f"FROM results res LEFT JOIN players p ON p.id=res.player_id WHERE res.game_id IN "
            f"({', '.join('?' * len(ids))}) ORDER BY res.game_id, res.seat", tuple(ids))
        players: dict[int, list[tuple[str, int, bool]]] = {game_id: [] for game_id in ids}
        for r in rows:
            players[int(r["game_id"])].append(match_player(r))
        return [RecentMatch(int(g["id"]), g["variant"], float(g["finished_at"]), tuple(players[int(g["id"])]))
                for g in games]

    async def records(self) -> list[str]:
        return [r["line"] for r in await self._report("SELECT line FROM records ORDER BY game_id")]

    # ---- match reviews, the deal of the day ---------------------------------------

    async def match_record(self, game_id: int) -> str | None:
        row = await self._row("SELECT line FROM records WHERE game_id=?", (game_id,))
        return None if row is None else str(row["line"])

    async def match_review(self, game_id: int) -> str | None:
        row = await self._row("SELECT review FROM reviews WHERE game_id=?", (game_id,))
        return None if row is None else str(row["review"])

    async def last_finished_game(self, player_id: int) -> int | None:
        row = await self._row(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id=g.id WHERE s.player_id=? "
            "AND g.status='finished' ORDER BY g.finished_at DESC, g.id DESC LIMIT 1", (player_id,))
        return None if row is None else int(row["id"])

    async def reviewed_matches(self, chat_id: int | None, player_id: int | None, limit: int) -> list[int]:
        where, params = "", list[int]()
        if chat_id is not None:
            where += "AND g.chat_id=? "
            params.append(chat_id)
        if player_id is not None:
            where += "AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id=g.id AND s.player_id=?) "
            params.append(player_id)
        rows = await self._rows(
            "SELECT g.id FROM games g JOIN reviews r ON r.game_id=g.id WHERE g.status='finished' " + where
            + "AND NOT EXISTS (SELECT 1 FROM daily_plays d WHERE d.game_id=g.id) "
            "ORDER BY g.finished_at DESC, g.id DESC LIMIT ?", (*params, limit))
        return [int(r["id"]) for r in rows]

    async def unreviewed_matches(self, since: float, limit: int) -> list[int]:
        rows = await self._rows(
            "SELECT g.id FROM games g WHERE g.status='finished' AND g.finished_at >= ? "
            "AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.game_id=g.id) "
            "AND EXISTS (SELECT 1 FROM seats s JOIN players p ON p.id=s.player_id "
            "WHERE s.game_id=g.id AND NOT p.is_computer) ORDER BY g.finished_at, g.id LIMIT ?",
            (since, limit))
        return [int(r["id"]) for r in rows]

    async def is_daily(self, game_id: int) -> bool:
        return await self._row("SELECT 1 FROM daily_plays WHERE game_id=?", (game_id,)) is not None

    async def daily_game(self, day: str, player_id: int) -> int | None:
        row = await self._row("SELECT game_id FROM daily_plays WHERE day=? AND player_id=?", (day, player_id))
        return None if row is None else int(row["game_id"])

    async def daily_board(self, day: str, chat_id: int | None, limit: int = 10) -> list[DailyRow]:
        if chat_id is None:
            rows = await self._report(daily_board_sql(("?", "", "?"), False), (day, limit))
        else:
            rows = await self._report(daily_board_sql(("?", "?", "?"), True), (day, chat_id, chat_id, limit))
        return [daily_row(r) for r in rows]


def _release(game_id: int, message: str, owner: str, dialect: Dialect) -> Plan:
    row = yield Step("SELECT redraw FROM message_holds WHERE game_id=? AND message=? AND owner=?"
                     f"{dialect.lock}", (game_id, message, owner), returns=True)
    if row is not None and row["redraw"]:
        yield Step("UPDATE message_holds SET redraw=? WHERE game_id=? AND message=?",
                   (False, game_id, message))
        return False
    if row is not None:
        yield Step("DELETE FROM message_holds WHERE game_id=? AND message=?", (game_id, message))
    return True


_DAILY_BOARD = (
    "SELECT d.player_id, p.display_name, mine.points - theirs.points AS margin, "
    "(SELECT COUNT(*) FROM moves m WHERE m.game_id=d.game_id AND m.seat=mine.seat) AS moves, "
    "g.finished_at FROM daily_plays d "
    "JOIN games g ON g.id=d.game_id AND g.status='finished' "
    "JOIN players p ON p.id=d.player_id "
    "JOIN results mine ON mine.game_id=d.game_id AND mine.player_id=d.player_id "
    "JOIN results theirs ON theirs.game_id=d.game_id AND theirs.seat<>mine.seat "
    "WHERE d.day={day} {where}"
    "ORDER BY margin DESC, moves ASC, g.finished_at ASC, d.player_id ASC LIMIT {limit}")
_DAILY_IN_CHAT = (
    "AND (d.chat_id={chat} OR d.player_id IN (SELECT s.player_id FROM seats s "
    "JOIN games c ON c.id=s.game_id WHERE c.chat_id={chat} AND s.player_id IS NOT NULL)) ")
"""The finished deals of a day, best first; `_DAILY_IN_CHAT` keeps the players of one chat."""


def daily_row(row: Any) -> DailyRow:
    return DailyRow(int(row["player_id"]), str(row["display_name"]), int(row["margin"]),
                    int(row["moves"]), float(row["finished_at"]))


def daily_board_sql(marks: tuple[str, str, str], in_chat: bool) -> str:
    """The board's query with the placeholders `marks` (day, chat, limit) of the database."""
    day, chat, limit = marks
    where = _DAILY_IN_CHAT.format(chat=chat) if in_chat else ""
    return _DAILY_BOARD.format(day=day, limit=limit, where=where)
