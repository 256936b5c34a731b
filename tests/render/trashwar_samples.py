"""Hand-made Trash War observations for the render tests (the engine is not imported here).

Cards come from the deck table in `rules/trashwar/cards.py` (data only); everything else
is written out by hand, one function per moment of a game worth drawing.
"""

from __future__ import annotations

import copy

from rules.trashwar.cards import BY_CODE
from rules.trashwar.observation import (
    CardView,
    FlightView,
    PlayerView,
    TrashWarObservation,
    WallView,
)

NAMES = ["Ann", "Bo", "Cyrielle", "Dmitri", "Eun-ji", "Fatou"]
LONG_NAMES = [
    "Bartholomew the Unbelievably Verbose",
    "Zoë Ångström-Løvenskiold",
    "🔥 xX_TrashKnight_Xx 🔥",
    "名無し",
    "Ann",
    "A really long name that goes on",
]
POSITIONS = ("left", "middle", "right")


def card(code: str) -> CardView:
    """The face-up view of a card of `code` (the first card of that code in the deck)."""
    face = BY_CODE[code]
    return CardView(
        id=face.id,
        code=face.code,
        kind=face.kind,
        value=face.value,
        torches=face.torches,
        direction=face.direction,
        name=face.name,
        title=face.title,
    )


def wall(position: str, *trash: str, standing: bool = True) -> WallView:
    cards = [card(code) for code in trash]
    return WallView(
        position=position,
        standing=standing,
        trash=cards,
        damage=sum(c["value"] for c in cards),
    )


def fortress(
    seat: int,
    left: tuple[str, ...] = (),
    middle: tuple[str, ...] = (),
    right: tuple[str, ...] = (),
    *,
    down: tuple[str, ...] = (),
    hand_size: int = 5,
) -> PlayerView:
    walls = [
        wall(position, *trash, standing=position not in down)
        for position, trash in zip(POSITIONS, (left, middle, right), strict=True)
    ]
    return PlayerView(
        seat=seat,
        in_game=any(w["standing"] for w in walls),
        walls=walls,
        hand_size=hand_size if any(w["standing"] for w in walls) else 0,
        under_attack=0,
    )


def flight(code: str, target: int, wall_name: str, sender: int) -> FlightView:
    return FlightView(card=card(code), target=target, wall=wall_name, sender=sender)


def _settle(obs: TrashWarObservation) -> TrashWarObservation:
    """Fill in what follows from the rest: under_attack from the trash in flight."""
    for player in obs["players"]:
        player["under_attack"] = sum(
            f["card"]["value"] for f in obs["incoming"] if f["target"] == player["seat"]
        )
    return obs


def start(seats: int = 4, starter: int = 0) -> TrashWarObservation:
    """The war has not begun: every wall up, five cards each, the starter opens."""
    return TrashWarObservation(
        game="trashwar",
        seat=None,
        seats=seats,
        step=0,
        turns=0,
        finished=False,
        phase="attack",
        turn=starter,
        to_act=[starter],
        opening=True,
        torch_phase=1,
        draw_size=94 - 5 * seats,
        recycle_size=0,
        recycle_top=None,
        torched_size=0,
        torched_top=None,
        out_size=0,
        players=[fortress(seat) for seat in range(seats)],
        incoming=[],
        held=[],
        swing=None,
        maced=False,
        eliminated=[],
        winner=None,
        winners=[],
        hand=None,
    )


