"""PostgreSQL links as hosted services hand them out (issue 37, item 3): each libpq parameter
either works, translated into asyncpg's arguments (bot/database_links.py), or stops the bot
with one line naming it; a refused login, a missing database and a host that never resolves
stop `python -m bot migrate` and start-up with one line, no traceback.

What the suite's PostgreSQL can serve (no TLS: it listens on a unix socket) is connected
to; the rest (sslmode=require and stricter, certificates) is checked by handing the
arguments to asyncpg's own link parser, the code that decides what asyncpg.connect does.
"""

from __future__ import annotations

import asyncio
import os
import ssl
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asyncpg.connect_utils import SSLMode, _parse_connect_dsn_and_args
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot.database import Database, DatabaseUnusable
from bot.database_links import SSL_MODES, postgres_link
from bot.settings import async_database_url
from tests.fakediscord import FakeDiscord
from tests.postgres import Postgres

ROOT = Path(__file__).resolve().parents[2]
REMOTE = "postgresql://u:p@db.example.com:5432/tt"


def asyncpg_sees(link: str) -> Any:
    """What asyncpg.connect makes of this link, the way the bot hands it over: SQLAlchemy's
    keyword arguments from the URL, plus the link's own (bot/database.py), parsed by
    asyncpg's own parser. Returns asyncpg's connection parameters."""
    translated = postgres_link(async_database_url(link))
    engine = create_async_engine(translated.url)
    _args, options = engine.dialect.create_connect_args(engine.url)
    options.update(translated.connect_args)
    options.pop("timeout", None)  # taken by asyncpg.connect itself, not by the parser
    _addresses, params = _parse_connect_dsn_and_args(
        dsn=options.pop("dsn", None),
        host=options.pop("host", None),
        port=options.pop("port", None),
        user=options.pop("user", None),
        password=options.pop("password", None),
        database=options.pop("database", None),
        ssl=options.pop("ssl", None),
        passfile=None,
        service=None,
        servicefile=None,
        direct_tls=None,
        server_settings=None,
        target_session_attrs=None,
        krbsrvname=None,
        gsslib=None,
    )
    assert not options, f"SQLAlchemy would hand asyncpg arguments it refuses: {options}"
    return params


def a_certificate_file() -> str:
    """A file of certificate authorities asyncpg can load (the system's bundle)."""
    cafile = ssl.get_default_verify_paths().cafile
    if not cafile or not Path(cafile).is_file():
        pytest.skip("no system certificate bundle to load")
    return cafile


@pytest.mark.parametrize("mode", SSL_MODES)
def test_each_sslmode_reaches_asyncpg(mode: str) -> None:
    """The word reaches asyncpg's own sslmode; verify-* check the server's certificate
    (and verify-full its name) against the root certificate the link names."""
    link = f"{REMOTE}?sslmode={mode}"
    if mode.startswith("verify"):
        link += f"&sslrootcert={a_certificate_file()}"
    params = asyncpg_sees(link)
    assert params.sslmode == SSLMode.parse(mode)
    assert (params.user, params.password, params.database) == ("u", "p", "tt")
    if mode == "disable":
        assert params.ssl is False
    else:
        assert isinstance(params.ssl, ssl.SSLContext)
        checks = params.ssl.verify_mode == ssl.CERT_REQUIRED
        assert checks == mode.startswith("verify")
        assert params.ssl.check_hostname == (mode == "verify-full")


def test_sslrootcert_system_trusts_the_systems_authorities() -> None:
    """libpq's `sslrootcert=system` (implies verify-full): asyncpg would look for a file
    named "system"; the bot hands it a context that checks certificate and host name."""
    params = asyncpg_sees(f"{REMOTE}?sslmode=verify-full&sslrootcert=system")
    assert params.ssl.verify_mode == ssl.CERT_REQUIRED and params.ssl.check_hostname


def test_client_certificates_reach_asyncpg(tmp_path: Path) -> None:
    """sslcert and sslkey go to asyncpg's link parser, which loads them: a file that is
    no certificate fails there, as it would in libpq."""
    (tmp_path / "client.crt").write_text("not a certificate")
    (tmp_path / "client.key").write_text("not a key")
    files = f"sslcert={tmp_path / 'client.crt'}&sslkey={tmp_path / 'client.key'}"
    with pytest.raises(ssl.SSLError):
        asyncpg_sees(f"{REMOTE}?sslmode=require&{files}")


def test_connect_timeout_becomes_asyncpgs_timeout() -> None:
    link = postgres_link(async_database_url(f"{REMOTE}?connect_timeout=2"))
    assert link.connect_args == {"timeout": 2.0}
    assert dict(link.url.query) == {}


