"""CPU figures of the bot's processes, read from /proc, for the benchmarks.

A worker pool's processes are the bot's too: `process_tree` follows the children of every
thread (a pool may start its processes from a thread other than the main one, and
`/proc/PID/task/PID/children` lists only the main thread's).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def process_tree(pid: int) -> list[int]:
    """A process and its live descendants."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        if not Path(f"/proc/{current}").exists():
            continue  # it has just exited: its parent counts it among the reaped
        found.append(current)
        pending += children(current)
    return found


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        # A thread or process that has just ended.
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def times(pid: int) -> list[float]:
    """utime, stime, cutime, cstime in seconds (fields 14 to 17 of /proc/PID/stat)."""
    return _stat_times(Path(f"/proc/{pid}/stat"))


def _stat_times(stat_file: Path) -> list[float]:
    """Fields 14 to 17 of a process's or a thread's stat file, in seconds (the name, field
    2, may hold spaces, so count from its closing parenthesis)."""
    try:
        stat = stat_file.read_text()
    except (FileNotFoundError, ProcessLookupError):  # ended between listing and reading
        return [0.0] * 4
    return [int(x) / TICK for x in stat.rsplit(")", 1)[1].split()[11:15]]


def thread_cpu_seconds(pid: int) -> float:
    """CPU time of a process's main thread (an asyncio program's event loop), without its
    other threads' or its children's."""
    utime, stime, _, _ = _stat_times(Path(f"/proc/{pid}/task/{pid}/stat"))
    return utime + stime


def cpu_seconds(pids: list[int]) -> float:
    """CPU time used by these processes, and by their children already reaped."""
    return sum(sum(times(pid)) for pid in pids)


def thread_wait_seconds(pid: int) -> float:
    """How long a process's main thread (an asyncio program's event loop) was ready to run
    but waited for a core."""
    return _waited(Path(f"/proc/{pid}/task/{pid}/schedstat"))


def cpu_wait_seconds(pids: list[int]) -> float:
    """Time these processes' threads spent ready to run but waiting for a core (the
    scheduler's run-queue wait): what other work on the machine cost them."""
    return sum(
        _waited(schedstat)
        for pid in pids
        for schedstat in Path(f"/proc/{pid}/task").glob("*/schedstat")
    )


def _waited(schedstat: Path) -> float:
    """A thread's run-queue wait in seconds (the second field of its schedstat file)."""
    with contextlib.suppress(FileNotFoundError, ProcessLookupError):  # the thread has ended
        return int(schedstat.read_text().split()[1]) / 1e9
    return 0.0
