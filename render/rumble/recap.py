"""Rumble in the Dungeon's recap, `draw_recap`: the three rumbles side by side, each player's
points in each and the character that scored them, and the totals, best first."""

from __future__ import annotations

from render.common import to_png
from render.common.recap import Row, table_image
from render.rumble.layout import character_name
from rules.rumble.observation import RumbleObservation

RUMBLES = 3


def rumble_column(number: int) -> str:
    return f"Rumble {number}"


def recap_rows(obs: RumbleObservation) -> list[Row]:
    """A row a player, most points first (seat order among equals): per rumble the points
    and the character that scored them."""
    totals = obs["totals"]
    best = max(totals, default=0)
    rows = []
    for seat in sorted(range(obs["seats"]), key=lambda s: (-totals[s], s)):
        cells = []
        for result in obs["history"]:
            scorer = result["best"][seat] if seat < len(result["best"]) else ""
            words = character_name(scorer) if scorer else ""
            cells.append(
                f"{result['points'][seat]}\n{words}" if words else f"{result['points'][seat]}"
            )
        cells += [""] * (RUMBLES - len(cells))
        rows.append(Row(seat, cells, str(totals[seat]), totals[seat] == best))
    return rows


def draw_recap(obs: RumbleObservation, names: list[str]) -> bytes:
    """The recap of a finished game (drawn from its public view, where every rumble's
    reveal is kept). PNG bytes."""
    columns = [rumble_column(n) for n in range(1, RUMBLES + 1)]
    escaped = [r["chest_exited_with"] for r in obs["history"]]
    chests = sum(1 for carrier in escaped if carrier)
    foot = f"The chest got away in {chests} of {len(escaped)} rumbles."
    image = table_image(
        "Rumble in the Dungeon - the recap",
        names,
        columns,
        recap_rows(obs),
        "Total",
        foot,
        cell_w=130,
    )
    return to_png(image)
