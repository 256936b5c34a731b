"""What fills a worker's memory, seen from inside it (`python -m bench.worker_soak --probe`).

Loaded as an extra extension (EXTRA_EXTENSIONS=bench.worker_probe), so the fork server
preloads it and every worker it forks runs `_start`: a thread that writes, every
`WORKER_PROBE_SECONDS`, one JSON line to `WORKER_PROBE_DIR/<pid>.jsonl`: the worker's RSS,
glibc's heap (bytes in use and free but kept), the live objects by type, and the fullest
`functools` caches; once the soak creates `clear` there, it clears each cache in turn and
writes the heap bytes each held. Nothing happens unless WORKER_PROBE_DIR is set.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any


class MallInfo2(ctypes.Structure):
    _fields_ = [  # ctypes reads it from the class
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def heap() -> dict[str, int]:
    """glibc's view of the heap, in bytes: `in_use` by the program, `free` kept for reuse
    (part of RSS until trimmed), `mmapped` in blocks of their own."""
    name = ctypes.util.find_library("c")
    if name is None:
        return {}
    try:
        mallinfo2 = ctypes.CDLL(name).mallinfo2
    except AttributeError:  # glibc before 2.33, or not glibc
        return {}
    mallinfo2.restype = MallInfo2
    info = mallinfo2()
    return {"in_use": info.uordblks, "free": info.fordblks, "mmapped": info.hblkhd}


def rss_kb(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def caches() -> list[tuple[str, int, int]]:
    """Every `functools.lru_cache`/`cache` at module level: name, entries, bound."""
    found = []
    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        if not name.startswith(("rules", "render", "cogs", "bot")):
            continue
        for attribute, value in list(vars(module).items()):
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == name:
                entries = info()
                found.append((f"{name}.{attribute}", entries.currsize, entries.maxsize or -1))
    return found


def image_bytes(objects: list[object]) -> int:
    """The pixels of every Pillow image alive."""
    from PIL import Image

    return sum(
        o.width * o.height * len(o.getbands()) for o in objects if isinstance(o, Image.Image)
    )


def cache_bytes() -> list[tuple[str, int]]:
    """What each cache holds, in heap bytes: each cleared in turn (at the end of a soak),
    the heap in use before less after."""
    freed = []
    for name, entries, _ in caches():
        if not entries:
            continue
        module, attribute = name.rsplit(".", 1)
        before = heap().get("in_use", 0)
        getattr(sys.modules[module], attribute).cache_clear()
        gc.collect()
        freed.append((name, before - heap().get("in_use", 0)))
    return sorted(freed, key=lambda f: -f[1])


def sample(started: float) -> dict[str, Any]:
    objects = gc.get_objects()
    types = Counter(type(o).__name__ for o in objects)
    return {
        "seconds": round(time.monotonic() - started, 1),
        "rss_kb": rss_kb(),
        "heap": heap(),
        "image_bytes": image_bytes(objects),
        "objects": sum(types.values()),
        "types": types.most_common(12),
        "caches": sorted(caches(), key=lambda c: -c[1])[:25],
    }


def _start() -> None:
    folder = os.environ.get("WORKER_PROBE_DIR")
    if not folder:
        return
    every = float(os.environ.get("WORKER_PROBE_SECONDS", "20"))
    out = Path(folder) / f"{os.getpid()}.jsonl"
    started = time.monotonic()

    def watch() -> None:
        while True:
            with out.open("a") as file:
                file.write(json.dumps(sample(started)) + "\n")
                if (Path(folder) / "clear").exists():  # the soak is over: what each held
                    file.write(json.dumps({"freed": cache_bytes()}) + "\n")
                    return
            time.sleep(every)

    threading.Thread(target=watch, name="worker-probe", daemon=True).start()


if os.environ.get("WORKER_PROBE_DIR"):
    os.register_at_fork(after_in_child=_start)


async def setup(_bot: object) -> None:
    """An extension only so that the fork server preloads this module."""
