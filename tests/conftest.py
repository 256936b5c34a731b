"""Shared pytest set-up: the fake Discord fixture (`fake_discord`) for every test."""

pytest_plugins = ["tests.fakediscord.fixtures"]
