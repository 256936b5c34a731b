"""The import lines of the architecture note (docs/architecture.md), checked on every module.

- rules/: the standard library only (pymunk for the bin, inflect for English words);
  never discord, PIL, a database or asyncio.
- render/: PIL (and isal for its PNGs), the standard library, lang/ (its words in the
  reader's language) and what rules/ exposes for observations, data and phrases; never
  an engine module (any part of one), discord or a database.
- bot/: never cogs/ or render/ (the process loads cogs by name).
- cogs/: never the database directly.
- lang/: Babel and the phrases of rules/ only, so that every layer may say things in a
  language (its `python -m lang` tool aside, which reads the bot's command tree).
- bench/: the benchmarks and measurement tools may import anything, test helpers included
  (the fake Discord); nothing in rules/, render/, bot/, cogs/ or lang/ imports bench/, and
  in tests/ only test modules do (the tests of the tools): the helpers other tests share
  never need it.
- no import circles anywhere in the project (imports made only for type checking aside).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)
# The rules/ modules a picture may read: observation types and data tables (the Toss It bin's
# kinds and geometry are in bin.py) and the shared English (rules/words.py), never a part of
# an engine.
RENDER_MAY_READ = {"observation", "data", "cards", "characters", "bin", "words", "phrases"}


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
        assert top in STDLIB or allowed(name, ("rules", "pymunk", "inflect")), (
            f"{path} imports {name}"
        )


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
        allowed_here = ("PIL", "render", "pymunk", "isal", "lang")
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


@pytest.mark.parametrize("path", [p for p in modules("lang") if p.name != "__main__.py"], ids=str)
def test_lang_needs_only_babel_and_phrases(path: Path) -> None:
    for name in imports_of(path):
        top = name.split(".")[0]
        assert top in STDLIB or allowed(name, ("babel", "rules.phrases")), f"{path}: {name}"


@pytest.mark.parametrize(
    "path",
    [p for package in ("rules", "render", "bot", "cogs", "lang") for p in modules(package)],
    ids=str,
)
def test_the_shipped_code_never_needs_the_benchmarks(path: Path) -> None:
    for name in imports_of(path):
        assert not allowed(name, ("bench",)), f"{path} imports {name}"


@pytest.mark.parametrize(
    "path", [p for p in modules("tests") if not p.name.startswith("test_")], ids=str
)
def test_test_helpers_never_need_the_benchmarks(path: Path) -> None:
    for name in imports_of(path):
        assert not allowed(name, ("bench",)), f"{path} imports {name}"


def test_the_checks_see_every_package() -> None:
    for package in ("rules", "render", "bot", "cogs", "lang", "bench"):
        assert modules(package), f"no modules found in {package}/"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(path: Path, known: set[str]) -> set[str]:
    """The project modules `path` imports when it runs: `from a.b import c` needs the module
    `a.b.c` if there is one, else `a.b`; an `if TYPE_CHECKING:` block imports nothing."""
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
                continue
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    found.add(submodule if submodule in known else node.module)
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    visit([n for n in inner if isinstance(n, ast.stmt)])
                    for handler in inner:
                        if isinstance(handler, ast.ExceptHandler):
                            visit(handler.body)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return {name for name in found if name in known} - {module_name(path)}


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every set of modules that import each other round a loop (Tarjan's strongly
    connected components of more than one module, or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return circles


def project_graph() -> dict[str, set[str]]:
    packages = ("rules", "render", "bot", "cogs", "lang", "bench")
    paths = [path for package in packages for path in modules(package)]
    known = {module_name(path) for path in paths}
    return {module_name(path): runtime_imports(path, known) for path in paths}


def test_no_module_imports_itself_round_a_circle() -> None:
    assert import_circles(project_graph()) == []


def test_the_circle_check_sees_a_circle() -> None:
    graph = project_graph()
    graph["cogs.shared.menus"].add("cogs.shared.components")  # menus -> components -> menus
    assert any(
        {"cogs.shared.components", "cogs.shared.menus"} <= set(circle)
        for circle in import_circles(graph)
    )
