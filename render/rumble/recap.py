"""Rumble in the Dungeon's recap, `draw_recap`: the three rumbles side by side, each player's
points in each and the character that scored them, and the totals, best first."""

from __future__ import annotations

from lang import ENGLISH
from render.common import to_png
from render.common.recap import Row, table_image
from render.rumble.layout import character_name, said
from rules.phrases import language_of, phrase, phrase_n
from rules.rumble.observation import RumbleObservation

RUMBLES = 3


def rumble_column(number: int, language: str = ENGLISH) -> str:
    return said(phrase("Rumble {rumble}", rumble=number), language)


def recap_rows(obs: RumbleObservation, language: str = ENGLISH) -> list[Row]:
    """A row a player, most points first (seat order among equals): per rumble the points
    and the character that scored them."""
    totals = obs["totals"]
    best = max(totals, default=0)
    rows = []
    for seat in sorted(range(obs["seats"]), key=lambda s: (-totals[s], s)):
        cells = []
        for result in obs["history"]:
            scorer = result["best"][seat] if seat < len(result["best"]) else ""
            words = character_name(scorer, language) if scorer else ""
            cells.append(
                f"{result['points'][seat]}\n{words}" if words else f"{result['points'][seat]}"
            )
        cells += [""] * (RUMBLES - len(cells))
        rows.append(Row(seat, cells, str(totals[seat]), totals[seat] == best))
    return rows


def draw_recap(obs: RumbleObservation, names: list[str]) -> bytes:
    """The recap of a finished game (drawn from its public view, where every rumble's
    reveal is kept). PNG bytes."""
    language = language_of(names)
    columns = [rumble_column(n, language) for n in range(1, RUMBLES + 1)]
    escaped = [r["chest_exited_with"] for r in obs["history"]]
    chests = sum(1 for carrier in escaped if carrier)
    foot = phrase_n(
        "The chest got away in {chests} of {n} rumble.",
        "The chest got away in {chests} of {n} rumbles.",
        len(escaped),
        chests=chests,
    )
    image = table_image(
        said(phrase("{game} - the recap", game="Rumble in the Dungeon"), language),
        names,
        columns,
        recap_rows(obs, language),
        said(phrase("Total"), language),
        said(foot, language),
        cell_w=130,
    )
    return to_png(image)
