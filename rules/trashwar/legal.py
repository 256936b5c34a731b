"""Trash War's legal moves: every action the knight to act may take in the current phase, with
the targets, volleys and burn choices they are built from.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from rules.trashwar.actions import (
    Action,
    Bat,
    Block,
    Burn,
    Deflect,
    Discard,
    Pass,
    Repair,
    Swing,
    Take,
    Throw,
    weight,
)
from rules.trashwar.cards import (
    BURN,
    BY_CODE,
    CARDS,
    CATAPULT,
    DEFLECT,
    MACE,
    REPAIR,
    SHIELD,
    TRASH,
)
from rules.trashwar.state import (
    ATTACK,
    BAT,
    DEFEND,
    DRAWN,
    VOLLEY,
    WALL_NAMES,
    State,
    mace_targets,
    standing,
    to_act,
)

# ---------------------------------------------------------------------------------------------
# Legal actions


def _codes(cards: Iterable[int], kind: str) -> list[str]:
    """Distinct codes of the cards of `kind`, heaviest first."""
    return sorted({CARDS[c].code for c in cards if CARDS[c].kind == kind}, key=weight)


def targets(state: State, seat: int) -> list[tuple[int, int]]:
    """Every standing wall of every opponent still in the war: (seat, wall)."""
    return [
        (p, i)
        for p in range(state.seats)
        if p != seat and standing(state, p)
        for i, wall in enumerate(state.walls[p])
        if wall.standing
    ]


def volleys(hand: Iterable[int]) -> list[tuple[str, ...]]:
    """Every choice of one to three Trash cards from `hand`, as codes, heaviest first."""
    codes = sorted((CARDS[c].code for c in hand if CARDS[c].kind == TRASH), key=weight)
    found: dict[tuple[str, ...], None] = {}
    for size in range(1, min(VOLLEY, len(codes)) + 1):
        for combo in combinations(codes, size):
            found[combo] = None
    return list(found)


def burn_choices(state: State, seat: int, value: int) -> list[tuple[tuple[int, str], ...]]:
    """Every set of Trash cards on `seat`'s standing walls whose damage adds up to at most
    `value` (at least one card)."""
    items = [
        (i, CARDS[c].code)
        for i, wall in enumerate(state.walls[seat])
        if wall.standing
        for c in wall.trash
    ]
    items.sort(key=lambda pick: (pick[0], *weight(pick[1])))
    found: dict[tuple[tuple[int, str], ...], None] = {}
    for size in range(1, len(items) + 1):
        for combo in combinations(items, size):
            if sum(BY_CODE[code].value for _, code in combo) <= value:
                found[combo] = None
    return list(found)


def legal_moves(state: State) -> list[Action]:
    """Every action the seat to act may take now, in a fixed order."""
    seat = to_act(state)
    if seat is None:
        return []
    hand = state.hands[seat]
    phase = state.phase
    if phase == DRAWN:
        assert state.drawn is not None
        code = CARDS[state.drawn].code
        return [Throw((code,), None, p, i) for p, i in targets(state, seat)]
    if phase == ATTACK:
        trash = _codes(hand, TRASH)
        if not trash:
            return [Discard(code) for code in sorted({CARDS[c].code for c in hand})]
        aims = targets(state, seat)
        moves: list[Action] = [Throw((code,), None, p, i) for code in trash for p, i in aims]
        if not state.opening:
            for catapult in _codes(hand, CATAPULT):
                for volley in volleys(hand):
                    moves += [Throw(volley, catapult, p, i) for p, i in aims]
        return moves
    if phase == DEFEND:
        return _defences(state, seat, hand)
    if phase == BAT:
        assert state.swing is not None
        head = state.flight[0]
        return [
            Bat(p, i)
            for p in mace_targets(state, seat, state.swing, head.sender)
            for i, wall in enumerate(state.walls[p])
            if wall.standing
        ]
    moves = [Pass()]
    for code in _codes(hand, BURN):
        moves += [Burn(code, picks) for picks in burn_choices(state, seat, BY_CODE[code].value)]
    for code in _codes(hand, REPAIR):
        moves += [Repair(code, i) for i, wall in enumerate(state.walls[seat]) if not wall.standing]
    return moves


def legal_attacks(state: State, seat: int) -> list[str]:
    """The attack phase's actions as text, as `legal_moves` gives them (faster)."""
    hand = state.hands[seat]
    trash = _codes(hand, TRASH)
    if not trash:
        return [f"discard {code}" for code in sorted({CARDS[c].code for c in hand})]
    aims = [f" at p{p} {WALL_NAMES[i]}" for p, i in targets(state, seat)]
    moves = [f"play {code}{aim}" for code in trash for aim in aims]
    if not state.opening:
        for catapult in _codes(hand, CATAPULT):
            for volley in volleys(hand):
                cards = f"play {catapult} {' '.join(volley)}"
                moves += [cards + aim for aim in aims]
    return moves


def _defences(state: State, seat: int, hand: tuple[int, ...]) -> list[Action]:
    head = state.flight[0]
    damage = CARDS[head.card].value
    moves: list[Action] = [Take()]
    own = state.walls[seat]
    if own[head.wall].standing:
        moves += [Block(code) for code in _codes(hand, SHIELD) if BY_CODE[code].value >= damage]
        others = [i for i, wall in enumerate(own) if wall.standing and i != head.wall]
        moves += [Deflect(code, i) for code in _codes(hand, DEFLECT) for i in others]
    for code in _codes(hand, MACE):
        if mace_targets(state, seat, BY_CODE[code].direction, head.sender):
            moves.append(Swing(code))
    return moves
