"""How strong each AI level plays: `python -m bench.ai_strength` (part of `make bench`).

For each game, and each way to play a game offers (an option marked `ways`), it plays
three-player games of one seat at a level against two normal seats. The seat at the level
moves round the table from game to game, so no seat's place in the turn order favours it.
A game's win is shared among its winners, so a level exactly as good as normal wins a
third. It prints each level's win share with a 95 % confidence interval and the time its
decisions took (median and 95th percentile), one Markdown row per line.

`--game rumble --level hard --games 60` measures one; `--workers` games run at once.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from bench.games import engine, keys
from bench.stats import percentile
from rules.base import LEVELS, Level, rng_for

SEATS = 3
MOST_ACTIONS = 20_000  # a game still running after this many is counted as unfinished


@dataclass
class Played:
    """One game: the measured seat's share of the win and every decision's seconds."""

    share: float
    finished: bool
    seconds: dict[str, list[float]] = field(default_factory=dict)  # level -> decisions


def play(key: str, options: dict[str, str], level: Level, seed: int) -> Played:
    """One seeded game: the seat `seed % 3` plays at `level`, the others at normal."""
    game = engine(key)
    measured = seed % SEATS
    levels: list[Level] = ["normal"] * SEATS
    levels[measured] = level
    state = game.new_game(SEATS, options, seed)
    seconds: dict[str, list[float]] = {name: [] for name in set(levels)}
    for _ in range(MOST_ACTIONS):
        outcome = game.outcome(state)
        if outcome is not None:
            winners = outcome.winners
            share = 1 / len(winners) if measured in winners else 0.0
            return Played(share, True, seconds)
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        rng = rng_for(seed, "ai", game.step(state), seat)
        started = time.perf_counter()
        action = game.choose(game.observe(state, seat), legal, rng, levels[seat])
        seconds[levels[seat]].append(time.perf_counter() - started)
        state = game.apply(state, seat, action).state
    return Played(1 / SEATS, False, seconds)


def _play(job: tuple[str, dict[str, str], Level, int]) -> Played:
    return play(*job)


@dataclass(frozen=True)
class Line:
    """One row of the table: a game, a way to play it, a level."""

    key: str
    options: dict[str, str]
    level: Level

    @property
    def name(self) -> str:
        game = engine(self.key)
        ways = [o.label(self.options[o.name]).split(":")[0] for o in game.options if o.ways]
        return ", ".join([game.title, *ways])


def lines(keys: list[str], levels: list[Level]) -> Iterator[Line]:
    """Every game in `keys`, each way to play it, each of `levels`."""
    for key in keys:
        game = engine(key)
        ways = [o for o in game.options if o.ways]
        variants = [{ways[0].name: c} for c in ways[0].choices] if ways else [{}]
        for options in variants:
            for level in levels:
                yield Line(key, options, level)


def interval(shares: list[float]) -> tuple[float, float, float]:
    """The mean share and its 95 % confidence interval (normal approximation)."""
    mean = statistics.fmean(shares)
    spread = 1.96 * statistics.pstdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else 1
    return mean, max(0.0, mean - spread), min(1.0, mean + spread)


def measure(line: Line, games: int, workers: int, first_seed: int) -> str:
    jobs = [(line.key, line.options, line.level, first_seed + n) for n in range(games)]
    started = time.perf_counter()
    with multiprocessing.get_context("forkserver").Pool(workers) as pool:
        played = pool.map(_play, jobs, chunksize=1)
    wall = time.perf_counter() - started
    mean, low, high = interval([p.share for p in played])
    decisions = [s for p in played for s in p.seconds.get(line.level, [])]
    normal = [s for p in played for s in p.seconds.get("normal", [])]
    unfinished = sum(not p.finished for p in played)
    return (
        f"| {line.name} | {line.level} | {games} | {100 * mean:.1f} % "
        f"| {100 * low:.1f}–{100 * high:.1f} % "
        f"| {1000 * statistics.median(decisions):.1f} | {1000 * percentile(decisions, 95):.1f} "
        f"| {1000 * statistics.median(normal):.1f} | {unfinished} | {wall:.0f} s |"
    )


HEADER = (
    "| game | level | games | win share | 95 % interval | decision ms: median | p95 "
    "| normal's median | unfinished | time |\n"
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=keys(), action="append")
    parser.add_argument("--level", choices=LEVELS, action="append")
    parser.add_argument("--option", action="append", default=[], help="name=value")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = parser.parse_args(argv)
    levels: list[Level] = args.level or ["easy", "hard"]
    chosen_keys = args.game or keys()
    if args.option:  # one way to play, named
        options = dict(option.split("=", 1) for option in args.option)
        chosen = [Line(key, options, level) for key in chosen_keys for level in levels]
    else:
        chosen = list(lines(chosen_keys, levels))
    print(HEADER, flush=True)
    for line in chosen:
        print(measure(line, args.games, args.workers, args.seed), flush=True)


if __name__ == "__main__":
    main()
