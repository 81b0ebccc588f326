"""Progress a person can follow in a long run: pytest names each test file as it starts
(unless -q); this adds the time since the run began, so a slow file shows which it is and
for how long it has run."""

from __future__ import annotations

import time

import pytest


class FileClock:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.started = time.monotonic()
        self.current: str | None = None

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logstart(self, nodeid: str, location: tuple[str, int | None, str]) -> None:
        path = nodeid.split("::", 1)[0]
        if path == self.current:
            return
        self.current = path
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None or self.config.get_verbosity() != 0:
            return
        elapsed = round(time.monotonic() - self.started)
        reporter.write(f"[{elapsed // 60}:{elapsed % 60:02d}] ")
