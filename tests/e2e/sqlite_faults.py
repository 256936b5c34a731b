"""Faults a SQLite file meets from outside the bot: another process holding its write
lock (a backup, an admin's `sqlite3` shell), and the file made read-only."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

import pytest


@asynccontextmanager
async def write_lock_held(path: str) -> AsyncIterator[None]:
    """Another process holding the file's write lock until the block ends."""
    holder = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "import sqlite3, sys\n"
        f"c = sqlite3.connect({path!r}, isolation_level=None)\n"
        "c.execute('BEGIN EXCLUSIVE')\n"
        "print('locked', flush=True)\n"
        "sys.stdin.read()\n",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert await holder.stdout.readline() == b"locked\n"
        yield
    finally:
        holder.stdin.close()
        try:
            await asyncio.wait_for(holder.wait(), 10)
        finally:
            if holder.returncode is None:
                holder.kill()
                await holder.wait()


@contextmanager
def read_only(path: str) -> Iterator[None]:
    """The file made read-only until the block ends: by its mode, or, for root (whom
    modes do not stop), by the immutable attribute; skipped where neither can be set.
    Connections already open keep writing, as they would in production: new ones find
    the file read-only."""
    if os.geteuid() != 0:
        mode = os.stat(path).st_mode
        os.chmod(path, 0o444)
        try:
            yield
        finally:
            os.chmod(path, mode)
        return
    if subprocess.run(["chattr", "+i", path], capture_output=True).returncode != 0:
        pytest.skip("running as root, and the immutable attribute can't be set here")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", path], check=True)
