"""The schema's one history: each store's versions, as databases already deployed count them."""

from __future__ import annotations

import hashlib
import re

from bot.storage.schema import POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS, STEPS

RELEASED = {
    "sqlite": (17, "f4a7ba1a1b1aa5ad3440d642cc9e4a7b98be846faefec07471aeba77f6526513"),
    "postgres": (15, "615b0889f8d3b53083a10e05f15a876cd5d17c0c8336719406f2d85f8e014ec8"),
}
"""Each dialect's number of scripts and a digest of them: deployed databases ran them and count them.

A step appended records its dialects' new counts and digests here, once it is final."""

_FIRST_OF_BOTH = 2
"""Where PostgreSQL starts (its first script is the schema SQLite had reached at its third)."""


def _versions() -> list[tuple[int | None, int | None]]:
    """Each step's version number in SQLite and in PostgreSQL (None: no script there)."""
    sqlite = postgres = 0
    numbers: list[tuple[int | None, int | None]] = []
    for step in STEPS:
        sqlite += step.sqlite is not None
        postgres += step.postgres is not None
        numbers.append((sqlite if step.sqlite is not None else None,
                        postgres if step.postgres is not None else None))
    return numbers


def _digest(scripts: tuple[str, ...]) -> str:
    return hashlib.sha256("\x00".join(scripts).encode()).hexdigest()


def test_each_store_keeps_the_versions_its_deployed_databases_have() -> None:
    for scripts, (count, digest) in ((SQLITE_MIGRATIONS, RELEASED["sqlite"]),
                                     (POSTGRES_MIGRATIONS, RELEASED["postgres"])):
        assert len(scripts) == count
        assert _digest(scripts) == digest, "a released step was changed"


def test_sqlite_runs_every_step_and_postgresql_every_step_from_its_start() -> None:
    assert all(step.sqlite is not None for step in STEPS)
    assert [step.postgres is None for step in STEPS[:_FIRST_OF_BOTH]] == [True] * _FIRST_OF_BOTH


def test_every_step_after_postgresql_started_carries_both_dialects() -> None:
    later = STEPS[_FIRST_OF_BOTH:]
    assert later and all(step.sqlite is not None and step.postgres is not None for step in later)


def test_a_step_is_the_same_version_in_both_dialects_two_apart() -> None:
    """SQLite's version n and PostgreSQL's n - 2 are one step, so they change the schema alike."""
    for sqlite, postgres in _versions()[_FIRST_OF_BOTH:]:
        assert sqlite is not None and postgres is not None and sqlite - postgres == 2


def test_each_step_says_its_version_in_each_dialect() -> None:
    for step, (sqlite, postgres) in zip(STEPS, _versions(), strict=True):
        head = f"SQLite {sqlite} only: " if postgres is None else f"SQLite {sqlite}, PostgreSQL {postgres}: "
        assert step.why.startswith(head), step.why[:40]


def test_each_dialect_script_speaks_its_own_types() -> None:
    for step in STEPS:
        assert step.sqlite is not None
        assert not re.search(r"DOUBLE PRECISION|BOOLEAN|BIGSERIAL|BIGINT|IDENTITY", step.sqlite)
        if step.postgres is not None:
            assert not re.search(r"AUTOINCREMENT|\bREAL\b", step.postgres)
