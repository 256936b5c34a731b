"""The mutation score of each engine, from `mutmut results --all true` on stdin (`make
mutation`, docs/mutation.md).

    mutmut results --all true | python -m bench.mutation_score rumble trashwar

A mutant is caught when a test failed on it (killed) or it ran past mutmut's time limit
(timeout, an endless loop); it is missed when every test still passed (survived) or no fast
test calls its function (no tests). The score is caught / (caught + missed); mutants not
run yet are counted apart. The missed ones are listed to read with `mutmut show <name>`.
"""

from __future__ import annotations

import sys
from collections import Counter

GAMES = ("brawl", "rumble", "toss", "trashwar")
CAUGHT = {"killed", "timeout", "segfault", "caught by type check"}
MISSED = {"survived", "no tests"}


def main(games: list[str]) -> None:
    counts: dict[str, Counter[str]] = {game: Counter() for game in games}
    missed: list[str] = []
    for line in sys.stdin:
        name, sep, status = line.strip().rpartition(": ")
        parts = name.split(".")
        if not sep or len(parts) < 2 or parts[1] not in counts:
            continue
        counts[parts[1]][status] += 1
        if status in MISSED:
            missed.append(f"{status}: {name}")
    print(f"{'engine':<10}{'caught':>8}{'missed':>8}{'other':>7}{'not run':>9}{'total':>7}  score")
    for game, count in counts.items():
        caught = sum(count[s] for s in CAUGHT)
        lost = sum(count[s] for s in MISSED)
        waiting = count["not checked"]
        other = sum(count.values()) - caught - lost - waiting
        score = f"{100 * caught / (caught + lost):.1f}%" if caught + lost else "-"
        total = sum(count.values())
        print(f"{game:<10}{caught:>8}{lost:>8}{other:>7}{waiting:>9}{total:>7}  {score}")
    if missed:
        print("\nmissed (mutmut show <name> for the change):")
        print("\n".join(sorted(missed)))


if __name__ == "__main__":
    main(sys.argv[1:] or list(GAMES))
