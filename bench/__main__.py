"""The benchmark command: `make bench` (or `python -m bench`).

Prints, per game (every game plug-in, `bench/games.py`):
- random full games per second (the engine alone, uniformly random legal actions), for
  each way to play its options declare (Dumpster Brawl!'s modes);
- milliseconds to render the board (median and 95th percentile), and the other pictures a
  press draws: every picture of a board after a move (Dumpster Brawl!'s dice beside the
  alley) and a player's own view ("My hand", "My secret");
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
from typing import Any

from bench.games import NAMES, keys, plugins, random_game, seats_for, ways
from bench.stats import percentile
from cogs.shared.plugin import GamePlugin
from rules.base import AnyGame

ENGINE_SECONDS = 20.0  # at most this long on one way to play (a Toss It game takes ~0.4 s)


def bench_engine(game: AnyGame, games: int, options: dict[str, str]) -> dict[str, float]:
    """Up to `games` random games, stopping after ENGINE_SECONDS: a slow engine's figure
    comes from fewer games rather than holding the benchmark up."""
    started = time.perf_counter()
    played = []
    for seed in range(games):
        played.append(random_game(game, seats_for(game, seed), seed, options=options))
        if time.perf_counter() - started > ENGINE_SECONDS:
            break
    elapsed = time.perf_counter() - started
    steps = [actions for actions, _, _ in played]
    return {
        "games": len(played),
        "games_per_second": len(played) / elapsed,
        "actions_per_second": sum(steps) / elapsed,
        "drops_per_second": sum(drops for _, drops, _ in played) / elapsed,
        "all_tied": sum(tied for _, _, tied in played),
        "median_actions": statistics.median(steps),
        "max_actions": max(steps),
    }


def board_of(plugin: GamePlugin) -> Callable[[Any, list[str]], object]:
    """Draws the board as the bot does (the presenter's `board`), showing only the last
    step: the board's own picture, without what a board after several steps adds."""
    return lambda obs, names: plugin.presenter.board(obs, names, obs["step"])


def bench_render(plugin: GamePlugin, samples: int, crowd: bool = False) -> dict[str, float]:
    """Board render times for `samples` boards from a few random games, or with `crowd`
    each from a game of its own (a random moment of it): what a worker sees with that many
    games running, where a cache of anything drawn per game keeps missing."""
    game = plugin.engine
    seats = max(game.min_seats, min(4, game.max_seats))
    observations: list[Any] = []
    if crowd:
        observations = [crowd_board(game, seats, seed) for seed in range(samples)]
    seed = 0
    while len(observations) < samples:  # boards from as few games as give enough of them
        random_game(game, seats, seed, lambda s: observations.append(game.observe(s, None)))
        seed += 1
    picked = random.Random(1).sample(observations, samples)
    draw, names = board_of(plugin), NAMES[:seats]
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


def crowd_board(game: AnyGame, seats: int, seed: int) -> Any:
    """The public view of game `seed` after a random number of random actions."""
    rng = random.Random(seed)
    state = game.new_game(seats, {}, seed)
    for _ in range(rng.randrange(40)):
        if game.outcome(state) is not None:
            break
        (seat, *_) = sorted(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
    return game.observe(state, None)


def timed(draws: list[Callable[..., object]]) -> str:
    """Median and p95 milliseconds of each draw, after one warm-up draw."""
    draws[0]()
    timings = []
    for draw in draws:
        started = time.perf_counter()
        draw()
        timings.append((time.perf_counter() - started) * 1000)
    return (
        f"median {statistics.median(timings):.1f} ms, p95 {percentile(timings, 95):.1f} ms "
        f"({len(draws)} pictures)"
    )


def bench_other_pictures(plugin: GamePlugin, samples: int) -> dict[str, str]:
    """The pictures besides the board's own, drawn from moments of random games at the most
    seats: every picture of the board after a move (Dumpster Brawl!'s dice, Rumble's
    reveal) and the view of the seat to act, from "My hand" or "My secret"."""
    game, presenter = plugin.engine, plugin.presenter
    moments: list[tuple[int, Any]] = []  # (the step before the move, the state after it)
    seed, before = 0, 0

    def note(state: Any) -> None:
        nonlocal before
        moments.append((before, state))
        before = state.step

    while len(moments) < samples:
        before = 0
        random_game(game, game.max_seats, seed, note)
        seed += 1
    picked = random.Random(2).sample(moments, samples)
    names = NAMES[: game.max_seats]
    boards = [(game.observe(state, None), since) for since, state in picked]
    seats = [sorted(game.to_act(state)) or [0] for _, state in picked]
    hands = [game.observe(state, seat[0]) for (_, state), seat in zip(picked, seats, strict=True)]
    return {
        "board after a move": timed(
            [lambda b=b: presenter.board(b[0], names, b[1]) for b in boards]
        ),
        f"{presenter.hand_label}": timed([lambda o=o: presenter.hand(o, names) for o in hands]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="random games for the engine")
    parser.add_argument("--renders", type=int, default=200, help="boards to render")
    parser.add_argument("--channels", type=int, default=50, help="games at once through Discord")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the load runs")
    parser.add_argument("--skip-discord", action="store_true")
    parser.add_argument("--only", choices=keys(), help="one game")
    args = parser.parse_args()

    for key, plugin in plugins().items():
        game = plugin.engine
        if args.only and key != args.only:
            continue
        print(game.title)
        for options in ways(game):
            engine = bench_engine(game, args.games, options)
            drops = engine["drops_per_second"]
            print(
                f"  engine{' ' + ','.join(options.values()) if options else ''}: "
                f"{engine['games_per_second']:.1f} random games/s "
                f"({engine['actions_per_second']:.0f} actions/s"
                + (f", {drops:.0f} drops simulated/s" if drops else "")
                + f", median {engine['median_actions']:.0f} actions a game, "
                f"longest {engine['max_actions']:.0f}, {engine['games']:.0f} games, "
                f"{engine['all_tied']:.0f} with every seat tied)"
            )
        render = bench_render(plugin, args.renders)
        print(
            f"  render: board median {render['median_ms']:.1f} ms, "
            f"p95 {render['p95_ms']:.1f} ms ({args.renders} boards)"
        )
        crowd = bench_render(plugin, args.renders, crowd=True)
        print(
            f"  render: board median {crowd['median_ms']:.1f} ms, "
            f"p95 {crowd['p95_ms']:.1f} ms ({args.renders} boards, each from a game of its own)"
        )
        for picture, figures in bench_other_pictures(plugin, args.renders).items():
            print(f"  render: {picture} {figures}")
        if not args.skip_discord:
            from bench.bench_discord import bench_answers

            answers = asyncio.run(bench_answers(key, args.channels, args.seconds))
            print(
                f"  discord: answer median {answers['median_ms']:.0f} ms, "
                f"p99 {answers['p99_ms']:.0f} ms, "
                f"max {answers['max_ms']:.0f} ms over {answers['interactions']} interactions, "
                f"{args.channels} games at once, {answers['late']} later than 3 s"
            )
            if answers["results"]:
                print(
                    f"  discord: press to result (the reply's next version) "
                    f"median {answers['result_median_ms']:.0f} ms, "
                    f"p95 {answers['result_p95_ms']:.0f} ms over {answers['results']} presses"
                )


if __name__ == "__main__":
    main()
