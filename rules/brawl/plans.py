"""Dumpster Brawl!'s decisions in one press each: the engine takes a card per action, a
player decides "draw two" or "discard these two" at once. `one_presses` lists, for a seat's
own view, the choices that play several actions in one press (a plan: the session service
plays them in order while each is still open to the seat, so a Blocker drawn stops a draw
of two) and the menus of the hand's cards that take several picks at once. The presenter
only shows them; the action words are read and written here, with the engine's grammar.

- declare: a draw of one or two from either pile (declared and drawn), a draw and a
  discard declared with the draw made, a discard of one or two picked from the hand, and
  an attack straight away (nothing declared);
- the draws and discards left before the attack, or won in a rummage: all the draws in one
  press (or one, for fewer), the discards as one pick of several (a rummage's ending it);
- spoils of two: take two, take one, give one or two, take one and give one;
- Clean Sweep: the cards swept picked together (`sweep_of` makes the one action);
- Rummy's lay-downs: the most of each kind, any kinds picked together, then done.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.brawl.actions import Attack, Lay, Sweep, parse_action
from rules.brawl.observation import BrawlObservation
from rules.brawl.words import card, card_name
from rules.phrases import Phrase, phrase, phrase_n

PILES = ("trash", "discard")


def draw_label(pile: str, n: int) -> Phrase:
    if pile == "trash":
        return phrase_n(
            "Draw {n} card from the trash pile", "Draw {n} cards from the trash pile", n
        )
    return phrase_n(
        "Draw {n} card from the discard pile", "Draw {n} cards from the discard pile", n
    )


DRAW_AND_DISCARD = {
    "trash": phrase("Draw 1 card from the trash pile, then discard 1"),
    "discard": phrase("Draw 1 card from the discard pile, then discard 1"),
}


@dataclass(frozen=True)
class OnePress:
    """A choice: its `actions` played in order in one press. `label` None: the last
    action's own words (they may name a player), after `first`'s when given (what the
    plan does before it: "Draw 2 cards from the trash pile → Attack Bob")."""

    actions: tuple[str, ...]
    label: Phrase | None = None
    first: Phrase | None = None


@dataclass(frozen=True)
class Picks:
    """A menu of which up to `most` options are picked at once: their actions played in
    the menu's order, between `before` and `after`. With `sweep` the picked cards make one
    Clean Sweep instead (`sweep_of`)."""

    placeholder: Phrase
    options: list[OnePress]
    most: int = 1
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    sweep: bool = False


@dataclass
class OnePresses:
    """Buttons and menus for a decision, and the legal actions they offer (no other control
    need offer those)."""

    buttons: list[OnePress] = field(default_factory=list)
    menus: list[Picks] = field(default_factory=list)
    covered: set[str] = field(default_factory=set)
    sweeps: set[str] = field(default_factory=set)  # the Clean Sweeps of its sweep menu


def one_presses(obs: BrawlObservation, legal: list[str]) -> OnePresses:
    """The one-press choices of the seat whose own view `obs` is, from its legal actions."""
    found = OnePresses()
    if obs["truck"]:  # one card each, whoever is asked
        return found
    phase = obs["phase"]
    if phase == "declare":
        _declare(obs, legal, found)
    elif phase in ("pre", "attack", "rummage"):
        _draws_and_discards(obs, legal, found)
    elif phase == "spoils" and obs["spoils"] >= 2:
        _spoils_of_two(obs, legal, found)
    elif phase == "lay":
        _lay(legal, found)
    _sweep(obs, legal, found)
    return found


def drawable(obs: BrawlObservation, pile: str) -> int:
    """How many cards may be drawn from `pile`: an empty trash pile is refilled from the
    discard pile."""
    return obs["discard_size"] + (obs["trash_size"] if pile == "trash" else 0)


def draws(obs: BrawlObservation, left: int, before: tuple[str, ...] = ()) -> list[OnePress]:
    """All `left` draws from each pile in one press, and a single one for fewer. Drawing
    from the trash pile refills it from the discard pile when it runs out."""
    found = []
    for pile in PILES:
        n = min(left, drawable(obs, pile))
        for count in sorted({n, 1}, reverse=True) if n else ():
            found.append(OnePress((*before, *[f"draw {pile}"] * count), draw_label(pile, count)))
    return found


def card_picks(keys: list[str], verb: str, legal: list[str] | None = None) -> list[OnePress]:
    """One option per card (`keys`, a hand's) whose `verb <key>` is legal (`legal` None:
    every card), two of a kind told apart: "Pizza Box (1 of 2)"."""
    keys = sorted(keys)
    counts = Counter(keys)
    options = []
    seen: Counter[str] = Counter()
    for key in keys:
        action = f"{verb} {key}"
        if legal is not None and action not in legal:
            continue
        seen[key] += 1
        name = card(card_name(key))
        if counts[key] > 1:
            name = phrase("{card} ({i} of {n})", card=name, i=seen[key], n=counts[key])
        options.append(OnePress((action,), name))
    return options


def held_keys(obs: BrawlObservation) -> list[str]:
    return [one["key"] for one in obs["hand"] or []]


def _declare(obs: BrawlObservation, legal: list[str], found: OnePresses) -> None:
    declared = {a for a in legal if a.startswith("declare ")}
    hand = held_keys(obs)
    if "declare draw" in declared:
        found.buttons += draws(obs, 2, ("declare draw",))
    if "declare both" in declared and hand:
        for pile in PILES:
            if drawable(obs, pile):
                actions = ("declare both", f"draw {pile}")
                found.buttons.append(OnePress(actions, DRAW_AND_DISCARD[pile]))
    if "declare discard" in declared and hand:
        options = card_picks(hand, "discard")
        found.menus.append(
            Picks(
                phrase("Discard one or two cards…"),
                options,
                min(2, len(hand)),
                ("declare discard",),
            )
        )
    if "declare neither" in declared:
        # Drawing decides nothing the attack waits on (a win is the bot's to see), so a
        # draw of two and the attack after it are one press too.
        targets = [seat for seat in range(obs["seats"]) if seat != obs["seat"]]
        attacks = [OnePress(("declare neither", a)) for a in attacks_on(targets, hand)]
        if "declare draw" in declared:
            then = attacks_on(targets, hand)
            attacks += draws_then_attacks(obs, 2, then, ("declare draw",))
        found.menus.append(Picks(phrase("Attack, drawing first or not…"), attacks))
    found.covered |= declared


def attacks_on(targets: list[int], hand: list[str]) -> list[str]:
    """The attacks on `targets`, each also with Extra Elbow when the hand holds it."""
    elbow = "elbow" in hand
    return [a for seat in targets for a in (f"attack p{seat}", *[f"attack p{seat} elbow"] * elbow)]


def draws_then_attacks(
    obs: BrawlObservation, left: int, attacks: list[str], before: tuple[str, ...]
) -> list[OnePress]:
    """All `left` draws from the trash pile, then one of the `attacks`."""
    n = min(left, drawable(obs, "trash"))
    if not n:
        return []
    drawing = ("draw trash",) * n
    first = draw_label("trash", n)
    return [OnePress((*before, *drawing, a), first=first) for a in attacks]


def _draws_and_discards(obs: BrawlObservation, legal: list[str], found: OnePresses) -> None:
    """The declared draws and discards left (or a rummage's): the draws in one press, the
    discards picked together. A rummage's discards end it: nothing else is left to do."""
    if "draw trash" in legal:
        found.buttons += draws(obs, obs["draws"])
        found.covered |= {"draw trash", "draw discard"}
        attacks = [a for a in legal if isinstance(parse_action(a), Attack)]
        if attacks:  # before the attack: the draws and the attack in one press
            then = draws_then_attacks(obs, obs["draws"], attacks, ())
            found.menus.append(Picks(phrase("Draw, then attack…"), then))
    hand = held_keys(obs)
    most = min(obs["discards"], len(hand))
    discards = [a for a in legal if a.startswith("discard ")]
    if most >= 2 and discards:
        rummage = obs["phase"] == "rummage"
        after = ("done",) if rummage and "done" in legal else ()
        placeholder = (
            phrase_n(
                "Discard up to {n} card, then stop rummaging…",
                "Discard up to {n} cards, then stop rummaging…",
                most,
            )
            if after
            else phrase("Discard one or two cards…")
        )
        options = card_picks(hand, "discard", legal)
        found.menus.append(Picks(placeholder, options, most, after=after))
        found.covered |= set(discards)


def _spoils_of_two(obs: BrawlObservation, legal: list[str], found: OnePresses) -> None:
    """The defender's two spoils, in any mix, in one press."""
    seat = obs["seat"]
    other = obs["defender"] if seat == obs["turn"] else obs["turn"]
    hand = held_keys(obs)
    if "take" in legal:
        if obs["hand_sizes"][other] >= 2:
            found.buttons.append(OnePress(("take", "take"), phrase("Take 2 random cards")))
        found.buttons.append(OnePress(("take", "done"), phrase("Take 1 random card, then stop")))
    gives = [a for a in legal if a.startswith("give ")]
    if gives:
        placeholder = phrase("Give one or two cards…")
        options = card_picks(hand, "give", legal)
        found.menus.append(Picks(placeholder, options, min(2, len(hand)), after=("done",)))
        if "take" in legal:
            placeholder = phrase("Take a random card, then give one…")
            found.menus.append(Picks(placeholder, options, before=("take",)))
    found.covered |= {"take", *gives}


def _lay(legal: list[str], found: OnePresses) -> None:
    """The most cards of each kind that may be laid down, any kinds picked together, then
    done. Fewer of a kind stay offered one lay-down a press."""
    most: dict[str, Lay] = {}
    for action in legal:
        move = parse_action(action)
        if isinstance(move, Lay) and move.n > most.get(move.kind, Lay(move.kind, 0)).n:
            most[move.kind] = move
    if most and "done" in legal:
        options = [OnePress((f"lay {lay.kind} {lay.n}",)) for lay in most.values()]
        placeholder = phrase("Lay down, then be done…")
        found.menus.append(Picks(placeholder, options, len(options), after=("done",)))
        found.covered |= {o.actions[0] for o in options}


SWEEP_ALONE = "play sweep alone"


def _sweep(obs: BrawlObservation, legal: list[str], found: OnePresses) -> None:
    """The cards a Clean Sweep takes, one or two picked together; played alone it stays a
    button of its own."""
    sweeps = [a for a in legal if a.startswith("play sweep ") and a != SWEEP_ALONE]
    if not sweeps:
        return
    placeholder = phrase("Play Clean Sweep: pick one or two cards…")
    hand = held_keys(obs)
    hand.remove("sweep")  # the Sweep played is not one of the cards swept
    options = card_picks(hand, "play sweep", legal)
    found.menus.append(Picks(placeholder, options, min(2, len(options)), sweep=True))
    found.covered |= set(sweeps)
    found.sweeps = set(sweeps)


def sweep_of(picked: Sequence[str]) -> str:
    """The one Clean Sweep that sweeps the cards of the sweeps `picked` together (each
    `play sweep <key>`), written as the engine lists it."""
    keys: list[str] = []
    for action in picked:
        move = parse_action(action)
        assert isinstance(move, Sweep)
        keys += move.keys
    return " ".join(("play", "sweep", *sorted(keys)))
