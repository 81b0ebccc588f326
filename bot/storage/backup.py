"""A consistent copy of a running bot's SQLite database.

The database is in WAL mode: its recent moves may live in `scopa.db-wal` until the next
checkpoint, so copying `scopa.db` alone can lose them. SQLite's online backup copies
every committed page, from the log too, while the bot keeps running."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .health import StorageUnavailable


def backup_sqlite(source: str, target: str) -> int:
    """Copy the database at `source` to the new file `target`; gives the number of pages copied."""
    if not Path(source).is_file():
        raise StorageUnavailable(f"no database at {source}")
    if Path(target).exists():
        raise StorageUnavailable(f"{target} exists already: name a new file")
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as src, sqlite3.connect(target) as dst:
            src.backup(dst)
            return int(dst.execute("PRAGMA page_count").fetchone()[0])
    except sqlite3.Error as exc:
        Path(target).unlink(missing_ok=True)
        raise StorageUnavailable(f"the backup of {source} failed: {exc}") from None
