"""The words for Dumpster Brawl! actions: `describe_action` for the log and `why_not`, the
refusal read when an action is not legal now.
"""

from __future__ import annotations

from rules.brawl.data import CARDS, KIND_INDEX, KINDS
from rules.brawl.state import ATTACK, DECLARE, DEFEND, LAY, PRE, RUMMAGE, SPOILS, WIND, State
from rules.words import counted, with_article

# ---------------------------------------------------------------------------------------------
# Labels


def card_name(key: str) -> str:
    if key in KIND_INDEX:
        return KINDS[KIND_INDEX[key]].name
    return next((c.name for c in CARDS if c.key == key), key)


def describe_action(action: str) -> str:
    words = action.split()
    verb = words[0]
    if verb == "declare":
        return {
            "draw": "Declare: draw one or two",
            "discard": "Declare: discard one or two",
            "both": "Declare: discard one and draw one",
            "neither": "Declare: neither draw nor discard",
        }[words[1]]
    if verb == "draw":
        return "Draw from the trash pile" if words[1] == "trash" else "Draw from the discard pile"
    if verb == "discard":
        return f"Discard {with_article(card_name(words[1]))}"
    if verb == "attack":
        return f"Attack {words[1].replace('p', '{p')}}}" + (
            " with Extra Elbow" if len(words) > 2 else ""
        )
    if verb == "defend":
        extra = " and ".join(card_name(w) for w in words[1:])
        return f"Defend with {extra}" if extra else "Defend"
    if verb == "take":
        return "Take a random card"
    if verb == "give":
        return f"Give {with_article(card_name(words[1]))}"
    if verb == "lay":
        return f"Lay down {counted(int(words[2]), card_name(words[1]))}"
    if verb == "go":
        return "Lay down everything and go out"
    if verb == "keep":
        return "Keep the roll"
    if verb == "reroll":
        return "Second Wind: reroll"
    if verb == "done":
        return "Done"
    if action == "play sweep alone":
        return "Play Clean Sweep alone (sweep no other card)"
    if verb == "play":
        rest = [
            w.replace("p", "{p") + "}" if w[:1] == "p" and w[1:].isdigit() else card_name(w)
            for w in words[2:]
        ]
        return f"Play {card_name(words[1])}" + (": " + ", ".join(rest) if rest else "")
    return action


_WHY = {
    DECLARE: "First declare whether you draw, discard, do both or neither.",
    PRE: "Draw or discard only as declared (one card at a time), then attack.",
    ATTACK: "Now attack: name the player you attack.",
    DEFEND: "Defend, with Extra Elbow or Sturdy Lid if you hold them.",
    WIND: "Keep the roll, or reroll it with Second Wind if you hold it.",
    SPOILS: "Take a random card, give one of yours, or be done.",
    RUMMAGE: "Draw up to your pluses, then discard up to your minuses, or be done.",
    LAY: "Lay down a set of three or more, or cards onto a set on the table, or be done.",
}


def why_not(state: State) -> str:
    """The rule a refused action breaks, in a player's words."""
    if state.truck:
        return "Garbage Truck: discard one card of your choice first."
    return _WHY.get(state.phase, "The rules do not allow that now.")
