"""The achievements a counted match earns its players, worked out when it ends (`Play.commit`)
and stored with it, in the move's transaction, together with the notice that tells its chat.

A player's past matches are read only where a feat needs them: the settebello taken ten
times, while that feat is still to earn and only after a match in which they took one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .feats import Feat, earned, seat_facts, tally
from .ports import GameStore
from .records import SeatRow


async def earned_in(store: GameStore, record: dict[str, Any],
                    seats: Sequence[SeatRow]) -> list[tuple[SeatRow, Feat]]:
    """What the finished match `record` earns each person seated (`seats`), in seat order; the
    caller asks only for a match that counts (never practice or a deal of the day)."""
    people = [s for s in sorted(seats, key=lambda s: s.seat) if not s.is_computer and s.player_id]
    if not people:
        return []
    owned: dict[int, set[str]] = {}
    for row in await store.achievements([s.player_id for s in people if s.player_id]):
        owned.setdefault(row.player_id, set()).add(row.code)
    out: list[tuple[SeatRow, Feat]] = []
    for seat in people:
        player_id = seat.player_id
        assert player_id is not None
        had = owned.get(player_id, set())
        facts = seat_facts(record, seat.seat)
        before = None
        if facts.settebello and Feat.SETTEBELLO_TEN.value not in had:
            before = tally(await store.played_matches(player_id)).settebello
        out.extend((seat, feat) for feat in earned(facts, had, before))
    return out
