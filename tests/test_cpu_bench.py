"""The CPU-per-press benchmark's comparison mode (bench/cpu_per_press.py, `--against`):
its arguments, the worktree it runs the older bot from, and its table. No bot runs here and
nothing is timed: the figures themselves are the benchmark's, not the suite's."""

from __future__ import annotations

import subprocess
from collections import Counter

import pytest

from bench.cpu_per_press import Figure, parse, side_by_side
from bench.worktree import ROOT, checked_out, git

pytestmark = pytest.mark.skipif(
    not (ROOT / ".git").exists(), reason="not a git checkout: no commit to compare with"
)


def worktrees() -> str:
    return git("worktree", "list", "--porcelain")


def test_against_names_a_commit_of_this_repository() -> None:
    head = git("rev-parse", "HEAD")
    options = parse(["--workers", "0", "--against", "HEAD", "rumble"])
    assert options.against == head  # resolved at once: the label and the worktree agree
    assert options.kinds == ["rumble"] and options.workers == [0]
    assert parse([]).against is None


def test_an_unknown_commit_is_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):  # in the argument parsing: no worktree is made
        parse(["--against", "no-such-commit-anywhere"])
    assert "no such commit" in capsys.readouterr().err


def test_the_worktree_holds_the_commit_and_goes_away_after_a_failure_too() -> None:
    head = git("rev-parse", "HEAD")
    with pytest.raises(RuntimeError), checked_out("HEAD") as tree:
        assert git("rev-parse", "HEAD", root=tree) == head
        assert (tree / "bot" / "__main__.py").exists()  # what `python -m bot` runs there
        (tree / "bot.log").write_text("left by the bot")  # untracked: removed all the same
        assert str(tree) in worktrees()
        raise RuntimeError("the run failed")
    assert not tree.exists()
    assert str(tree) not in worktrees()


def test_the_side_by_side_table_gives_no_figure_for_a_game_that_could_not_run() -> None:
    ours = Figure("rumble", 2, 100, 2000.0, 0.0, Counter())
    theirs = Figure("rumble", 2, 200, 2000.0, 0.0, Counter())
    brawl = Figure("brawl", 2, 50, 1000.0, 0.0, Counter())
    table = side_by_side(0, "abc123", [(ours, theirs), (brawl, "cannot run: no such column")])
    rumble_row = next(line for line in table.splitlines() if line.startswith("rumble"))
    # 20 ms against 10 ms a press (twice the cost), the same 1000 ms a game.
    assert rumble_row.split() == [
        "rumble",
        "100/200",
        "20.0",
        "10.0",
        "2.00",
        "1000",
        "1000",
        "1.00",
    ]
    brawl_row = next(line for line in table.splitlines() if line.startswith("brawl "))
    assert brawl_row.split()[3:] == ["—", "—", "500", "—", "—"]
    assert "brawl, abc123: cannot run: no such column" in table


def test_git_failures_are_errors_not_empty_answers() -> None:
    with pytest.raises(subprocess.CalledProcessError):
        git("rev-parse", "--verify", "--quiet", "no-such-commit-anywhere^{commit}")
