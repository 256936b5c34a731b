"""bot/memory.py: a process that keeps freed memory reuses a big buffer instead of having
the kernel fault in (and zero) fresh pages for every picture."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.memory import keep_freed_memory

# A child process makes a picture's buffers twenty times (the pixels' bytes and the PNG rows
# made from them, alive together, as in render/png.py), and prints the page faults it took
# for each.
FAULTS_PER_BUFFER = """
import resource, sys
from bot.memory import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory()
size = 4 * 1024 * 1024
b"x" * size  # the first one may come from the kernel either way
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    pixels = b"x" * size
    rows = pixels + b"y"
    del pixels, rows
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 20)
"""


def faults_per_buffer(mode: str) -> float:
    command = [sys.executable, "-c", FAULTS_PER_BUFFER, mode]
    return float(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


@pytest.mark.skipif(not keep_freed_memory(), reason="not glibc: mallopt is not there")
def test_a_freed_picture_buffer_is_reused_not_faulted_in_again() -> None:
    pages = 2 * 4 * 1024 * 1024 // 4096
    # glibc's default hands the memory back each time (it trims the heap), then faults it in
    assert faults_per_buffer("plain") > pages / 2
    assert faults_per_buffer("keep") < pages / 10
