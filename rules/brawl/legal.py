"""Dumpster Brawl!'s legal moves: every action the seat may take now, as the text a button
sends, with the Boosters that may be played in the current phase.
"""

from __future__ import annotations

from collections import Counter

from rules.brawl.data import BOOSTER_PHASES, CARDS, KINDS, TRASH
from rules.brawl.state import (
    ATTACK,
    DECLARATIONS,
    DECLARE,
    DEFEND,
    HAS_DISCARD,
    KING,
    LAY,
    PRE,
    ROLL_PURPOSES,
    RUMMAGE,
    RUMMY,
    SPOILS,
    TURN_BOOSTERS,
    WIND,
    State,
    can_go_out,
    can_lay,
    card_keys,
    held_card,
    opponents,
    to_act,
)

# ---------------------------------------------------------------------------------------------
# Legal actions


def may_play(state: State, seat: int, key: str) -> bool:
    """Does `seat` hold Booster `key` in a phase of its timing (`data.BOOSTERS`)? Turn
    Boosters are the turn's attacker's alone; Second Wind in "rummage" only right after the
    roll, before the roll has been used or rerolled."""
    if state.phase not in BOOSTER_PHASES[key] or held_card(state, seat, key) is None:
        return False
    if key in TURN_BOOSTERS and seat != state.turn:
        return False
    if key == "wind" and state.phase == RUMMAGE:
        return just_rolled(state, seat)
    return True


def just_rolled(state: State, seat: int) -> bool:
    """Has `seat` made a rummage roll with the very last action (Second Wind's moment)? A
    Second Wind reroll is logged as a rummage roll too (the pictures show it as one); the
    game's one Second Wind is on the discard pile by then, so no roll is rerolled twice."""
    if state.phase != RUMMAGE or not state.roll_log:
        return False
    step, roller, _, purpose = state.roll_log[-1][:4]
    return step == state.step and roller == seat and ROLL_PURPOSES[purpose] == "rummage"


def _turn_boosters(state: State, seat: int) -> list[str]:
    hand = state.hands[seat]
    keys = card_keys(hand)
    counts = Counter(CARDS[c].key for c in hand)
    found: list[str] = []
    if may_play(state, seat, "dive") and (state.trash or state.discard):
        found.append("play dive")
    if may_play(state, seat, "peek"):
        found += [f"play peek p{p}" for p in opponents(state, seat)]
    if may_play(state, seat, "swap"):
        rest = [k for k in keys if k != "swap" or counts["swap"] > 1]
        for p in opponents(state, seat):
            if state.hands[p]:
                found += [f"play swap p{p} {k}" for k in rest]
    if may_play(state, seat, "sweep"):
        # Up to two cards, none included ("alone": a word no card key uses, so that no
        # action is the start of another); in a mode without discard (Rummy) the Sweep only
        # leaves the hand itself (table rule).
        found.append("play sweep alone")
        if HAS_DISCARD[state.mode]:
            counts["sweep"] -= 1
            rest = [k for k in keys if counts[k] > 0]
            found += [f"play sweep {k}" for k in rest]
            for i, a in enumerate(rest):
                for b in rest[i:]:
                    if a != b or counts[a] >= 2:
                        found.append(f"play sweep {a} {b}")
    return found


def _draws(state: State) -> list[str]:
    found = []
    if state.trash or state.discard:
        found.append("draw trash")
    if state.discard:
        found.append("draw discard")
    return found


def legal_moves(state: State, seat: int) -> list[str]:
    if seat != to_act(state):
        return []
    hand = state.hands[seat]
    if state.truck:
        return [f"discard {k}" for k in card_keys(hand)]
    phase = state.phase
    found: list[str] = []
    if phase == DECLARE:
        found = [f"declare {d}" for d in DECLARATIONS]
    elif phase in (PRE, ATTACK):
        if state.draws:
            found += _draws(state)
        if state.discards:
            found += [f"discard {k}" for k in card_keys(hand)]
        if state.mode == RUMMY and can_go_out(state, seat):
            found.append("go out")
        targets = [state.king] if state.mode == KING else opponents(state, seat)
        elbow = may_play(state, seat, "elbow")
        for p in targets:
            found.append(f"attack p{p}")
            if elbow:
                found.append(f"attack p{p} elbow")
    elif phase == DEFEND:
        found = ["defend"]
        elbow = may_play(state, seat, "elbow")
        lid = may_play(state, seat, "lid")
        if elbow:
            found.append("defend elbow")
        if lid:
            found.append("defend lid")
        if elbow and lid:
            found.append("defend elbow lid")
    elif phase == WIND:
        found = ["keep"]
        if may_play(state, seat, "wind"):
            found.append("reroll")
    elif phase == SPOILS:
        other = state.defender if seat == state.turn else state.turn
        if state.hands[other]:
            found.append("take")
        found += [f"give {k}" for k in card_keys(hand)]
        found.append("done")
    elif phase == RUMMAGE:
        if may_play(state, seat, "wind"):
            found.append("reroll")
        if state.draws:
            found += _draws(state)
        if state.discards:
            found += [f"discard {k}" for k in card_keys(hand)]
        found.append("done")
    elif phase == LAY:
        counts = Counter(CARDS[c].kind for c in hand if CARDS[c].type == TRASH)
        for k in sorted(counts):
            found += [
                f"lay {KINDS[k].key} {n}"
                for n in range(1, counts[k] + 1)
                if can_lay(state, seat, k, n)
            ]
        if can_go_out(state, seat):
            found.append("go out")
        found.append("done")
    return found + _turn_boosters(state, seat)
