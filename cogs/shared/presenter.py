"""How a game shows itself in Discord: the contract between the shared machinery (lobby,
board messages, buttons) and each game's cog.

A presenter turns observations into pictures, text and controls. It only ever receives an
observation: the public one for the channel, the owner's own for an ephemeral reply.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from lang import say
from rules.phrases import language_of, listing, phrase_in, phrase_n, term

# A game's observation type (its TypedDict in rules/<game>/observation.py): a presenter
# receives only ever that, the public one or the owner's own.
Obs = TypeVar("Obs", contravariant=True)


@dataclass(frozen=True)
class Picture:
    filename: str
    data: bytes


# Between the actions of a plan (`plan`): no action's text holds a line break.
PLAN_JOIN = "\n"


def plan(*actions: str) -> str:
    """A choice that plays several actions in one press, in order: "draw two cards" is
    the declaration and both draws. The session service plays each while it is still
    open to the player (a Blocker drawn stops the rest), all in one transaction."""
    return PLAN_JOIN.join(actions)


def plan_of(value: str) -> list[str]:
    """The actions a choice's value plays: one, or a plan's several."""
    return value.split(PLAN_JOIN)


def is_plan(value: str) -> bool:
    return PLAN_JOIN in value


def plan_label(first: str, then: str) -> str:
    """A plan's label: what its first action does, then what follows ("Draw 2 cards from
    the trash pile → Attack Bob")."""
    return f"{first} → {then}"


@dataclass(frozen=True)
class Choice:
    """One option of a menu or one button: `value` is a legal action, a group of several
    (the engine's `group_of`) that the player narrows down with buttons in a private
    reply, or a `plan` of several actions played in one press."""

    value: str
    label: str
    description: str = ""


@dataclass(frozen=True)
class Menu:
    """A menu of choices. With `most` above one the player may pick several options at
    once (cards to discard): their actions are played in one press, in the menu's order,
    after the actions `before` (a declaration) and followed by `after` (ending the
    rummage), each while still open."""

    placeholder: str
    choices: list[Choice]
    most: int = 1
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()

    def picked(self, positions: list[int]) -> str:
        """The value of the options at `positions` picked together: one choice's own, or
        the plan they make with `before` and `after`."""
        values = [self.choices[p].value for p in sorted(positions)]
        if len(values) == 1 and not self.before and not self.after:
            return values[0]
        return plan(*self.before, *(a for v in values for a in plan_of(v)), *self.after)


@dataclass(frozen=True)
class Buttons:
    # Each value a whole legal action, or a group of several that a press opens as buttons.
    actions: list[Choice]


@dataclass(frozen=True)
class OwnItems:
    """Controls a game makes itself, for a decision the shared menus and buttons do not
    fit (Toss It's aim): `make(game_id, step)` gives the items, `DynamicItem`s that the
    game's plug-in registers, so they work after a restart like the shared ones."""

    make: Callable[[int, int], list[Any]]  # discord.ui.Item objects


Control = Menu | Buttons
BoardControl = Control | OwnItems  # what a board may carry


@dataclass
class HandReply:
    """The private reply to "My hand" / "My secret" (its controls come from
    `hand_controls`)."""

    text: str
    pictures: list[Picture] = field(default_factory=list)


class Presenter(Protocol[Obs]):
    kind: str
    hand_label: str  # the button that opens a player's own view: "My secret", "My hand"
    private_controls: bool  # True when the game is played from the private reply (hands)

    def summary(self, obs: Obs, names: list[str]) -> str:
        """One line about the game right now, for the board message and /game status."""

    def board(self, obs: Obs, names: list[str], since: int) -> list[Picture]:
        """The channel's pictures, from the public observation; `since` is the step the
        previous board showed (to picture what happened in between, like dice rolls). Runs
        in a worker thread."""

    def controls(
        self, obs: Obs, legal: list[str], describe: Callable[[str], str], language: str = ...
    ) -> Sequence[BoardControl]:
        """Controls on the public message for the seat to act. Only for games whose legal
        actions give nothing away; a game with hidden hands returns [] and puts its
        controls in `hand_controls`. `legal` holds one action of each decision
        (`Game.one_of_each`: identical cards once)."""

    def hand_controls(
        self, obs: Obs, legal: list[str], describe: Callable[[str], str], language: str = ...
    ) -> Sequence[BoardControl]:
        """Controls in a player's private reply, from their own observation; [] for a game
        whose every control is public (they sit on the board). `legal` as in `controls`."""

    def hand(self, obs: Obs, names: list[str]) -> HandReply:
        """A player's own view, from their own observation. Runs in a worker."""

    def narrowed(self, obs: Obs, group: str, names: list[str]) -> HandReply | None:
        """The private reply over the buttons that finish a menu choice standing for several
        actions (`group`), drawn from the public view; None for a plain "Pick one of these:".
        Runs in a worker thread."""


@runtime_checkable
class Recaps(Protocol[Obs]):
    """A presenter that also draws a finished game's recap (the story of the game: scores
    round by round, the order knights fell, the winning hand) for its last board. Optional:
    a game without `recap` has no recap picture."""

    def recap(self, obs: Obs, names: list[str]) -> Picture:
        """The recap picture, from the public observation of the finished game. Runs in a
        worker."""


PRESENTERS: dict[str, Presenter[Any]] = {}

# The button that opens a player's own view, as each game names it (`hand_label`): said in
# this sense, on the board in the game's language, in a private reply in its reader's.
HAND_BUTTON = "hand button"
HAND_LABELS = (term("hand button", "My hand"), term("hand button", "My secret"))


def hand_button(kind: str, language: str) -> str:
    """A game's "My hand" button's word in `language`."""
    return say(phrase_in(HAND_BUTTON, PRESENTERS[kind].hand_label), language)


def register(presenter: Presenter[Any]) -> None:
    PRESENTERS[presenter.kind] = presenter


def final_by_points(points: list[int], names: list[str]) -> str:
    """A finished game's summary where the most points win: "final: Ann and Bo with 9
    points", in the language of `names` (`Readers`; English for a plain list)."""
    best = max(points)
    winners = [names[seat] for seat, score in enumerate(points) if score == best]
    said = phrase_n(
        "final: {winners} with {n} point",
        "final: {winners} with {n} points",
        best,
        winners=listing(winners),
    )
    return say(said, language_of(names), names)
