"""How a Dumpster Brawl! hand's choices gather in menus: what an action does (its verb),
the menu entry it sits under (`group_of`), and the words for an entry standing for
several actions. The grammar of actions is the engine's, so it is read here and nowhere
else.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.brawl.words import card_name, several
from rules.phrases import Filling, Phrase, phrase, phrase_n


def verb_of(action: str) -> str:
    """What an action does: `discard`, `give`, `attack`, `lay`, `play`, ..."""
    return action.split()[0]


def group_of(action: str) -> str:
    """The menu entry an action belongs to: itself, or a group shared with others
    (`lay pizza`, `play swap p2`, `play peek`, and `attack p2` for the attack with or
    without Extra Elbow). Each Clean Sweep is its own: the cards swept are picked together
    (`plans.sweep_of`)."""
    words = action.split()
    if words[0] in ("attack", "lay"):
        return " ".join(words[:2])
    if words[0] == "play" and words[1] == "swap" and len(words) > 3:
        return " ".join(words[:3])
    if words[0] == "play" and words[1] == "peek":
        return "play peek"
    return action


def group_wording(
    group: str, members: list[str], describe: Callable[[str], Filling]
) -> tuple[Phrase, Phrase]:
    """The label and the note of a menu entry for the several actions under `group`."""
    words = group.split()
    if words[0] == "lay":
        cards = several(card_name(words[1]))  # some of a kind: how many comes next
        return phrase("Lay down {cards} …", cards=cards), phrase_n(
            "then choose how many ({n} way)", "then choose how many ({n} ways)", len(members)
        )
    if words[0] == "attack":
        return phrase("{action} …", action=describe(group)), phrase(
            "then choose whether to add Extra Elbow"
        )
    if words[1] == "peek":
        return phrase("Play Sneak Peek …"), phrase("then choose whose hand")
    # "Play Quick Swap: Bob …"
    return phrase("{action} …", action=describe(group)), phrase("then choose the card you give")


_PLAYED = {
    "peek": phrase("Whose hand do you peek at?"),
    "swap": phrase("Which card do you give in the swap?"),
}


def group_question(group: str) -> Phrase:
    """What the buttons under a group's menu entry answer, once the entry is chosen."""
    verb, kind = [*group.split(), "", ""][:2]  # a group never made may be short
    if verb == "lay":
        return phrase("How many {cards} do you lay down?", cards=several(card_name(kind)))
    if verb == "attack":
        return phrase("Do you add Extra Elbow to the attack?")
    which = phrase("Which one?")
    return _PLAYED.get(kind, which) if verb == "play" else which
