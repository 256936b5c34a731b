"""The benchmark command: `make bench` (or `python -m tests.bench`).

Prints, per game:
- random full games per second (the engine alone, uniformly random legal actions);
- milliseconds to render the board (median and 95th percentile), and the other pictures a
  press draws: Dumpster Brawl!'s hand and dice, Toss It's drop preview;
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
from dataclasses import dataclass, field

from render.brawl import draw_hand, draw_rolls, draw_table
from render.rumble import draw_dungeon
from render.toss import draw_bin, draw_preview
from render.trashwar import draw_battlefield
from rules.base import Game
from rules.brawl import BRAWL
from rules.brawl.engine import MODES
from rules.rumble import RUMBLE
from rules.toss import TOSS
from rules.toss.bin import ANGLES, KINDS
from rules.trashwar import TRASH_WAR


@dataclass(frozen=True)
class Bench:
    game: Game
    draw: Callable[..., bytes]
    variants: list[dict[str, str]] = field(default_factory=lambda: [{}])  # options per line
    share: float = 1.0  # of --games: Toss's physics makes a random game ~0.4 s


BENCHES = [
    Bench(RUMBLE, draw_dungeon),
    Bench(TRASH_WAR, draw_battlefield),
    Bench(BRAWL, draw_table, [{"mode": mode} for mode in MODES]),
    Bench(TOSS, draw_bin, share=0.1),
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def seats_for(game: Game, seed: int) -> int:
    """3 up to the game's most players, cycling with the seed (Toss: 3 to 5)."""
    low = max(3, game.min_seats)
    return low + seed % (game.max_seats - low + 1)


def random_game(
    game: Game,
    seats: int,
    seed: int,
    on_state: Callable[[object], None] | None = None,
    options: dict[str, str] | None = None,
) -> tuple[int, int, bool]:
    """One game of uniformly random legal actions: (actions, of which drops into the bin,
    whether every seat tied: in Dumpster Brawl! that is a game worn out at the turn limit)."""
    rng = random.Random(seed)
    state = game.new_game(seats, options or {}, seed)
    steps = drops = 0
    while game.outcome(state) is None:
        (seat, *_) = sorted(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action).state
        steps += 1
        drops += action.startswith("place ")  # Toss only: each one is a simulated drop
        if on_state is not None:
            on_state(state)
    outcome = game.outcome(state)
    return steps, drops, outcome is not None and not any(outcome.ranks)


def bench_engine(game: Game, games: int, options: dict[str, str]) -> dict[str, float]:
    started = time.perf_counter()
    played = [
        random_game(game, seats_for(game, seed), seed, options=options) for seed in range(games)
    ]
    elapsed = time.perf_counter() - started
    steps = [actions for actions, _, _ in played]
    return {
        "games": games,
        "games_per_second": games / elapsed,
        "actions_per_second": sum(steps) / elapsed,
        "drops_per_second": sum(drops for _, drops, _ in played) / elapsed,
        "all_tied": sum(tied for _, _, tied in played),
        "median_actions": statistics.median(steps),
        "max_actions": max(steps),
    }


def bench_render(
    game: Game, draw: Callable[..., bytes], samples: int, crowd: bool = False
) -> dict[str, float]:
    """Board render times for `samples` boards from a few random games, or with `crowd`
    each from a game of its own (a random moment of it): what a worker sees with that many
    games running, where a cache of anything drawn per game keeps missing."""
    observations: list[dict] = []
    if crowd:
        observations = [crowd_board(game, seed) for seed in range(samples)]
    seed = 0
    while len(observations) < samples:  # boards from as few games as give enough of them
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


def crowd_board(game: Game, seed: int) -> dict:
    """The public view of game `seed` (4 seats) after a random number of random actions."""
    rng = random.Random(seed)
    state = game.new_game(4, {}, seed)
    for _ in range(rng.randrange(40)):
        if game.outcome(state) is not None:
            break
        (seat, *_) = sorted(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
    return game.observe(state, None)


def timed(draws: list[Callable[[], object]]) -> str:
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


def bench_other_pictures(game: Game, samples: int) -> dict[str, str]:
    """The pictures besides the board: a player's hand and the dice (Dumpster Brawl!) and the
    drop preview (Toss It), drawn from the states of random games."""
    states: list[object] = []
    seed = 0
    while len(states) < samples:
        random_game(game, 6 if game is BRAWL else 4, seed, states.append)
        seed += 1
    picked = random.Random(2).sample(states, samples)
    names = ["Alice", "Bob", "Carol", "Dave", "Erin", "Fred"]
    if game is BRAWL:
        hands = [game.observe(s, 0) for s in picked]
        public = [game.observe(s, None) for s in picked]
        return {
            "hand": timed([lambda o=o: draw_hand(o, "Alice") for o in hands]),
            "dice": timed([lambda o=o: draw_rolls(o, names, 0) for o in public]),
        }
    if game is TOSS:
        rng = random.Random(3)
        previews = [
            (game.observe(s, None), rng.choice(list(KINDS)), rng.randrange(21), rng.choice(ANGLES))
            for s in picked
        ]
        return {"preview": timed([lambda p=p: draw_preview(*p) for p in previews])}
    return {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="random games for the engine")
    parser.add_argument("--renders", type=int, default=200, help="boards to render")
    parser.add_argument("--channels", type=int, default=50, help="games at once through Discord")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the load runs")
    parser.add_argument("--skip-discord", action="store_true")
    parser.add_argument("--only", choices=[b.game.key for b in BENCHES], help="one game")
    args = parser.parse_args()

    for bench in BENCHES:
        game = bench.game
        if args.only and game.key != args.only:
            continue
        print(game.title)
        games = max(1, round(args.games * bench.share))
        for options in bench.variants:
            engine = bench_engine(game, games, options)
            drops = engine["drops_per_second"]
            print(
                f"  engine{' ' + ','.join(options.values()) if options else ''}: "
                f"{engine['games_per_second']:.1f} random games/s "
                f"({engine['actions_per_second']:.0f} actions/s"
                + (f", {drops:.0f} drops simulated/s" if drops else "")
                + f", median {engine['median_actions']:.0f} actions a game, "
                f"longest {engine['max_actions']:.0f}, {games} games, "
                f"{engine['all_tied']:.0f} with every seat tied)"
            )
        render = bench_render(game, bench.draw, args.renders)
        print(
            f"  render: board median {render['median_ms']:.1f} ms, "
            f"p95 {render['p95_ms']:.1f} ms ({args.renders} boards)"
        )
        crowd = bench_render(game, bench.draw, args.renders, crowd=True)
        print(
            f"  render: board median {crowd['median_ms']:.1f} ms, "
            f"p95 {crowd['p95_ms']:.1f} ms ({args.renders} boards, each from a game of its own)"
        )
        for picture, figures in bench_other_pictures(game, args.renders).items():
            print(f"  render: {picture} {figures}")
        if not args.skip_discord:
            from tests.bench_discord import bench_answers

            answers = asyncio.run(bench_answers(game.key, args.channels, args.seconds))
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
