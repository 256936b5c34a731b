"""An earlier commit checked out beside this one, for a benchmark that runs its bot.

`checked_out(commit)` adds a detached `git worktree` of the commit in a temporary folder and
removes it afterwards (also when the run fails or is interrupted). The bot started from it
runs that commit's own code and migrations with this checkout's .venv: cwd and PYTHONPATH
are the worktree (`python -m` and PYTHONPATH come before the editable install's finder).
"""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class NoSuchCommit(ValueError):
    pass


def git(*args: str, root: Path = ROOT) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout, done.stderr)
    return done.stdout.strip()


def resolve(commit: str, root: Path = ROOT) -> str:
    """The full hash of `commit` (a hash, a tag, a branch, `HEAD~3`)."""
    try:
        return git("rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}", root=root)
    except subprocess.CalledProcessError:
        raise NoSuchCommit(f"no such commit in {root}: {commit}") from None


@contextlib.contextmanager
def checked_out(commit: str, root: Path = ROOT) -> Iterator[Path]:
    """A worktree of `commit` (resolved first, so a typo fails before anything is made)."""
    full = resolve(commit, root)
    with tempfile.TemporaryDirectory(prefix="bench-worktree-") as folder:
        tree = Path(folder) / full[:12]
        git("worktree", "add", "--detach", "--quiet", str(tree), full, root=root)
        try:
            yield tree
        finally:
            # --force: the bot may have left files (logs, caches) in the tree.
            with contextlib.suppress(subprocess.CalledProcessError):
                git("worktree", "remove", "--force", str(tree), root=root)
            git("worktree", "prune", root=root)
