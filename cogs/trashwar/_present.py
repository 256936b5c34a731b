"""How Trash War looks in a channel.

Hands are secret, so the board carries no play controls: the player to act presses
"My hand" and gets their cards and choices privately: first the card, each once, then, for a
card that can go several places (the same trash at any of fifteen walls), where it goes.
"""

from __future__ import annotations

from collections.abc import Callable

from cogs.shared.presenter import Buttons, Choice, Control, HandReply, Menu, Picture
from render.trashwar import caption, draw_battlefield, draw_hand
from render.trashwar.recap import draw_recap
from render.trashwar.words import torching_words
from rules.trashwar.engine import TRASH_WAR
from rules.trashwar.groups import MORE, group_wording
from rules.trashwar.observation import TrashWarObservation

MAX_BUTTONS = 25  # five rows of five, Discord's most: more choices go into a menu


class TrashWarPresenter:
    kind = "trashwar"
    private_controls = True
    hand_label = "My hand"

    def summary(self, obs: TrashWarObservation, names: list[str]) -> str:
        torch = torching_words(obs["torch_phase"])
        parts = [f"turn {max(1, obs['turns'])}", torch, caption(obs, names)]
        return " · ".join(part for part in parts if part)

    def recap(self, obs: TrashWarObservation, names: list[str]) -> Picture:
        return Picture("recap.png", draw_recap(obs, names))

    def board(self, obs: TrashWarObservation, names: list[str], since: int) -> list[Picture]:
        return [Picture("battlefield.png", draw_battlefield(obs, names, since))]

    def controls(
        self, obs: TrashWarObservation, legal: list[str], describe: Callable[[str], str]
    ) -> list[Control]:
        return []  # legal actions name the cards in a hand: they belong in the private reply

    def hand_controls(
        self, obs: TrashWarObservation, legal: list[str], describe: Callable[[str], str]
    ) -> list[Control]:
        # Each card (or other move) once; a card with several targets opens them after.
        groups: dict[str, list[str]] = {}
        for action in legal:
            groups.setdefault(TRASH_WAR.group_of(action), []).append(action)
        choices = [
            Choice(members[0], describe(members[0]))
            if len(members) == 1
            else Choice(group, *group_wording(group))
            for group, members in groups.items()
        ]
        if len(choices) <= MAX_BUTTONS:
            return [Buttons(choices)]
        return [Menu("Choose your card…", choices)]

    def hand(self, obs: TrashWarObservation, names: list[str]) -> HandReply:
        cards = obs.get("hand") or []
        seat = obs.get("seat")
        name = names[seat] if seat is not None else ""
        listed = ", ".join(card["title"] for card in cards) or "no cards"
        text = f"Your hand ({len(cards)}): {listed}. Only you can see this."
        return HandReply(text, [Picture("hand.png", draw_hand(obs, name))])

    def narrowed(self, obs: TrashWarObservation, group: str, names: list[str]) -> HandReply | None:
        card, question = group_wording(group)
        return HandReply(f"You chose **{card.removesuffix(MORE)}**. {question}")
