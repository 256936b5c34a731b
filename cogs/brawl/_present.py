"""How Dumpster Brawl! looks in a channel.

Hands are secret, so the board carries no play controls: the seat to act presses "My hand"
and decides privately. A hand can grow large and a turn can offer many choices (a card to
give, a pair to sweep, a number to lay down), so beyond a row of buttons the choices are
sorted into menus by what they do; a menu entry that stands for several actions ("lay down
Pizza Boxes") is finished with buttons in a private reply.
"""

from __future__ import annotations

from collections.abc import Callable

from cogs.shared.presenter import Buttons, Choice, Control, HandReply, Menu, Picture
from render.brawl import draw_hand, draw_rolls, draw_table
from render.brawl.recap import draw_recap
from render.brawl.words import who as character_and_player
from rules.brawl.groups import group_of, group_question, group_wording, verb_of
from rules.brawl.observation import BrawlObservation

MAX_BUTTONS = 15  # up to this many choices show as buttons (three rows)
MAX_ROWS = 5  # Discord's limit of component rows

PHASES = {
    "declare": "declaring draw or discard",
    "pre": "drawing and discarding before the attack",
    "attack": "choosing whom to attack",
    "defend": "defending",
    "wind": "deciding on Second Wind",
    "spoils": "taking the spoils of the fight",
    "rummage": "rummaging",
    "lay": "laying down cards",
    "over": "over",
}

# Menus by what an action does: (its first words, the menu's placeholder).
MENUS = (
    ("discard", "Discard a card…"),
    ("give", "Give a card…"),
    ("attack", "Attack…"),
    ("lay", "Lay down…"),
    ("play", "Play a Booster…"),
)


def hand_controls(legal: list[str], describe: Callable[[str], str]) -> list[Control]:
    if len(legal) <= MAX_BUTTONS:
        return [Buttons([Choice(action, describe(action)) for action in legal])]
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
        choices = [
            Choice(members[0], describe(members[0]))
            if len(members) == 1
            else Choice(group, *group_wording(group, members, describe))
            for group, members in groups.items()
        ]
        if choices:
            controls.append(Menu(placeholder, choices))
    if buttons:
        controls.append(Buttons([Choice(action, describe(action)) for action in buttons]))
    return fitted(controls)


def rows(controls: list[Control]) -> int:
    count = 0
    for control in controls:
        if isinstance(control, Menu):
            count += -(-len(control.choices) // 25)
        else:
            count += -(-len(control.actions) // 5)
    return count


def fitted(controls: list[Control]) -> list[Control]:
    """Within Discord's five rows: when the menus and buttons would need more, everything
    goes into one menu (split in parts of 25)."""
    if rows(controls) <= MAX_ROWS:
        return controls
    choices: list[Choice] = []
    for control in controls:
        choices += control.choices if isinstance(control, Menu) else control.actions
    return [Menu("Choose your move…", choices)]


class BrawlPresenter:
    kind = "brawl"
    private_controls = True
    hand_label = "My hand"

    def summary(self, obs: BrawlObservation, names: list[str]) -> str:
        def who(seat: int) -> str:
            # As the pictures name them: "Hissy (Rusty, AI)", never "Rusty (AI) (Hissy)".
            return character_and_player(obs, names, seat)

        if obs["finished"]:
            winners = obs["winners"]
            if len(winners) == obs["seats"] and obs["mode"] != "rummy":
                return "the game ended in a draw"
            return "winner: " + " and ".join(who(seat) for seat in winners)
        parts = [f"turn {obs['turns']}"]
        if obs["king"] >= 0:
            parts.append(f"King of the Heap: {who(obs['king'])}")
        deciding = obs["to_act"][0] if obs["to_act"] else obs["turn"]
        parts.append(f"{who(deciding)} is {PHASES.get(obs['phase'], obs['phase'])}")
        parts.append(f"trash pile {obs['trash_size']}")
        return " · ".join(parts)

    def recap(self, obs: BrawlObservation, names: list[str]) -> Picture:
        return Picture("recap.png", draw_recap(obs, names))

    def board(self, obs: BrawlObservation, names: list[str], since: int) -> list[Picture]:
        pictures = [Picture("alley.png", draw_table(obs, names, since))]
        dice = draw_rolls(obs, names, since)
        if dice is not None:
            pictures.append(Picture("dice.png", dice))
        return pictures

    def controls(
        self, obs: BrawlObservation, legal: list[str], describe: Callable[[str], str]
    ) -> list[Control]:
        return []  # actions name the cards in a hand: they belong in the private reply

    def hand_controls(
        self, obs: BrawlObservation, legal: list[str], describe: Callable[[str], str]
    ) -> list[Control]:
        return hand_controls(legal, describe)

    def hand(self, obs: BrawlObservation, names: list[str]) -> HandReply:
        cards = obs.get("hand") or []
        seat = obs.get("seat")
        name = names[seat] if seat is not None else ""
        character = obs["characters"][seat] if seat is not None else None
        counts: dict[str, int] = {}
        for card in cards:
            counts[card["name"]] = counts.get(card["name"], 0) + 1
        listed = ", ".join(f"{n}× {title}" for title, n in counts.items()) or "no cards"
        lines = [f"Your hand ({len(cards)}): {listed}."]
        if character is not None:
            lines.insert(0, f"You are **{character['name']}**, the {character['animal']}.")
        left = []
        if obs["to_act"] == [seat] and not obs["finished"]:
            if obs["draws"]:
                left.append(f"{obs['draws']} to draw")
            if obs["discards"]:
                left.append(f"{obs['discards']} to discard")
            if obs["phase"] == "spoils" and obs["spoils"]:
                left.append(f"{obs['spoils']} to take or give")
            lines.append("Your move" + (f" ({', '.join(left)})." if left else "."))
        lines.append("Only you can see this.")
        return HandReply("\n".join(lines), [Picture("hand.png", draw_hand(obs, name))])

    def narrowed(self, obs: BrawlObservation, group: str, names: list[str]) -> HandReply | None:
        return HandReply(group_question(group))
