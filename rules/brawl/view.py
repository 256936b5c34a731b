"""What one seat (or the channel) sees of a Dumpster Brawl! state: `observe` turns the state
into a `BrawlObservation`, hiding other hands and keeping the recent rolls for the pictures.
"""

from __future__ import annotations

from rules.base import last_move_view
from rules.brawl.data import CARDS, CHARACTERS
from rules.brawl.observation import (
    BrawlObservation,
    CardView,
    HandoverView,
    RollView,
    VerdictView,
)
from rules.brawl.state import (
    ROLL_COLOURS,
    ROLL_PURPOSES,
    RUMMY,
    State,
    crowbars,
    pluses,
    rummy_points,
    to_act,
)

# ---------------------------------------------------------------------------------------------
# Observation


_VIEWS: tuple[CardView, ...] = tuple(
    {"id": c.id, "type": c.type, "key": c.key, "name": c.name} for c in CARDS
)


def _card(card: int) -> CardView:
    return _VIEWS[card].copy()


def _roll_view(entry: tuple[int, ...]) -> RollView:
    step, seat, colour, purpose, *dice = entry
    return {
        "step": step,
        "seat": seat,
        "colour": ROLL_COLOURS[colour],
        "purpose": ROLL_PURPOSES[purpose],
        "dice": dice,
        "crowbars": crowbars(dice),
        "pluses": pluses(dice),
    }


def winning_hand(state: State) -> tuple[int, ...]:
    """The cards a lone winner lays down to win (the rulebook's winning sets), public once
    the game is over; nothing before, in Rummy (its tables are public all along) or in a
    draw, where nobody laid down a winning hand."""
    if not state.finished or state.mode == RUMMY or len(state.winners) != 1:
        return ()
    return state.hands[state.winners[0]]


def observe(state: State, seat: int | None) -> BrawlObservation:
    own = seat is not None and 0 <= seat < state.seats
    acting = to_act(state)
    a, d = state.dice
    view: BrawlObservation = {
        "game": "brawl",
        "seat": seat,
        "seats": state.seats,
        "mode": state.mode,
        "affinity": state.affinity,
        "step": state.step,
        "turns": state.turns,
        "finished": state.finished,
        "phase": state.phase,
        "turn": state.turn,
        "to_act": [] if acting is None else [acting],
        "actor": state.actor,
        "defender": state.defender,
        "king": state.king,
        "starter": state.starter,
        "characters": [
            {
                "key": CHARACTERS[k].key,
                "name": CHARACTERS[k].name,
                "animal": CHARACTERS[k].animal,
                "affinity": CHARACTERS[k].affinity,
            }
            for k in state.characters
        ],
        "in_play": [CARDS[c].key for c in state.in_play],
        "hand_sizes": [len(h) for h in state.hands],
        "laid": [[_card(c) for c in area] for area in state.laid],
        "trash_size": len(state.trash),
        "discard_size": len(state.discard),
        "aside": [_card(c) for c in state.aside],
        "draws": state.draws,
        "discards": state.discards,
        "spoils": state.spoils,
        "attack_dice": list(a),
        "defence_dice": list(d),
        "extra_lids": state.lids,
        "rummage_dice": list(state.rummage),
        "rolls": [_roll_view(entry) for entry in state.roll_log],
        "verdicts": [
            VerdictView(
                step=v.step,
                attacker=v.attacker,
                defender=v.defender,
                crowbars=v.crowbars,
                lids=v.lids,
                winner=v.winner,
            )
            for v in state.verdicts
        ],
        "handovers": [
            HandoverView(step=h.step, giver=h.giver, receiver=h.receiver, cards=h.cards)
            for h in state.handovers
        ],
        "start_rolls": [list(r) for r in state.start_rolls],
        "truck": list(state.truck),
        "slippery": list(state.slippery),
        "stink": list(state.stink),
        "points": rummy_points(state) if state.mode == RUMMY else [0] * state.seats,
        "winners": list(state.winners),
        "went_out": state.went_out,
        "winning_hand": [_card(c) for c in winning_hand(state)],
        "last_move": last_move_view(state.last_move),
        "hand": [_card(c) for c in state.hands[seat]] if own and seat is not None else None,
    }
    return view
