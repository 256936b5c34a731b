"""How Toss It in the Trash looks in a channel.

Two kinds of decision, shown two ways. Choosing a card is secret and simultaneous: every
player picks from their own "My hand" reply and the board shows only who has chosen. Dropping
a piece is public: the board of the player whose turn it is carries a menu of spots per kind
of garbage, and the spot picked opens a private reply where the piece is aimed (moved,
turned, previewed) and dropped (`aim.py`). A turn's drops are shown on one board message,
edited after each drop (one board a turn: `bot/outbox.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from cogs.shared.presenter import (
    BoardControl,
    Buttons,
    Choice,
    Control,
    HandReply,
    OwnItems,
    Picture,
    final_by_points,
)
from cogs.toss.aim import board_items
from render.toss import draw_bin, draw_cards
from render.toss.recap import draw_recap
from rules.toss.bin import KINDS
from rules.toss.engine import open_spots
from rules.toss.observation import ROUNDS, TossObservation
from rules.words import and_list, counted


class TossPresenter:
    kind = "toss"
    private_controls = False  # after a private choice the reply just closes ("Done.")
    hand_label = "My hand"

    def summary(self, obs: TossObservation, names: list[str]) -> str:
        if obs["finished"]:
            return final_by_points(list(obs["scores"]), names)
        parts = [
            f"round {obs['round']}/{ROUNDS}",
            f"{counted(len(obs['bin']), 'piece')} in the bin",
        ]
        if obs["phase"] == "choose":
            chosen = sum(obs["chosen"])
            parts.append(f"choosing cards ({chosen} of {obs['seats']} chosen)")
        elif obs["turn"] is not None:
            kind = KINDS[obs["kind"]].name if obs["kind"] else "piece"
            parts.append(f"{names[obs['turn']]} drops {counted(obs['to_place'], 'more ' + kind)}")
        parts.append(f"{counted(len(obs['counters']), 'counter')} left")
        return " · ".join(parts)

    def recap(self, obs: TossObservation, names: list[str]) -> Picture:
        return Picture("recap.png", draw_recap(obs, names))

    def board(self, obs: TossObservation, names: list[str], since: int) -> list[Picture]:
        return [Picture("bin.png", draw_bin(obs, names, since))]

    def controls(
        self, obs: TossObservation, legal: list[str], describe: Callable[[str], str]
    ) -> list[BoardControl]:
        if obs["phase"] != "place":
            return []  # choosing a card is secret: it happens in the private reply
        return [OwnItems(partial(board_items, list(open_spots(legal))))]

    def hand_controls(
        self, obs: TossObservation, legal: list[str], describe: Callable[[str], str]
    ) -> list[Control]:
        if obs["phase"] != "choose":
            return []  # drops are chosen on the board
        return [Buttons([Choice(action, describe(action)) for action in legal])]

    def hand(self, obs: TossObservation, names: list[str]) -> HandReply:
        seat = obs.get("seat")
        if seat is None:
            return HandReply("You are not playing in this game.")
        cards = and_list([str(card) for card in obs.get("hand") or []]) or "none"
        mice = obs["mice"][seat]
        colour, shows = obs["colours"][seat], counted(mice, "mouse")
        lines = [
            f"Your {colour} cards: {cards}. Each shows {shows}: on a tie, fewer mice go first."
        ]
        if obs.get("my_choice") is not None:
            lines.append(f"You laid down your {obs['my_choice']} this round.")
        elif obs["phase"] == "choose" and seat in obs["to_act"]:
            lines.append("Lay down one card: nobody sees it until everyone has chosen.")
        lines.append("Only you can see this.")
        picture = Picture("cards.png", draw_cards(obs, names[seat]))
        return HandReply("\n".join(lines), [picture])

    def narrowed(self, obs: TossObservation, group: str, names: list[str]) -> HandReply | None:
        return None  # no menu of this game stands for a group: drops are aimed in `aim.py`
