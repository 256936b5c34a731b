"""Players the bot provides for Toss It in the Trash.

`choose` is the sensible AI, the normal level. It sees only its observation (the bin, the
supply, the wobble option) and the legal actions. The easy and hard levels are in
`levels.py` (the engine's chooser); they share this module's placing search (`place`, with
more or less `Care`) and card rule (`pick_card`).

- Placing: it drops every kind it may take at a spread of spots and rotations in the
  simulation, from the exact spot (no wobble), and scores each result by the space it
  wastes: the area under the pile's skyline that no piece fills, plus how high and how
  bumpy the pile ends up. The best few candidates are dropped again with wobbles drawn
  from the AI's own generator (never the game's, whose next wobble it must not know);
  a candidate is judged by its worst outcome, and any spill rules it out while a
  candidate without one remains. When every candidate spills, it tries more spots and
  rotations before giving up.
- Choosing a card: it estimates how many more pieces the bin can take from the free space
  between the pile's skyline and the height it can heap the pile to. When the whole
  supply fits, it plays a card big enough to place the last piece; otherwise it plays the
  biggest card whose pieces still fit after the ones the lower cards of the others are
  likely to place first, or its smallest card.

`random_choice` is the random player the playout tests use.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from rules.toss.bin import (
    BIN_HEIGHT,
    BIN_WIDTH,
    KINDS,
    WOBBLE,
    X_STEPS,
    Drop,
    Kind,
    Piece,
    grid_x,
    inside_opening,
    simulate,
)

FIRST_PASS = 36  # drops the first pass may simulate: keeps a decision well under 0.5 s
MAX_SPOTS = 11  # every second grid spot (a wobble spreads over the gaps)
MIN_SPOTS = 5  # every fifth, when all kinds are open
BOX_ANGLES = (0, 90)  # first pass: boxes standing up and lying flat
RESCUE = 30  # more drops tried when the whole first pass spills
RESCUE_ANGLES = (0, 90, 45, 135)
KEEP = 3  # candidates of the first pass that are tried again with wobbles
SHAKES = 3  # wobbled drops per kept candidate
COLUMNS = 30  # skyline sample points across the bin
HEIGHT_WEIGHT = 0.3  # waste per mm of the pile's highest point (area units per mm)
BUMP_WEIGHT = 0.5  # waste per mm of ups and downs along the skyline
RIM_WEIGHT = 20.0  # extra per mm the pile reaches above the rim: pieces up there slide off
# Card choice: measured (bench/toss_measure.py), this AI heaps the pile to about 1.3 to 1.4
# times the rim's height before its first spill; above the rim pieces overhang the walls,
# so the free area up to there holds about its own area of pieces.
HEAP = 1.3


def random_choice(legal: list[str], rng: random.Random) -> str:
    """A uniformly random legal action."""
    return rng.choice(legal)


def _pieces(observation: Mapping[str, Any]) -> tuple[Piece, ...]:
    return tuple(
        Piece(p["kind"], round(p["x"] * 10), round(p["y"] * 10), round(p["angle"] * 1000))
        for p in observation["bin"]
    )


def area(kind: Kind) -> float:
    if kind.shape == "round":
        return math.pi * kind.radius**2
    return kind.width * kind.height


# ---------------------------------------------------------------------------------------------
# The skyline: the top of the pile at evenly spaced points across the bin


def _top_at(piece: Piece, xs: list[float], tops: list[float]) -> None:
    """Raise `tops` to `piece`'s upper edge wherever it covers a point of `xs` (sorted)."""
    kind = KINDS[piece.kind]
    cx, cy = piece.x / 10, piece.y / 10
    if kind.shape == "round":
        r = kind.radius
        # Only the points near the piece can be under it (a millimetre to spare either way).
        for i in range(bisect.bisect_left(xs, cx - r - 1), bisect.bisect_right(xs, cx + r + 1)):
            d = xs[i] - cx
            if -r < d < r:
                tops[i] = max(tops[i], cy + math.sqrt(r * r - d * d))
        return
    c, s = math.cos(piece.angle / 1000), math.sin(piece.angle / 1000)
    w, h = kind.width / 2, kind.height / 2
    corners = [
        (cx + c * u - s * v, cy + s * u + c * v) for u, v in ((-w, -h), (w, -h), (w, h), (-w, h))
    ]
    edges = list(zip(corners, corners[1:] + corners[:1], strict=True))
    left = min(x for x, _ in corners)
    right = max(x for x, _ in corners)
    for i in range(bisect.bisect_right(xs, left), bisect.bisect_left(xs, right)):  # inside only
        x = xs[i]
        for (x0, y0), (x1, y1) in edges:
            if (x0 <= x <= x1 or x1 <= x <= x0) and x0 != x1:
                tops[i] = max(tops[i], y0 + (y1 - y0) * (x - x0) / (x1 - x0))


