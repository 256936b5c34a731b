"""Keep freed memory for reuse instead of handing it back to the kernel at once.

Every board is a few megabytes of pixels: Pillow's image, its bytes and the PNG rows. glibc
serves a block that large with a fresh `mmap` and unmaps it on `free`, so each picture paid
for its memory again, page by page (the kernel zeroes every page it hands out): about a third
of a Trash War board's render time on this machine. With the thresholds raised, those blocks
come from the heap and are reused by the next picture. A process keeps at most
`TRIM_THRESHOLD` of free heap before it gives memory back.

Only glibc has `mallopt`; elsewhere (musl, macOS) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)

# mallopt parameters, from glibc's <malloc.h>.
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3

MMAP_THRESHOLD = 32 * 1024 * 1024  # glibc's largest; a board's buffers are 2-4 MB each
TRIM_THRESHOLD = 128 * 1024 * 1024


def keep_freed_memory() -> bool:
    """Raise glibc's thresholds in this process; whether it could."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    # mallopt returns 1 on success and 0 on failure.
    return bool(
        mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) and mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )
