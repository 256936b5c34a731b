"""Trash War's recap, `draw_recap`: the knights in the order they fell, the last one standing
on top, with the walls each had left."""

from __future__ import annotations

from collections.abc import Sequence

from render.common import to_png
from render.common.recap import Row, table_image
from render.trashwar.words import OUTS, ordinal, recap_foot, said
from rules.phrases import Filling, phrase, phrase_in
from rules.trashwar.observation import TrashWarObservation

COLUMNS = [phrase("Fell"), phrase("Walls up")]


def fell(obs: TrashWarObservation, seat: int) -> Filling:
    """ "1st out" for the first knight out; "standing" for a knight never knocked out."""
    out = obs["eliminated"]
    if seat not in out:
        return phrase("standing")
    place = out.index(seat) + 1
    return phrase_in("knocked out", OUTS[place]) if place in OUTS else str(place)


def _walls_up(obs: TrashWarObservation, seat: int) -> int:
    return sum(wall["standing"] for wall in obs["players"][seat]["walls"])


def recap_rows(obs: TrashWarObservation, names: Sequence[str] = ()) -> list[Row]:
    """A row a knight: the winner (or, in a stuck war, the knights still in by walls up),
    then the others from the last out to the first; words for readers of `names`."""
    out = obs["eliminated"]
    still_in = [s for s in range(obs["seats"]) if s not in out]
    still_in.sort(key=lambda s: -_walls_up(obs, s))
    rows = []
    for place, seat in enumerate(still_in + list(reversed(out))):
        walls = _walls_up(obs, seat)
        if seat not in out:  # knights with as many walls up share a place
            place = sum(_walls_up(obs, s) > walls for s in still_in)
        cells = [said(fell(obs, seat), names), str(walls)]
        rows.append(Row(seat, cells, said(ordinal(place + 1), names), seat in obs["winners"]))
    return rows


def draw_recap(obs: TrashWarObservation, names: list[str]) -> bytes:
    """The recap of a finished war, from its public view. PNG bytes."""
    image = table_image(
        said(phrase("Trash War - the order of the fall"), names),
        names,
        [said(column, names) for column in COLUMNS],
        recap_rows(obs, names),
        said(phrase("Place"), names),
        said(recap_foot(obs), names),
        cell_w=120,
    )
    return to_png(image)
