"""How Trash War looks in a channel.

Hands are secret, so the board carries no play controls: the player to act presses
"My hand" and gets their cards and choices privately. Choices that share a card (the same
trash at any of fifteen walls) are grouped in a menu and finished with buttons.
"""

from __future__ import annotations

from collections.abc import Callable

from cogs.shared.presenter import Buttons, Choice, Control, HandReply, Menu, Picture
from render.trashwar import caption, draw_battlefield, draw_hand
from rules.trashwar.engine import TRASH_WAR
from rules.trashwar.observation import TrashWarObservation

MAX_BUTTONS = 20  # up to this many choices show as buttons, more go into a menu


class TrashWarPresenter:
    kind = "trashwar"
    private_controls = True
    hand_label = "My hand"

    def summary(self, obs: TrashWarObservation, names: list[str]) -> str:
        phase = f"torching phase {obs['torch_phase']}"
        return f"turn {obs['turns']} · {phase} · {caption(obs, names)}"

    def board(self, obs: TrashWarObservation, names: list[str], since: int) -> list[Picture]:
        return [Picture("battlefield.png", draw_battlefield(obs, names, since))]

    def controls(
        self, obs: TrashWarObservation, legal: list[str], describe: Callable[[str], str]
    ) -> list[Control]:
        return []  # legal actions name the cards in a hand: they belong in the private reply

    def hand_controls(
        self, obs: TrashWarObservation, legal: list[str], describe: Callable[[str], str]
    ) -> list[Control]:
        if len(legal) <= MAX_BUTTONS:
            return [Buttons([Choice(action, describe(action)) for action in legal])]
        groups: dict[str, list[str]] = {}
        for action in legal:
            groups.setdefault(TRASH_WAR.group_of(action), []).append(action)
        choices = []
        for head, actions in groups.items():
            if len(actions) == 1:
                choices.append(Choice(actions[0], describe(actions[0])))
            else:
                what = describe(actions[0]).rsplit(" at ", 1)[0]
                choices.append(Choice(head, f"{what} …", f"then pick one of {len(actions)} walls"))
        return [Menu("Choose your move…", choices)]

    def hand(self, obs: TrashWarObservation, names: list[str]) -> HandReply:
        cards = obs.get("hand") or []
        seat = obs.get("seat")
        name = names[seat] if seat is not None else ""
        listed = ", ".join(card["title"] for card in cards) or "no cards"
        text = f"Your hand ({len(cards)}): {listed}. Only you can see this."
        return HandReply(text, [Picture("hand.png", draw_hand(obs, name))])

    def narrowed(self, obs: TrashWarObservation, group: str, names: list[str]) -> HandReply | None:
        return None  # the buttons' labels say it all
