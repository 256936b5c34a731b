"""Seeded Toss games, move for move: `python -m bench.toss_same_games --level normal --seed 1`.

A change meant to make the AI faster without changing any decision (the bin's simulation,
the placing search) is checked by running this before and after it: each game prints a
digest of every action played, which must not change, with the CPU seconds the game took
and the median milliseconds of each level's decisions, cards and drops apart. The games
are those of `bench.ai_strength` (three seats, the seat `seed % 3` at the level, the
others normal).
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time

from rules.base import LEVELS, Level, rng_for
from rules.toss.engine import TOSS

SEATS = 3


def play(level: Level, seed: int) -> str:
    """One game's line: its seed, the digest of its actions, its times."""
    levels: list[Level] = ["normal"] * SEATS
    levels[seed % SEATS] = level
    state = TOSS.new_game(SEATS, {}, seed)
    actions: list[str] = []
    seconds: dict[str, list[float]] = {}
    started = time.process_time()
    while TOSS.outcome(state) is None:
        seat = min(TOSS.to_act(state))
        legal = TOSS.legal_actions(state, seat)
        rng = rng_for(seed, "ai", TOSS.step(state), seat)
        before = time.process_time()
        action = TOSS.choose(TOSS.observe(state, seat), legal, rng, levels[seat])
        decision = f"{levels[seat]} {action.split()[0]}"  # "normal place", "easy choose"
        seconds.setdefault(decision, []).append(time.process_time() - before)
        actions.append(action)
        state = TOSS.apply(state, seat, action).state
    total = time.process_time() - started
    digest = hashlib.sha256("\n".join(actions).encode()).hexdigest()[:16]
    medians = ", ".join(
        f"{name} {1000 * statistics.median(times):.0f} ms"
        for name, times in sorted(seconds.items())
    )
    return f"seed {seed}: {len(actions)} actions, digest {digest}, {total:.1f} s CPU; {medians}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", choices=LEVELS, default="normal")
    parser.add_argument("--seed", type=int, action="append", help="a game's seed (repeat)")
    args = parser.parse_args(argv)
    for seed in args.seed or [1, 2]:
        print(play(args.level, seed), flush=True)


if __name__ == "__main__":
    main()
