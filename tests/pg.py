"""A throwaway PostgreSQL server for the tests: a cluster made with Debian's `initdb` in
a temporary folder, started with `pg_ctl` on a free loopback port (its socket in the
same folder), and deleted at the end.

PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user
(made by Debian's package) or, failing that, `nobody`. Without the server's programs
the tests that need it are skipped, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

SUPERUSER = "scopa"
_FAST = ("-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
         "-c max_connections=60 -c shared_buffers=32MB")
"""A throwaway server needs no durability: nothing survives it."""
_DURABLE = "-c max_connections=60"


class Unavailable(Exception):
    """PostgreSQL's server programs are not installed here."""


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def server_programs() -> Path | None:
    """The folder holding `initdb`, `pg_ctl` and `postgres`: Debian's newest version, or
    whichever `pg_config --bindir` or the PATH gives."""
    def version(path: str) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", path))

    found = [Path(p).parent for p in sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)]
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            bindir = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                                    check=True).stdout.strip()
            found.append(Path(bindir))
        except (OSError, subprocess.CalledProcessError):
            pass
    initdb = shutil.which("initdb")
    if initdb:
        found.append(Path(initdb).resolve().parent)
    for folder in reversed(found):
        if all((folder / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Cluster:
    programs: Path
    folder: Path
    port: int
    account: pwd.struct_passwd | None
    """Who the server runs as, when this process is root."""
    _names: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _options: str = ""

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        extra: dict[str, object] = {}
        if self.account is not None:
            extra = {"user": self.account.pw_uid, "group": self.account.pw_gid, "extra_groups": []}
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C"}
        return subprocess.run([str(self.programs / args[0]), *args[1:]], cwd=self.folder, env=env,
                              capture_output=True, text=True, check=False, **extra)  # type: ignore[call-overload]

    def _check(self, result: subprocess.CompletedProcess[str], what: str) -> None:
        if result.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{what} failed ({result.returncode}): {result.stderr.strip()}\n{tail}")

    def start(self, durable: bool = False) -> None:
        self._check(self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust",
                              "-E", "UTF8", "--locale=C", "--no-sync"), "initdb")
        self._options = (f"-p {self.port} -k {shlex.quote(str(self.folder))} "
                         f"-c listen_addresses=127.0.0.1 {_DURABLE if durable else _FAST}")
        self.restart()

    def halt(self) -> None:
        """Stop the server at once (`pg_ctl stop -m immediate`: as a crash would, every
        connection cut, no checkpoint); its data stays for `restart`."""
        self._check(self._run("pg_ctl", "stop", "-w", "-t", "30", "-m", "immediate", "-D", str(self.data)),
                    "pg_ctl stop")

    def restart(self) -> None:
        """Start the server (again) on its port; returns once it takes connections."""
        self._check(self._run("pg_ctl", "start", "-w", "-t", "60", "-D", str(self.data),
                              "-l", str(self.folder / "server.log"), "-o", self._options), "pg_ctl start")

    def stop(self) -> None:
        """Stop the server and delete its folder; stopping again does nothing."""
        if self.folder.exists():
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "stop", "-w", "-t", "30", "-m", "immediate", "-D", str(self.data))
            shutil.rmtree(self.folder, ignore_errors=True)

    async def create_database(self) -> str:
        """A new, empty database; gives its URL."""
        name = f"t{os.getpid()}_{next(self._names)}"
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


def _server_account() -> pwd.struct_passwd | None:
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError("running as root, and neither a postgres nor a nobody user exists to run the server")


def start_cluster(durable: bool = False) -> Cluster:
    """Start a throwaway server; raise Unavailable when PostgreSQL is not installed."""
    programs = server_programs()
    if programs is None:
        raise Unavailable("PostgreSQL's server programs (initdb, pg_ctl) are not installed "
                          "(Debian: apt-get install postgresql)")
    account = _server_account()
    folder = Path(tempfile.mkdtemp(prefix="scopa-pg-"))
    if account is not None:
        os.chown(folder, account.pw_uid, account.pw_gid)
    cluster = Cluster(programs, folder, free_port(), account)
    atexit.register(cluster.stop)
    try:
        cluster.start(durable)
    except BaseException:
        cluster.stop()
        raise
    return cluster


_shared: Cluster | None = None


def shared_cluster() -> Cluster:
    """One throwaway server for the whole test run, started by the first test that needs it
    (stopped at exit); without PostgreSQL, `pytest.skip` saying why, or a failure in CI."""
    import pytest

    global _shared
    if _shared is None:
        try:
            _shared = start_cluster()
        except Unavailable as exc:
            if in_ci():
                pytest.fail(f"CI=true, so the PostgreSQL tests must run, but {exc}")
            pytest.skip(f"{exc}; the PostgreSQL tests run in CI")
    return _shared


def own_durable_cluster() -> Iterator[Cluster]:
    """A server of a test module's own, as its tests stop and start it (a pytest fixture's
    body); durable, as a real one is: a commit it answered outlives an immediate stop.
    Skipped where there is no PostgreSQL, failed in CI (which must run it)."""
    import pytest

    try:
        server = start_cluster(durable=True)
    except Unavailable as exc:
        if in_ci():
            pytest.fail(f"CI=true, so the PostgreSQL tests must run, but {exc}")
        pytest.skip(f"{exc}; the PostgreSQL tests run in CI")
    yield server
    server.stop()
