"""Settings, read from the environment and a `.env` file by pydantic-settings.

Every setting is listed, with a comment, in `.env.example`. A missing or malformed one stops
the bot with a single line naming it (see `load_settings`), never a traceback.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path
from typing import Annotated, Literal, TypeVar

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from bot.database_links import postgres_link
from bot.ratelimits import DISCORD_GLOBAL_LIMIT
from bot.shards import Shards, parse_shard_ids

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/trash_table.db"
DEFAULT_API_BASE = "https://discord.com/api/v10"
# A worker then holds about 250 MB at most (docs/performance.md, "Worker memory").
WORKER_MAX_JOBS = 2000

SettingsKind = TypeVar("SettingsKind", bound="DatabaseSettings")

EMPTY = "setting_empty"  # the error type of a setting given as blank
TOKEN_FIX = (
    "put the bot's token after DISCORD_TOKEN= in .env (Discord developer portal, your "
    "application, Bot, Reset Token)"
)

MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def async_database_url(url: str) -> str:
    """The URL with its async driver (aiosqlite or asyncpg); its libpq parameters checked.

    Accepts the usual spellings: `sqlite:///path.db`, `postgres://` and `postgresql://`, with
    or without a driver, and the unix-socket form `postgresql://user:@/db?host=/run/pg`. The
    parameters after `?` (`sslmode=require`, ...) stay in the URL as written: the database
    turns them into asyncpg's arguments (bot/database_links.py), checked here first so a bad
    one stops the bot with one line before it connects.
    """
    for plain, driver in (
        ("sqlite:///", "sqlite+aiosqlite:///"),
        ("postgres://", "postgresql+asyncpg://"),
        ("postgresql://", "postgresql+asyncpg://"),
    ):
        if url.startswith(plain):
            url = driver + url.removeprefix(plain)
    if url.startswith("sqlite+aiosqlite:///"):
        return url
    if not url.startswith("postgresql+asyncpg://"):
        raise ValueError("use sqlite:///path.db or postgresql://user:pass@host/db")
    try:
        parsed = make_url(url)
    except ArgumentError as error:
        raise ValueError(str(error)) from None
    if "@" in (parsed.host or ""):
        # `user:p@ss@host` reads as host `ss@host`, which then never resolves.
        raise ValueError(
            "the user name or password holds an '@': percent-encode it as %40 in the link"
        )
    postgres_link(parsed)  # raises ValueError naming a parameter it cannot honour
    return url


# A container's CPU quota: cgroup v2 names it in cpu.max ("<quota> <period>", or "max"
# for none); cgroup v1 in two files of its cpu controller.
CPU_MAX = Path("/sys/fs/cgroup/cpu.max")
CPU_QUOTA_V1 = Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")
CPU_PERIOD_V1 = Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us")


def cores(cpu_max: Path = CPU_MAX, quota_v1: Path = CPU_QUOTA_V1) -> int:
    """The cores this process may really use: those it may run on (`taskset`, a cpuset),
    and no more than a container's CPU quota allows (a quota of 1.5 cores counts 1)."""
    allowed = (
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )
    quota = _cpu_quota(cpu_max, quota_v1, quota_v1.with_name(CPU_PERIOD_V1.name))
    return max(1, min(allowed, int(quota))) if quota is not None else allowed


def _cpu_quota(cpu_max: Path, quota_v1: Path, period_v1: Path) -> float | None:
    """The container's CPU quota in cores, or None when it has none (or none can be read)."""
    try:
        if cpu_max.exists():
            quota, period = cpu_max.read_text().split()[:2]
        elif quota_v1.exists():
            quota, period = quota_v1.read_text().strip(), period_v1.read_text().strip()
        else:
            return None
        if quota in ("max", "-1"):
            return None
        return int(quota) / int(period)
    except (OSError, ValueError):
        return None


