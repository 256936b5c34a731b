"""How Dumpster Brawl! looks in a channel.

Hands are secret, so the board carries no play controls: the seat to act presses "My hand"
and decides privately, one press a decision where the engine takes a card an action:

- the choices that play several actions in one press come first (`rules.brawl.plans`
  lists them, from the seat's own view): plans as buttons ("Draw 2 cards from the trash
  pile" declares and draws both; a Blocker drawn stops the rest), menus of the hand's
  cards, one option per card, that take several picks at once ("Discard one or two
  cards…" declares the discard and makes it), played in the menu's order between its
  `before` and `after` actions; a Clean Sweep's cards picked together make one action
  (`SweepMenu`);
- the other legal actions as buttons while they fit, else sorted into menus by what they
  do; a menu entry standing for several actions ("lay down Pizza Boxes") is finished with
  buttons in the private reply;
- all within Discord's five rows; a crowded hand (hundreds of choices, seen only in random
  play) keeps the sweep menu and gets the rest one action a press, in one menu if need be.

Menu option values and button ids carry only positions: the controls are built again, the
same, from the game at the step pressed.
"""

from __future__ import annotations

from collections.abc import Callable

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
from lang import ENGLISH, say
from render.brawl import draw_hand, draw_rolls, draw_table
from render.brawl.recap import draw_recap
from render.brawl.words import who as character_and_player
from rules.brawl.groups import group_of, group_question, group_wording, verb_of
from rules.brawl.observation import BrawlObservation
from rules.brawl.plans import OnePress, Picks, one_presses, sweep_of
from rules.brawl.words import card, commas
from rules.phrases import Filling, Phrase, language_of, listing, phrase, phrase_in

MAX_BUTTONS = 15  # up to this many choices show as buttons (three rows)

PHASES = {
    "declare": phrase("{player} is declaring draw or discard"),
    "pre": phrase("{player} is drawing and discarding before the attack"),
    "attack": phrase("{player} is choosing whom to attack"),
    "defend": phrase("{player} is defending"),
    "wind": phrase("{player} is deciding on Second Wind"),
    "spoils": phrase("{player} is taking the spoils of the fight"),
    "rummage": phrase("{player} is rummaging"),
    "lay": phrase("{player} is laying down cards"),
    "over": phrase("{player} is over"),
}

# Menus by what an action does: (its first words, the menu's placeholder).
MENUS = (
    ("discard", phrase("Discard a card…")),
    ("give", phrase("Give a card…")),
    ("attack", phrase("Attack…")),
    ("lay", phrase("Lay down…")),
    ("play", phrase("Play a Booster…")),
)


def hand_controls(
    obs: BrawlObservation,
    legal: list[str],
    describe: Callable[[str], Filling],
    language: str = ENGLISH,
) -> list[Control]:
    """The seat's choices: first those that take one press for several actions
    (`rules.brawl.plans`), then the other legal actions sorted into buttons and menus.
    Within Discord's rows; a crowded hand gets one action a press, as grouped menus."""
    presses = one_presses(obs, legal)
    quick: list[Control] = [picks_menu(m, describe, language) for m in presses.menus]
    buttons = [Choice(plan(*p.actions), labelled(p, describe, language)) for p in presses.buttons]
    rest = [a for a in legal if a not in presses.covered]
    for most_buttons in (MAX_BUTTONS, 0):  # as buttons while they fit, else in menus
        controls = quick + sorted_controls(rest, describe, language, most_buttons)
        controls = with_buttons(controls, buttons)
        if rows(controls) <= MAX_ROWS:
            return controls
    # A crowded hand (random play's): the sweep menu, and the rest one action a press.
    sweeps = [m for m in quick if isinstance(m, SweepMenu)]
    rest = [a for a in legal if a not in presses.sweeps]
    controls = sorted_controls(rest, describe, language, MAX_BUTTONS)
    return sweeps + fitted(controls, language, MAX_ROWS - rows(sweeps))


def labelled(press: OnePress, describe: Callable[[str], Filling], language: str) -> str:
    said = say(press.label if press.label is not None else describe(press.actions[-1]), language)
    return plan_label(say(press.first, language), said) if press.first is not None else said


class SweepMenu(Menu):
    """The cards a Clean Sweep takes: the one or two picked make one action."""

    def picked(self, positions: list[int]) -> str:
        return sweep_of([self.choices[p].value for p in sorted(positions)])


def picks_menu(picks: Picks, describe: Callable[[str], Filling], language: str) -> Menu:
    kind = SweepMenu if picks.sweep else Menu
    choices = [Choice(plan(*o.actions), labelled(o, describe, language)) for o in picks.options]
    placeholder = say(picks.placeholder, language)
    return kind(placeholder, choices, max(1, picks.most), picks.before, picks.after)


def with_buttons(controls: list[Control], first: list[Choice]) -> list[Control]:
    """The controls with all their buttons in one block, `first` leading."""
    buttons = first + [c for b in controls if isinstance(b, Buttons) for c in b.actions]
    menus: list[Control] = [c for c in controls if isinstance(c, Menu)]
    return [*menus, Buttons(buttons)] if buttons else menus


