"""Start-up (issues 12 and 57), the real `python -m bot` run as an admin runs it.

Discord out of reach is tried again with growing pauses, one line each and no traceback,
/healthz answering 503 meanwhile, and the bot connects once Discord is there. A bad setting
or a resource the bot cannot use stops it with exactly one line naming it and the fix, no
traceback; the database is checked before Discord, so its line shows while Discord is out
of reach too."""

from __future__ import annotations

import asyncio
import re
import socket
from pathlib import Path

import pytest

from tests.e2e.process import STOP_PROMISE, UNSET, BotProcess, free_port, health
from tests.fakediscord import FakeDiscord
from tests.postgres import Postgres

# A log line of the bot's progress (a try, a wait); anything else the process writes (a
# line printed on exit, an ERROR record, a traceback's lines) is a line about a failure.
PROGRESS = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING) ")


async def stops_with_one_line(
    tmp_path: Path, fake: FakeDiscord | None = None, **settings: str
) -> str:
    """Run the bot with `settings` (in `tmp_path`, where a `.env` may be) until it stops by
    itself; the one line it stopped with. Without `fake`, Discord is out of reach (a port
    nothing listens on)."""
    fake = fake or FakeDiscord(port=free_port())
    log = tmp_path / "bot.log"
    bot = await BotProcess.start(fake, tmp_path / "games.db", log, cwd=tmp_path, **settings)
    try:
        code = await bot.exit_code(timeout=90)
    finally:
        await bot.end()
    text = bot.text()
    failures = [line for line in text.splitlines() if line and not PROGRESS.match(line)]
    assert code in (1, 2) and len(failures) == 1, text
    return failures[0]


async def test_discord_out_of_reach_at_start_is_tried_again(tmp_path: Path) -> None:
    fake = FakeDiscord(port=free_port())  # not started yet: the port is closed
    health_port = free_port()
    bot = await BotProcess.start(
        fake, tmp_path / "games.db", tmp_path / "bot.log", HEALTH_PORT=str(health_port)
    )
    try:
        await bot.wait_for_log("Discord is out of reach", count=2)
        status, body = await asyncio.to_thread(health, health_port)
        assert (status, body["gateway"], body["database"]) == (503, "disconnected", "ok")

        await fake.start()
        await bot.connected(fake, 0)
        status, body = await asyncio.to_thread(health, health_port)
        assert (status, body["gateway"]) == (200, "connected")

        bot.signal()
        assert await bot.exit_code(timeout=STOP_PROMISE) == 0
        await fake.wait_disconnected()
        text = bot.text()
        assert "Traceback" not in text
        assert "trying again in 1 s" in text and "trying again in 2 s" in text
        assert fake.problems() == []
    finally:
        await bot.end()
        await fake.stop()


async def test_a_refused_token_stops_at_once_with_one_line(fake_discord, tmp_path: Path) -> None:
    """Discord refusing the token is not a network problem: no retry, one line, exit 1."""
    line = await stops_with_one_line(tmp_path, fake_discord, DISCORD_TOKEN="not.the.token")
    assert line.startswith("Setting DISCORD_TOKEN is invalid: Discord refused it"), line
    assert "out of reach" not in (tmp_path / "bot.log").read_text()


async def test_the_health_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = await stops_with_one_line(tmp_path, HEALTH_PORT=str(port))
    assert line.startswith("Setting HEALTH_PORT is unusable:"), line
    assert f"port {port} on 127.0.0.1 is already in use" in line and "choose a free port" in line


@pytest.mark.parametrize(
    ("host", "said"),
    [
        ("no-such-host.invalid", "does not resolve"),
        ("192.0.2.1", "is not an address of this machine"),  # TEST-NET-1: nobody's
    ],
)
async def test_a_bad_health_host_is_one_line(tmp_path: Path, host: str, said: str) -> None:
    line = await stops_with_one_line(tmp_path, HEALTH_PORT=str(free_port()), HEALTH_HOST=host)
    assert line.startswith("Setting HEALTH_HOST is "), line
    assert said in line and "127.0.0.1 or 0.0.0.0" in line


async def test_a_sqlite_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    """The folder's place is taken by a file (as root, an unwritable folder would be
    written anyway)."""
    (tmp_path / "data").write_text("not a folder")
    database = f"sqlite:///{tmp_path}/data/games/trash_table.db"
    line = await stops_with_one_line(tmp_path, DATABASE_URL=database)
    assert line == (
        f"The folder {tmp_path}/data/games of the SQLite file in DATABASE_URL cannot be made "
        "(Not a directory); make it, or point DATABASE_URL at a folder the bot can write"
    )


async def test_an_empty_token_in_the_env_file_is_one_line(tmp_path: Path) -> None:
    """`DISCORD_TOKEN=` copied from .env.example and not filled in."""
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\nLOG_LEVEL=INFO\n")
    line = await stops_with_one_line(tmp_path, DISCORD_TOKEN=UNSET)
    assert line.startswith("Setting DISCORD_TOKEN is empty: put the bot's token after"), line
    assert "Discord developer portal" in line


async def test_a_missing_token_is_one_line(tmp_path: Path) -> None:
    line = await stops_with_one_line(tmp_path, DISCORD_TOKEN=UNSET)
    assert line.startswith("Setting DISCORD_TOKEN is missing: put the bot's token"), line


async def test_a_refused_database_port_is_given_up_on_in_one_line(tmp_path: Path) -> None:
    """Nothing listens on the database's port: tried for DATABASE_WAIT_SECONDS, one
    progress line a try, then one line naming the wait, before Discord is tried at all."""
    port = free_port()
    line = await stops_with_one_line(
        tmp_path,
        DATABASE_URL=f"postgresql://trash:secret@127.0.0.1:{port}/trash",
        DATABASE_WAIT_SECONDS="1.5",
    )
    assert line.startswith(f"The database (PostgreSQL at 127.0.0.1:{port}/trash) did not answer")
    assert "for 1.5 s" in line and "DATABASE_WAIT_SECONDS" in line and "secret" not in line
    text = (tmp_path / "bot.log").read_text()
    assert "not reachable" in text and "Discord is out of reach" not in text


async def test_a_refused_login_to_the_database_shows_while_discord_is_out_of_reach(
    tmp_path: Path, postgres: Postgres
) -> None:
    """The database is checked before Discord: while Discord is out of reach, a user the
    database refuses stops the bot at once with the database's own reason."""
    url = postgres.create_database().replace("postgres:@", "no_such_user:wrong@")
    line = await stops_with_one_line(tmp_path, DATABASE_URL=url)
    assert line.startswith("The database (PostgreSQL at "), line
    assert "no_such_user" in line and "check the user name and password in DATABASE_URL" in line
    assert "Discord is out of reach" not in (tmp_path / "bot.log").read_text()
