"""How Rumble in the Dungeon looks in a channel.

Every Rumble move is public (only the secret characters are hidden), so the controls sit on
the board message itself: a menu of characters to move (the direction is picked privately
after), a menu of fights, and a button per character that may leave with the chest.
"""

from __future__ import annotations

from collections.abc import Callable

from cogs.shared.presenter import (
    Buttons,
    Choice,
    Control,
    HandReply,
    Menu,
    Picture,
    final_by_points,
)
from render.rumble import draw_dungeon, draw_reveal, draw_secret
from render.rumble.recap import draw_recap
from rules.rumble import CHARACTERS
from rules.rumble.actions import Exit, Fight, Move, parse_action
from rules.rumble.engine import mover_group
from rules.rumble.observation import RumbleObservation


def just_started(obs: RumbleObservation) -> bool:
    """The first board of a new rumble: the right moment to show the last one's reveal."""
    return (
        len(obs["positions"]) == len(CHARACTERS)
        and not obs["exit_line"]
        and (obs["chest"] == obs["treasure_room"] and len(obs["history"]) == obs["rumble"] - 1)
        and obs["step"] > 0
        and obs["chest_exited_with"] is None
    )


class RumblePresenter:
    kind = "rumble"
    private_controls = False
    hand_label = "My secret"

    def summary(self, obs: RumbleObservation, names: list[str]) -> str:
        if obs["finished"]:
            return final_by_points(list(obs["totals"]), names)
        left = len(obs["positions"])
        carrier = obs["chest_exited_with"]
        if obs["chest"] or carrier is None:
            chest = f"chest in {obs['chest']}"
        else:
            chest = f"the {CHARACTERS[carrier]} got away with the chest"
        return f"rumble {obs['rumble']}/3 · {left} characters left · {chest}"

    def recap(self, obs: RumbleObservation, names: list[str]) -> Picture:
        return Picture("recap.png", draw_recap(obs, names))

    def board(self, obs: RumbleObservation, names: list[str], since: int) -> list[Picture]:
        pictures = [Picture("dungeon.png", draw_dungeon(obs, names, since))]
        if obs["history"] and (obs["finished"] or just_started(obs)):
            reveal = draw_reveal(obs["history"][-1], names)
            pictures.append(Picture("reveal.png", reveal))
        return pictures

    def controls(
        self, obs: RumbleObservation, legal: list[str], describe: Callable[[str], str]
    ) -> list[Control]:
        parsed = [(action, parse_action(action)) for action in legal]
        movers = sorted({p.character for _, p in parsed if isinstance(p, Move)})
        fights = [action for action, p in parsed if isinstance(p, Fight)]
        exits = [action for action, p in parsed if isinstance(p, Exit)]
        controls: list[Control] = []
        if movers:
            choices = []
            for character in movers:
                room = obs["positions"][character]
                note = "shares the chest's room" if room == obs["chest"] else ""
                choices.append(
                    Choice(mover_group(character), f"{CHARACTERS[character]} (in {room})", note)
                )
            controls.append(Menu("Move a character…", choices))
        if fights:
            controls.append(Menu("Start a fight…", [Choice(a, describe(a)) for a in fights]))
        if exits:
            controls.append(Buttons([Choice(a, describe(a)) for a in exits]))
        return controls

    def hand_controls(
        self, obs: RumbleObservation, legal: list[str], describe: Callable[[str], str]
    ) -> list[Control]:
        return []  # every Rumble control is public: they sit on the board

    def hand(self, obs: RumbleObservation, names: list[str]) -> HandReply:
        secret = obs.get("secret")
        if not secret:
            return HandReply("You have no secret characters in this game.")
        first, second = (CHARACTERS[c] for c in secret)
        text = (
            f"Your secret characters for rumble {obs['rumble']}: **{first}** and **{second}**. "
            "Only you can see this."
        )
        seat = obs["seat"]
        name = names[seat] if seat is not None else ""
        return HandReply(text, [Picture("secret.png", draw_secret(obs, name))])

    def narrowed(self, obs: RumbleObservation, group: str, names: list[str]) -> HandReply | None:
        # A character chosen in the menu: the buttons under the question are its ways out.
        character = group.removeprefix("move ")
        if not group.startswith("move ") or character not in CHARACTERS:
            return None
        room = obs["positions"].get(character)
        where = f" from {room}" if room else ""
        return HandReply(f"Which way does the {CHARACTERS[character]} go{where}?")
