"""Players the bot provides for Trash War.

`choose` is the AI knight of the normal level. It reads only its own observation (every
fortress, the trash in flight, its own hand) and its legal actions, and reads the actions
through the action grammar and the public card table:

- defence: a Shield when one is strong enough (the weakest that does), unless the hit is a
  harmless 1 and only a big Shield would do; otherwise a Mace when the hit hurts, swung
  towards the strongest opponent it can reach; otherwise a Deflect when the aimed wall
  would fall and another can take the hit; otherwise it takes the hit. Trash falling into
  rubble is batted on when a Mace is at hand, else left to fall;
- batting: the wall that would fall, a knight's last wall above all, else the strongest
  opponent's most damaged wall;
- burn or repair: raises a fallen wall when it can, else burns the most damage it can off
  its most battered walls (most urgently where the next hit could bring a wall down);
- attack: the weakest wall it can topple, with as few cards as it takes (a knight's last
  wall first); if nothing falls, the most damaged wall, saving Catapults for a topple;
- with no Trash, discards the card it needs least.

Ties are broken with `rng`. `scores` is how much it likes each legal action: the hard AI
(`levels.py`, where the three levels meet) searches the few it likes best.
`random_choice` is the random player the playout tests use.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from rules.base import next_seat
from rules.trashwar.cards import BY_CODE, CATAPULT, TRASH

TOPPLE = 4
WALLS = ("left", "middle", "right")

# How much the AI would rather keep a card when it must discard one (higher: keep).
KEEP = {"mace": 9.0, "shield": 5.0, "deflect": 4.0, "burn": 4.5, "repair": 3.0, "catapult": 1.0}


def random_choice(legal: list[str], rng: random.Random) -> str:
    """A uniformly random legal action."""
    return rng.choice(legal)


def choose(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    """The AI's action, from its observation and its legal actions only."""
    if not legal:
        raise ValueError("No legal action to choose from.")
    if len(legal) == 1:
        return legal[0]
    # Ties go to the first action drawing the highest `rng.random()`.
    keys = [(score, rng.random()) for score in scores(observation, legal)]
    return legal[max(range(len(legal)), key=keys.__getitem__)]


def scores(observation: Mapping[str, Any], legal: list[str]) -> list[float]:
    """How much the AI likes each of `legal` (higher: better), as `choose` weighs them; the
    hard AI searches the best of them."""
    phase = observation["phase"]
    if phase == "defend":
        scorer = _defence_score
    elif phase == "bat":
        scorer = _bat_score
    elif phase == "burn":
        scorer = _burn_score
    else:
        return _attack_scores(observation, legal)
    return [scorer(observation, action) for action in legal]


# --- reading the table ------------------------------------------------------------------


def health(observation: Mapping[str, Any], seat: int) -> int:
    """How much more damage a knight's fortress can take: 4 less damage per standing wall."""
    player = observation["players"][seat]
    if not player["in_game"]:
        return 0
    return sum(TOPPLE - int(wall["damage"]) for wall in player["walls"] if wall["standing"])


def _wall(observation: Mapping[str, Any], seat: int, wall: str) -> dict[str, Any]:
    player: dict[str, Any] = observation["players"][seat]
    found: dict[str, Any] = player["walls"][WALLS.index(wall)]
    return found


def _standing_walls(observation: Mapping[str, Any], seat: int) -> int:
    return sum(bool(wall["standing"]) for wall in observation["players"][seat]["walls"])


def _me(observation: Mapping[str, Any]) -> int:
    seat = observation["seat"]
    return int(seat if seat is not None else observation["to_act"][0])


def _left_right(observation: Mapping[str, Any], seat: int, step: int) -> int:
    seats = int(observation["seats"])
    out = {p for p in range(seats) if not observation["players"][p]["in_game"]}
    return next_seat(seats, seat, step=step, skip=out)


def _reach(observation: Mapping[str, Any], seat: int, direction: str, sender: int) -> list[int]:
    """Who a Mace of `direction` could bat at (as the engine rules it)."""
    if direction == "left":
        found = [_left_right(observation, seat, 1)]
    elif direction == "right":
        found = [_left_right(observation, seat, -1)]
    elif direction == "back":
        found = [sender]
    else:
        found = list(range(observation["seats"]))
    return [p for p in found if p != seat and observation["players"][p]["in_game"]]


# --- defence -------------------------------------------------------------------------------


