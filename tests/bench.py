"""The benchmark command: `make bench` (or `python -m tests.bench`).

Prints, per game:
- random full games per second (the engine alone, uniformly random legal actions);
- milliseconds to render the board (median and 95th percentile);
- milliseconds from an interaction reaching the bot to its answer, through the fake Discord,
  with many games running at once (median and 99th percentile).

Figures go in docs/performance.md. This is not part of `make test`: it takes a minute or two.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Callable

from render.rumble import draw_dungeon
from render.trashwar import draw_battlefield
from rules.base import Game
from rules.rumble import RUMBLE
from rules.trashwar import TRASH_WAR

GAMES = [(RUMBLE, draw_dungeon), (TRASH_WAR, draw_battlefield)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def random_game(
    game: Game, seats: int, seed: int, on_state: Callable[[object], None] | None = None
):
    rng = random.Random(seed)
    state = game.new_game(seats, {}, seed)
    steps = 0
    while game.outcome(state) is None:
        (seat, *_) = sorted(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
        steps += 1
        if on_state is not None:
            on_state(state)
    return steps


def bench_engine(game: Game, games: int) -> dict[str, float]:
    started = time.perf_counter()
    steps = [random_game(game, 3 + seed % 4, seed) for seed in range(games)]
    elapsed = time.perf_counter() - started
    return {
        "games": games,
        "games_per_second": games / elapsed,
        "actions_per_second": sum(steps) / elapsed,
        "median_actions": statistics.median(steps),
    }


def bench_render(game: Game, draw: Callable[..., bytes], samples: int) -> dict[str, float]:
    observations: list[dict] = []
    seed = 0
    while len(observations) < samples:
        random_game(game, 4, seed, lambda s: observations.append(game.observe(s, None)))
        seed += 1
    picked = random.Random(1).sample(observations, samples)
    names = ["Alice", "Bob", "Carol", "Dave"]
    draw(picked[0], names)  # warm the caches, as a running bot would have
    timings = []
    for obs in picked:
        started = time.perf_counter()
        draw(obs, names)
        timings.append((time.perf_counter() - started) * 1000)
    return {
        "renders": samples,
        "median_ms": statistics.median(timings),
        "p95_ms": percentile(timings, 95),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="random games for the engine")
    parser.add_argument("--renders", type=int, default=200, help="boards to render")
    parser.add_argument("--channels", type=int, default=50, help="games at once through Discord")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the load runs")
    parser.add_argument("--skip-discord", action="store_true")
    parser.add_argument("--only", choices=[game.key for game, _ in GAMES], help="one game")
    args = parser.parse_args()

    for game, draw in GAMES:
        if args.only and game.key != args.only:
            continue
        print(game.title)
        engine = bench_engine(game, args.games)
        print(
            f"  engine: {engine['games_per_second']:.0f} random games/s "
            f"({engine['actions_per_second']:.0f} actions/s, median "
            f"{engine['median_actions']:.0f} actions a game, {args.games} games)"
        )
        render = bench_render(game, draw, args.renders)
        print(
            f"  render: board median {render['median_ms']:.1f} ms, "
            f"p95 {render['p95_ms']:.1f} ms ({args.renders} boards)"
        )
        if not args.skip_discord:
            from tests.bench_discord import bench_answers

            answers = asyncio.run(bench_answers(game.key, args.channels, args.seconds))
            print(
                f"  discord: answer median {answers['median_ms']:.0f} ms, "
                f"p99 {answers['p99_ms']:.0f} ms, "
                f"max {answers['max_ms']:.0f} ms over {answers['interactions']} interactions, "
                f"{args.channels} games at once, {answers['late']} later than 3 s"
            )


if __name__ == "__main__":
    main()
