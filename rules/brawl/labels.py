"""The words for Dumpster Brawl! actions: `describe_action` for the log and `why_not`, the
refusal read when an action is not legal now, both phrases (said in the reader's language).
"""

from __future__ import annotations

from rules.brawl.state import ATTACK, DECLARE, DEFEND, LAY, PRE, RUMMAGE, SPOILS, WIND, State
from rules.brawl.words import a_card, card, card_name, several
from rules.phrases import Phrase, SeatName, listing, phrase, phrase_n


def seat_word(word: str) -> SeatName:
    """`p2` of an action, the player in seat 2."""
    return SeatName(int(word[1:]))


# ---------------------------------------------------------------------------------------------
# Labels

_DECLARATIONS = {
    "draw": phrase("Declare: draw one or two"),
    "discard": phrase("Declare: discard one or two"),
    "both": phrase("Declare: discard one and draw one"),
    "neither": phrase("Declare: neither draw nor discard"),
}
_PLAIN = {
    "take": phrase("Take a random card"),
    "go": phrase("Lay down everything and go out"),
    "keep": phrase("Keep the roll"),
    "reroll": phrase("Second Wind: reroll"),
    "done": phrase("Done"),
}


def describe_action(action: str) -> Phrase:
    words = action.split()
    verb = words[0]
    if verb == "declare":
        return _DECLARATIONS[words[1]]
    if verb == "draw":
        if words[1] == "trash":
            return phrase("Draw from the trash pile")
        return phrase("Draw from the discard pile")
    if verb == "discard":
        return phrase("Discard {card}", card=a_card(card_name(words[1])))
    if verb == "attack":
        if len(words) > 2:
            return phrase("Attack {player} with Extra Elbow", player=seat_word(words[1]))
        return phrase("Attack {player}", player=seat_word(words[1]))
    if verb == "defend":
        extra = [card(card_name(w)) for w in words[1:]]
        return phrase("Defend with {cards}", cards=listing(extra)) if extra else phrase("Defend")
    if verb == "give":
        return phrase("Give {card}", card=a_card(card_name(words[1])))
    if verb == "lay":
        return lay_down(card_name(words[1]), int(words[2]))
    if verb in _PLAIN:
        return _PLAIN[verb]
    if action == "play sweep alone":
        return phrase("Play Clean Sweep alone (sweep no other card)")
    if verb == "play":
        rest = [
            seat_word(w) if w[:1] == "p" and w[1:].isdigit() else card(card_name(w))
            for w in words[2:]
        ]
        played = card(card_name(words[1]))
        if not rest:
            return phrase("Play {card}", card=played)
        if len(rest) == 1:
            return phrase("Play {card}: {what}", card=played, what=rest[0])
        return phrase("Play {card}: {first}, {second}", card=played, first=rest[0], second=rest[1])
    return Phrase("{action}", {"action": action})  # an action no rule names: as it is


def lay_down(name: str, n: int) -> Phrase:
    """ "Lay down 3 Fish Bones": `n` cards of the trash kind `name`."""
    return phrase_n(
        "Lay down {n} {card}", "Lay down {n} {cards}", n, card=card(name), cards=several(name)
    )


_WHY = {
    DECLARE: phrase("First declare whether you draw, discard, do both or neither."),
    PRE: phrase("Draw or discard only as declared (one card at a time), then attack."),
    ATTACK: phrase("Now attack: name the player you attack."),
    DEFEND: phrase("Defend, with Extra Elbow or Sturdy Lid if you hold them."),
    WIND: phrase("Keep the roll, or reroll it with Second Wind if you hold it."),
    SPOILS: phrase("Take a random card, give one of yours, or be done."),
    RUMMAGE: phrase("Draw up to your pluses, then discard up to your minuses, or be done."),
    LAY: phrase("Lay down a set of three or more, or cards onto a set on the table, or be done."),
}


def why_not(state: State) -> Phrase:
    """The rule a refused action breaks, in a player's words."""
    if state.truck:
        return phrase("Garbage Truck: discard one card of your choice first.")
    return _WHY.get(state.phase, phrase("The rules do not allow that now."))


def lays_down(seat: int, name: str, n: int) -> Phrase:
    """The log's line for a Rummy lay-down: "Bob lays down 3 Milk Jugs."."""
    return phrase_n(
        "{player} lays down {n} {card}.",
        "{player} lays down {n} {cards}.",
        n,
        player=SeatName(seat),
        card=card(name),
        cards=several(name),
    )
