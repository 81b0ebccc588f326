"""Whether the SQLite file the bot has open is still the one its path names.

An open SQLite connection keeps writing to the file it opened: deleted or replaced
(a restored copy moved over it, a cleanup that removed `scopa.db-wal`), it goes on
accepting moves into a file nobody will ever read again, and the database a restart
finds lacks them, or is damaged past use. So each write transaction, before its commit,
checks that the database and its log are still the files (device and inode) the store
opened.

That costs one `os.stat` a write, of the folder, and none on reads: deleting, renaming
or creating a file changes its folder's modification time, and while that time is the one
seen when both files were last found in place, nothing in the folder was deleted or
replaced since. A time is trusted only once it is `SETTLED` seconds old (a file system
stamps times in steps, of up to two seconds for some); until then, and after any change
in the folder, the two files are looked at themselves.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from ..sessions.ports import StorageFailed

FileId = tuple[int, int]
"""A file's (device, inode)."""

SETTLED = 5.0


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
    folder: str
    seen: int | None = None
    """The folder's modification time (ns) when both files were last found in place, once
    settled."""

    @classmethod
    def of(cls, path: str) -> OpenFiles:
        """What `path` and `path-wal` name now (the log exists once the connection has read
        the database in WAL mode)."""
        return cls(path, file_id(path), file_id(path + "-wal"), os.path.dirname(os.path.abspath(path)))

    def check(self) -> None:
        """`StorageFailed` when the database or its log was deleted or replaced since."""
        try:
            changed = os.stat(self.folder).st_mtime_ns
        except OSError:
            changed = None
        if changed is not None and changed == self.seen:
            return
        self._look()
        if changed is not None and time.time_ns() - changed > SETTLED * 1e9:
            self.seen = changed

    def _look(self) -> None:
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
