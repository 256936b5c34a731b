"""How Last Lid looks in a channel: what becomes `cogs/<game>/_present.py` in a real game.
A picture of the pile and a button per legal take (the contract: cogs/shared/presenter.py)."""

from __future__ import annotations

from collections.abc import Callable

from cogs.shared.presenter import Buttons, Choice, Control, HandReply, Picture
from lang import ENGLISH, say
from rules.phrases import language_of, phrase, phrase_n, term

from .render import draw_pile
from .rules import LAST_LID, LastLidObservation


class LastLidPresenter:
    kind = LAST_LID.key  # the engine's key, so a copy renamed in one place stays whole
    private_controls = False  # every take is public: the buttons sit on the board
    hand_label = term("hand button", "My tally")

    def summary(self, obs: LastLidObservation, names: list[str]) -> str:
        if obs["winner"] is not None:
            said = phrase("final: {player} took the last lid", player=names[obs["winner"]])
        else:
            said = phrase(
                "{lids} lids on the pile · take 1 to {most}", lids=obs["lids"], most=obs["most"]
            )
        return say(said, language_of(names))

    def board(self, obs: LastLidObservation, names: list[str], since: int) -> list[Picture]:
        return [Picture("pile.png", draw_pile(obs))]

    def controls(
        self,
        obs: LastLidObservation,
        legal: list[str],
        describe: Callable[[str], str],
        language: str = ENGLISH,
    ) -> list[Control]:
        return [Buttons([Choice(action, describe(action)) for action in legal])] if legal else []

    def hand_controls(
        self,
        obs: LastLidObservation,
        legal: list[str],
        describe: Callable[[str], str],
        language: str = ENGLISH,
    ) -> list[Control]:
        return []  # nothing is played from the private reply

    def hand(self, obs: LastLidObservation, names: list[str]) -> HandReply:
        mine = obs["mine"] or 0
        said = phrase_n("You have taken {n} lid so far.", "You have taken {n} lids so far.", mine)
        return HandReply(say(said, language_of(names)))

    def narrowed(self, obs: LastLidObservation, group: str, names: list[str]) -> HandReply | None:
        return None  # no action stands for several (the engine keeps `group_of`'s default)