def test_target_session_attrs_reaches_asyncpg() -> None:
    params = asyncpg_sees(f"{REMOTE}?target_session_attrs=read-write")
    assert params.target_session_attrs == "read-write"


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("sslmode=always", "sslmode must be one of"),
        ("channel_binding=require", "channel_binding=require"),
        ("channel_binding=maybe", "channel_binding must be one of"),
        ("connect_timeout=0", "connect_timeout must be a positive number"),
        ("connect_timeout=soon", "connect_timeout must be a positive number"),
        ("target_session_attrs=fastest", "target_session_attrs must be one of"),
        ("sslrootcert=/no/such/root.crt", "sslrootcert: no file /no/such/root.crt"),
        ("sslmode=require&sslrootcert=system", "sslrootcert=system needs sslmode=verify-full"),
        ("gssencmode=disable&keepalives=1", "unknown link parameters gssencmode, keepalives"),
        ("sslmode=require&sslmode=disable", "sslmode is given more than once"),
    ],
)
def test_a_parameter_the_bot_cannot_honour_is_named(query: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        async_database_url(f"{REMOTE}?{query}")


def test_an_at_sign_in_the_password_asks_for_percent_encoding() -> None:
    with pytest.raises(ValueError, match="percent-encode it as %40"):
        async_database_url("postgresql://u:p@ss@db.example.com/tt")
    assert make_url(async_database_url("postgresql://u:p%40ss@db.example.com/tt")).password == (
        "p@ss"
    )


async def first_row(url: str, sql: str) -> Any:
    """One value, read through the bot's own Database on this link."""
    db = Database(async_database_url(url))
    try:
        await db.wait_until_reachable()
        async with db.engine.connect() as connection:
            return (await connection.execute(text(sql))).scalar()
    finally:
        await db.close()


@pytest.mark.parametrize(
    "query",
    [
        "sslmode=disable",
        "sslmode=allow",
        "sslmode=prefer",
        "ssl=prefer",
        "channel_binding=prefer",
        "channel_binding=disable",
        "connect_timeout=2",
        "target_session_attrs=read-write",
    ],
)
async def test_links_that_connect(postgresql_url: str, query: str) -> None:
    assert await first_row(f"{postgresql_url}&{query}", "SELECT 1") == 1


async def test_application_name_is_seen_by_the_server(postgresql_url: str) -> None:
    sql = "SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()"
    assert await first_row(f"{postgresql_url}&application_name=trash-links", sql) == "trash-links"


async def test_options_set_the_sessions_settings(postgresql_url: str) -> None:
    link = f"{postgresql_url}&options=-c%20statement_timeout%3D5000"
    assert await first_row(link, "SHOW statement_timeout") == "5s"


async def test_a_server_that_is_not_a_standby_is_refused_for_standby(postgresql_url: str) -> None:
    """target_session_attrs reaches asyncpg: the suite's server is a primary, so asking
    for a standby is refused, in one line."""
    db = Database(async_database_url(f"{postgresql_url}&target_session_attrs=standby"))
    try:
        with pytest.raises(DatabaseUnusable, match="refused the bot") as refused:
            await db.wait_until_reachable()
    finally:
        await db.close()
    assert "\n" not in str(refused.value)


def run_bot(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DATABASE_URL"}}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT / "tests",  # no .env here
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.returncode != 0, result.stderr
    assert len(lines) == 1, result.stderr
    return lines[0]


def with_password(postgres: Postgres) -> str:
    """A role that logs in with a password (the suite's server trusts everyone else)."""
    role = "trash_password"
    postgres.psql(f"CREATE ROLE {role} LOGIN PASSWORD 'right'")
    hba = Path(postgres.psql("SHOW hba_file"))
    hba.write_text(f"local all {role} scram-sha-256\n{hba.read_text()}")
    postgres.psql("SELECT pg_reload_conf()")
    return role


def test_migrate_with_a_wrong_password_says_so_in_one_line(own_postgres: Postgres) -> None:
    role = with_password(own_postgres)
    url = own_postgres.url().replace("postgres:@", f"{role}:wrong@")
    line = one_line(run_bot("migrate", DATABASE_URL=url))
    assert "password authentication failed" in line and "user name and password" in line
    assert "wrong" not in line  # the password itself is never printed


def test_migrate_with_the_right_password_works(own_postgres: Postgres) -> None:
    role = with_password(own_postgres)
    own_postgres.psql(f"GRANT CREATE ON SCHEMA public TO {role}")
    url = own_postgres.url().replace("postgres:@", f"{role}:right@")
    assert run_bot("migrate", DATABASE_URL=url).returncode == 0


def test_migrate_with_no_such_database_says_so_in_one_line(postgresql_url: str) -> None:
    url = postgresql_url.replace("/test_", "/missing_")
    line = one_line(run_bot("migrate", DATABASE_URL=url))
    assert "does not exist" in line and "database name" in line


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("sslmode=require&channel_binding=require", "channel_binding=require"),
        ("connect_timeout=2&sslcompression=1", "unknown link parameter sslcompression"),
    ],
)
def test_migrate_refuses_a_link_parameter_in_one_line(query: str, named: str) -> None:
    result = run_bot("migrate", DATABASE_URL=f"{REMOTE}?{query}")
    assert result.returncode == 2
    assert "DATABASE_URL is invalid" in one_line(result) and named in result.stderr


def test_a_host_that_does_not_resolve_is_given_up_on(tmp_path: Path) -> None:
    """Tried for DATABASE_WAIT_SECONDS (here by its older name, still read), one line a
    try, then one line and exit 1."""
    url = "postgresql://u:p@no-such-host.invalid/tt"
    result = run_bot("migrate", DATABASE_URL=url, DATABASE_HOST_WAIT_SECONDS="0.3")
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert lines[-1].startswith("The database host in DATABASE_URL")
    assert "does not resolve" in lines[-1] and "gave up after 0.3 s" in lines[-1]
    assert all("not reachable" in line for line in lines[:-1]) and len(lines) >= 2


async def test_start_up_with_no_such_database_stops_in_one_line(
    fake_discord: FakeDiscord, postgresql_url: str
) -> None:
    """The same at start-up (`python -m bot`), after logging in to Discord: discord.py's
    own warnings about voice come first, then the one line, no traceback."""
    env = {
        "DISCORD_TOKEN": fake_discord.token,
        "DISCORD_API_BASE": fake_discord.api_base,
        "DATABASE_URL": postgresql_url.replace("/test_", "/missing_"),
        "LOG_LEVEL": "WARNING",
    }
    result = await asyncio.to_thread(run_bot, **env)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("The database (PostgreSQL at ") and "does not exist" in line
    assert "database name" in line
