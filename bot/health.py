"""`GET /healthz` for container orchestrators and `docker compose`.

200 while the bot is connected to Discord's gateway and the database answers and can be
written (a probe that changes nothing), 503 otherwise, with a JSON body saying which part is
down, for example::

    {"gateway": "connected", "database": "ok", "games_running": 3}
    {"gateway": "disconnected", "database": "out of reach (Connect call failed ...)",
     "games_running": null}

`GET /metrics` beside it: the bot's metrics in Prometheus's text format (bot/metrics.py).

Off unless `HEALTH_PORT` is set. aiohttp comes with discord.py.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import math
import os
import socket
from typing import Any

import discord
from aiohttp import web
from sqlalchemy import func, literal
from sqlalchemy.exc import DBAPIError
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.database import Database, out_of_service, reason
from bot.metrics import SAMPLE_EVERY, Metrics
from bot.models import GameRecord, Status
from bot.settings import SettingUnusable
from bot.shards import ALL, Shards

log = logging.getLogger(__name__)

# What `generate_latest` writes: the classic text format every Prometheus reads (the
# library's own server answers so unless asked for another).
EXPOSITION = "text/plain; version=0.0.4; charset=utf-8"
DATABASE_TIMEOUT = 3.0  # seconds; a probe must answer well before the orchestrator gives up


async def check(client: discord.Client, db: Database) -> tuple[bool, dict[str, Any]]:
    """Whether the bot is healthy, and the body that says why."""
    connected = client.is_ready() and not client.is_closed() and math.isfinite(client.latency)
    body: dict[str, Any] = {
        "gateway": "connected" if connected else "disconnected",
        "database": "ok",
        "games_running": None,
    }
    try:
        async with asyncio.timeout(DATABASE_TIMEOUT):
            async with db.reading() as session:
                await session.exec(select(literal(1)))  # SELECT 1
                body["games_running"] = await _games_running(session)
            if body["games_running"] is not None:  # before the first migration, no table
                await db.check_writable()
    except Exception as error:  # any failure is the answer: name it, briefly
        body["database"] = _named(error)
    return connected and body["database"] == "ok", body


def _named(error: BaseException) -> str:
    """What is wrong with the database, in words, with the driver's own first line ("database
    is locked", "cannot execute UPDATE in a read-only transaction", "Connect call failed")
    rather than an exception's name."""
    if isinstance(error, TimeoutError):
        return f"no answer within {DATABASE_TIMEOUT:g} s"
    said = _said(error)
    if "locked" in said:
        return f"locked by another process ({said})"
    if "readonly" in said or "read-only" in said:
        return f"cannot be written ({said})"
    if out_of_service(error):
        return f"out of reach ({said})"
    return f"failed ({said})"[:200]  # a refused login, say: the server's own words


def _said(error: BaseException) -> str:
    """The error's first line; for an OSError the system's words for its errno ("Connection
    refused"), which asyncio's "Connect call failed (address)" leaves out."""
    original = getattr(error, "orig", None) or error
    if isinstance(original, OSError) and isinstance(original.errno, int):
        # A name that does not resolve (socket.gaierror) has an errno of its own, below 0.
        return os.strerror(original.errno) if original.errno > 0 else str(original.strerror)
    said = reason(error)
    return said if said != type(original).__name__ else f"{said} (no reason given)"


def cannot_listen(host: str, port: int, error: OSError) -> str:
    """One line: why /healthz cannot listen on host:port, naming the setting to change."""
    if isinstance(error, socket.gaierror):
        return (
            f"Setting HEALTH_HOST is invalid: {host!r} does not resolve ({error.strerror}); "
            "give an address of this machine, such as 127.0.0.1 or 0.0.0.0"
        )
    if error.errno == errno.EADDRINUSE:
        return (
            f"Setting HEALTH_PORT is unusable: port {port} on {host} is already in use; "
            "choose a free port, or stop what listens there"
        )
    if error.errno == errno.EADDRNOTAVAIL:
        return (
            f"Setting HEALTH_HOST is unusable: {host} is not an address of this machine; "
            "give one of its own, such as 127.0.0.1 or 0.0.0.0"
        )
    if error.errno == errno.EACCES:
        return (
            f"Setting HEALTH_PORT is unusable: port {port} needs privileges this process "
            "lacks; choose a port above 1023"
        )
    return (
        f"Settings HEALTH_HOST and HEALTH_PORT are unusable: cannot listen on {host}:{port} "
        f"({error.strerror or error})"
    )


async def _games_running(session: AsyncSession) -> int | None:
    """How many games are being played; None before the tables exist (a first start)."""
    query = select(func.count()).where(GameRecord.status == Status.PLAYING)
    try:
        return (await session.exec(query)).one()
    except DBAPIError:
        await session.rollback()
        return None


class HealthServer:
    """A tiny aiohttp server answering `/healthz` for one bot, and `/metrics` when given
    the bot's metrics (read from the database every SAMPLE_EVERY seconds meanwhile)."""

    def __init__(
        self,
        client: discord.Client,
        db: Database,
        host: str,
        port: int,
        metrics: Metrics | None = None,
        shards: Shards = ALL,
    ) -> None:
        self.client, self.db = client, db
        self.host, self.port = host, port
        self.metrics, self.shards = metrics, shards
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        if metrics is not None:
            app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        self._sampling: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Listen, or raise SettingUnusable naming HEALTH_PORT or HEALTH_HOST and the fix."""
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self.host, self.port).start()
        except OSError as error:
            await self._runner.cleanup()
            raise SettingUnusable(cannot_listen(self.host, self.port, error)) from None
        self.port = int(self._runner.addresses[0][1])  # the real one when asked for port 0
        log.info("health check on http://%s:%d/healthz", self.host, self.port)
        if self.metrics is not None:
            self._sampling = asyncio.create_task(self._sample(self.metrics))

    async def stop(self) -> None:
        if self._sampling is not None:
            self._sampling.cancel()
            await asyncio.gather(self._sampling, return_exceptions=True)
        await self._runner.cleanup()

    async def _sample(self, metrics: Metrics) -> None:
        while True:
            try:
                await metrics.refresh(self.db, self.shards)
            except Exception as error:  # the database away, or not migrated yet: next round
                log.debug("metrics: the database was not read (%r)", error)
            await asyncio.sleep(SAMPLE_EVERY)

    async def _metrics(self, _request: web.Request) -> web.Response:
        assert self.metrics is not None
        return web.Response(body=self.metrics.exposition(), headers={"Content-Type": EXPOSITION})

    async def _healthz(self, _request: web.Request) -> web.Response:
        healthy, body = await check(self.client, self.db)
        return web.json_response(body, status=200 if healthy else 503)
