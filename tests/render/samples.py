"""Hand-made Rumble observations for the render tests (the engine is not imported here)."""

from __future__ import annotations

import copy

from rules.rumble.observation import RumbleObservation, RumbleResult, Tile

ALL = [
    "knight",
    "thief",
    "wizard",
    "cleric",
    "barbarian",
    "ranger",
    "bard",
    "goblin",
    "zombie",
    "skeleton",
    "cube",
    "troll",
]

# Doors per room, rows top to bottom, columns A (entrance side) to D. Most neighbours
# connect; a few doors face a wall, and the outer edge has a couple of dead doors.
DOORS = [
    ["ES", "WS", "ES", "NWS"],
    ["NEW", "NEWS", "WN", "NS"],
    ["NE", "NW", "E", "NWE"],
]

ROOMS = [f"{'ABCD'[col]}{row + 1}" for row in range(3) for col in range(4)]

NAMES = ["Ann", "Bo", "Cyrielle", "Dmitri", "Eun-ji", "Fatou"]
LONG_NAMES = [
    "Bartholomew the Unbelievably Verbose",
    "Zoë Ångström-Løvenskiold",
    "🔥 xX_DungeonCrawler_Xx 🔥",
    "名無し",
    "Ann",
    "A really long name that goes on",
]


def tiles() -> list[Tile]:
    return [
        Tile(room=f"{'ABCD'[col]}{row + 1}", row=row, col=col, doors=DOORS[row][col])
        for row in range(3)
        for col in range(4)
    ]


def start(seats: int = 4) -> RumbleObservation:
    """Rumble 1 has just begun: one character per room, the chest in the treasure room."""
    return RumbleObservation(
        game="rumble",
        seat=None,
        seats=seats,
        step=0,
        rumble=1,
        to_act=[0],
        starter=0,
        finished=False,
        tiles=tiles(),
        entrance="A2",
        treasure_room="D2",
        positions=dict(zip(ALL, ROOMS, strict=True)),
        chest="D2",
        chest_exited_with=None,
        exit_line=[],
        totals=[0] * seats,
        history=[],
        secret=None,
    )


def result(rumble: int, seats: int, *, chest: str | None = "thief") -> RumbleResult:
    secrets = [[ALL[(2 * s + rumble) % 12], ALL[(2 * s + rumble + 1) % 12]] for s in range(seats)]
    exit_line = [k for k in ALL if k not in ("troll", chest)]
    points = [(7 * s + 3 * rumble) % 11 for s in range(seats)]
    return RumbleResult(
        rumble=rumble,
        secrets=secrets,
        points=points,
        best=[pair[s % 2] for s, pair in enumerate(secrets)],
        last_standing="troll",
        chest_exited_with=chest,
        exit_line=exit_line,
    )


def crowded(seats: int = 4) -> RumbleObservation:
    """Mid rumble 2: rooms with 2, 3, 5 and 7 characters, two out, the chest moved."""
    obs = start(seats)
    obs.update(
        step=31,
        rumble=2,
        to_act=[2 % seats],
        positions={
            "knight": "B2",
            "thief": "B2",
            "wizard": "C1",
            "cleric": "C1",
            "barbarian": "C1",
            "ranger": "A3",
            "bard": "A3",
            "goblin": "A3",
            "zombie": "A3",
            "skeleton": "A3",
            "cube": "D3",
        },
        chest="C1",
        exit_line=["troll"],
        totals=[(7 * s + 3) % 11 for s in range(seats)],
        history=[result(1, seats)],
    )
    return obs


def everyone_in_one_room(seats: int = 4) -> RumbleObservation:
    obs = start(seats)
    obs.update(step=40, to_act=[1], positions=dict.fromkeys(ALL, "B2"), chest="B2")
    return obs


def crowded_rooms(seats: int = 4) -> RumbleObservation:
    """Seven characters in one room (a two-column list), four in another."""
    obs = start(seats)
    positions = dict.fromkeys(ALL[:7], "C3")
    positions.update(dict.fromkeys(ALL[7:11], "D1"))
    positions["troll"] = "A1"
    obs.update(step=22, to_act=[3 % seats], positions=positions, chest="D1")
    return obs


def chest_gone(seats: int = 4) -> RumbleObservation:
    """The thief left with the chest; four fights so far."""
    obs = crowded(seats)
    positions = {k: v for k, v in obs["positions"].items() if k not in ("thief", "knight")}
    positions.pop("wizard")
    obs.update(
        step=44,
        positions=positions,
        chest=None,
        chest_exited_with="thief",
        exit_line=["troll", "knight", "wizard"],
    )
    return obs


def long_exit_line(seats: int = 6) -> RumbleObservation:
    """Near the end: eleven characters out, one left, the chest gone with nobody."""
    obs = start(seats)
    obs.update(
        step=80,
        rumble=3,
        to_act=[5 % seats],
        positions={"troll": "C2"},
        chest="C2",
        exit_line=ALL[:11],
        totals=[10, 19, 3, 9, 12, 0][:seats],
        history=[result(1, seats), result(2, seats)],
    )
    return obs


def finished(seats: int = 4, tie: bool = False) -> RumbleObservation:
    """The game is over after three rumbles."""
    obs = start(seats)
    history = [result(r, seats) for r in (1, 2, 3)]
    totals = [sum(h["points"][s] for h in history) for s in range(seats)]
    if tie and seats > 1:
        totals[1] = max(totals)
        totals[0] = max(totals)
    obs.update(
        step=120,
        rumble=3,
        to_act=[],
        finished=True,
        positions={"troll": "C2"},
        chest=None,
        chest_exited_with="thief",
        exit_line=[k for k in ALL if k not in ("troll", "thief")],
        totals=totals,
        history=history,
    )
    return obs


def with_secret(obs: RumbleObservation, seat: int, secret: list[str]) -> RumbleObservation:
    """The same moment seen by one seat."""
    own = copy.deepcopy(obs)
    own.update(seat=seat, secret=secret)
    return own