class DatabaseSettings(BaseSettings):
    """The settings `python -m bot migrate` needs (no Discord token)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = DEFAULT_DATABASE_URL
    # How long start-up (and `migrate`) keeps trying a database it cannot reach (a refused
    # port, a host name that does not resolve, no answer) before it stops with one line: a
    # server or container starting up answers within seconds, a wrong host or port never,
    # and an orchestrator restarts the bot anyway. DATABASE_HOST_WAIT_SECONDS, its older
    # name (it covered host names alone), is still read.
    database_wait_seconds: float = Field(
        default=60.0,
        ge=0,
        allow_inf_nan=False,
        validation_alias=AliasChoices("database_wait_seconds", "database_host_wait_seconds"),
    )

    @field_validator("database_url")
    @classmethod
    def _async_driver(cls, url: str) -> str:
        return async_database_url(url)


class Settings(DatabaseSettings):
    """Every setting the bot runs with."""

    discord_token: SecretStr
    dev_guild_id: int | None = None
    discord_api_base: str = DEFAULT_API_BASE
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # Plain lines, or one JSON object a line with a game's fields (bot/logs.py).
    log_format: Literal["text", "json"] = "text"
    # Minutes a player has for each decision before the AI plays it for them; 0 turns the
    # timer off. A channel can change its own with /game timer.
    turn_timer_minutes: int = Field(default=0, ge=0, le=24 * 60)
    # The /healthz endpoint (see bot/health.py): off unless a port is given.
    health_port: int | None = Field(default=None, ge=1, le=65535)
    health_host: str = "127.0.0.1"
    # How long finished and stopped games (with their replays and scoreboard lines) are
    # kept, and how long a guild that removed the bot keeps its data (bot/keeping.py).
    game_retention_days: int = Field(default=90, ge=1, le=36500)
    departed_guild_grace_days: int = Field(default=30, ge=0, le=3650)
    # Worker processes that draw the pictures and run the AI (bot/workers.py); 0 runs them
    # in a thread of the bot's own process.
    workers: int = Field(default_factory=cores, ge=0, le=256)
    # Jobs a worker process is given before a fresh one takes its place, when it is idle
    # (bot/workers.py): a worker's caches of pictures grow with the jobs it runs. 0: never.
    worker_max_jobs: int = Field(default=WORKER_MAX_JOBS, ge=0, le=100_000_000)
    # Discord sharding (bot/shards.py): unset runs every guild in this one process. With a
    # count, this process runs the shards in SHARD_IDS (`0-1`, `0,2`; unset: all of them).
    shard_count: int | None = Field(default=None, ge=1, le=1024)
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    # Extensions to load besides those found under cogs/: a game plug-in kept in another
    # package (comma-separated module names; the tests' own small game is one).
    extra_extensions: Annotated[tuple[str, ...], NoDecode] = ()
    # This process's share of Discord's 50 requests a second per bot token (bot/ratelimits.py);
    # unset: 50 divided by the processes the shards make (`requests_per_second`).
    bot_token_requests_per_second: float | None = Field(default=None, gt=0, allow_inf_nan=False)

    @field_validator("discord_token", mode="before")
    @classmethod
    def _a_token(cls, value: object) -> object:
        # `DISCORD_TOKEN=` left empty in .env (copied from .env.example) is the usual slip.
        if isinstance(value, str) and not value.strip():
            raise PydanticCustomError(EMPTY, TOKEN_FIX)
        return value.strip() if isinstance(value, str) else value

    @field_validator("extra_extensions", mode="before")
    @classmethod
    def _module_list(cls, value: object) -> object:
        if isinstance(value, str):
            names = tuple(name.strip() for name in value.split(",") if name.strip())
            for name in names:
                if not MODULE_NAME.fullmatch(name):
                    raise ValueError(f"not a module name: {name!r}")
                if not _findable(name):
                    raise ValueError(f"no module named {name!r}")
            return names
        return value

    @field_validator("shard_count", "bot_token_requests_per_second", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_id_list(cls, value: object) -> object:
        if value is None or value == "":
            return None
        return parse_shard_ids(value) if isinstance(value, str) else value

    @field_validator("shard_ids")
    @classmethod
    def _within_the_count(
        cls, ids: tuple[int, ...] | None, info: ValidationInfo
    ) -> tuple[int, ...] | None:
        count = info.data.get("shard_count")
        if ids is None:
            return None
        if count is None:
            raise ValueError("needs SHARD_COUNT")
        if not ids or ids[-1] >= count:
            raise ValueError(f"shard ids run from 0 to {count - 1} with SHARD_COUNT={count}")
        return ids

    @property
    def shards(self) -> Shards:
        if self.shard_count is None:
            return Shards()
        return Shards(self.shard_count, self.shard_ids or tuple(range(self.shard_count)))

    @property
    def requests_per_second(self) -> float:
        """BOT_TOKEN_REQUESTS_PER_SECOND, or this process's even share of the token's."""
        if self.bot_token_requests_per_second is not None:
            return self.bot_token_requests_per_second
        return DISCORD_GLOBAL_LIMIT / self.shards.processes

    @field_validator("discord_api_base")
    @classmethod
    def _http_url(cls, url: str) -> str:
        if not url.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return url.rstrip("/")

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("health_port", mode="before")
    @classmethod
    def _zero_is_off(cls, value: object) -> object:
        return None if value in ("", "0", 0) else value


def describe_error(error: ValidationError) -> str:
    """One line naming the first bad setting the way it is written in `.env`, and what to
    do about it."""
    first = error.errors()[0]
    name = str(first["loc"][0]).upper() if first["loc"] else "settings"
    if name == "DISCORD_TOKEN" and first["type"] == "missing":
        return f"Setting {name} is missing: {TOKEN_FIX}"
    if first["type"] == "missing":
        return f"Setting {name} is missing: set it in the environment or .env (.env.example)"
    if first["type"] == EMPTY:
        return f"Setting {name} is empty: {first['msg']}"
    return f"Setting {name} is invalid: {first['msg']}"


class SettingUnusable(Exception):
    """A setting that reads well but names something the bot cannot use (a port already
    taken, an address not of this machine). The message is one line for the admin, naming
    the setting and the fix; `python -m bot` prints it alone and exits."""


def _findable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a parent package is missing
        return False


def load_settings(**overrides: object) -> Settings:
    """The settings, or exit with status 2 and one line on stderr naming the bad one."""
    return _load(Settings, **overrides)


def load_database_settings() -> DatabaseSettings:
    """The database setting alone, for `python -m bot migrate`; exits like `load_settings`."""
    return _load(DatabaseSettings)


def _load(kind: type[SettingsKind], **overrides: object) -> SettingsKind:
    try:
        return kind(**overrides)  # type: ignore[arg-type]
    except ValidationError as error:
        print(describe_error(error), file=sys.stderr)
        raise SystemExit(2) from None
