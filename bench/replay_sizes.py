"""Measure `/game replay` on the longest seeded games: the GIF's size, frames and CPU.

    .venv/bin/python -m bench.replay_sizes [--seeds 200] [--games rumble,toss] [--limit MiB]

For each game, seeded games of uniformly random legal actions at the most seats (random
play makes longer games than the AI does) are played through the engine; the longest of
`--seeds` is replayed as if every seat were a person, so that every action had a board of
its own (the most boards a real game can show), with 32-character names. The replay runs
exactly as the bot runs it (`cogs.shared.replay.replay_animation`, in this process), under
the budget the bot takes from an upload limit of `--limit` MiB. Prints a markdown table for
docs/performance.md.
"""

from __future__ import annotations

import argparse
import resource
import time

from bench.games import keys, plugins, random_game
from cogs.shared.replay import replay_animation, replay_budget
from rules.base import AnyGame
from tests.random_logs import NAMES, game_log


def longest_seed(game: AnyGame, seeds: int) -> tuple[int, int]:
    """(actions, seed) of the longest random game among the first `seeds`."""
    return max((random_game(game, game.max_seats, seed)[0], seed) for seed in range(seeds))


def resident_mib() -> float:
    """This process's resident memory now (Linux)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--games", default=",".join(keys()))
    parser.add_argument("--limit", type=float, default=10.0, help="upload limit, MiB")
    parser.add_argument("--seed", type=int, help="replay this seed instead of the longest")
    args = parser.parse_args()
    limit = int(args.limit * 1024 * 1024)
    budget = replay_budget(limit)
    print(f"upload limit {limit:,} bytes, budget {budget:,} bytes\n")
    print("| game | seed | boards | frames | width | colours | GIF | CPU | peak RSS |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for key in args.games.split(","):
        game = plugins()[key].engine
        seed = args.seed if args.seed is not None else longest_seed(game, args.seeds)[1]
        log = game_log(game, seed)
        title = f"{game.title} #{seed}"
        before = resident_mib()
        started = time.process_time()
        animation = replay_animation(log, NAMES[: game.max_seats], budget, title)
        cpu = time.process_time() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"| {game.title} | {seed} | {animation.boards} | {animation.frames} | "
            f"{animation.width} | {animation.colours} | {len(animation.data) / 1e6:.2f} MB | "
            f"{cpu:.1f} s | {peak:.0f} MiB ({before:.0f} before) |",
            flush=True,
        )


if __name__ == "__main__":
    main()
