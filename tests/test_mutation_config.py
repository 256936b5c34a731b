"""`make mutation` (docs/mutation.md) runs each engine's mutants against the engine's fast
tests, named one by one in pyproject.toml: a new test file left off that list would leave
its rules unguarded in the mutation score."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ("brawl", "rumble", "toss", "trashwar")


def test_mutation_runs_meet_every_fast_rules_test_of_the_engines() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    listed = set(config["pytest_add_cli_args_test_selection"])
    fast = {
        path.relative_to(ROOT).as_posix()
        for engine in ENGINES
        for path in (ROOT / "tests" / "rules").glob(f"test_{engine}*.py")
        if not path.stem.endswith("_playouts")
    }
    assert fast, "no engine test files found"
    assert listed == fast, f"missing: {sorted(fast - listed)}; not tests: {sorted(listed - fast)}"
