"""How a Dumpster Brawl! hand's choices gather in menus: what an action does (its verb),
the menu entry it sits under (`group_of`), and the words for an entry standing for
several actions. The grammar of actions is the engine's, so it is read here and nowhere
else.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.brawl.labels import card_name
from rules.words import plural


def verb_of(action: str) -> str:
    """What an action does: `discard`, `give`, `attack`, `lay`, `play`, ..."""
    return action.split()[0]


def group_of(action: str) -> str:
    """The menu entry an action belongs to: itself, or a group shared with others
    (`lay pizza`, `play swap p2`, `play sweep pizza`, `play peek`, and `attack p2` for the
    attack with or without Extra Elbow)."""
    words = action.split()
    if words[0] in ("attack", "lay"):
        return " ".join(words[:2])
    if words[0] == "play" and words[1] in ("swap", "sweep") and len(words) > 3:
        return " ".join(words[:3])
    if words[0] == "play" and words[1] == "peek":
        return "play peek"
    return action


def group_wording(
    group: str, members: list[str], describe: Callable[[str], str]
) -> tuple[str, str]:
    """The label and the note of a menu entry for the several actions under `group`."""
    words = group.split()
    if words[0] == "lay":
        cards = plural(card_name(words[1]), 2)  # some of a kind: how many comes next
        return f"Lay down {cards} …", f"then choose how many ({len(members)} ways)"
    if words[0] == "attack":
        return f"{describe(group)} …", "then choose whether to add Extra Elbow"
    if words[1] == "peek":
        return "Play Sneak Peek …", "then choose whose hand"
    if words[1] == "swap":
        with_whom = describe(members[0]).split(",")[0]  # "Play Quick Swap: Bob"
        return f"{with_whom} …", "then choose the card you give"
    return f"Play Clean Sweep: {card_name(words[2])} …", "then choose the second card, if any"


def group_question(group: str) -> str:
    """What the buttons under a group's menu entry answer, once the entry is chosen."""
    verb, card = [*group.split(), "", ""][:2]  # a group never made may be short
    if verb == "lay":
        return f"How many {plural(card_name(card), 2)} do you lay down?"
    if verb == "attack":
        return "Do you add Extra Elbow to the attack?"
    played = {
        "peek": "Whose hand do you peek at?",
        "swap": "Which card do you give in the swap?",
        "sweep": "Which second card do you sweep, if any?",
    }
    return played.get(card, "Which one?") if verb == "play" else "Which one?"
