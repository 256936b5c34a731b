"""Shared pytest set-up: the fake Discord fixture (`fake_discord`) and the databases
(`postgres`, `postgresql_url`, `database_url`: see tests/postgres.py) for every test."""

pytest_plugins = ["tests.fakediscord.fixtures", "tests.postgres"]