def sorted_controls(
    legal: list[str], describe: Callable[[str], Filling], language: str, most_buttons: int
) -> list[Control]:
    """One action a press: as buttons while there are at most `most_buttons`, else sorted
    into menus by what they do, a menu entry standing for several actions finished with
    buttons."""

    def said(words: Filling) -> str:
        return say(words, language)

    def label(action: str) -> str:
        return said(describe(action))

    if len(legal) <= most_buttons:
        return [Buttons([Choice(action, label(action)) for action in legal])] if legal else []
    menus: dict[str, list[str]] = {verb: [] for verb, _ in MENUS}
    buttons = []
    attacks = sum(verb_of(action) == "attack" for action in legal)
    for action in legal:
        verb = verb_of(action)
        if verb in menus and not (verb == "attack" and attacks <= 5):
            menus[verb].append(action)
        else:
            buttons.append(action)
    controls: list[Control] = []
    for verb, placeholder in MENUS:
        actions = menus[verb]
        if len(actions) == 1:
            buttons.append(actions[0])
            continue
        groups: dict[str, list[str]] = {}
        for action in actions:
            groups.setdefault(group_of(action), []).append(action)
        choices = []
        for group, members in groups.items():
            if len(members) == 1:
                choices.append(Choice(members[0], label(members[0])))
            else:
                entry, note = group_wording(group, members, describe)
                choices.append(Choice(group, said(entry), said(note)))
        if choices:
            controls.append(Menu(said(placeholder), choices))
    if buttons:
        controls.append(Buttons([Choice(action, label(action)) for action in buttons]))
    return controls


def fitted(controls: list[Control], language: str = ENGLISH, most: int = MAX_ROWS) -> list[Control]:
    """Within `most` rows: when the menus and buttons would need more, everything goes into
    one menu (split in parts of 25)."""
    if rows(controls) <= most:
        return controls
    choices: list[Choice] = []
    for control in controls:
        choices += control.choices if isinstance(control, Menu) else control.actions
    return [Menu(say(phrase("Choose your move…"), language), choices)]


class BrawlPresenter:
    kind = "brawl"
    private_controls = True
    hand_label = "My hand"

    def summary(self, obs: BrawlObservation, names: list[str]) -> str:
        def who(seat: int) -> str:
            # As the pictures name them: "Hissy (Rusty, AI)", never "Rusty (AI) (Hissy)".
            return character_and_player(obs, names, seat)

        def said(words: Phrase) -> str:
            return say(words, language_of(names), names)

        if obs["finished"]:
            winners = obs["winners"]
            if len(winners) == obs["seats"] and obs["mode"] != "rummy":
                return said(phrase("the game ended in a draw"))
            return said(phrase("winner: {players}", players=listing(who(s) for s in winners)))
        parts = [phrase("turn {n}", n=obs["turns"])]
        if obs["king"] >= 0:
            parts.append(phrase("King of the Heap: {player}", player=who(obs["king"])))
        deciding = obs["to_act"][0] if obs["to_act"] else obs["turn"]
        doing = PHASES.get(obs["phase"], PHASES["over"])
        parts.append(Phrase(doing.text, {"player": who(deciding)}))
        parts.append(phrase("trash pile {n}", n=obs["trash_size"]))
        return " · ".join(said(part) for part in parts)

    def recap(self, obs: BrawlObservation, names: list[str]) -> Picture:
        return Picture("recap.png", draw_recap(obs, names))

    def board(self, obs: BrawlObservation, names: list[str], since: int) -> list[Picture]:
        pictures = [Picture("alley.png", draw_table(obs, names, since))]
        dice = draw_rolls(obs, names, since)
        if dice is not None:
            pictures.append(Picture("dice.png", dice))
        return pictures

    def controls(
        self,
        obs: BrawlObservation,
        legal: list[str],
        describe: Callable[[str], str],
        language: str = ENGLISH,
    ) -> list[Control]:
        return []  # actions name the cards in a hand: they belong in the private reply

    def hand_controls(
        self,
        obs: BrawlObservation,
        legal: list[str],
        describe: Callable[[str], str],
        language: str = ENGLISH,
    ) -> list[Control]:
        """`language`: the presser's, for the menus' own words (the labels are
        `describe`'s)."""
        return hand_controls(obs, legal, describe, language)

    def hand(self, obs: BrawlObservation, names: list[str]) -> HandReply:
        language = language_of(names)

        def said(words: Phrase) -> str:
            return say(words, language, names)

        cards = obs.get("hand") or []
        seat = obs.get("seat")
        character = obs["characters"][seat] if seat is not None else None
        counts: dict[str, int] = {}
        for one in cards:
            counts[one["name"]] = counts.get(one["name"], 0) + 1
        held = [phrase("{n}× {card}", n=n, card=card(title)) for title, n in counts.items()]
        listed = commas(held) if held else phrase("no cards")
        lines = [said(phrase("Your hand ({n}): {cards}.", n=len(cards), cards=listed))]
        if character is not None:
            lines.insert(
                0,
                said(
                    phrase(
                        "You are **{character}**, the {animal}.",
                        character=phrase_in("character", character["name"]),
                        animal=phrase_in("animal", character["animal"]),
                    )
                ),
            )
        left: list[Phrase] = []
        if obs["to_act"] == [seat] and not obs["finished"]:
            if obs["draws"]:
                left.append(phrase("{n} to draw", n=obs["draws"]))
            if obs["discards"]:
                left.append(phrase("{n} to discard", n=obs["discards"]))
            if obs["phase"] == "spoils" and obs["spoils"]:
                left.append(phrase("{n} to take or give", n=obs["spoils"]))
            if left:
                lines.append(said(phrase("Your move ({left}).", left=commas(left))))
            else:
                lines.append(said(phrase("Your move.")))
        lines.append(said(phrase("Only you can see this.")))
        name = names[seat] if seat is not None else ""
        picture = Picture("hand.png", draw_hand(obs, name, language))
        return HandReply("\n".join(lines), [picture])

    def narrowed(self, obs: BrawlObservation, group: str, names: list[str]) -> HandReply | None:
        return HandReply(say(group_question(group), language_of(names), names))
