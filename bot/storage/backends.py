"""Which store a database address names: SQLite (a file, `sqlite:///file`, `:memory:`)
or PostgreSQL (`postgresql://user@host:port/db`, `postgres://...`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from .postgres import DatabaseUnavailable, PostgresStore, redacted_url
from .sqlite_store import SqliteStore

__all__ = ["AnyStore", "Backend", "Database", "DatabaseUnavailable", "UnsupportedDatabase",
           "describe_database", "open_store", "parse_database"]

AnyStore = SqliteStore | PostgresStore

_SQLITE_PREFIX = "sqlite://"
_POSTGRES_SCHEMES = ("postgresql", "postgres")


class Backend(Enum):
    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"


class UnsupportedDatabase(ValueError):
    """The database address names neither an SQLite file nor a PostgreSQL server."""


@dataclass(frozen=True, slots=True)
class Database:
    backend: Backend
    target: str
    """The SQLite file (or `:memory:`), or the PostgreSQL connection URL."""


def parse_database(url: str) -> Database:
    """Read a database address; raise UnsupportedDatabase, with a one-line reason, for any
    other kind."""
    text = url.strip()
    if not text:
        raise UnsupportedDatabase("the database address is empty: give a file path, "
                                  "sqlite:///path or postgresql://user@host:port/db")
    if text.lower().startswith("sqlite:"):
        path = text[len(_SQLITE_PREFIX):] if text.startswith(_SQLITE_PREFIX) else None
        if path in ("", "/"):
            return Database(Backend.SQLITE, ":memory:")
        if path is None or not path.startswith("/"):
            raise UnsupportedDatabase(
                f"{text!r}: an SQLite address is sqlite:///relative/file or sqlite:////absolute/file "
                f"(or postgresql://user@host:port/db for PostgreSQL)")
        return Database(Backend.SQLITE, path[1:])
    scheme, sep, _ = text.partition("://")
    if not sep:
        return Database(Backend.SQLITE, text)
    if scheme.lower() in _POSTGRES_SCHEMES:
        return Database(Backend.POSTGRESQL, text)
    raise UnsupportedDatabase(
        f"unsupported database {scheme}://...: use a file path, sqlite:///path "
        f"or postgresql://user@host:port/db")


def describe_database(url: str) -> str:
    """The address as logs and settings may show it: a PostgreSQL password is hidden."""
    return redacted_url(url.strip())


async def open_store(url: str, clock: Callable[[], float] = time.time) -> AnyStore:
    """Open (and migrate) the store the address names."""
    database = parse_database(url)
    if database.backend is Backend.POSTGRESQL:
        return await PostgresStore.open(database.target, clock)
    return await SqliteStore.open(database.target, clock)
