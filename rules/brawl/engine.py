"""Dumpster Brawl!: the rules engine, for all three ways to play.

Three to six animals rummage through an alley's trash. A hand wins (Round Rummage, King of
the Heap) when it is three or more sets and nothing else: a set is three or more trash cards
of one kind, or two of the holder's affinity kind when trash affinity is on. Slugs, Boosters
and odd cards in hand all block the win. Round Rummage Rummy scores laid-down cards instead.
The tables (kinds, characters, dice, Boosters, Blockers) are in `data.py`.

Setup (rulebook): characters are picked (lobby option `characters`, else drawn at random),
the chosen Slugs and Boosters are shuffled into the trash, everyone rolls one die for the
start player (a lid drops out, a crowbar rolls on, all lids roll again, until one crowbar is
left), the start player deals one card at a time clockwise, as many cards each as there are
players but at least four, and only then are the Blockers shuffled in. Seats sit clockwise
in seat order: a seat's left neighbour is the next seat.

Round Rummage, each turn (phases in `observe`):

- "declare": the attacker declares draw (one or two cards), discard (one or two, to the
  discard pile), both (one of each, in either order) or neither;
- "pre": the declared draws and discards, one card per action, then the attack: naming
  an opponent ends the phase, what is left of the declaration is given up;
- "defend": the defender may add Boosters to the defence (asked only when Extra Elbow or
  Sturdy Lid is in the game, so the pace tells nothing about a hand);
- the dice: six blue for the attacker, five green for the defender, rolled by the engine;
- "wind": each fighter holding nothing or Second Wind says keep or reroll (asked only when
  Second Wind is in the game);
- "spoils": the fight's winner takes or gives cards: the attacker one (take a random card
  or give one), the defender up to two in any mix;
- the attacker's rummage roll (six blue), then "rummage": draw up to the pluses, then
  discard up to the minuses, one card per action, "done" to stop; right after the roll,
  before using it, the roller may "reroll" it with Second Wind.

King of the Heap: the start player is King; seats attack the King in turn, the first the
King's left neighbour, then counter-clockwise (the previous seat), skipping the King. The
"attack" phase offers only the King; the tie goes to the King; a winning attacker becomes
King and rummages with six blue dice, a King who holds rummages with six green.

Round Rummage Rummy: no affinity, no discard to the pile. "pre" offers up to two draws, then
the attack; "go out" when the whole hand can be laid down. After the fight ("lay"), first the
attacker then the defender lay down cards until "done": the first lay-down of a player is a
set of three or more of a kind; after it, sets of three or more, any number onto one's own
set of that kind, or one or more of a kind someone else has a set of. The game ends the
moment a player has no cards and a set down (a steal can do it); points are one per card laid
and two for going out; ties go to most cards laid, then a crowbar roll-off.

House rules applied: victory is checked after every action, for every seat, and declared by
the bot; simultaneous winners are split by the larger winning hand, then six-dice crowbar
roll-offs. A Blocker is resolved the moment it is drawn and set aside, before any further
card is drawn (Dumpster Dive's second draw waits for a Garbage Truck's discards); Boosters
are played from hand (then go face down to the discard pile).

Table rules of this bot, where the rulebook and the house rules are silent (each tested):

- A Blocker drawn uses up the draw it came from (the drawer does not draw a replacement).
- The trash pile is refilled from the shuffled discard pile the moment a card is to be drawn
  from an empty trash pile; drawing is not offered when both piles are empty.
- Drawing from the discard pile takes its top card, face down and blind.
- Garbage Truck: starting with the drawer and going clockwise, each player with cards
  discards one of their choice (a player with no cards is skipped); the interrupted turn
  (or Dumpster Dive) then goes on.
  In Rummy, which has no discard, the Truck is set aside like any Blocker and nobody
  discards (so no hand is emptied by it), in step with Clean Sweep there.
- Stink Cloud: drawn on your own turn, it lasts to the end of your next turn; drawn on
  someone else's, to the end of your next turn. In King of the Heap every fight counts as
  a turn of both the attacker and the King. In Rummy it forbids going out: no "go out",
  and no lay-down of one's last card (laying down while keeping a card is allowed).
- Slippery Lid skips the drawer's next rummage roll (the fight's spoils still happen).
- Booster timing: the phases in which each Booster may be played are the `phases` column
  of `data.BOOSTERS` (docs/rules/README.md shows the table). Extra Elbow goes with the
  attack ("attack p1 elbow") or into "defend"; Sturdy Lid into "defend"; Second Wind in
  "wind" (once per fighter per fight) and right after a rummage roll, never after a
  roll-off (the engine rolls those to settle a finished game). "Your turn" (Dive, before
  attacking; Peek, Swap, Sweep) is every phase in which the turn's attacker decides.
- Clean Sweep discards up to two cards, none included; in Rummy, which has no discard, it
  is played alone and only leaves the hand.
- A game that reaches 400 turns ends; Rummy is scored as it stands (no going-out bonus),
  the other modes end in a draw for all. Rummy also ends, scored the same way, when a turn
  ends with both piles empty.
- In KotH the next attacker follows the last attacker counter-clockwise, skipping the King.
- Rummy: when two players could go out at once, the one who emptied a hand by the action
  taken goes out; "go out" is offered in "pre" and "lay".

Actions (seats `p0`..`p5`, cards named by their key in `data.py`):

    declare draw|discard|both|neither      Round Rummage, before the attack
    draw trash | draw discard              one card from the trash or discard pile
    discard <kind>                         one card from hand to the discard pile
    attack p<N> [elbow]                    attack a seat (with Extra Elbow)
    defend [elbow] [lid]                   the defender's Boosters (or none)
    keep | reroll                          Second Wind after the combat roll
    reroll                                 Second Wind right after the rummage roll
    take | give <kind> | done              spoils; "done" also ends a rummage or lay-down
    play dive | play peek p<N> | play sweep alone|<kind> [<kind>] | play swap p<N> <kind>
    lay <kind> <n> | go out                Rummy lay-downs

The engine ties the parts together: `state.py` (state, reading it, JSON), `actions.py` (an
action's text read into its typed move), `legal.py`, `phases.py` (the phase table of moves)
and `table.py` (the working copy they change), `setup.py`, `view.py` and `labels.py`; its
AI at three levels is `levels.py` (`sample.py` draws the worlds the hard level searches).
Outside code imports the names below from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rules.base import (
    Applied,
    Chooser,
    Codec,
    Event,
    Game,
    IllegalAction,
    Option,
    Outcome,
    one_seat,
    with_last_move,
)
from rules.brawl import levels as brawl_ai
from rules.brawl.actions import parse_action
from rules.brawl.data import (
    CHARACTERS,
    DEFAULT_BLOCKERS,
    DEFAULT_BOOSTERS,
    DEFAULT_SLUGS,
)
from rules.brawl.groups import group_of
from rules.brawl.labels import describe_action, why_not
from rules.brawl.legal import legal_moves
from rules.brawl.observation import BrawlObservation
from rules.brawl.phases import perform
from rules.brawl.setup import new_state, opening_events, start_roll
from rules.brawl.state import (
    KING,
    MODES,
    ROLL_PURPOSES,
    ROUND,
    RUMMY,
    SCHEMA,
    TURN_LIMIT,
    State,
    crowbars,
    die_value,
    pluses,
    rummy_points,
    to_act,
    winning_hand,
)
from rules.brawl.table import _Table
from rules.brawl.view import observe
from rules.phrases import Phrase, phrase, term

__all__ = [
    "BRAWL",
    "KING",
    "MODES",
    "ROLL_PURPOSES",
    "ROUND",
    "RUMMY",
    "TURN_LIMIT",
    "Brawl",
    "State",
    "_Table",
    "crowbars",
    "die_value",
    "legal_moves",
    "new_state",
    "opening_events",
    "pluses",
    "rummy_points",
    "start_roll",
    "to_act",
    "winning_hand",
]

# ---------------------------------------------------------------------------------------------
# The game


class Brawl(Game[State, BrawlObservation]):
    key = "brawl"
    title = "Dumpster Brawl!"
    tagline = term(
        "tagline",
        "Alley animals dig through one dumpster: the first whose whole hand is sets wins.",
    )
    min_seats = 3
    max_seats = 6
    ai: ClassVar[Chooser] = brawl_ai
    codec: ClassVar[Codec] = Codec(State, SCHEMA)
    options = (
        Option(
            "mode",
            "How to play",
            MODES,
            ROUND,
            # The rulebook's names, each with a few plain words: "Round Rummage" alone
            # reads like a round of the game rather than a way to play it.
            (
                term("choice", "Round Rummage: everyone attacks in turn"),
                term("choice", "King of the Heap: only the King rummages"),
                term("choice", "Round Rummage Rummy: lay down sets for points"),
            ),
            heading=term("lobby option", "Way to play"),
            ways=True,
        ),
        Option(
            "affinity",
            "Trash affinity: two of your character's item make a set (never in Rummy)",
            ("on", "off"),
            "on",
            heading=term("lobby option", "Trash affinity"),
        ),
        Option(
            "slugs",
            "Slug cards shuffled in",
            (),
            str(DEFAULT_SLUGS),
            low=0,
            high=6,
            heading=term("lobby option", "Slug cards"),
        ),
        Option(
            "boosters",
            "Booster cards shuffled in",
            (),
            str(DEFAULT_BOOSTERS),
            low=0,
            high=7,
            heading=term("lobby option", "Booster cards"),
        ),
        Option(
            "blockers",
            "Blocker cards shuffled in after the deal",
            (),
            str(DEFAULT_BLOCKERS),
            low=0,
            high=5,
            heading=term("lobby option", "Blocker cards"),
        ),
    )
    seat_pick = Option(
        "characters",
        # The lobby's menu says it (no slash command carries it).
        term("lobby pick", "Your character (its affinity item needs only two for a set)."),
        tuple(c.key for c in CHARACTERS),
        "",
        # Each character as the lobby's menu offers it: name, animal and affinity item (a
        # test checks these against data.py).
        (
            term("choice", "Iscratchu, alley cat (Take Out)"),
            term("choice", "Moosetache, moose (Stuffed Bear)"),
            term("choice", "Bandit, raccoon (Pizza Box)"),
            term("choice", "Squeakers, rat (Apple Core)"),
            term("choice", "Hissy, possum (Soda Can)"),
            term("choice", "Gulliver, seagull (Fish Bones)"),
        ),
    )

    def keeps_points_with(self, options: Mapping[str, str]) -> bool:
        return options.get("mode") == RUMMY  # the other ways end at the first whole hand

    def settle_options(self, chosen: dict[str, str]) -> dict[str, str]:
        if chosen.get("mode") == RUMMY:
            return {**chosen, "affinity": "off"}  # Rummy never uses affinity: the lobby says so
        return chosen

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction(phrase("Dumpster Brawl! takes 3 to 6 players."))
        return new_state(seats, options, seed)

    def opening_events(self, state: State) -> list[Event]:
        return opening_events(state)

    def to_act(self, state: State) -> frozenset[int]:
        return one_seat(to_act(state))

    def legal_actions(self, state: State, seat: int) -> list[str]:
        return legal_moves(state, seat)

    def apply(self, state: State, seat: int, action: str) -> Applied[State]:
        self.check_turn(state, seat)
        if action not in legal_moves(state, seat):
            raise IllegalAction(why_not(state))
        return with_last_move(perform(state, seat, parse_action(action)).applied(), seat)

    def observe(self, state: State, seat: int | None) -> BrawlObservation:
        return observe(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if not state.finished:
            return None
        winners = set(state.winners)
        if state.mode == RUMMY:
            points = rummy_points(state)
            others = sorted(
                {points[p] for p in range(state.seats) if p not in winners}, reverse=True
            )
            ranks = tuple(
                0 if p in winners else 1 + others.index(points[p]) for p in range(state.seats)
            )
            return Outcome(ranks=ranks, points=tuple(points))
        ranks = tuple(0 if p in winners else 1 for p in range(state.seats))
        return Outcome(ranks=ranks, points=(0,) * state.seats)

    def describe(self, state: State, action: str) -> Phrase:
        return describe_action(action)

    def group_of(self, action: str) -> str:
        return group_of(action)


BRAWL = Brawl()
