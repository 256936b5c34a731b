"""What the others' defences tell of their hands: the hard AI's reading of the table.

A knight who lets trash hit a wall did not hold the card that would have stopped it: the
normal AI (`ai.py`) blocks with a Shield whenever one is strong enough (not a big Shield
for a harmless 1), and swings a Mace at any hit that hurts. The board's marks (`marks` of
the observation, the newest sixteen) keep those hits, so the hard AI can read, for each
other knight, the cards they did not hold then.

The hand has changed since: the knight played cards after the hit and drew as many back.
Which of the cards they hold now are new nobody can see, so a dealt hand is judged by the
chance that every card it holds that the hit ruled out was drawn later: `weight`. The
sampler (`sample.py`) keeps a dealt world with that chance.

How many cards were played since is read from the marks too (a Shield, a Mace's bat, a
burn or repair), with the throw that ends a turn counted as one Trash card, or three cards
(a Catapult and two Trash) in one turn out of five. People defend otherwise than the
normal AI; against them the reading is a guess, no more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from rules.trashwar.cards import BY_CODE, CARDS, MACE, PLAY_IDS, SHIELD

HIT = "hit"
FELLED = "felled"
SHIELDED = "shielded"
BATTED_AT = "batted at"
BURNED = "burned"
REPAIRED = "repaired"
DEFENCE = (HIT, FELLED, SHIELDED)
# Cards a throw takes from the hand, and how often the normal AI's throws take that many.
THROWS = ((1, 0.8), (3, 0.15), (4, 0.05))
FULL_HAND = 5


@dataclass(frozen=True)
class Tell:
    """What one knight's last defence says: cards they did not hold when the first hit came,
    and how many of the cards they hold now may be new (with each count's chance)."""

    seat: int
    ruled_out: frozenset[int]  # card ids
    new: tuple[tuple[int, float], ...]  # (cards drawn since, chance)

    def weight(self, hand: Sequence[int]) -> float:
        """The chance that every card of `hand` the hit rules out came after it."""
        n = len(hand)
        m = sum(card in self.ruled_out for card in hand)
        if m == 0:
            return 1.0
        total = 0.0
        for drawn, chance in self.new:
            kept = max(n - drawn, 0)
            total += chance * comb(n - m, kept) / comb(n, kept)
        return total


def _not_held(value: int, falls: bool) -> frozenset[int]:
    """Cards a normal knight would have met a hit of `value` with."""
    hurts = value >= 2 or falls
    found = set()
    for card in PLAY_IDS:
        face = CARDS[card]
        if face.kind == SHIELD and face.value >= value:
            if hurts or face.value < 3:
                found.add(card)
        elif face.kind == MACE and hurts:
            found.add(card)
    return frozenset(found)


def read(observation: Mapping[str, Any]) -> tuple[Tell, ...]:
    """The tells of every other knight still in whose last defence left a hit."""
    me = observation["seat"]
    marks = observation["marks"]
    found = []
    for seat, player in enumerate(observation["players"]):
        if seat == me or not player["in_game"]:
            continue
        tell = _tell(observation, marks, seat)
        if tell is not None:
            found.append(tell)
    return tuple(found)


def _tell(
    observation: Mapping[str, Any], marks: Sequence[Mapping[str, Any]], seat: int
) -> Tell | None:
    defence = [m for m in marks if m["seat"] == seat and m["what"] in DEFENCE]
    if not defence:
        return None
    # The last defence: its marks one action apart (two where a Mace was swung and batted).
    group = [defence[-1]]
    for mark in reversed(defence[:-1]):
        if group[0]["step"] - mark["step"] > 2:
            break
        group.insert(0, mark)
    hits = [m for m in group if m["what"] in (HIT, FELLED)]
    if not hits:
        return None
    first, last = hits[0]["step"], group[-1]["step"]
    ruled_out: set[int] = set()
    for mark in hits:
        ruled_out |= _not_held(BY_CODE[mark["card"].split()[0]].value, mark["what"] == FELLED)
    played = sum(m["what"] == SHIELDED and m["step"] > first for m in group)
    played += sum(
        m["what"] == BATTED_AT and first < m["step"] <= last + 2 and m["seat"] != seat
        for m in marks
    )
    played += len(
        {
            m["step"]
            for m in marks
            if m["seat"] == seat
            and m["what"] in (BURNED, REPAIRED)
            and last < m["step"] <= last + 2
        }
    )
    if observation["turn"] == seat:
        new: tuple[tuple[int, float], ...] = ((0, 1.0),)  # their turn goes on: no re-draw yet
    else:
        new = tuple((played + thrown, chance) for thrown, chance in THROWS)
    return Tell(seat, frozenset(ruled_out), new)
