"""The days of the deal of the day: UTC days, so that everyone's deal changes at once."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta


def utc_day(now: float) -> date:
    """The day (UTC) at `now`."""
    return datetime.fromtimestamp(now, UTC).date()


def day_ends(day: date) -> float:
    """The moment `day` (UTC) ends: the next midnight UTC."""
    return datetime.combine(day + timedelta(days=1), time(), UTC).timestamp()
