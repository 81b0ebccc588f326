"""Lines typed at the terminal, read without blocking the event loop."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from typing import Protocol


class LineSource(Protocol):
    async def next_line(self) -> str | None:
        """The next line typed, without its newline; None at the end of input."""
        ...


def _wake(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)


class StdinLines:
    """Lines from a file descriptor, read by the event loop itself rather than by a
    blocked thread, so that Ctrl-C ends the program at once."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._buffer = b""
        self._lines: list[str] = []
        self._eof = False

    def _take(self, data: bytes) -> None:
        if not data:
            self._eof = True
            data, self._buffer = self._buffer, b""
            if data:
                self._lines.append(data.decode("utf-8", "replace"))
            return
        *complete, self._buffer = (self._buffer + data).split(b"\n")
        self._lines += [line.decode("utf-8", "replace").rstrip("\r") for line in complete]

    async def next_line(self) -> str | None:
        loop = asyncio.get_running_loop()
        while not self._lines and not self._eof:
            ready: asyncio.Future[None] = loop.create_future()
            try:
                loop.add_reader(self.fd, _wake, ready)
            except (OSError, NotImplementedError, ValueError):  # a regular file, or no selector
                self._take(await asyncio.to_thread(os.read, self.fd, 4096))
                continue
            try:
                await ready
            finally:
                loop.remove_reader(self.fd)
            self._take(os.read(self.fd, 4096))
        return self._lines.pop(0) if self._lines else None


class CallableLines:
    """Lines from a blocking `read_line` (which returns "" at the end), run in a thread."""

    def __init__(self, read_line: Callable[[], str]) -> None:
        self.read_line = read_line

    async def next_line(self) -> str | None:
        line = await asyncio.to_thread(self.read_line)
        return None if line == "" else line.rstrip("\n")


def stdin_lines() -> LineSource:
    try:
        return StdinLines(sys.stdin.fileno())
    except (OSError, ValueError):  # io.UnsupportedOperation: stdin replaced by an object without a descriptor
        return CallableLines(sys.stdin.readline)
