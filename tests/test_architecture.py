"""The import lines of the architecture note (docs/architecture.md), checked on every module.

- rules/: the standard library only (pymunk for the bin); never discord, PIL, a database or
  asyncio.
- render/: PIL (and zlib-ng for its PNGs), the standard library and what rules/ exposes
  for observations and data; never an engine module (any part of one), discord or a
  database.
- bot/: never cogs/ or render/ (the process loads cogs by name).
- cogs/: never the database directly.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)
# The rules/ modules a picture may read: observation types and data tables (the Toss It bin's
# kinds and geometry are in bin.py), never a part of an engine.
RENDER_MAY_READ = {"observation", "data", "cards", "characters", "bin"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def allowed(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("path", modules("rules"), ids=str)
def test_rules_are_pure(path: Path) -> None:
    for name in imports_of(path):
        top = name.split(".")[0]
        assert top != "asyncio", f"{path} imports asyncio"
        assert top in STDLIB or allowed(name, ("rules", "pymunk")), f"{path} imports {name}"


@pytest.mark.parametrize("path", modules("render"), ids=str)
def test_render_draws_from_observations_only(path: Path) -> None:
    for name in imports_of(path):
        top = name.split(".")[0]
        if top == "rules":
            # Observations and data tables only: an engine is split over several modules
            # (state, legal moves, table, view...), so the allowed ones are named instead.
            assert name.split(".")[-1] in RENDER_MAY_READ, f"{path} imports engine {name}"
            continue
        assert top != "asyncio", f"{path} imports asyncio"
        allowed_here = ("PIL", "render", "pymunk", "zlib_ng")
        assert top in STDLIB or allowed(name, allowed_here), f"{path}: {name}"


@pytest.mark.parametrize("path", modules("bot"), ids=str)
def test_bot_does_not_reach_into_cogs_or_render(path: Path) -> None:
    for name in imports_of(path):
        assert not allowed(name, ("cogs", "render")), f"{path} imports {name}"


@pytest.mark.parametrize("path", modules("cogs"), ids=str)
def test_cogs_never_touch_the_database(path: Path) -> None:
    for name in imports_of(path):
        assert not allowed(
            name, ("sqlmodel", "sqlalchemy", "aiosqlite", "asyncpg", "bot.database")
        ), f"{path} imports {name}"


def test_the_checks_see_every_package() -> None:
    for package in ("rules", "render", "bot", "cogs"):
        assert modules(package), f"no modules found in {package}/"
