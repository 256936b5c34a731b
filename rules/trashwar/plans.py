"""Trash War's decisions in one press each (issue 55): the moves a knight makes only on the
way to the next one, offered together with it.

The engine takes one action at a time, but some actions decide nothing on their own:

- passing burn or repair, which leads straight to the attack (phase 2, then phase 3), and
- swinging a Mace, which leads straight to choosing where the trash flies.

Nothing hidden comes between: the rulebook's "draw your hand back up to 5 cards" after
playing is, by the house rules, the Re-draw at the end of the turn (phase 4), so a pass
draws no card and the attack after it is made with the hand held now; a Mace is discarded
face up and the walls it may bat at are on the table. So "pass, then throw the toaster at
Carol's left wall" is one decision, made in one press: a plan (`cogs.shared.presenter.plan`,
played while each move stays open). A discard (the attack of a hand without Trash) may end
a plan but never leads one: the card drawn after it may be Trash, to be thrown at once
where the player chooses then. A Burn or a Repair is a decision of its own, with the
attack still to choose after it (each burn with each attack would crowd a reply).

`plans` lists, from the seat's own view, the moves open after each such first move: the
first move applied by the engine to what the seat knows of the state (the table, its own
hand; nothing else is read), and refused should anything hidden come of it (a card drawn,
a private line), or should the seat not decide next.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.base import IllegalAction
from rules.trashwar.actions import Pass, Swing, parse_action
from rules.trashwar.engine import TRASH_WAR
from rules.trashwar.observation import TrashWarObservation
from rules.trashwar.sample import Knowledge
from rules.trashwar.state import BURNING, DEFEND, to_act

FIRSTS = (Pass, Swing)  # the moves that only lead to the next decision
PHASES = (BURNING, DEFEND)  # where they are made


def plans(obs: TrashWarObservation, legal: Iterable[str]) -> dict[str, list[str]]:
    """For each move of `legal` (the seat's own, `obs` its own view) that only leads to
    its next decision, the moves then open, one of each decision (`Game.one_of_each`), in
    the engine's order. Moves not there are played alone."""
    seat = obs["seat"]
    if seat is None or obs["hand"] is None or obs["phase"] not in PHASES:
        return {}  # (an attack phase's hundreds of moves are not read)
    firsts = [a for a in legal if _first(a)]
    if not firsts:
        return {}
    known = Knowledge.read(obs).public  # the table and this seat's hand: nothing hidden
    found: dict[str, list[str]] = {}
    for first in firsts:
        applied = TRASH_WAR.apply(known, seat, first)
        after = applied.state
        hidden = any(event.to is not None for event in applied.events)
        if hidden or after.draw != known.draw or after.reshuffled != known.reshuffled:
            continue  # something came of it the seat could not foresee
        if to_act(after) != seat:
            continue
        then = TRASH_WAR.one_of_each(after, TRASH_WAR.legal_actions(after, seat))
        if then:
            found[first] = then
    return found


def _first(action: str) -> bool:
    try:
        return isinstance(parse_action(action), FIRSTS)
    except IllegalAction:
        return False
