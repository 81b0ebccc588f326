"""The statements the PostgreSQL store writes its own way (`postgres.PostgresStore`): games
with their seats in one snapshot, a plain move in one round trip, due work claimed in one
statement."""

from __future__ import annotations

from .sql_store import GAME_COLUMNS, PLAYER_COLUMNS

GAMES_WITH_SEATS = (
    f"SELECT {', '.join('g.' + c for c in GAME_COLUMNS)}, s.seat AS s_seat, "
    "s.player_id AS s_player_id, s.computer_level AS s_computer_level, s.ready AS s_ready, "
    "s.timeouts AS s_timeouts, s.autoplay AS s_autoplay, s.waiting_since AS s_waiting_since, "
    f"{', '.join('p.' + c + ' AS p_' + c for c in PLAYER_COLUMNS)} "
    "FROM games g LEFT JOIN seats s ON s.game_id=g.id LEFT JOIN players p ON p.id=s.player_id "
    "WHERE {where} ORDER BY g.id, s.seat")
"""Games with their seats in one statement, so one snapshot: a row per seat."""
PLAIN_MOVE = (
    "WITH moved AS (UPDATE games SET state=COALESCE($1, state), version=version+1, deadline=$2, "
    "deadline_kind=$3, warned=FALSE, updated_at=$4 WHERE id=$5 AND version=$6 AND status='running' "
    "RETURNING id), "
    "flags AS (UPDATE seats SET timeouts=COALESCE($9::integer, timeouts), "
    "autoplay=COALESCE($10::boolean, autoplay) WHERE game_id=$5 AND seat=$7 "
    "AND ($9::integer IS NOT NULL OR $10::boolean IS NOT NULL) AND EXISTS (SELECT 1 FROM moved)) "
    "INSERT INTO moves (game_id, number, seat, move, by_computer, created_at) "
    "SELECT id, $6 + 1, $7, $8, $11, $4 FROM moved")
"""A move that neither ends a round nor the match, as one statement (so one transaction,
and one round trip): the move is stored only if the game's version was the expected one."""

CLAIM_DUE = (
    "WITH now AS (SELECT $1::float8 AS at, $2::float8 AS warn, $3::text AS owner, $4::float8 AS lease), "
    "due AS (SELECT g.id, g.deadline, g.deadline_kind, g.warned, g.version FROM games g "
    "CROSS JOIN now LEFT JOIN claims c ON c.game_id = g.id "
    "WHERE g.status='running' AND g.deadline_kind IS NOT NULL AND g.deadline <= now.at + now.warn "
    "AND (g.deadline <= now.at OR (g.deadline_kind='turn' AND NOT g.warned "
    "AND g.deadline - now.warn <= now.at)) "
    "AND (c.game_id IS NULL OR c.until <= now.at OR c.owner = now.owner) "
    "AND ($5::text[] IS NULL OR EXISTS (SELECT 1 FROM chats ch WHERE ch.id = g.chat_id "
    "AND ch.platform = ANY($5::text[]) AND CASE WHEN $6::int IS NULL OR ch.home IS NULL "
    "OR ch.home !~ '^[0-9]{1,40}$' THEN TRUE "
    "ELSE mod(div(ch.home::numeric, 4194304), $6::int)::int = ANY($7::int[]) END)) "
    "ORDER BY g.deadline, g.id FOR UPDATE OF g SKIP LOCKED), "
    "held AS (INSERT INTO claims (game_id, owner, until) "
    "SELECT due.id, now.owner, now.at + now.lease FROM due CROSS JOIN now "
    "ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until "
    "WHERE claims.until <= $1 OR claims.owner = $3 RETURNING game_id) "
    "SELECT due.* FROM due JOIN held ON held.game_id = due.id")
"""Due games (a turn not yet warned is due `$2` seconds before its deadline) that no other
owner holds and whose chat is served (`$5`-`$7`: `Served`, NULL for every chat; a home's
shard is `(home >> 22) % count`, here `div(home, 2^22)`), held for owner `$3` until
`$1 + $4`. The upsert checks the holder again: a claim another process committed after
this statement's snapshot is seen there."""
