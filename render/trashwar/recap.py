"""Trash War's recap, `draw_recap`: the knights in the order they fell, the last one standing
on top, with the walls each had left."""

from __future__ import annotations

from render.common import ordinal, to_png
from render.common.recap import Row, table_image
from render.trashwar.words import recap_foot
from rules.trashwar.observation import TrashWarObservation

COLUMNS = ["Fell", "Walls up"]


def fell(obs: TrashWarObservation, seat: int) -> str:
    """ "1st out" for the first knight out; "standing" for a knight never knocked out."""
    out = obs["eliminated"]
    return f"{ordinal(out.index(seat) + 1)} out" if seat in out else "standing"


def _walls_up(obs: TrashWarObservation, seat: int) -> int:
    return sum(wall["standing"] for wall in obs["players"][seat]["walls"])


def recap_rows(obs: TrashWarObservation) -> list[Row]:
    """A row a knight: the winner (or, in a stuck war, the knights still in by walls up),
    then the others from the last out to the first."""
    out = obs["eliminated"]
    still_in = [s for s in range(obs["seats"]) if s not in out]
    still_in.sort(key=lambda s: -_walls_up(obs, s))
    rows = []
    for place, seat in enumerate(still_in + list(reversed(out))):
        walls = _walls_up(obs, seat)
        if seat not in out:  # knights with as many walls up share a place
            place = sum(_walls_up(obs, s) > walls for s in still_in)
        cells = [fell(obs, seat), str(walls)]
        rows.append(Row(seat, cells, ordinal(place + 1), seat in obs["winners"]))
    return rows


def draw_recap(obs: TrashWarObservation, names: list[str]) -> bytes:
    """The recap of a finished war, from its public view. PNG bytes."""
    foot = recap_foot(obs)
    image = table_image(
        "Trash War - the order of the fall",
        names,
        COLUMNS,
        recap_rows(obs),
        "Place",
        foot,
        cell_w=120,
    )
    return to_png(image)
