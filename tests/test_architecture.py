"""The import lines of the architecture note (docs/architecture.md), checked on every module.

- rules/: the standard library only (pymunk for the bin, inflect for English words);
  never discord, PIL, a database or asyncio.
- render/: PIL (and isal for its PNGs), the standard library, lang/ (its words in the
  reader's language) and the modules of rules/ that each rules package lists in its
  `RENDER_READS` (observations, data tables, words); never an engine module (any part of
  one), discord or a database.
- bot/: never cogs/ or render/ (the process loads cogs by name).
- cogs/: never the database directly.
- lang/: Babel and the phrases of rules/ only, so that every layer may say things in a
  language (its `python -m lang` tool aside, which reads the bot's command tree).
- bench/: the benchmarks and measurement tools may import anything, test helpers included
  (the fake Discord); nothing in rules/, render/, bot/, cogs/ or lang/ imports bench/, and
  in tests/ only test modules do (the tests of the tools): the helpers other tests share
  never need it.
- no import circles anywhere in the project (imports made only for type checking aside).
- a library's internals only in bot/internals/, one module per library.

The template game (tests/plugin_game/) keeps the same lines for its own rules/ and render/.
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)
TEMPLATE = "tests/plugin_game"  # the template game, laid out as a game's rules/ and render/


def imports_of(path: Path) -> set[str]:
    """The modules `path` imports, relative imports (the template's) made absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1])
            if node.module:
                names.add(f"{base}.{node.module}")
            else:  # `from . import ai`: each name is a module
                names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def rules_packages() -> list[str]:
    """The packages whose modules a picture may read, if the package lists them in its
    `RENDER_READS`: rules/ itself (the shared phrases and observation types), each game's
    and the template's."""
    games = sorted(p.parent.name for p in (ROOT / "rules").glob("*/__init__.py"))
    return ["rules", *(f"rules.{game}" for game in games), f"{TEMPLATE.replace('/', '.')}.rules"]


def render_reads(package: str) -> tuple[str, ...]:
    reads: tuple[str, ...] = importlib.import_module(package).RENDER_READS
    return reads


def unreadable(name: str) -> str | None:
    """Why a picture may not import `name` from a rules package (None: it may, or `name`
    is no rules module). An engine is split over several modules (state, legal moves,
    table, view...), so each game names the ones a picture may read instead."""
    under = [p for p in rules_packages() if name.startswith(p + ".") or name == p]
    if not under:
        return None
    package = max(under, key=len)  # rules.toss.bin is in rules.toss, not in rules
    if name.removeprefix(package + ".") in render_reads(package):
        return None
    return f"{name} is not in {package}.RENDER_READS {render_reads(package)}"


def allowed(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("path", modules("rules") + modules(f"{TEMPLATE}/rules"), ids=str)
def test_rules_are_pure(path: Path) -> None:
    own = f"{TEMPLATE.replace('/', '.')}.rules"  # the template's engine reads its own modules
    for name in imports_of(path):
        top = name.split(".")[0]
        assert top != "asyncio", f"{path} imports asyncio"
        assert top in STDLIB or allowed(name, ("rules", "pymunk", "inflect", own)), (
            f"{path} imports {name}"
        )


@pytest.mark.parametrize("path", modules("render") + modules(f"{TEMPLATE}/render"), ids=str)
def test_render_draws_from_observations_only(path: Path) -> None:
    own = f"{TEMPLATE.replace('/', '.')}.render"
    for name in imports_of(path):
        if any(name == p or name.startswith(p + ".") for p in rules_packages()):
            problem = unreadable(name)
            assert problem is None, f"{path}: {problem}"
            continue
        top = name.split(".")[0]
        assert top != "asyncio", f"{path} imports asyncio"
        allowed_here = ("PIL", "render", "pymunk", "isal", "lang", own)
        assert top in STDLIB or allowed(name, allowed_here), f"{path}: {name}"


@pytest.mark.parametrize("package", rules_packages())
def test_every_rules_package_declares_what_pictures_may_read(package: str) -> None:
    reads = getattr(importlib.import_module(package), "RENDER_READS", None)
    assert isinstance(reads, tuple) and reads, (
        f"{package}/__init__.py needs RENDER_READS, a tuple of the modules pictures may read"
    )
    folder = ROOT / package.replace(".", "/")
    for module in reads:
        assert (folder / f"{module}.py").exists(), f"{package}.RENDER_READS: no {module}.py"


@pytest.mark.parametrize("package", rules_packages())
def test_a_readable_module_reads_no_engine_module(package: str) -> None:
    # Otherwise a picture could reach the engine through a module it may read.
    folder = ROOT / package.replace(".", "/")
    for module in render_reads(package):
        for name in imports_of(folder / f"{module}.py"):
            assert unreadable(name) is None, f"{package}.{module}: {unreadable(name)}"


def test_the_render_check_refuses_an_engine_module() -> None:
    assert unreadable("rules.toss.engine") is not None
    assert unreadable("rules.toss") is not None  # the package itself imports the engine
    assert unreadable("tests.plugin_game.rules.engine") is not None
    assert unreadable("rules.toss.bin") is None and unreadable("rules.phrases") is None


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


# ---------------------------------------------------------------------- libraries' internals

# Every use of a library's internals lives in bot/internals/ (docs/architecture.md). Any
# underscored attribute the project does not define is taken for one; an internal without an
# underscore (an undocumented class's attribute) is caught only once it is listed here with
# those the bot uses today, by the attribute names, method overrides and strings they take:
KNOWN_INTERNALS = {
    "_view_store", "_views", "_dynamic_items",  # discord.py's view store
    "Route", "DEFAULT_GATEWAY", "get_bot_gateway", "connector",  # discord.py's HTTP, gateway
    "_execute", "_connection", "_thread", "_running",  # aiosqlite's connection
    "class_manager", "new_instance",  # SQLAlchemy's ORM loading
}  # fmt: skip
KNOWN_INTERNAL_TEXT = ("CommandTree-invoker", "discord-ui-", "@original")
# Private names of the standard library's that are its public API (namedtuple's, os._exit,
# sys._current_frames for the watchdog's stack dumps).
STDLIB_UNDERSCORED = {"_exit", "_current_frames", "_fields", "_replace", "_asdict", "_make"}
SEAMS = ROOT / "bot" / "internals"
PACKAGES = ("rules", "render", "bot", "cogs", "lang")


def defined_names(paths: list[Path]) -> set[str]:
    """Every name the project defines: functions, classes, variables, attributes it sets."""
    names: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
    return names


def private_to_a_library(name: str, owner: str, ours: set[str]) -> bool:
    """Whether reading `owner.name` reads a library's internals: a known one, discord.py's
    or SQLAlchemy's private dunders, or an underscored name the project never defines read
    off anything but `self`/`cls` (`self._connection` is the bot's own)."""
    if name in KNOWN_INTERNALS:
        return owner != "self" or name != "_connection"
    if name.startswith(("__discord", "__sa_")):
        return True
    private = name.startswith("_") and not name.startswith("__")
    return private and owner not in ("self", "cls") and name not in ours | STDLIB_UNDERSCORED


def internals_used(path: Path, ours: set[str]) -> list[str]:
    """Every place in `path` that looks like a library's internals: an attribute read, an
    override of a known private method, a string discord.py names its tasks or routes by."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute):
            if private_to_a_library(node.attr, ast.unparse(node.value), ours):
                found.append(f"{where} .{node.attr} (of {ast.unparse(node.value)})")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name in KNOWN_INTERNALS:
                found.append(f"{where} def {node.name} (an override)")
        elif isinstance(node, ast.Constant) and str(node.value).startswith(KNOWN_INTERNAL_TEXT):
            found.append(f"{where} {node.value!r}")  # (a docstring may name them, not start so)
    return found


def outside_the_seams() -> list[Path]:
    return [path for package in PACKAGES for path in modules(package) if SEAMS not in path.parents]


def test_only_the_seams_touch_a_library_s_internals() -> None:
    ours = defined_names(outside_the_seams())
    used = [use for path in outside_the_seams() for use in internals_used(path, ours)]
    assert used == [], "use a library's internals through bot/internals/: " + "; ".join(used)


def test_the_internals_check_sees_the_seams_uses() -> None:
    """The check finds each use the seams make (so it would find one made elsewhere)."""
    seams = sorted(SEAMS.glob("*.py"))
    ours = defined_names(outside_the_seams())
    found = " ".join(use for path in seams for use in internals_used(path, ours))
    for name in ("_view_store", "_dynamic_items", "_execute", "_thread", "new_instance"):
        assert f".{name}" in found or f"def {name}" in found, name
    assert "CommandTree-invoker" in found and "@original" in found
