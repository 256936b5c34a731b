"""How Last Lid looks in a channel: a picture of the pile and a button per legal take."""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageDraw

from cogs.shared.presenter import Buttons, Choice, Control, HandReply, Picture
from render.png import to_png
from rules.base import JSON


class LastLidPresenter:
    kind = "lastlid"
    private_controls = False
    hand_label = "My tally"

    def summary(self, obs: JSON, names: list[str]) -> str:
        if obs["winner"] is not None:
            return f"final: {names[obs['winner']]} took the last lid"
        return f"{obs['lids']} lids on the pile · take 1 to {obs['most']}"

    def board(self, obs: JSON, names: list[str], since: int) -> list[Picture]:
        image = Image.new("RGB", (40 + 30 * 15, 80), (40, 44, 52))
        draw = ImageDraw.Draw(image)
        for i in range(obs["lids"]):
            draw.ellipse((20 + 30 * i, 25, 44 + 30 * i, 55), fill=(190, 190, 200))
        return [Picture("pile.png", to_png(image))]

    def controls(
        self, obs: JSON, legal: list[str], describe: Callable[[str], str], language: str = "en"
    ) -> list[Control]:
        return [Buttons([Choice(action, describe(action)) for action in legal])] if legal else []

    def hand_controls(
        self, obs: JSON, legal: list[str], describe: Callable[[str], str], language: str = "en"
    ) -> list[Control]:
        return []

    def hand(self, obs: JSON, names: list[str]) -> HandReply:
        return HandReply(f"You have taken {obs['mine']} lids so far.")

    def narrowed(self, obs: JSON, group: str, names: list[str]) -> HandReply | None:
        return None
