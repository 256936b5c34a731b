"""What an operator graphs, in Prometheus's text format at `/metrics` on the health port
(bot/health.py), and the INFO line an operator reads when a game starts or ends.

Each bot holds its own registry (not prometheus_client's global one), so tests running
several bots in one process never share or clash over a metric. Labels are low in
cardinality: a game's kind (from the game's row, never named here), a rate limit's scope,
an AI level, an error's class; never a guild, channel or user.

A press costs a counter and a histogram; a scrape only reads values. What must be counted
in the database (games under way, boards pending, the outbox's oldest entry) is read by
`refresh`, every SAMPLE_EVERY seconds while the endpoint is served, not per scrape.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import cast

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from sqlalchemy import ExceptionContext, event, func, select

from bot import rows
from bot.database import Database
from bot.games import GAMES
from bot.logs import game_fields
from bot.models import GameRecord, Status
from bot.outbox import OUTBOX
from bot.shards import Shards

log = logging.getLogger("bot.games")

SAMPLE_EVERY = 15.0  # seconds; Prometheus's default scrape interval
# Discord's scopes (X-RateLimit-Scope); anything else is counted as "none" (Cloudflare).
SCOPES = ("user", "global", "shared")
# A press is answered within Discord's 3 s; the board follows (docs/performance.md).
PRESS_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
AI_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    """One bot's metrics, in a registry of its own (`registry`, `exposition`)."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        ProcessCollector(registry=registry)  # CPU, memory, open files: read per scrape
        self.presses = Counter(
            "trashtable_presses",
            "Play presses whose action was saved",
            ["game"],
            registry=registry,
        )
        self.press_seconds = Histogram(
            "trashtable_press_seconds",
            "From a play press reaching the session service to its action saved",
            ["game"],
            buckets=PRESS_BUCKETS,
            registry=registry,
        )
        self.boards_delivered = Counter(
            "trashtable_boards_delivered",
            "Boards posted or edited into their channel",
            registry=registry,
        )
        self.boards_pending = Gauge(
            "trashtable_boards_pending",
            "Outbox entries (boards, controls to clear) not yet delivered",
            registry=registry,
        )
        self.outbox_age = Gauge(
            "trashtable_outbox_oldest_seconds",
            "Age of the oldest undelivered outbox entry (0 when none)",
            registry=registry,
        )
        self.games_started = Counter(
            "trashtable_games_started", "Games started", ["game"], registry=registry
        )
        self.games_ended = Counter(
            "trashtable_games_ended",
            "Games ended: finished (played out) or stopped (/game stop)",
            ["game", "outcome"],
            registry=registry,
        )
        self.games_playing = Gauge(
            "trashtable_games_playing",
            "Games under way on this process's shards",
            ["game"],
            registry=registry,
        )
        self.rate_limited = Counter(
            "trashtable_discord_rate_limited",
            "429 answers from Discord, by X-RateLimit-Scope",
            ["scope"],
            registry=registry,
        )
        self.database_errors = Counter(
            "trashtable_database_errors",
            "Errors raised by the database driver, by SQLAlchemy's class for them",
            ["error"],
            registry=registry,
        )
        self.worker_queue = Gauge(
            "trashtable_worker_queue_depth",
            "Jobs (pictures, AI decisions) waiting for a worker process",
            registry=registry,
        )
        self.ai_seconds = Histogram(
            "trashtable_ai_decision_seconds",
            "An AI decision, its wait for a worker included",
            ["game", "level"],
            buckets=AI_BUCKETS,
            registry=registry,
        )

    def exposition(self) -> bytes:
        return generate_latest(self.registry)

    # ------------------------------------------------------------------ what happens

    def pressed(self, kind: str, seconds: float) -> None:
        self.presses.labels(kind).inc()
        self.press_seconds.labels(kind).observe(seconds)

    def started(self, game: GameRecord) -> None:
        self.games_started.labels(game.kind).inc()
        log.info(
            "game %s (%s) started in guild %s, channel %s",
            game.id,
            game.kind,
            game.guild_id,
            game.channel_id,
            extra=game_fields(game),
        )

    def ended(self, game: GameRecord, outcome: str) -> None:
        """`outcome`: "finished" (played out) or "stopped"."""
        self.games_ended.labels(game.kind, outcome).inc()
        log.info(
            "game %s (%s) %s in guild %s, channel %s, at step %s",
            game.id,
            game.kind,
            outcome,
            game.guild_id,
            game.channel_id,
            game.step,
            extra=game_fields(game),
        )

    def decided(self, game: GameRecord, level: str, seconds: float) -> None:
        """An AI decision's time; `bench.capacity` reads its DEBUG line to time them at load."""
        self.ai_seconds.labels(game.kind, level).observe(seconds)
        log.debug(
            "game %s step %s: the %s AI decided in %.0f ms",
            game.id,
            game.step,
            level,
            seconds * 1000,
            extra=game_fields(game),
        )

    def limited(self, scope: str | None) -> None:
        self.rate_limited.labels(scope if scope in SCOPES else "none").inc()

    # ------------------------------------------------------------------ watched

    def watch_database(self, db: Database) -> None:
        """Count every error the driver raises (refused, locked, a conflict), on each of
        the database's engines; what the bot then does about it is logged where handled."""

        def count(context: ExceptionContext) -> None:
            self.database_errors.labels(type(context.sqlalchemy_exception).__name__).inc()

        for engine in db.engines:
            event.listen(engine, "handle_error", count)

    def watch_queue(self, depth: Callable[[], int]) -> None:
        self.worker_queue.set_function(depth)

    async def refresh(self, db: Database, shards: Shards) -> None:
        """Read what only the database knows: games under way by kind, the outbox's
        undelivered entries and the oldest one's age (this process's guilds only)."""
        games = rows.GAMES.c
        playing = (
            select(games.kind, func.count())
            .where(games.status == Status.PLAYING, shards.owned(games.guild_id))
            .group_by(games.kind)
        )
        pending = (
            select(func.count(), func.min(OUTBOX.c.created_at))
            .join(rows.GAMES, games.id == OUTBOX.c.game_id)
            .where(OUTBOX.c.delivered_at.is_(None), shards.owned(games.guild_id))
        )
        async with db.connected() as connection:
            # Statements' results are untyped rows: each is (kind, count), then one (n, oldest).
            found = cast(list[tuple[str, int]], (await connection.execute(playing)).all())
            outbox = cast(tuple[int, datetime | None], (await connection.execute(pending)).one())
        counts, (waiting, oldest) = dict(found), outbox
        for kind in {*GAMES, *counts}:  # a kind with none shows 0, not its last count
            self.games_playing.labels(kind).set(counts.get(kind, 0))
        self.boards_pending.set(waiting)
        self.outbox_age.set(0 if oldest is None else _age(oldest))


def _age(when: datetime) -> float:
    """Seconds since `when` (naive UTC as SQLite returns it, or aware)."""
    aware = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    return max(0.0, (datetime.now(UTC) - aware).total_seconds())
