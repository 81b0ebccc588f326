"""Whether a SQLite file can hold the bot's games, checked before the bot takes any update.

A read-only, damaged or wrong file otherwise lets the bot start and then fail every
update with a logged OperationalError while users get no answer at all."""

from __future__ import annotations

import sqlite3
from pathlib import Path


class StorageUnavailable(Exception):
    """The database cannot be used; the message says why in one line, for the operator."""


def check_sqlite(path: str) -> None:
    """Open `path`, run SQLite's quick integrity check and a write that is rolled back;
    `StorageUnavailable` says what is wrong. A missing file is fine: it will be created."""
    if path == ":memory:":
        return
    file = Path(path)
    if file.is_dir():
        raise StorageUnavailable(f"SCOPA_DB names a folder, not a database file: {path}")
    if file.exists() and not file.is_file():
        raise StorageUnavailable(f"SCOPA_DB is not a regular file: {path}")
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageUnavailable(f"cannot create the folder of {path}: {exc.strerror}") from None
    try:
        db = sqlite3.connect(path, isolation_level=None, timeout=5)
    except sqlite3.Error as exc:
        raise StorageUnavailable(f"cannot open the database {path}: {exc}") from None
    try:
        verdict = str(db.execute("PRAGMA quick_check").fetchone()[0])
        if verdict != "ok":
            raise StorageUnavailable(f"the database {path} is damaged ({verdict[:80]}): "
                                     "restore it from a backup")
        db.execute("BEGIN IMMEDIATE")
        db.execute("CREATE TABLE scopa_health_check (x INTEGER)")
        db.execute("ROLLBACK")
    except sqlite3.DatabaseError as exc:
        message = str(exc)
        if "readonly" in message or "read-only" in message:
            raise StorageUnavailable(f"the database {path} is read-only: the bot must be able to "
                                     "write it and its folder") from None
        raise StorageUnavailable(f"{path} is not a usable database ({message})") from None
    finally:
        db.close()
