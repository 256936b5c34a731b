"""What an installed bot needs (issue 37): a wheel holds every file the bot reads besides
its code, and the lock files it is installed from pin versions pyproject.toml allows."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "render", "rules")


def project_files() -> list[str]:
    """The project's files as a fresh clone has them (no build or egg-info left behind)."""
    listed = ["git", "ls-files", "--cached", "--others", "--exclude-standard"]
    return subprocess.run(
        listed, cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()


def test_the_wheel_holds_every_file_the_bot_reads(tmp_path: Path) -> None:
    """The rules pages of `/rules`, the fonts of every picture and the migrations: a bot
    installed from a wheel (as the Docker image is) has them all. Built from a clean copy:
    a tree with an egg-info from an earlier install would list files the package data
    forgets."""
    source, wheels = tmp_path / "source", tmp_path / "wheels"
    files = project_files()
    for name in files:
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
    subprocess.run(
        [*build, "--wheel-dir", str(wheels), str(source)], check=True, capture_output=True
    )
    (wheel,) = wheels.glob("*.whl")
    inside = set(zipfile.ZipFile(wheel).namelist())
    data = [
        name
        for name in files
        if name.startswith(tuple(f"{package}/" for package in PACKAGES))
        and not name.endswith((".py", ".gitignore"))
    ]
    assert any(name.endswith("guide.md") for name in data), data
    assert sorted(set(data) - inside) == []


def pins(lock: str) -> dict[str, str]:
    found = {}
    for line in (ROOT / lock).read_text().splitlines():
        if "==" in line and not line.lstrip().startswith("#"):
            name, version = line.split(";")[0].strip().split("==")
            found[canonicalize_name(name)] = version
    return found


def test_the_lock_files_pin_what_pyproject_allows() -> None:
    """Every dependency is pinned in the lock files within the bounds pyproject.toml sets
    (a lock file not made again after a change there fails here)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    needs = {
        "requirements.lock": project["dependencies"],
        "requirements-dev.lock": project["dependencies"] + project["optional-dependencies"]["dev"],
    }
    for lock, requirements in needs.items():
        pinned = pins(lock)
        for text in requirements:
            requirement = Requirement(text)
            name = canonicalize_name(requirement.name)
            assert name in pinned, f"{lock} has no {name}: run `make lock`"
            assert requirement.specifier.contains(pinned[name], prereleases=True), (
                f"{lock} pins {name}=={pinned[name]}, outside {requirement.specifier}"
            )
