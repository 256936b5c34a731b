"""`python -m bot` as a real process, as an admin runs it, with its log kept in a file the
test can read while it runs."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
import urllib.error
import urllib.request
from pathlib import Path

from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
UNSET = "<unset>"  # a setting's value that leaves it out of the bot's environment
STOP_PROMISE = 10.0  # seconds: `docker stop` kills a container that takes longer


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class BotProcess:
    def __init__(self, process: asyncio.subprocess.Process, log: Path) -> None:
        self.process, self.log = process, log

    @classmethod
    async def start(
        cls,
        fake: FakeDiscord,
        database: Path,
        log: Path,
        *,
        as_pid_1: bool = False,
        cwd: str | Path = ROOT,
        **settings: str,
    ) -> BotProcess:
        """Start the bot; `as_pid_1` runs it as the first process of a new PID namespace,
        as a container's CMD is (the test sends its signals to the bot itself). `cwd`: the
        source tree it runs from (a benchmark's worktree of an older commit); it reads a
        `.env` there. A setting given as UNSET is left out of its environment."""
        env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "DATABASE_URL": f"sqlite:///{database}",
            "DISCORD_API_BASE": fake.api_base,
            "LOG_LEVEL": "INFO",
            **settings,
        }
        env = {name: value for name, value in env.items() if value != UNSET}
        command = [sys.executable, "-m", "bot"]
        if as_pid_1:
            command = ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child", *command]
        with log.open("a") as out:
            process = await asyncio.create_subprocess_exec(
                *command, env=env, cwd=cwd, stdin=asyncio.subprocess.DEVNULL, stderr=out
            )
        return cls(process, log)

    async def connected(self, fake: FakeDiscord, syncs: int) -> None:
        """Wait until the bot has connected, synced its commands and gone quiet."""
        await fake.wait_for(
            lambda: fake.gateway.connected and fake.state.command_syncs > syncs,
            timeout=60,
            what="the bot process to connect and sync its commands",
        )
        await self.wait_for_log("cogs loaded")
        await asyncio.sleep(2.5)  # discord.py waits for its guilds before it reports ready
        # An AI game resumed at start-up goes on through the bot token, at the pace Discord
        # allows a bot's edits in a channel: quiet may take a while.
        await fake.settle(timeout=60)

    def text(self) -> str:
        return self.log.read_text()

    async def wait_for_log(self, line: str, count: int = 1, timeout: float = 60) -> None:
        async with asyncio.timeout(timeout):
            while self.text().count(line) < count:
                if self.process.returncode is not None:
                    raise AssertionError(f"the bot exited before logging {line!r}:\n{self.text()}")
                await asyncio.sleep(0.05)

    def bot_pid(self) -> int:
        """The bot's own process id (under `unshare`, the child that is PID 1 inside)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        if children.exists() and (found := children.read_text().split()):
            return int(found[0])
        return self.process.pid

    def signal(self, signum: int = signal.SIGTERM) -> None:
        os.kill(self.bot_pid(), signum)

    async def exit_code(self, timeout: float = STOP_PROMISE) -> int:
        return await asyncio.wait_for(self.process.wait(), timeout)

    async def end(self) -> None:
        """After the test: make sure nothing is left running."""
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


def health(port: int) -> tuple[int, dict[str, object]]:
    """GET /healthz: the status and the JSON body (a blocking call: run it in a thread)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
