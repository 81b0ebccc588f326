"""Whether the SQLite file the bot has open is still the one its path names.

An open SQLite connection keeps writing to the file it opened: deleted or replaced
(a restored copy moved over it, a cleanup that removed `scopa.db-wal`), it goes on
accepting moves into a file nobody will ever read again, and the database a restart
finds lacks them, or is damaged past use. So each write transaction, before its commit,
compares the device and inode the database and its log had when the store opened them
with what their paths name now: two `os.stat` calls, about a microsecond each, and none
on reads.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..sessions.ports import StorageFailed

FileId = tuple[int, int]
"""A file's (device, inode)."""


def file_id(path: str) -> FileId | None:
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return None
    return stat.st_dev, stat.st_ino


@dataclass(slots=True)
class OpenFiles:
    """The database file and its write-ahead log as the store opened them."""

    path: str
    database: FileId | None
    log: FileId | None

    @classmethod
    def of(cls, path: str) -> OpenFiles:
        """What `path` and `path-wal` name now (the log exists once the connection has read
        the database in WAL mode)."""
        return cls(path, file_id(path), file_id(path + "-wal"))

    def check(self) -> None:
        """`StorageFailed` when the database or its log was deleted or replaced since."""
        now = file_id(self.path)
        if now != self.database:
            raise StorageFailed(f"the database file {self.path} was "
                                f"{'deleted' if now is None else 'replaced'} while the bot was running")
        log = file_id(self.path + "-wal")
        if log != self.log:
            if self.log is None:
                self.log = log
                return
            raise StorageFailed(f"the database's log {self.path}-wal was "
                                f"{'deleted' if log is None else 'replaced'} while the bot was running")
