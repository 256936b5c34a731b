"""Fit the weights of Trash War's position judge (`rules/trashwar/judge.py`) again:
`python -m bench.trashwar_judge_fit`.

It plays `--games` three-seat games of normal AIs, keeps about one position in twelve
with the knights who went on to win it, and fits the judge's weights by maximum
likelihood (conditional logit: a knight's chance is exp(score) over the sum for every
knight still in; Newton's method). It prints the fitted weights and, on a fifth of the
positions held out, the log-likelihood a position of the fitted weights, of the fortress
features alone, of the walls-only judgement and of an even guess. Copy the weights into
`judge.WEIGHTS` by hand.
"""

from __future__ import annotations

import argparse
import math
import random

from rules.base import rng_for
from rules.trashwar import TRASH_WAR
from rules.trashwar.judge import FEATURES, features
from rules.trashwar.state import State

SEATS = 3
KEPT = 1 / 12  # share of the positions kept: far apart enough to be nearly independent
FORTRESS = ("log room", "room", "walls", "coming", "on turn")
WALLS_ONLY = {"log room": 2.0}  # the judge before hands counted: room less half coming, squared

# One position: each knight still in's features, and their share of the win.
Position = tuple[list[list[float]], list[float]]


def positions(first_seed: int, games: int) -> list[Position]:
    """Positions with two knights or more still in, from games of normal AIs."""
    found: list[Position] = []
    for seed in range(first_seed, first_seed + games):
        state = TRASH_WAR.new_game(SEATS, {}, seed)
        keep = random.Random(seed)
        kept: list[State] = []
        while (outcome := TRASH_WAR.outcome(state)) is None:
            seat = min(TRASH_WAR.to_act(state))
            if keep.random() < KEPT:
                kept.append(state)
            legal = TRASH_WAR.legal_actions(state, seat)
            rng = rng_for(seed, "ai", TRASH_WAR.step(state), seat)
            action = TRASH_WAR.choose(TRASH_WAR.observe(state, seat), legal, rng, "normal")
            state = TRASH_WAR.apply(state, seat, action).state
        winners = outcome.winners
        for position in kept:
            knights = [p for p in range(SEATS) if p not in position.eliminated]
            rows = [list(features(position, p).values()) for p in knights]
            shares = [1 / len(winners) if p in winners else 0.0 for p in knights]
            found.append((rows, shares))
    return found


def chances(weights: list[float], rows: list[list[float]]) -> list[float]:
    scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
    top = max(scores)
    powers = [math.exp(s - top) for s in scores]
    return [p / sum(powers) for p in powers]


def log_likelihood(weights: list[float], data: list[Position]) -> float:
    """The mean log-likelihood a position."""
    total = 0.0
    for rows, shares in data:
        total += sum(
            s * math.log(max(p, 1e-12)) for s, p in zip(shares, chances(weights, rows), strict=True)
        )
    return total / len(data)


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix x = vector (Gauss-Jordan with pivoting; the matrix is small)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def fit(data: list[Position], used: list[int]) -> list[float]:
    """The maximum-likelihood weights of the features `used` (the others stay 0)."""
    size = len(used)
    weights = [0.0] * size
    data_used = [([[row[i] for i in used] for row in rows], shares) for rows, shares in data]
    for _ in range(30):
        gradient = [0.0] * size
        ridge = 1e-6 * len(data)  # keeps the matrix invertible
        hessian = [[ridge if i == j else 0.0 for j in range(size)] for i in range(size)]
        for rows, shares in data_used:
            p = chances(weights, rows)
            mean = [sum(pk * row[i] for pk, row in zip(p, rows, strict=True)) for i in range(size)]
            for pk, sk, row in zip(p, shares, rows, strict=True):
                apart = [row[i] - mean[i] for i in range(size)]
                for i in range(size):
                    gradient[i] += sk * apart[i]
                    for j in range(size):
                        hessian[i][j] += pk * apart[i] * apart[j]
        step = solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    full = [0.0] * len(FEATURES)
    for i, w in zip(used, weights, strict=True):
        full[i] = w
    return full


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=100_000, help="the first game's seed")
    args = parser.parse_args(argv)
    data = positions(args.seed, args.games)
    random.Random(1).shuffle(data)
    held = len(data) // 5
    train, test = data[held:], data[:held]
    everything = fit(train, list(range(len(FEATURES))))
    fortress = fit(train, [FEATURES.index(name) for name in FORTRESS])
    print(f"{len(data)} positions from {args.games} games (seeds {args.seed}-)")
    for name, weight in zip(FEATURES, everything, strict=True):
        print(f"    {name!r}: {weight:.3f},")
    print(f"held-out log-likelihood a position: {log_likelihood(everything, test):.3f}")
    print(f"  the fortress features alone: {log_likelihood(fortress, test):.3f}")
    walls_only = [WALLS_ONLY.get(name, 0.0) for name in FEATURES]
    print(f"  the walls-only judgement: {log_likelihood(walls_only, test):.3f}")
    print(f"  an even guess: {log_likelihood([0.0] * len(FEATURES), test):.3f}")


if __name__ == "__main__":
    main()