def catapult_volley(seats: int = 4) -> TrashWarObservation:
    """Cyrielle's Catapult throws three pieces of trash at Ann's middle wall; Ann defends
    the heaviest first. Ann's left wall already has 3 damage."""
    obs = start(seats)
    obs.update(
        step=23,
        turns=7,
        phase="defend",
        turn=0,
        to_act=[0],
        opening=False,
        draw_size=41,
        recycle_size=19,
        recycle_top=card("catapult+"),
        torched_size=3,
        torched_top=card("shield4+"),
    )
    obs["players"] = [
        fortress(0, left=("toaster2", "teeth1"), middle=("tv1",)),
        fortress(1, right=("microwave2",), hand_size=4),
        fortress(2, middle=("bike1", "car1"), hand_size=2),
        fortress(3, left=("sardines3",), right=("gator2",), hand_size=5),
    ][:seats]
    obs["incoming"] = [
        flight("drum4+", 0, "middle", 2),
        flight("toaster2", 0, "middle", 2),
        flight("teeth1", 0, "middle", 2),
    ]
    return _settle(obs)


def mace_any(seats: int = 4) -> TrashWarObservation:
    """Bo swings a Mace (bat at anyone) at Dmitri's microwave (3); an earlier batted car
    waits to fly at Cyrielle."""
    obs = catapult_volley(seats)
    obs.update(step=31, turns=9, phase="bat", turn=1, to_act=[1], swing="any", maced=True)
    obs["players"] = [
        fortress(0, left=("toaster2", "teeth1"), middle=("tv1",)),
        fortress(1, left=("leftovers1",), right=("microwave2",), hand_size=4),
        fortress(2, middle=("bike1",), hand_size=5),
        fortress(3, left=("sardines3",), hand_size=4),
    ][:seats]
    obs["incoming"] = [flight("microwave3", 1, "right", 3)]
    obs["held"] = [flight("car2", 2, "left", 1)]
    return _settle(obs)


def burn(seats: int = 3) -> TrashWarObservation:
    """Cyrielle was hit and may now burn, repair or pass; two of her walls are loaded."""
    obs = start(seats)
    obs.update(
        step=40,
        turns=12,
        phase="burn",
        turn=2,
        to_act=[2],
        opening=False,
        draw_size=30,
        recycle_size=28,
        recycle_top=card("shield2"),
        torched_size=6,
        torched_top=card("burn4++"),
    )
    obs["players"] = [
        fortress(0, middle=("xray2",)),
        fortress(1, left=("tv1", "bike1"), down=("right",)),
        fortress(2, left=("drum1", "xray1", "piano1"), right=("leftovers2",)),
    ][:seats]
    return _settle(obs)


def toppled(seats: int = 4) -> TrashWarObservation:
    """Dmitri's middle wall has fallen and his right wall is at 3; Ann attacks."""
    obs = catapult_volley(seats)
    obs.update(step=52, turns=15, phase="attack", turn=0, to_act=[0], incoming=[], held=[])
    obs["players"] = [
        fortress(0, left=("toaster2",)),
        fortress(1, right=("microwave2", "gator1")),
        fortress(2, middle=("bike1",), hand_size=6),
        fortress(3, right=("tv3",), down=("middle",)),
    ][:seats]
    return _settle(obs)


def eliminated(seats: int = 5) -> TrashWarObservation:
    """Dmitri is out (first out of five: 5th place); Eun-ji drew a Trash card and must
    throw it."""
    obs = start(seats)
    obs.update(
        step=88,
        turns=26,
        phase="drawn",
        turn=4,
        to_act=[4],
        opening=False,
        torch_phase=2,
        draw_size=12,
        recycle_size=44,
        recycle_top=card("mace-left"),
        torched_size=9,
        torched_top=card("deflect++"),
        out_size=7,
        eliminated=[3],
    )
    obs["players"] = [
        fortress(0, left=("toaster2",), down=("right",)),
        fortress(1, middle=("tv2", "car1"), hand_size=5),
        fortress(2, down=("left", "middle"), right=("bike2",)),
        fortress(3, down=POSITIONS),
        fortress(4, left=("sardines1",), middle=("leftovers3",), hand_size=6),
    ][:seats]
    return _settle(obs)


