"""What a picture drew, noted for tests: each text with its box and size, and each mark of
the last move. Off unless a test asks (`recording`), and then only for its own thread of
work: the notes go to a context variable, so pictures drawn elsewhere note nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from render.common.palette import Box


@dataclass(frozen=True)
class Drawn:
    kind: str  # "text", or what a game marks ("wall", "move", ...)
    box: Box
    text: str = ""
    size: int = 0  # a text's font size in pixels


_NOTES: ContextVar[list[Drawn] | None] = ContextVar("drawn", default=None)


def noting() -> bool:
    """Whether a test is recording: a drawer that must work out what to note (a text's box)
    asks first, so pictures drawn for players pay nothing."""
    return _NOTES.get() is not None


def note(kind: str, box: Box, text: str = "", size: int = 0) -> None:
    notes = _NOTES.get()
    if notes is not None:
        notes.append(Drawn(kind, box, text, size))


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Inside the block, what pictures draw is noted in the list it gives."""
    notes: list[Drawn] = []
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)
