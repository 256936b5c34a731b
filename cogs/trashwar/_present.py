"""How Trash War looks in a channel.

Hands are secret, so the board carries no play controls: the player to act presses
"My hand" (or finds their turn in the reply they opened before) and gets their cards and
choices privately, each card once: a card that can go several places (the same trash at any
of fifteen walls) is a menu of where it goes, so the card and its target are one pick; when
every choice plays the same card, where it goes straight away. A move that only leads to
the next decision (passing burn or repair, before the attack; swinging a Mace, before
where the trash flies) is not offered alone but with each move after it, in one pick:
"Neither burn nor repair → Throw the toaster (2) …" is a menu of that card's targets, each
option a plan of the pass and the throw (`rules.trashwar.plans` lists them); where the
rows are short, one menu holds them all ("Neither burn nor repair → …").
The reply also counts the cards of each kind out of the player's sight, as a player who
remembers every card played would. Everything is said in the readers' language
(`names.language`); the controls' labels come from the engine's `describe`, which the bot
says in that language too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from bot.requests import Describer
from cogs.shared.menus import MAX_ROWS, rows
from cogs.shared.presenter import (
    Buttons,
    Choice,
    Control,
    HandReply,
    Menu,
    Picture,
    plan,
    plan_label,
)
from lang import say
from render.trashwar import caption, draw_battlefield, draw_hand
from render.trashwar.recap import draw_recap
from render.trashwar.words import card_said, torching_words
from rules.phrases import Filling, Phrase, language_of, phrase, phrase_in, term
from rules.trashwar.cards import CARDS, KIND_TITLES, KINDS, WALL
from rules.trashwar.engine import TRASH_WAR
from rules.trashwar.groups import MENU_PROMPT, group_card
from rules.trashwar.observation import TrashWarObservation, out_of_sight
from rules.trashwar.plans import plans
from rules.trashwar.words import joined

MAX_BUTTONS = 25  # five rows of five, Discord's most: more choices go into a menu
ANY = "…"  # what follows a plan's first move in the label of a menu of all its plans
# The kinds a hand reply counts out of sight, with how it names each.
COUNTED = {kind: KIND_TITLES.get(kind, term("card", "Trash")) for kind in KINDS if kind != WALL}


class TrashWarPresenter:
    kind = "trashwar"
    private_controls = True
    hand_label = term("hand button", "My hand")

    def summary(self, obs: TrashWarObservation, names: list[str]) -> str:
        language = language_of(names)
        torch = torching_words(obs["torch_phase"])
        turn = say(phrase("turn {n}", n=max(1, obs["turns"])), language, names)
        parts = [turn, say(torch, language, names) if torch else "", caption(obs, names)]
        return " · ".join(part for part in parts if part)

    def recap(self, obs: TrashWarObservation, names: list[str]) -> Picture:
        return Picture("recap.png", draw_recap(obs, names))

    def board(self, obs: TrashWarObservation, names: list[str], since: int) -> list[Picture]:
        return [Picture("battlefield.png", draw_battlefield(obs, names, since))]

    def controls(
        self,
        obs: TrashWarObservation,
        legal: list[str],
        describe: Callable[[str], str],
        language: str = "en",
    ) -> list[Control]:
        return []  # legal actions name the cards in a hand: they belong in the private reply

    def hand_controls(
        self,
        obs: TrashWarObservation,
        legal: list[str],
        describe: Callable[[str], str],
        language: str = "en",
    ) -> list[Control]:
        # Each card (or other move) once. A card with several targets is a menu of them,
        # named by the card ("Throw the toaster (2) …"), so the card and where it goes are
        # one pick; a hand too full for Discord's rows gets the card as a button that opens
        # its targets after (`narrowed`). When every move plays one card, choosing it would
        # decide nothing: its targets are offered at once. A pass or a Mace swung comes
        # with each move after it (`planned_controls`).
        groups = grouped(legal)
        planned = plans(obs, legal)
        if planned:
            with_plans = planned_controls(groups, planned, describe)
            if with_plans is not None:
                return with_plans
        picked = card_menus(groups, describe) if len(groups) > 1 else None
        if picked is not None:
            return picked
        if len(groups) == 1:
            choices = [Choice(action, describe(action)) for action in legal]
        else:
            choices = [
                Choice(members[0], describe(members[0]))
                if len(members) == 1
                else Choice(group, describe(group))
                for group, members in groups.items()
            ]
        if len(choices) <= MAX_BUTTONS:
            return [Buttons(choices)]
        return [Menu(describe(MENU_PROMPT), choices)]

    def hand(self, obs: TrashWarObservation, names: list[str]) -> HandReply:
        language = language_of(names)
        cards = obs.get("hand") or []
        seat = obs.get("seat")
        name = names[seat] if seat is not None else ""
        if cards:
            listed = joined([card_said(card) for card in cards])
            text = phrase(
                "Your hand ({n}): {cards}. Only you can see this.", n=len(cards), cards=listed
            )
        else:
            text = phrase("Your hand (0): no cards. Only you can see this.")
        lines = [say(text, language, names), say(out_of_sight_said(obs), language, names)]
        picture = draw_hand(obs, name, language)
        return HandReply("\n".join(lines), [Picture("hand.png", picture)])

    def narrowed(self, obs: TrashWarObservation, group: str, names: list[str]) -> HandReply | None:
        card, question = group_card(group)
        said = phrase("You chose **{card}**. {question}", card=card, question=question)
        return HandReply(say(said, language_of(names), names))


def grouped(actions: list[str]) -> dict[str, list[str]]:
    """The actions by their card (`Game.group_of`), in their order."""
    groups: dict[str, list[str]] = {}
    for action in actions:
        groups.setdefault(TRASH_WAR.group_of(action), []).append(action)
    return groups


def card_menus(
    groups: dict[str, list[str]], describe: Callable[[str], str]
) -> list[Control] | None:
    """Each card with several targets as a menu of its targets (short labels, "Carol · left
    wall", where `describe` can say them), the other moves as buttons; None when that
    takes more than Discord's five rows."""
    label = short(describe)
    menus: list[Menu] = []
    buttons = []
    for group, members in groups.items():
        if len(members) == 1:
            buttons.append(Choice(members[0], describe(members[0])))
            continue
        choices = [Choice(action, label(action, group)) for action in members]
        menus.append(Menu(describe(group), choices))
    controls: list[Control] = [*menus, *([Buttons(buttons)] if buttons else [])]
    return controls if rows(controls) <= MAX_ROWS else None


def short(describe: Callable[[str], str]) -> Callable[[str, str], str]:
    """A move's label once its card is chosen ("Carol · left wall"), where `describe` can
    say it; else its whole label."""
    if isinstance(describe, Describer):
        return describe.in_group
    return lambda action, _: describe(action)


def planned_controls(
    groups: dict[str, list[str]], planned: dict[str, list[str]], describe: Callable[[str], str]
) -> list[Control] | None:
    """The seat's moves with each move that only leads to the next decision (`planned`)
    offered in plans with each move after it, instead of alone (`plan_menus`), a menu a
    card while they fit Discord's rows, else one menu of them all; None if even that does
    not fit."""
    rest = {g: members for g, members in groups.items() if members[0] not in planned}
    own = card_menus(rest, describe) if rest else []
    if own is None:
        return None
    for by_card in (True, False):
        extra = [
            m for first, then in planned.items() for m in plan_menus(first, then, describe, by_card)
        ]
        controls = one_block_of_buttons([*own, *extra])
        if rows(controls) <= MAX_ROWS:
            return controls
    return None


def plan_menus(
    first: str, then: list[str], describe: Callable[[str], str], by_card: bool
) -> list[Menu]:
    """The plans of `first` with each move of `then`: with `by_card`, and each card with
    several targets, a menu a card of its targets, the way the card's own decision shows
    it ("Neither burn nor repair → Throw the toaster (2) …": "Carol · left wall"); else
    one menu of them all, each move said in full ("Neither burn nor repair → …")."""
    said = describe(first)
    following = grouped(then)
    if by_card and all(len(members) > 1 for members in following.values()):
        label = short(describe)
        return [
            Menu(
                plan_label(said, describe(group)),
                [Choice(plan(first, action), label(action, group)) for action in members],
            )
            for group, members in following.items()
        ]
    return [Menu(plan_label(said, ANY), [Choice(plan(first, a), describe(a)) for a in then])]


def one_block_of_buttons(controls: list[Control]) -> list[Control]:
    """The menus, then every button in one block (so they share rows)."""
    menus: list[Control] = [c for c in controls if isinstance(c, Menu)]
    buttons = [choice for c in controls if isinstance(c, Buttons) for choice in c.actions]
    return [*menus, Buttons(buttons)] if buttons else menus


def out_of_sight_said(obs: TrashWarObservation) -> Phrase:
    """How many cards of each kind the player cannot see (the draw pile and the other
    hands hold them): what a player who remembers every card played works out, and the
    hard AI does, said for everyone."""
    hidden = Counter(CARDS[card].kind for card in out_of_sight(obs))
    counts: list[Filling] = [
        phrase("{kind}: {n}", kind=phrase_in("card", title), n=hidden[kind])
        for kind, title in COUNTED.items()
    ]
    said = joined(counts)
    return phrase("Out of sight (the draw pile and the other hands): {cards}.", cards=said)
