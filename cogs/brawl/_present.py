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
from rules.brawl.data import BOOSTERS, KINDS
from rules.brawl.observation import BrawlObservation

MAX_BUTTONS = 15  # up to this many choices show as buttons (three rows)
MAX_ROWS = 5  # Discord's limit of component rows
NAMES = {kind.key: kind.name for kind in KINDS} | {b.key: b.name for b in BOOSTERS}
NAMES["slug"] = "Slug"

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


def group_of(action: str) -> str:
    """The menu entry an action belongs to: itself, or a prefix shared with others
    (`lay pizza`, `play swap p2`, `play sweep pizza`, `play peek`, and `attack p2` for the
    attack with or without Extra Elbow)."""
    words = action.split()
    if words[0] == "attack":
        return " ".join(words[:2])
    if words[0] == "lay":
        return " ".join(words[:2])
    if words[0] == "play" and words[1] in ("swap", "sweep") and len(words) > 3:
        return " ".join(words[:3])
    if words[0] == "play" and words[1] == "peek":
        return "play peek"
    return action


def group_label(prefix: str, members: list[str], describe: Callable[[str], str]) -> Choice:
    """A menu entry for several actions sharing `prefix`."""
    words = prefix.split()
    if words[0] == "lay":
        label = f"Lay down {NAMES.get(words[1], words[1])} …"
        return Choice(prefix, label, f"then choose how many ({len(members)} ways)")
    if words[0] == "attack":
        return Choice(prefix, f"{describe(prefix)} …", "then choose whether to add Extra Elbow")
    if words[1] == "peek":
        return Choice(prefix, "Play Sneak Peek …", "then choose whose hand")
    if words[1] == "swap":
        with_whom = describe(members[0]).split(",")[0]  # "Play Quick Swap: Bob"
        return Choice(prefix, f"{with_whom} …", "then choose the card you give")
    first = NAMES.get(words[2], words[2])
    return Choice(prefix, f"Play Clean Sweep: {first} …", "then choose the second card, if any")


def hand_controls(legal: list[str], describe: Callable[[str], str]) -> list[Control]:
    if len(legal) <= MAX_BUTTONS:
        return [Buttons([Choice(action, describe(action)) for action in legal])]
    menus: dict[str, list[str]] = {verb: [] for verb, _ in MENUS}
    buttons = []
    attacks = sum(action.startswith("attack ") for action in legal)
    for action in legal:
        verb = action.split()[0]
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
            else group_label(prefix, members, describe)
            for prefix, members in groups.items()
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
        characters = obs["characters"]

        def who(seat: int) -> str:
            return f"{names[seat]} ({characters[seat]['name']})"

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

    def board(self, obs: BrawlObservation, names: list[str], since: int) -> list[Picture]:
        pictures = [Picture("alley.png", draw_table(obs, names))]
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

    def narrowed(self, obs: BrawlObservation, prefix: str, names: list[str]) -> HandReply | None:
        return None  # the buttons' labels say it all
