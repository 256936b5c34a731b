"""`make backup` and `make restore` (README, "Backups"): the database named by DATABASE_URL
copied to a file while the bot runs, and put back from one while it is stopped.

    python -m bot.backups backup FILE
    python -m bot.backups restore FILE

- SQLite: SQLite's own online backup (`sqlite3.Connection.backup`), a consistent copy even
  while the bot writes (a plain copy of the file can miss what waits in the `-wal` file);
  restored by putting the copy in the file's place, its `-wal` and `-shm` files removed
  (they belong to the file replaced).
- PostgreSQL: `pg_dump --format=custom` and `pg_restore --clean --if-exists` in one
  transaction (a restore that fails half-way changes nothing), from the folder `PG_BIN`
  names or the PATH.

A restore takes the games back to the backup's steps. It marks each game under way in
the database put back (bot/restores.py): the next start takes off the boards of the steps
lost and posts a fresh board of each, before any press. A backup put back by hand has no
marks; the bot still notices when a player presses a board of a step that no longer
exists, and posts a fresh board then (bot/store.py, `redraw`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

from bot import restores
from bot.settings import load_database_settings


def backup(url: str, target: Path, pg_bin: str | None = None) -> None:
    """Write a backup of the database at `url` to `target` (replaced if it exists)."""
    database = make_url(url)
    if database.get_backend_name() == "sqlite":
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        live, copy = sqlite3.connect(_sqlite_file(url)), sqlite3.connect(partial)
        try:
            live.backup(copy)
        finally:
            copy.close()
            live.close()
        partial.replace(target)  # never a half-written backup under the name asked for
        return
    _run(pg_bin, "pg_dump", "--format=custom", f"--file={target}", libpq_url(url))


def restore(url: str, source: Path, pg_bin: str | None = None) -> None:
    """Put the backup `source` in place of the database at `url` (the bot stopped), its
    games under way marked for a fresh board at the next start."""
    put_back(url, source, pg_bin)
    asyncio.run(restores.mark(url))


def put_back(url: str, source: Path, pg_bin: str | None = None) -> None:
    """The backup `source` in place of the database at `url`, and nothing more: what a
    restore done by hand does."""
    if not source.is_file():
        raise SystemExit(f"restore: no backup file {source}")
    database = make_url(url)
    if database.get_backend_name() == "sqlite":
        live = Path(_sqlite_file(url))
        live.parent.mkdir(parents=True, exist_ok=True)
        partial = live.with_name(live.name + ".restoring")
        shutil.copyfile(source, partial)
        for extra in ("-wal", "-shm"):
            live.with_name(live.name + extra).unlink(missing_ok=True)
        partial.replace(live)
        return
    _run(
        pg_bin,
        "pg_restore",
        "--clean",
        "--if-exists",
        "--no-owner",
        "--single-transaction",
        f"--dbname={libpq_url(url)}",
        str(source),
    )


def libpq_url(url: str) -> str:
    """A PostgreSQL DATABASE_URL as libpq's programs take it: without SQLAlchemy's driver
    name, and `ssl=` spelled `sslmode=`."""
    database = make_url(url).set(drivername="postgresql")
    query = dict(database.query)
    if "ssl" in query and "sslmode" not in query:
        query["sslmode"] = query.pop("ssl")
    return database.set(query=query).render_as_string(hide_password=False)


def _sqlite_file(url: str) -> str:
    path = make_url(url).database
    if not path or path == ":memory:":
        raise SystemExit("backup: DATABASE_URL names no SQLite file")
    return path


def _run(pg_bin: str | None, program: str, *arguments: str) -> None:
    folder = pg_bin if pg_bin is not None else os.environ.get("PG_BIN")
    found = str(Path(folder) / program) if folder else shutil.which(program)
    if found is None:
        raise SystemExit(f"{program} not found: install PostgreSQL's client programs or set PG_BIN")
    done = subprocess.run([found, *arguments], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise SystemExit(f"{program} failed: {last}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.backups", description=__doc__)
    parser.add_argument("command", choices=["backup", "restore"])
    parser.add_argument("file", type=Path)
    arguments = parser.parse_args(argv)
    url = load_database_settings().database_url
    if arguments.command == "backup":
        backup(url, arguments.file)
    else:
        restore(url, arguments.file)
    print(f"{arguments.command}: done ({arguments.file})", file=sys.stderr)


if __name__ == "__main__":
    main()