_COLUMN_XS = [BIN_WIDTH * (i + 0.5) / COLUMNS for i in range(COLUMNS)]


def skyline(pieces: tuple[Piece, ...]) -> list[float]:
    """The pile's top (mm) at `COLUMNS` points evenly across the bin."""
    tops = [0.0] * COLUMNS
    for piece in pieces:
        _top_at(piece, _COLUMN_XS, tops)
    return tops


def waste(pieces: tuple[Piece, ...]) -> float:
    """How badly a bin is packed (lower is better): the area under the skyline that no
    piece fills, plus penalties for a high top, a bumpy surface and anything above the rim."""
    tops = skyline(pieces)
    under = sum(tops) * BIN_WIDTH / COLUMNS
    filled = sum(area(KINDS[p.kind]) for p in pieces)
    top = max(tops)
    bumps = sum(abs(a - b) for a, b in itertools.pairwise(tops))
    return (
        under
        - filled
        + HEIGHT_WEIGHT * BIN_WIDTH * top
        + BUMP_WEIGHT * bumps
        + RIM_WEIGHT * BIN_WIDTH * max(0.0, top - BIN_HEIGHT)
    )


# ---------------------------------------------------------------------------------------------
# Choosing a card


def room_left(observation: Mapping[str, Any]) -> float:
    """About how many more pieces the bin can take."""
    tops = skyline(_pieces(observation))
    free = sum(max(0.0, BIN_HEIGHT * HEAP - t) for t in tops) * BIN_WIDTH / COLUMNS
    supply: dict[str, int] = observation["supply"]
    left = sum(supply.values())
    mean: float
    if left:
        mean = sum(area(KINDS[k]) * n for k, n in supply.items()) / left
    else:
        mean = sum(area(k) for k in KINDS.values()) / len(KINDS)
    return free / mean


def _choose_card(observation: Mapping[str, Any], legal: list[str]) -> str:
    cards = sorted(int(action.split()[1]) for action in legal)
    supply = sum(observation["supply"].values())
    others = int(observation.get("seats", 2)) - 1
    return f"choose {pick_card(cards, room_left(observation), supply, others)}"


def pick_card(cards: list[int], room: float, supply: int, others: int) -> int:
    """The card `choose` lays down from `cards` (sorted), given about how many pieces the
    bin can still take, the pieces in supply and how many other seats play this round."""
    if supply <= room:
        enough = [card for card in cards if card >= supply]
        if enough:
            return enough[0]
    fitting = [card for card in cards if ahead(card, others) + card <= room]
    return fitting[-1] if fitting else cards[0]


def ahead(card: int, others: int) -> float:
    """About how many pieces the other seats place before a `card`: lower cards go first,
    and their cards are unknown, so each is taken as equally likely 1 to 10."""
    return others * (card - 1) / 10 * card / 2


# ---------------------------------------------------------------------------------------------
# Placing


def _angles(kind: str) -> tuple[int, ...]:
    return (0,) if KINDS[kind].shape == "round" else BOX_ANGLES  # round is the same turned


class Care(NamedTuple):
    """How many drops a placement simulates: the levels differ in care, not in rules."""

    first_pass: int = FIRST_PASS  # exact drops across the bin, shared by the kinds
    max_spots: int = MAX_SPOTS  # spots per kind and rotation at most
    keep: int = KEEP  # best exact drops tried again with wobbles (0: trust the aim)
    shakes: int = SHAKES  # wobbled drops each


