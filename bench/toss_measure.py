"""Measure the Toss It in the Trash bin: how far careful and careless play get.

    .venv/bin/python -m bench.toss_measure [--games N] [--random-games M] [--wobble house]
        [--level easy --level normal --level hard]

Every game starts from an empty bin with the whole supply (ten of each kind) and drops
one piece at a time until something spills or all forty are in.

- AI: the bot's AI at each `--level` (normal, `rules.toss.ai.choose`, by default) picks
  kind, spot and angle among all legal placements for every drop. The real wobble comes
  from a generator of its own that the AI never sees.
- Random: a uniformly random legal placement for every drop. Its spill chance is counted
  per drop, by how many pieces already lie in the bin.
- Times: one drop's simulation (the random games' drops) and one AI decision.

Prints a markdown table for docs/performance.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field

from bench.stats import percentile
from rules.base import LEVELS, Level
from rules.toss.bin import ANGLES, BIN_HEIGHT, KINDS, PIECES_EACH, X_STEPS, Bin, drop, highest
from rules.toss.engine import TOSS

Drop = tuple[Bin, bool]
BUCKET = 5  # pieces per row of the spill-chance curve
TOTAL = len(KINDS) * PIECES_EACH


def observation(pieces: Bin, supply: dict[str, int], wobble: str) -> dict[str, object]:
    """The parts of a player's view the AI reads while placing."""
    return {
        "bin": [
            {"kind": p.kind, "x": p.x / 10, "y": p.y / 10, "angle": p.angle / 1000} for p in pieces
        ],
        "supply": dict(supply),
        "wobble": wobble,
        "kind": None,
        "to_place": sum(supply.values()),
    }


def legal_places(supply: dict[str, int]) -> list[str]:
    return [
        f"place {kind} {x} {angle}"
        for kind in KINDS
        if supply[kind] > 0
        for x in range(X_STEPS)
        for angle in ANGLES
    ]


@dataclass
class Tally:
    ai_in: dict[Level, list[int]] = field(default_factory=dict)  # per level
    ai_tops: dict[Level, list[float]] = field(default_factory=dict)  # the pile's top at the end
    ai_times: dict[Level, list[float]] = field(default_factory=dict)
    drop_times: list[float] = field(default_factory=list)
    random_in: list[int] = field(default_factory=list)
    drops: dict[int, int] = field(default_factory=dict)  # bucket -> drops tried
    spills: dict[int, int] = field(default_factory=dict)  # bucket -> drops that spilled


def _drop(tally: Tally, pieces: Bin, action: str, wobble: str, rng: random.Random) -> Drop:
    _, kind, x, angle = action.split()
    start = time.process_time()
    after, spilled = drop(pieces, kind, int(x), int(angle), wobble, rng)
    tally.drop_times.append(time.process_time() - start)
    return after, spilled


def ai_game(tally: Tally, seed: int, wobble: str, level: Level = "normal") -> int:
    """Pieces the AI at `level` gets into an empty bin before its first spill."""
    brain = random.Random(f"ai {seed}")
    hand = random.Random(f"hand {seed}")  # the real wobble, hidden from the AI
    supply = dict.fromkeys(KINDS, PIECES_EACH)
    pieces: Bin = ()
    while sum(supply.values()):
        legal = legal_places(supply)
        start = time.process_time()
        action = TOSS.choose(observation(pieces, supply, wobble), legal, brain, level)  # type: ignore[arg-type]
        tally.ai_times.setdefault(level, []).append(time.process_time() - start)
        assert action in legal
        after, spilled = _drop(tally, pieces, action, wobble, hand)
        if spilled:
            break
        pieces = after
        supply[action.split()[1]] -= 1
    tally.ai_tops.setdefault(level, []).append(highest(pieces))
    tally.ai_in.setdefault(level, []).append(len(pieces))
    return len(pieces)


