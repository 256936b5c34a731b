"""Toss It in the Trash's recap, `draw_recap`: the point counters each player took, round by
round (signed: minus side or plus side up), and the final scores, best first."""

from __future__ import annotations

from lang import ENGLISH, say
from render.common import to_png
from render.common.recap import Row, table_image
from rules.phrases import language_of, phrase, phrase_n
from rules.toss.observation import ROUNDS, TossObservation


def round_column(number: int, language: str = ENGLISH) -> str:
    """A round's column heading: "R3" (a round's first letter in each language)."""
    return say(phrase("R{round}", round=number), language)


def recap_rows(obs: TossObservation) -> list[Row]:
    """A row a player, highest score first: in each round the counters they took there."""
    scores = obs["scores"]
    best = max(scores, default=0)
    taken: dict[tuple[int, int], list[int]] = {}
    for counter in obs["taken_log"]:
        taken.setdefault((counter["seat"], counter["round"]), []).append(counter["value"])
    rows = []
    for seat in sorted(range(obs["seats"]), key=lambda s: (-scores[s], s)):
        cells = [_counters(taken.get((seat, number), [])) for number in range(1, ROUNDS + 1)]
        rows.append(Row(seat, cells, str(scores[seat]), scores[seat] == best))
    return rows


def _counters(values: list[int]) -> str:
    """A round's counters: two on the cell's line, any more on a line under them (a narrow
    cell keeps the table, and so its text, large enough to read at 550 px)."""
    signed = [f"{value:+d}" for value in values]
    return " ".join(signed[:2]) + ("\n" + " ".join(signed[2:]) if signed[2:] else "")


def draw_recap(obs: TossObservation, names: list[str]) -> bytes:
    """The recap of a finished game, from its public view. PNG bytes. A game saved before
    the counters' rounds were kept shows its scores only."""
    language = language_of(names)
    columns = [round_column(n, language) for n in range(1, ROUNDS + 1)]
    played = min(obs["round"], ROUNDS)
    left = len(obs["counters"])
    foot = phrase_n(
        "{played} of {rounds} rounds played; {n} counter left on the stack.",
        "{played} of {rounds} rounds played; {n} counters left on the stack.",
        left,
        played=played,
        rounds=ROUNDS,
    )
    image = table_image(
        say(phrase("Toss It in the Trash - the recap"), language),
        names,
        columns,
        recap_rows(obs),
        say(phrase("Score"), language),
        say(foot, language),
        cell_w=60,
    )
    return to_png(image)