def _defence_score(observation: Mapping[str, Any], action: str) -> float:
    me = _me(observation)
    head = observation["incoming"][0]
    damage = int(head["card"]["value"])
    aimed = _wall(observation, me, head["wall"])
    rubble = not aimed["standing"]
    falls = not rubble and aimed["damage"] + damage >= TOPPLE
    last = falls and _standing_walls(observation, me) == 1
    hurt = 0.0 if rubble else damage + (8.0 if falls else 0.0) + (50.0 if last else 0.0)
    words = action.split()
    if words[0] == "take":
        return -hurt
    card = BY_CODE[words[1]]
    if card.kind == "shield":
        if not falls and damage == 1 and card.value >= 3:
            return -hurt - 0.5  # a harmless hit is not worth a big Shield
        return 1.0 - 0.2 * (card.value - damage)
    if card.kind == "mace":
        if hurt < 2 and not rubble:
            return -hurt - 1.0  # save the Mace for a hit that matters
        reach = _reach(observation, me, card.direction, head["sender"])
        strongest = max((health(observation, p) for p in reach), default=0)
        return 0.5 + strongest / 100.0 + (2.0 if rubble else 0.0)
    # A Deflect: worth it when the aimed wall would fall and the new one holds.
    wall = _wall(observation, me, words[2])
    after = int(wall["damage"]) + damage
    if not falls or after >= TOPPLE:
        return -hurt - 1.0
    return -0.5 - after / 10.0


# --- batting -------------------------------------------------------------------------------


def _bat_score(observation: Mapping[str, Any], action: str) -> float:
    _, seat_word, wall_name = action.split()
    seat = int(seat_word[1:])
    damage = int(observation["incoming"][0]["card"]["value"])
    wall = _wall(observation, seat, wall_name)
    score = health(observation, seat) + int(wall["damage"]) / 2.0
    if wall["damage"] + damage >= TOPPLE:
        score += 20.0 + (40.0 if _standing_walls(observation, seat) == 1 else 0.0)
    return score


# --- burn or repair ------------------------------------------------------------------------


def _burn_score(observation: Mapping[str, Any], action: str) -> float:
    me = _me(observation)
    words = action.split()
    if words[0] == "pass":
        return 0.0
    card = BY_CODE[words[1]]
    if card.kind == "repair":
        return 100.0
    score = 0.0
    wall: dict[str, Any] | None = None
    for word in words[2:]:
        if word in WALLS:
            wall = _wall(observation, me, word)
            continue
        assert wall is not None
        value = BY_CODE[word].value
        score += value * (1.0 + wall["damage"] / 2.0)
    # Keep a Burn for later when there is hardly anything to burn.
    return score - 2.0


# --- attack --------------------------------------------------------------------------------


def _attack_scores(observation: Mapping[str, Any], legal: list[str]) -> list[float]:
    """Score every attack (or discard) by its volley and target."""
    players = observation["players"]
    healths = [health(observation, p) for p in range(len(players))]
    standing = [_standing_walls(observation, p) for p in range(len(players))]
    found: list[float] = []
    for action in legal:
        if action.startswith("discard "):
            card = BY_CODE[action[8:]]
            score = -KEEP.get(card.kind, 2.0) - card.value * 0.5
        else:
            cards, _, aim = action[5:].rpartition(" at ")
            seat_word, wall_name = aim.split()
            seat = int(seat_word[1:])
            catapult, trash = _volley(cards)
            wall = players[seat]["walls"][WALLS.index(wall_name)]
            score = _attack_score(
                catapult, trash, int(wall["damage"]), standing[seat] == 1, healths[seat]
            )
        found.append(score)
    return found


@lru_cache(maxsize=4096)
def _volley(cards: str) -> tuple[bool, tuple[int, ...]]:
    """'catapult+ toaster2 tv1' -> (True, (2, 1))."""
    codes = cards.split()
    catapult = BY_CODE[codes[0]].kind == CATAPULT
    return catapult, tuple(BY_CODE[c].value for c in codes if BY_CODE[c].kind == TRASH)


def _attack_score(
    catapult: bool, trash: tuple[int, ...], damage: int, last: bool, strength: int
) -> float:
    used = 0
    toppled = False
    for value in trash:
        if toppled:
            break
        used += 1
        damage += value
        toppled = damage >= TOPPLE
    cards = len(trash) + catapult
    if toppled:
        wasted = len(trash) - used
        overkill = damage - TOPPLE
        thrown = sum(trash) / 2.0  # keep the heavy trash for later
        return 100.0 + (60.0 if last else 0.0) - 6.0 * cards - 10.0 * wasted - overkill - thrown
    spent = 8.0 * catapult + 3.0 * (len(trash) - 1)
    return 10.0 + 3.0 * damage - spent + strength / 10.0
