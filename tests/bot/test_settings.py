"""A missing or malformed setting stops the bot with one line naming it (issue 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from bot.settings import WORKER_MAX_JOBS, Settings, cores, load_settings
from bot.shards import Shards

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
        ({"DISCORD_TOKEN": "x", "EXTRA_EXTENSIONS": "no.such.game"}, "EXTRA_EXTENSIONS is invalid"),
        ({"DISCORD_TOKEN": "x", "EXTRA_EXTENSIONS": "rules.base"}, "EXTRA_EXTENSIONS is invalid"),
    ],
)
def test_a_bad_setting_stops_the_bot_with_one_line(tmp_path: Path, env, named) -> None:
    """`python -m bot` itself, as an admin starts it: status 2 and one line on stderr."""
    result = run_bot(tmp_path, **env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0], result.stderr


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"DISCORD_TOKEN": "x", "TURN_TIMER_MINUTES": "soon"}, "TURN_TIMER_MINUTES is invalid"),
        ({"DISCORD_TOKEN": "x", "DATABASE_URL": "mysql://db"}, "DATABASE_URL is invalid"),
        (
            {"DISCORD_TOKEN": "x", "DATABASE_URL": "postgresql://h/db?sslmode=always"},
            "DATABASE_URL is invalid",
        ),
        ({"DISCORD_TOKEN": "x", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL is invalid"),
        ({"DISCORD_TOKEN": "x", "LOG_FORMAT": "yaml"}, "LOG_FORMAT is invalid"),
        ({"DISCORD_TOKEN": "x", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID is invalid"),
        ({"DISCORD_TOKEN": "x", "SHARD_COUNT": "0"}, "SHARD_COUNT is invalid"),
        ({"DISCORD_TOKEN": "x", "SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS is invalid"),
        ({"DISCORD_TOKEN": "x", "SHARD_COUNT": "4", "SHARD_IDS": "0-x"}, "SHARD_IDS is invalid"),
        ({"DISCORD_TOKEN": "x", "SHARD_IDS": "0"}, "SHARD_IDS is invalid"),
        ({"DISCORD_TOKEN": "x", "WORKER_MAX_JOBS": "-1"}, "WORKER_MAX_JOBS is invalid"),
        ({"DISCORD_TOKEN": "x", "WORKER_MAX_JOBS": "many"}, "WORKER_MAX_JOBS is invalid"),
        (
            {"DISCORD_TOKEN": "x", "BOT_TOKEN_REQUESTS_PER_SECOND": "0"},
            "BOT_TOKEN_REQUESTS_PER_SECOND is invalid",
        ),
        (
            {"DISCORD_TOKEN": "x", "BOT_TOKEN_REQUESTS_PER_SECOND": "fast"},
            "BOT_TOKEN_REQUESTS_PER_SECOND is invalid",
        ),
    ],
)
def test_each_bad_setting_is_named_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], env, named
) -> None:
    """The settings `python -m bot` reads before anything else (the test above runs the
    command itself), read here in this process: a start of the interpreter each would
    cost seconds of the suite."""
    for key in ("DISCORD_TOKEN", "DATABASE_URL"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(tmp_path)  # no .env here
    with pytest.raises(SystemExit) as stopped:
        load_settings()
    assert stopped.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and named in lines[0], lines


def test_database_urls_get_their_async_driver() -> None:
    settings = Settings(discord_token="x", database_url="postgresql://u:p@h/db", _env_file=None)
    assert settings.database_url == "postgresql+asyncpg://u:p@h/db"
    settings = Settings(discord_token="x", database_url="sqlite:///data/x.db", _env_file=None)
    assert settings.database_url == "sqlite+aiosqlite:///data/x.db"


def test_the_unix_socket_form_is_accepted() -> None:
    """`postgresql://user:@/db?host=/socket/dir`, as a local server (or the tests') hands out."""
    settings = Settings(
        discord_token="x", database_url="postgresql://postgres:@/tt?host=/run/pg", _env_file=None
    )
    engine = create_async_engine(settings.database_url)
    _args, options = engine.dialect.create_connect_args(engine.url)
    assert (options["host"], options["database"], options["user"]) == ("/run/pg", "tt", "postgres")


@pytest.mark.parametrize(
    ("env", "shards"),
    [
        ({}, Shards()),
        ({"SHARD_COUNT": "2"}, Shards(2, (0, 1))),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1"}, Shards(4, (0, 1))),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3, 0,2"}, Shards(4, (0, 2, 3))),
    ],
)
def test_shard_settings_name_the_shards_this_process_runs(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], shards: Shards
) -> None:
    """SHARD_COUNT unset is unsharded; SHARD_IDS takes ranges and lists, default all."""
    for name, value in {"DISCORD_TOKEN": "x", **env}.items():
        monkeypatch.setenv(name, value)
    assert Settings(_env_file=None).shards == shards  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("env", "per_second"),
    [
        ({}, 50),
        ({"SHARD_COUNT": "2"}, 50),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, 25),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1"}, 25),
        ({"SHARD_COUNT": "5", "SHARD_IDS": "0-1"}, 50 / 3),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0", "BOT_TOKEN_REQUESTS_PER_SECOND": "40"}, 40),
        ({"BOT_TOKEN_REQUESTS_PER_SECOND": ""}, 50),
        ({"BOT_TOKEN_REQUESTS_PER_SECOND": "0.5"}, 0.5),
    ],
)
def test_each_process_takes_its_share_of_the_tokens_requests(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], per_second: float
) -> None:
    """Discord's 50 requests a second per bot token, split evenly between the processes
    the shards make (SHARD_COUNT over the shards this one runs, rounded up), unless set."""
    for name, value in {"DISCORD_TOKEN": "x", **env}.items():
        monkeypatch.setenv(name, value)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.requests_per_second == pytest.approx(per_second)


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({}, "allowed"),  # no cgroup files: the cores this process may run on
        ({"cpu.max": "max 100000\n"}, "allowed"),  # cgroup v2, no quota
        ({"cpu.max": "150000 100000\n"}, 1),  # 1.5 cores: one worker
        ({"cpu.max": "50000 100000\n"}, 1),  # half a core still runs one
        ({"cpu.max": "400000 100000\n"}, 4),  # four cores, or the fewer it may run on
        ({"cpu.cfs_quota_us": "-1\n", "cpu.cfs_period_us": "100000\n"}, "allowed"),  # v1
        ({"cpu.cfs_quota_us": "100000\n", "cpu.cfs_period_us": "100000\n"}, 1),  # v1, a core
        ({"cpu.max": "garbage\n"}, "allowed"),  # unreadable: as if none
    ],
)
def test_workers_default_to_the_cores_a_container_may_use(
    tmp_path: Path, files: dict[str, str], expected: int | str
) -> None:
    """Issue 37: WORKERS by default counts the cores the process may really use, a
    container's CPU quota (cgroup v2 or v1) included."""
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    allowed = len(os.sched_getaffinity(0))
    counted = cores(tmp_path / "cpu.max", tmp_path / "cpu.cfs_quota_us")
    assert counted == (allowed if expected == "allowed" else min(allowed, int(expected)))


def test_worker_max_jobs_has_a_default_and_zero_turns_it_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 37: workers are retired after WORKER_MAX_JOBS jobs unless it is 0."""
    monkeypatch.delenv("WORKER_MAX_JOBS", raising=False)
    assert Settings(discord_token="x", _env_file=None).worker_max_jobs == WORKER_MAX_JOBS > 0
    monkeypatch.setenv("WORKER_MAX_JOBS", "0")
    assert Settings(discord_token="x", _env_file=None).worker_max_jobs == 0
    monkeypatch.setenv("WORKER_MAX_JOBS", "500")
    assert Settings(discord_token="x", _env_file=None).worker_max_jobs == 500
