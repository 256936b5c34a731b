"""Shared pytest set-up: the fake Discord fixture (`fake_discord`) and the databases
(`postgres`, `postgresql_url`, `database_url`: see tests/postgres.py) for every test."""

import os

# Pictures and the AI run in a thread unless a test turns the worker pool on (a pool per
# bot would start processes in every test); `WORKERS=2 pytest` runs the suite with pools.
os.environ.setdefault("WORKERS", "0")

pytest_plugins = ["tests.fakediscord.fixtures", "tests.postgres"]
