"""A whole Dumpster Brawl! state drawn from what one seat sees: the worlds the hard AI
searches (`rules/search.py`).

`sample(observation, rng)` reads the observation and nothing else. What it shows is copied
as it stands: the seat's own hand, every hand's size, the Rummy scoring areas, the Blockers
set aside, the dice, whose turn and which phase. What it hides is drawn at random: the cards
nobody can see (every card in the game less the seat's hand, the laid-down cards and the
Blockers set aside) are dealt afresh into the other hands, the face-down discard pile and
the trash pile, each to its known size, and the trash pile is shuffled. Two facts narrow
the deal:

- a Blocker is set aside the moment it is drawn, so the Blockers not yet seen are all still
  in the trash pile (never in a hand or on the discard pile);
- outside Rummy a hand that wins ends the game at once, so while the game goes on no other
  player (free of a Stink Cloud) holds a winning hand: such deals are drawn again.

The engine's dice come from the state's seed, which no player knows: each world gets a seed
of its own, so its future rolls are as unknown as the real ones.

A few engine fields are not in the observation but follow from it: which fighters still
answer Second Wind or still lay down (the attacker first, then the defender), and whether the
attacker played Extra Elbow with the attack (the last move's public lines say so). Dumpster
Dive draws waiting behind a Garbage Truck are not shown and taken as none.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.base import LastMove
from rules.brawl.data import (
    BLOCKER,
    BLOCKERS,
    BOOSTER_IDS,
    BOOSTERS,
    CARDS,
    CHARACTER_INDEX,
    SLUG,
    SLUG_IDS,
    TRASH_IDS,
)
from rules.brawl.state import (
    DEFEND,
    LAY,
    ROLL_COLOURS,
    ROLL_PURPOSES,
    RUMMY,
    SCHEMA,
    WIND,
    Handover,
    State,
    Verdict,
    winning_hand,
)

REDEALS = 20  # deals drawn again at most when one hands a player a winning hand
_SPECIAL_IDS = {s.key: BOOSTER_IDS[n] for n, s in enumerate(BOOSTERS)} | {
    s.key: BOOSTER_IDS[-1] + 1 + n for n, s in enumerate(BLOCKERS)
}
_ELBOW_NAME = next(s.name for s in BOOSTERS if s.key == "elbow")


def in_play_ids(keys: list[str]) -> tuple[int, ...]:
    """The card ids of the Slugs, Boosters and Blockers named in `in_play`, in its order."""
    slugs = iter(SLUG_IDS)
    return tuple(next(slugs) if key == SLUG else _SPECIAL_IDS[key] for key in keys)


def _ids(cards: list[Any]) -> tuple[int, ...]:
    return tuple(int(card["id"]) for card in cards)


def _fighters(obs: Mapping[str, Any]) -> tuple[int, ...]:
    """Those still to answer in "wind" or "lay": the attacker, then the defender."""
    if obs["phase"] not in (WIND, LAY) or not obs["to_act"]:
        return ()
    if obs["to_act"][0] == obs["turn"]:
        return (obs["turn"], obs["defender"])
    return (obs["defender"],)


def _elbows(obs: Mapping[str, Any]) -> tuple[int, ...]:
    """Fighters whose Extra Elbow is in this fight: before the roll only the last move tells
    (the attack is the move right before "defend"); after it the dice count does."""
    if obs["phase"] == DEFEND:
        lines = (obs.get("last_move") or {}).get("lines", [])
        return (obs["turn"],) if any(_ELBOW_NAME in line for line in lines) else ()
    elbows = []
    if len(obs["attack_dice"]) > 6:
        elbows.append(obs["turn"])
    if len(obs["defence_dice"]) > 5:
        elbows.append(obs["defender"])
    return tuple(elbows)


def sample(observation: Mapping[str, Any], rng: random.Random) -> State:
    """A whole state consistent with `observation`, its hidden cards and seed drawn at
    random (see the module's docstring)."""
    obs = observation
    me: int = obs["seat"]
    seats: int = obs["seats"]
    in_play = in_play_ids(obs["in_play"])
    mine = _ids(obs["hand"] or [])
    laid = tuple(_ids(area) for area in obs["laid"])
    aside = _ids(obs["aside"])
    shown = _ids(obs["winning_hand"])
    winner = obs["winners"][0] if shown else -1
    seen = set(mine) | set(aside) | set(shown) | {c for area in laid for c in area}
    unseen = [c for c in (*TRASH_IDS, *in_play) if c not in seen]
    blockers = [c for c in unseen if CARDS[c].type == BLOCKER]
    loose = [c for c in unseen if CARDS[c].type != BLOCKER]
    sizes = list(obs["hand_sizes"])
    hidden_trash = obs["trash_size"] - len(blockers)
    dealt = sum(sizes[p] for p in range(seats) if p not in (me, winner))
    if dealt + obs["discard_size"] + hidden_trash != len(loose):
        raise ValueError("The observation's card counts do not add up.")
    base = _public_state(obs, in_play, laid, aside)
    for _ in range(REDEALS):
        rng.shuffle(loose)
        rest = iter(loose)
        hands = [
            mine if p == me else shown if p == winner else tuple(next(rest) for _ in range(n))
            for p, n in enumerate(sizes)
        ]
        discard = tuple(next(rest) for _ in range(obs["discard_size"]))
        trash = [*rest, *blockers]
        rng.shuffle(trash)
        world = State(
            **base,
            seed=rng.randrange(2**31),
            hands=tuple(hands),
            trash=tuple(trash),
            discard=discard,
        )
        if not _someone_won(world, obs):
            return world
    return world  # so unlikely a table that the last deal stands rather than none


def _someone_won(world: State, obs: Mapping[str, Any]) -> bool:
    """Would the engine already have ended this world, unlike the real game?"""
    if obs["finished"] or obs["mode"] == RUMMY:
        return False
    return any(
        not world.stink[p] and winning_hand(world, p)
        for p in range(world.seats)
        if p != obs["seat"]
    )


def _public_state(
    obs: Mapping[str, Any],
    in_play: tuple[int, ...],
    laid: tuple[tuple[int, ...], ...],
    aside: tuple[int, ...],
) -> dict[str, Any]:
    """Every `State` field the observation shows, as the engine keeps it."""
    move = obs.get("last_move")
    return {
        "seats": obs["seats"],
        "mode": obs["mode"],
        "affinity": obs["affinity"],
        "characters": tuple(CHARACTER_INDEX[c["key"]] for c in obs["characters"]),
        "in_play": in_play,
        "start_rolls": tuple(tuple(r) for r in obs["start_rolls"]),
        "starter": obs["starter"],
        "aside": aside,
        "laid": laid,
        "version": SCHEMA,
        "step": obs["step"],
        "turns": obs["turns"],
        "turn": obs["turn"],
        "phase": obs["phase"],
        "actor": obs["actor"],
        "defender": obs["defender"],
        "king": obs["king"],
        "draws": obs["draws"],
        "discards": obs["discards"],
        "spoils": obs["spoils"],
        "elbows": _elbows(obs),
        "lids": obs["extra_lids"],
        "dice": (tuple(obs["attack_dice"]), tuple(obs["defence_dice"])),
        "rummage": tuple(obs["rummage_dice"]),
        "winds": _fighters(obs) if obs["phase"] == WIND else (),
        "layers": _fighters(obs) if obs["phase"] == LAY else (),
        "truck": tuple(obs["truck"]),
        "slippery": tuple(obs["slippery"]),
        "stink": tuple(obs["stink"]),
        "finished": obs["finished"],
        "winners": tuple(obs["winners"]),
        "went_out": obs["went_out"],
        "roll_log": tuple(
            (r["step"], r["seat"], *_roll_codes(r), *r["dice"]) for r in obs["rolls"]
        ),
        "verdicts": tuple(
            Verdict(v["step"], v["attacker"], v["defender"], v["crowbars"], v["lids"], v["winner"])
            for v in obs["verdicts"]
        ),
        "handovers": tuple(
            Handover(h["step"], h["giver"], h["receiver"], h["cards"]) for h in obs["handovers"]
        ),
        "last_move": None
        if move is None
        else LastMove(move["seat"], move["step"], tuple(move["lines"])),
    }


def _roll_codes(roll: Mapping[str, Any]) -> tuple[int, int]:
    return ROLL_COLOURS.index(roll["colour"]), ROLL_PURPOSES.index(roll["purpose"])
