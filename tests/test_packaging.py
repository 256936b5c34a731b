"""What an installed bot needs (issue 37): a wheel holds every file the bot reads besides
its code, and the lock files it is installed from pin versions pyproject.toml allows."""

from __future__ import annotations

import asyncio
import os
import random
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.e2e.play import SHORT_GAME, boards, play_to_the_end
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "render", "rules", "lang")


def project_files() -> list[str]:
    """The project's files as a fresh clone has them (no build or egg-info left behind)."""
    listed = ["git", "ls-files", "--cached", "--others", "--exclude-standard"]
    return subprocess.run(
        listed, cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bot's wheel, built from a clean copy: a tree with an egg-info from an earlier
    install would list files the package data forgets."""
    folder = tmp_path_factory.mktemp("wheel")
    source, wheels = folder / "source", folder / "wheels"
    for name in project_files():
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
    subprocess.run(
        [*build, "--wheel-dir", str(wheels), str(source)], check=True, capture_output=True
    )
    (built,) = wheels.glob("*.whl")
    return built


def test_the_wheel_holds_every_file_the_bot_reads(wheel: Path) -> None:
    """The rules pages of `/rules`, the fonts of every picture and the migrations: a bot
    installed from a wheel (as the Docker image is) has them all."""
    files = project_files()
    inside = set(zipfile.ZipFile(wheel).namelist())
    data = [
        name
        for name in files
        if name.startswith(tuple(f"{package}/" for package in PACKAGES))
        and not name.endswith((".py", ".gitignore"))
    ]
    assert any(name.endswith("guide.md") for name in data), data
    assert any(name.endswith(".po") for name in data), data
    assert sorted(set(data) - inside) == []


def test_the_wheel_leaves_out_the_tests_and_the_benchmarks(wheel: Path) -> None:
    """bench/ and tests/ are for a checkout: the bot never imports them (see
    tests/test_architecture.py), so neither the wheel nor the image carries them."""
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert not tops & {"bench", "tests"}, tops


async def test_a_bot_installed_from_the_wheel_plays_a_game(
    wheel: Path, tmp_path: Path, fake_discord: FakeDiscord
) -> None:
    """The wheel installed on its own (its dependencies are the lock's, from this
    environment) runs the bot from outside the source tree: it migrates a new database,
    shows the rules and plays a whole game whose boards carry pictures."""
    site, home = tmp_path / "site", tmp_path / "home"
    home.mkdir()
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target"]
    subprocess.run([*install, str(site), str(wheel)], check=True, capture_output=True)
    env = {
        **os.environ,
        "PYTHONPATH": str(site),
        "DISCORD_TOKEN": fake_discord.token,
        "DATABASE_URL": f"sqlite:///{home}/games.db",
        "DISCORD_API_BASE": fake_discord.api_base,
        "WORKERS": "1",
    }
    where = "import bot, cogs, render, rules; print(bot.__file__, cogs.__file__, render.__file__)"
    found = subprocess.run(
        [sys.executable, "-c", where], env=env, cwd=home, check=True, capture_output=True, text=True
    ).stdout.split()
    assert all(path.startswith(str(site)) for path in found), found
    alice = fake_discord.user("alice")
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=home, stdin=asyncio.subprocess.DEVNULL
    )
    try:
        await fake_discord.wait_ready(timeout=60)
        rules = await alice.slash("/rules", game="toss")
        assert "Toss It in the Trash" in str(rules.ephemeral[0].embeds)
        await alice.slash("/rumble new", seed=SHORT_GAME)
        for _ in range(3):
            await alice.select("Add AI player…", "Normal AI")
        await alice.click("Start")
        await fake_discord.wait_for(lambda: boards(fake_discord), timeout=60, what="a board")
        last = await play_to_the_end(fake_discord, {alice.id: alice}, random.Random(SHORT_GAME))
        ((name, picture), *_) = boards(fake_discord)[0].files
        assert name == "dungeon.png" and picture.startswith(b"\x89PNG")
        assert "The game is over" in last.text
    finally:
        bot.terminate()
        await bot.wait()


LOCKS = ("requirements-build.lock", "requirements.lock", "requirements-dev.lock")


def locked(lock: str) -> dict[str, tuple[str, list[str]]]:
    """Each package a lock file pins: its version and the hashes listed under it."""
    found: dict[str, tuple[str, list[str]]] = {}
    name = ""
    for line in (ROOT / lock).read_text().splitlines():
        line = line.strip().removesuffix("\\").strip()
        if line.startswith("--hash="):
            found[name][1].append(line.removeprefix("--hash="))
        elif "==" in line and not line.startswith("#"):
            pinned, version = line.split(";")[0].strip().split("==")
            name = canonicalize_name(pinned)
            found[name] = (version, [])
    return found


def pins(lock: str) -> dict[str, str]:
    return {name: version for name, (version, _) in locked(lock).items()}


def test_every_pin_carries_hashes_and_every_install_checks_them() -> None:
    """Each package in the lock files comes with the sha256 of its files, and `make` and
    the image install the lock files with --require-hashes (pip then refuses a file whose
    hash is not listed, and any package not pinned), pip and setuptools included."""
    for lock in LOCKS:
        packages = locked(lock)
        assert packages, lock
        unhashed = [name for name, (_, hashes) in packages.items() if not hashes]
        assert unhashed == [], f"{lock}: no hashes for {unhashed}: run `make lock`"
        for name, (_, hashes) in packages.items():
            assert all(h.startswith("sha256:") and len(h) == 71 for h in hashes), (lock, name)
    assert set(locked("requirements-build.lock")) == {"pip", "setuptools"}
    assert (
        pins("requirements-dev.lock")["setuptools"] == pins("requirements-build.lock")["setuptools"]
    )
    for recipe in ("Makefile", "Dockerfile"):
        text = (ROOT / recipe).read_text().replace("\\\n", " ")
        if match := re.search(r"^INSTALL := (.*)$", text, re.MULTILINE):
            text = text.replace("$(INSTALL)", match[1])  # the Makefile's install command
        commands = re.split(r"\n|&&", text)  # a RUN line's commands apart
        installs = [line for line in commands if "pip install" in line and ".lock" in line]
        assert installs, recipe
        assert all("--require-hashes" in line for line in installs), (recipe, installs)
        for lock in ("requirements-build.lock", "requirements.lock"):
            assert any(lock in line for line in installs), (recipe, lock)


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