NORMAL_CARE = Care()


def _first_pass(legal: list[str], care: Care = NORMAL_CARE) -> list[str]:
    """The candidates of the first pass: evenly spread spots, fewer when several kinds
    share the budget, each at the kinds' first-pass rotations; all of `legal` when the
    budget covers them."""
    if len(legal) <= care.first_pass:
        return legal
    kinds = sorted({action.split()[1] for action in legal}, key=list(KINDS).index)
    shapes = sum(len(_angles(kind)) for kind in kinds)
    spots = min(care.max_spots, max(MIN_SPOTS, care.first_pass // shapes))
    xs = sorted({round(i * (X_STEPS - 1) / (spots - 1)) for i in range(spots)})
    wanted = {f"place {k} {x} {a}" for k in kinds for x in xs for a in _angles(k)}
    return [action for action in legal if action in wanted] or legal


class _ExactDrops:
    """The drops of one decision from the exact spots, each simulated once: near a wall
    the hand moves a piece in, so neighbouring spots can let go at the same place."""

    def __init__(self, pieces: tuple[Piece, ...]) -> None:
        self.pieces = pieces
        self.seen: dict[tuple[str, float, float], Drop] = {}

    def drop(self, action: str) -> Drop:
        _, kind, x, angle = action.split()
        spot, turn = grid_x(int(x)), math.radians(int(angle))
        key = (kind, inside_opening(KINDS[kind], spot, turn), turn)
        if key not in self.seen:
            self.seen[key] = simulate(self.pieces, kind, spot, turn)
        return self.seen[key]


def _score(
    drops: _ExactDrops, actions: list[str], rng: random.Random
) -> list[tuple[float, float, str]]:
    """Each action that does not spill when dropped exactly, best (least waste) first."""
    scored = []
    for action in actions:
        result = drops.drop(action)
        if not result.spilled:
            scored.append((waste(result.pieces), rng.random(), action))
    return sorted(scored)


def place(
    observation: Mapping[str, Any],
    legal: list[str],
    rng: random.Random,
    care: Care = NORMAL_CARE,
) -> str:
    """The drop that wastes least space among those that spilled least when shaken, with
    as many simulated drops as `care` allows."""
    pieces = _pieces(observation)
    spread, turn = WOBBLE.get(str(observation.get("wobble", "house")), (0.0, 0.0))
    first = _first_pass(legal, care)
    drops = _ExactDrops(pieces)
    scored = _score(drops, first, rng)
    if not scored:
        # Near the top: any drop that stays in beats a sure spill.
        tried = set(first)
        rest = [a for a in legal if a not in tried and int(a.split()[3]) in RESCUE_ANGLES]
        rng.shuffle(rest)
        scored = _score(drops, rest[:RESCUE], rng)
    if not scored:
        return rng.choice(legal)
    if (not spread and not turn) or not care.keep:
        return scored[0][2]
    best: tuple[int, float, float] | None = None
    pick = scored[0][2]
    for score, tie, action in scored[: care.keep]:
        _, kind, x, angle = action.split()
        spills = 0
        worst = score
        for _ in range(care.shakes):
            dx, da = rng.gauss(0.0, spread), rng.gauss(0.0, turn)
            if best is not None and (spills, worst, tie) > best:
                continue  # it can only end worse than the best; the wobbles are still drawn
            result = simulate(pieces, kind, grid_x(int(x)) + dx, math.radians(int(angle) + da))
            if result.spilled:
                spills += 1
            else:
                worst = max(worst, waste(result.pieces))
        key = (spills, worst, tie)
        if best is None or key < best:
            best, pick = key, action
    return pick


def choose(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    """The AI's action, from its observation and its legal actions only."""
    if not legal:
        raise ValueError("No legal action to choose from.")
    if legal[0].startswith("choose"):
        return _choose_card(observation, legal)
    return place(observation, legal, rng)
