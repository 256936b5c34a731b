"""What one knight (or the channel) sees of a Trash War state: `observe` turns the state into a
`TrashWarObservation`, hiding other knights' hands.
"""

from __future__ import annotations

from rules.base import last_move_view
from rules.trashwar.cards import CARDS, Card
from rules.trashwar.observation import (
    CardView,
    FlightView,
    PlayerView,
    TrashWarObservation,
    WallView,
)
from rules.trashwar.state import WALL_NAMES, Flight, State, Wall, to_act, winners

# ---------------------------------------------------------------------------------------------
# Observation


def _card_view(card: Card) -> CardView:
    return CardView(
        id=card.id,
        code=card.code,
        kind=card.kind,
        value=card.value,
        torches=card.torches,
        direction=card.direction,
        name=card.name,
        title=card.title,
    )


_VIEWS: tuple[CardView, ...] = tuple(_card_view(card) for card in CARDS)


_VALUES: tuple[int, ...] = tuple(card.value for card in CARDS)


def _flight_view(flight: Flight) -> FlightView:
    return {
        "card": _VIEWS[flight.card].copy(),
        "target": flight.target,
        "wall": WALL_NAMES[flight.wall],
        "sender": flight.sender,
    }


def _wall_view(position: str, wall: Wall) -> WallView:
    trash = wall[2]
    if not trash:
        return {"position": position, "standing": wall[1], "trash": [], "damage": 0}
    return {
        "position": position,
        "standing": wall[1],
        "trash": [_VIEWS[c].copy() for c in trash],
        "damage": sum([_VALUES[c] for c in trash]),
    }


def _players_view(state: State) -> list[PlayerView]:
    under_attack = [0] * state.seats
    for f in state.flight:
        under_attack[f.target] += _VALUES[f.card]
    out, hands = state.eliminated, state.hands
    left, middle, right = WALL_NAMES
    return [
        {
            "seat": seat,
            "in_game": seat not in out,
            "walls": [_wall_view(left, a), _wall_view(middle, b), _wall_view(right, c)],
            "hand_size": len(hands[seat]),
            "under_attack": under_attack[seat],
        }
        for seat, (a, b, c) in enumerate(state.walls)
    ]


def observe(state: State, seat: int | None) -> TrashWarObservation:
    """What `seat` may know; `None` for the public view (see `observation.py`)."""
    players = _players_view(state)
    own = seat is not None and 0 <= seat < state.seats
    acting = to_act(state)
    won = winners(state)
    return {
        "game": "trashwar",
        "seat": seat,
        "seats": state.seats,
        "step": state.step,
        "turns": state.turns,
        "finished": state.finished,
        "phase": state.phase,
        "turn": state.turn,
        "to_act": [] if acting is None else [acting],
        "opening": state.opening,
        "torch_phase": state.torch_phase,
        "draw_size": len(state.draw),
        "recycle_size": len(state.recycle),
        "recycle_top": _VIEWS[state.recycle[-1]].copy() if state.recycle else None,
        "torched_size": len(state.torched),
        "torched_top": _VIEWS[state.torched[-1]].copy() if state.torched else None,
        "out_size": len(state.out),
        "recycle_pile": list(state.recycle),
        "torched_pile": list(state.torched),
        "out_pile": list(state.out),
        "shuffled_into_draw": list(state.reshuffled),
        "players": players,
        "incoming": [_flight_view(f) for f in state.flight],
        "held": [_flight_view(f) for f in state.held],
        "swing": state.swing,
        "maced": bool(state.held),
        "eliminated": list(state.eliminated),
        "winner": won[0] if len(won) == 1 else None,
        "winners": list(won),
        "marks": [
            {
                "step": m.step,
                "seat": m.seat,
                "wall": WALL_NAMES[m.wall],
                "what": m.what,
                "card": m.card,
            }
            for m in state.marks
        ],
        "playable": None,
        "last_move": last_move_view(state.last_move),
        "hand": [_VIEWS[c].copy() for c in state.hands[seat]] if own and seat is not None else None,
    }
