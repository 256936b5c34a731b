"""A missing or malformed setting stops the bot with one line naming it (issue 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DATABASE_URL"}}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,  # no .env here
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({}, "DISCORD_TOKEN is missing"),
        ({"DISCORD_TOKEN": "x", "TURN_TIMER_MINUTES": "soon"}, "TURN_TIMER_MINUTES is invalid"),
        ({"DISCORD_TOKEN": "x", "DATABASE_URL": "mysql://db"}, "DATABASE_URL is invalid"),
        ({"DISCORD_TOKEN": "x", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL is invalid"),
        ({"DISCORD_TOKEN": "x", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID is invalid"),
    ],
)
def test_a_bad_setting_stops_the_bot_with_one_line(tmp_path: Path, env, named) -> None:
    result = run_bot(tmp_path, **env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0], result.stderr


def test_database_urls_get_their_async_driver() -> None:
    settings = Settings(discord_token="x", database_url="postgresql://u:p@h/db", _env_file=None)
    assert settings.database_url == "postgresql+asyncpg://u:p@h/db"
    settings = Settings(discord_token="x", database_url="sqlite:///data/x.db", _env_file=None)
    assert settings.database_url == "sqlite+aiosqlite:///data/x.db"