def torching_three(seats: int = 6) -> TrashWarObservation:
    """Late war: torching phase 3, big piles, two knights out, Fatou defends against trash
    batted at her while Bo holds the turn."""
    obs = start(seats)
    obs.update(
        step=240,
        turns=71,
        phase="defend",
        turn=1,
        to_act=[5],
        opening=False,
        torch_phase=3,
        draw_size=3,
        recycle_size=37,
        recycle_top=card("repair+"),
        torched_size=0,
        torched_top=None,
        out_size=24,
        eliminated=[2, 0],
    )
    obs["players"] = [
        fortress(0, down=POSITIONS),
        fortress(1, left=("xray2",), down=("middle",), hand_size=3),
        fortress(2, down=POSITIONS),
        fortress(3, middle=("piano3",), right=("car1", "teeth1"), hand_size=5),
        fortress(4, down=("left", "right"), middle=("drum2",), hand_size=5),
        fortress(5, left=("toaster1", "tv1", "sardines1"), down=("right",), hand_size=5),
    ][:seats]
    obs["incoming"] = [flight("bike4+", 5, "left", 1), flight("gator2", 4, "middle", 1)]
    return _settle(obs)


def finished(seats: int = 4) -> TrashWarObservation:
    """Bo is the last knight standing."""
    obs = torching_three(seats)
    order = [s for s in (3, 2, 0, 4, 5) if s < seats and s != 1]
    obs.update(
        step=301,
        turns=90,
        phase="over",
        finished=True,
        turn=1,
        to_act=[],
        incoming=[],
        held=[],
        eliminated=order,
        winner=1,
        winners=[1],
    )
    obs["players"] = [
        fortress(1, left=("xray2",), down=("middle",), hand_size=4)
        if seat == 1
        else fortress(seat, down=POSITIONS)
        for seat in range(seats)
    ]
    return _settle(obs)


def stuck(seats: int = 4) -> TrashWarObservation:
    """No card is left to hold or draw (table rule: a stuck war): Ann and Cyrielle share
    the win with two walls up each; Bo has one, Dmitri is out."""
    obs = finished(seats)
    obs.update(eliminated=[3], winner=None, winners=[0, 2], draw_size=0, recycle_size=0)
    obs["players"] = [
        fortress(0, down=("left",), hand_size=0),
        fortress(1, down=("left", "right"), middle=("xray2",), hand_size=0),
        fortress(2, down=("middle",), right=("tv1",), hand_size=0),
        fortress(3, down=POSITIONS),
    ][:seats]
    return _settle(obs)


def two_player_duel() -> TrashWarObservation:
    """Two knights: Bo defends with a wall at 3 against a television (2)."""
    obs = start(2, 1)
    obs.update(step=12, turns=4, phase="defend", turn=1, to_act=[1], opening=False)
    obs["players"] = [
        fortress(0, middle=("gator2",)),
        fortress(1, left=("teeth1", "sardines2"), right=("car1",)),
    ]
    obs["incoming"] = [flight("tv2", 1, "left", 0)]
    return _settle(obs)


def volley_of_batted(seats: int = 6) -> TrashWarObservation:
    """Six items in the air: a three-card volley and three pieces of trash batted away."""
    obs = catapult_volley(seats)
    obs["held"] = [
        flight("car2", 2, "left", 0),
        flight("bike1", 4 % seats, "right", 0),
        flight("xray3", 5 % seats, "middle", 0),
    ]
    obs["players"] += [fortress(seat) for seat in range(len(obs["players"]), seats)]
    return _settle(obs)


HAND_CODES = ["drum4+", "shield3", "mace-any++", "deflect++", "catapult+", "burn4++",
              "repair+", "toaster1"]  # fmt: skip


def with_hand(obs: TrashWarObservation, seat: int, codes: list[str]) -> TrashWarObservation:
    """`obs` as seen by `seat` holding `codes` (hand sizes on the board are left alone)."""
    own = copy.deepcopy(obs)
    own["seat"] = seat
    own["hand"] = [card(code) for code in codes]
    return own
