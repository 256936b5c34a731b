"""Checking a Trash War action before it is applied: the seat, the phase, the cards in hand and
the target wall, with the refusal a player reads when one is wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from rules.base import IllegalAction
from rules.phrases import phrase, phrase_in
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
)
from rules.trashwar.cards import BY_CODE, CARDS, DIRECTION_WORDS, TRASH
from rules.trashwar.state import ATTACK, BAT, BURNING, DEFEND, DRAWN, State, mace_targets, standing

# ---------------------------------------------------------------------------------------------
# Checking an action


def _in_hand(hand: tuple[int, ...], code: str) -> int:
    """The id of a card of `code` in `hand` (the one held longest)."""
    for c in hand:
        if CARDS[c].code == code:
            return c
    raise IllegalAction(phrase("You hold no {card}.", card=BY_CODE[code].words()))


def check(state: State, seat: int, action: Action) -> None:
    """Raise `IllegalAction` naming the rule when `action` breaks one (`_CHECKS`, by the
    action's type: each names the phase it belongs to, in a player's words)."""
    _CHECKS[type(action)](state, seat, action)


def _check_discard(state: State, seat: int, action: Discard) -> None:
    hand = state.hands[seat]
    if state.phase != ATTACK:
        raise IllegalAction(phrase("You discard and draw only when it is time to attack."))
    if any(CARDS[c].kind == TRASH for c in hand):
        raise IllegalAction(phrase("You hold Trash, so you must attack with it."))
    _in_hand(hand, action.code)


def _check_bat(state: State, seat: int, action: Bat) -> None:
    if state.phase != BAT:
        raise IllegalAction(phrase("There is no Mace being swung."))
    assert state.swing is not None
    head = state.flight[0]
    if action.target not in mace_targets(state, seat, state.swing, head.sender):
        raise IllegalAction(
            phrase(
                "This Mace ({bat}) cannot bat trash at that player.",
                bat=phrase_in("mace direction", DIRECTION_WORDS[state.swing]),
            )
        )
    _check_wall(state, action.target, action.wall)


def _check_wall(state: State, seat: int, wall: int) -> None:
    if not 0 <= seat < state.seats or not standing(state, seat):
        raise IllegalAction(phrase("That player is not in the war."))
    if not state.walls[seat][wall].standing:
        raise IllegalAction(phrase("That wall has fallen: aim at a standing wall."))


def _check_throw(state: State, seat: int, action: Throw) -> None:
    if state.phase == DRAWN:
        assert state.drawn is not None
        if action.catapult or action.trash != (CARDS[state.drawn].code,):
            raise IllegalAction(
                phrase("The Trash card you drew must be thrown at once, on its own.")
            )
    elif state.phase != ATTACK:
        raise IllegalAction(phrase("You can throw trash only when you attack."))
    if action.catapult:
        if state.opening:
            raise IllegalAction(phrase("The war opens with a single Trash card, not a Catapult."))
        _in_hand(state.hands[seat], action.catapult)
    need = Counter(action.trash)
    have = Counter(CARDS[c].code for c in state.hands[seat])
    for code, count in need.items():
        if have[code] < count:
            card = BY_CODE[code].words()
            if have[code]:
                raise IllegalAction(phrase("You hold no more {card}.", card=card))
            raise IllegalAction(phrase("You hold no {card}.", card=card))
    if action.target == seat:
        raise IllegalAction(phrase("Throw your trash at an opponent, not at your own walls."))
    _check_wall(state, action.target, action.wall)


def _check_defence(state: State, seat: int, action: Take | Block | Deflect | Swing) -> None:
    if state.phase == BAT:
        raise IllegalAction(phrase("First choose where your Mace bats the trash."))
    if state.phase != DEFEND:
        raise IllegalAction(phrase("No trash is flying at you to defend against."))
    if isinstance(action, Take):
        return
    head = state.flight[0]
    damage = CARDS[head.card].value
    card = CARDS[_in_hand(state.hands[seat], action.code)]
    aimed_down = not state.walls[seat][head.wall].standing
    if isinstance(action, Block):
        if aimed_down:
            raise IllegalAction(phrase("That trash falls into rubble: there is nothing to shield."))
        if card.value < damage:
            raise IllegalAction(
                phrase(
                    "A Shield {value} cannot block damage {damage}: "
                    "the shield's value must be at least the damage.",
                    value=card.value,
                    damage=damage,
                )
            )
    elif isinstance(action, Deflect):
        if aimed_down:
            raise IllegalAction(
                phrase("That trash falls into rubble: there is nothing to deflect.")
            )
        if action.wall == head.wall or not state.walls[seat][action.wall].standing:
            raise IllegalAction(phrase("Deflect the trash onto another of your standing walls."))
    elif not mace_targets(state, seat, card.direction, head.sender):
        raise IllegalAction(phrase("There is nobody that Mace can bat the trash at."))


def _check_burn_or_repair(state: State, seat: int, action: Action) -> None:
    if state.phase != BURNING:
        if state.phase == DEFEND and not isinstance(action, Pass):
            raise IllegalAction(
                phrase("Burn or repair comes after the defence, never against incoming.")
            )
        raise IllegalAction(phrase("It is not the time to burn or repair."))
    if isinstance(action, Burn):
        burn = CARDS[_in_hand(state.hands[seat], action.code)]
        on_walls: Counter[tuple[int, str]] = Counter(
            (i, CARDS[c].code)
            for i, wall in enumerate(state.walls[seat])
            if wall.standing
            for c in wall.trash
        )
        if any(count > on_walls[pick] for pick, count in Counter(action.picks).items()):
            raise IllegalAction(phrase("Burn only trash that is on your own standing walls."))
        total = sum(BY_CODE[code].value for _, code in action.picks)
        if total > burn.value:
            raise IllegalAction(
                phrase(
                    "A Burn {value} burns trash worth at most {value} in all, not {total}.",
                    value=burn.value,
                    total=total,
                )
            )
    elif isinstance(action, Repair):
        _in_hand(state.hands[seat], action.code)
        if state.walls[seat][action.wall].standing:
            raise IllegalAction(phrase("That wall is standing: a Repair Wall raises a fallen one."))


_CHECKS: dict[type[Any], Callable[[State, int, Any], None]] = {
    Throw: _check_throw,
    Discard: _check_discard,
    Take: _check_defence,
    Block: _check_defence,
    Deflect: _check_defence,
    Swing: _check_defence,
    Bat: _check_bat,
    Burn: _check_burn_or_repair,
    Repair: _check_burn_or_repair,
    Pass: _check_burn_or_repair,
}
