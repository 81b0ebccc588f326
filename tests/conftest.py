"""Every store a test opens is closed when the test ends, even when it fails: an open
aiosqlite connection keeps its thread, and the test run, alive. Texts are strict."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import SqliteStore

from .progress import FileClock


def pytest_configure(config: pytest.Config) -> None:
    if not getattr(config.option, "numprocesses", None):
        config.pluginmanager.register(FileClock(config), "file-clock")


@pytest.fixture(autouse=True)
async def _close_stores(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    opened: list[SqliteStore] = []
    open_store = SqliteStore.open.__func__  # type: ignore[attr-defined]

    async def tracked(cls: type[SqliteStore], *args: object, **kwargs: object) -> SqliteStore:
        store = await open_store(cls, *args, **kwargs)
        opened.append(store)
        return store

    monkeypatch.setattr(SqliteStore, "open", classmethod(tracked))
    yield
    for store in opened:
        await store.close()


@pytest.fixture(autouse=True)
def _strict_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text shown without one of its parameters fails the test instead of reaching a user."""
    monkeypatch.setattr("bot.i18n.STRICT", True)