def random_game(tally: Tally, seed: int, wobble: str) -> int:
    """Pieces a random dropper gets in before its first spill; counts every drop."""
    rng = random.Random(f"random {seed}")
    supply = dict.fromkeys(KINDS, PIECES_EACH)
    pieces: Bin = ()
    while sum(supply.values()):
        action = rng.choice(legal_places(supply))
        bucket = len(pieces) // BUCKET
        after, spilled = _drop(tally, pieces, action, wobble, rng)
        tally.drops[bucket] = tally.drops.get(bucket, 0) + 1
        if spilled:
            tally.spills[bucket] = tally.spills.get(bucket, 0) + 1
            break
        pieces = after
        supply[action.split()[1]] -= 1
    return len(pieces)


def report(tally: Tally, wobble: str) -> str:
    lines = [f"Wobble `{wobble}`, empty bin, {TOTAL} pieces in supply.", ""]
    lines += ["| Player | Games | Pieces in before the first spill: mean | min | max | all 40 |"]
    lines += ["|---|---:|---:|---:|---:|---:|"]
    players = [(f"AI, {level}", got) for level, got in tally.ai_in.items()]
    for name, got in [*players, ("Random dropper", tally.random_in)]:
        if got:
            full = sum(1 for n in got if n == TOTAL)
            lines.append(
                f"| {name} | {len(got)} | {statistics.mean(got):.1f} | {min(got)} | {max(got)}"
                f" | {full} |"
            )
    for level, tops in tally.ai_tops.items():
        top = statistics.mean(tops)
        lines += [
            "",
            f"The {level} AI's pile ends with its top at {top:.0f} mm on average"
            f" ({top / BIN_HEIGHT:.2f} times the rim's height).",
        ]
    if tally.drops:
        lines += ["", "Random dropper, spill chance per drop by pieces already in the bin:", ""]
        lines += ["| Pieces in | Drops | Spills | Spill chance |", "|---|---:|---:|---:|"]
        for bucket in range(TOTAL // BUCKET):
            tried = tally.drops.get(bucket, 0)
            spilled = tally.spills.get(bucket, 0)
            chance = f"{100 * spilled / tried:.0f}%" if tried else "-"
            span = f"{bucket * BUCKET}-{bucket * BUCKET + BUCKET - 1}"
            lines.append(f"| {span} | {tried} | {spilled} | {chance} |")
    lines += [
        "",
        "| CPU time | Count | Mean | 95th percentile | Max |",
        "|---|---:|---:|---:|---:|",
    ]
    decisions = [(f"AI decision, {level}", times) for level, times in tally.ai_times.items()]
    for name, times in [("One drop (simulation)", tally.drop_times), *decisions]:
        if times:
            lines.append(
                f"| {name} | {len(times)} | {1000 * statistics.mean(times):.1f} ms"
                f" | {1000 * percentile(times, 95):.1f} ms | {1000 * max(times):.1f} ms |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="AI games (default 10)")
    parser.add_argument(
        "--random-games", type=int, default=None, help="random games (default 20 x --games)"
    )
    parser.add_argument("--wobble", default="house", choices=("steady", "house", "shaky"))
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    parser.add_argument(
        "--level", choices=LEVELS, action="append", help="AI level, repeatable (default normal)"
    )
    args = parser.parse_args()
    tally = Tally()
    randoms = args.random_games if args.random_games is not None else 20 * args.games
    for seed in range(randoms):
        tally.random_in.append(random_game(tally, seed, args.wobble))
    levels: list[Level] = args.level or ["normal"]
    for level in levels:
        for seed in range(args.games):
            start = time.process_time()
            got = ai_game(tally, seed, args.wobble, level)
            if not args.quiet:
                spent = time.process_time() - start
                print(f"AI {level} game {seed}: {got} pieces in ({spent:.1f}s)", flush=True)
    print(report(tally, args.wobble))


if __name__ == "__main__":
    main()
