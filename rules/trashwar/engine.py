"""Trash War: the rules engine.

Two to six knights each guard a fortress of three Wall cards and throw trash at each
other's walls. A wall that has taken 4 damage topples; a knight whose three walls are all
down is out; the last one standing wins. The deck, values and torches are the table in
`cards.py`.

Setup: three walls and five cards each, a starting player drawn at random (standing in for
the fiercest threat at the table), who opens the war by throwing one Trash card at any
standing wall of any opponent. With no Trash card, the opener discards one card and draws
one: a Trash card drawn is thrown at once, anything else passes the opening to the player on
the left.

A turn belongs to whoever was hit and has these phases, one decision per action:

1. Defence. Each incoming Trash card is met in turn with one card or none: a Shield whose
   value is at least the damage blocks it; a Deflect moves it onto another standing wall of
   the defender's; a Mace bats it at another player (the card says whom: the player on the
   left, on the right, back at whoever sent it, or anyone), the batter then choosing which
   standing wall it flies at; or the defender takes the hit. A Catapult volley (up to three
   Trash cards at one wall) is met card by card, heaviest first. Hits land at once: a wall
   can fall, and a knight can be knocked out, before any burn.
2. Burn or repair (not after a Mace), at most one card: a Burn removes Trash cards from the
   player's own standing walls, across walls, whose damage adds up to at most its value; a
   Repair Wall raises a fallen wall with no damage on it; or pass.
3. Attack (not after a Mace): a Trash card, or a Catapult with one to three Trash cards,
   at any standing wall of any opponent. The attack is compulsory while the hand holds
   Trash. With none, discard one card and draw one: Trash is thrown at once, anything else
   passes the turn to the player on the left.
4. Re-draw to five cards.

The player who is attacked takes the next turn. A player who batted trash with a Mace skips
phases 2 and 3; the turn goes to whoever received the last trash they batted. Seats sit
clockwise in seat order, so a seat's left neighbour is the next seat. The last knight
standing wins; `Outcome.ranks` follow the order of elimination (the winner 0, the last
knight out 1, and so on) and `points` are all 0, the game keeping no score.

Cards leaving play go to the recycle pile, or by their torches (house rule) to the torched
pile in torching phase 1 (1 torch) and phase 2 (1 or 2 torches), or out of the game from
phase 3 on. When the draw pile runs out, the recycle pile is shuffled into a new one, the
torched pile leaves the game and the next torching phase begins.

Table rules of this bot, where the rulebooks and the house rules are silent (tests check
each one):

- The opening attack is a single Trash card, as the rulebook tells it: no Catapult before
  the war has begun. A player passed the opening (no Trash drawn) opens in their turn.
- A turn that starts with no trash incoming (after "play passes to the left", or after the
  knight who held the turn was knocked out) still offers burn or repair before the attack.
  The opener has nothing to burn or repair, so they just attack.
- The player who discards and draws and then passes the turn still re-draws to five.
- A volley is met heaviest card first. Trash aimed at a wall that fell earlier in the same
  volley lands in the rubble and goes to the discard piles; its defender may still bat it
  with a Mace, but a Shield or a Deflect is not offered against it.
- A Deflect moves the trash to another of the defender's standing walls, not the one aimed
  at. A Mace sends trash to a standing wall of a player still in the war; "left" and
  "right" skip players who are out (so with two left, both mean the other one), and
  "back" needs the sender (whoever threw or last batted the card) still in.
- Trash batted during a turn waits until that player's defence is over, then flies. Trash
  batted at a player who does not take the next turn is met by that player at once, as a
  defence of its own (shield, deflect, mace or take the hit) with no burn, repair or
  attack, after which that player re-draws to five. Then the next turn begins.
- When the knight whose turn it is is knocked out and batted nothing, the turn passes to
  the next knight on their left. Trash still flying at a knight who is out goes to the
  discard piles.
- A Burn must burn at least one Trash card. Burn or repair is asked only when the player
  has trash on a standing wall or a fallen wall (otherwise the phase is skipped, which
  tells nobody anything about their hand); when it is asked, "pass" is always there, even
  for a player holding neither card. Likewise a defence is always asked, "take" being
  always there. When "take" or "pass" is a seat's only choice the bot makes it for them
  (`bot.requests.forced_action`), as a player with nothing to answer with does at once
  at a real table; the board then tells no more than that table would.
- Every card that goes to the discard piles (played, discarded, shielded or burned trash,
  the trash of a fallen wall, the hand of a knight who is out) goes where its torches send
  it. Wall cards of seats not in play stay in the box.
- The draw pile is recycled the moment it runs out, if the recycle pile holds any card
  (otherwise as soon as a card is needed and one is there). Should both be empty, a player
  draws what there is; a player with no card left at all when they must attack passes the
  turn to the left.
- A stuck war ends: when no knight still in holds a card and both piles are empty, nobody
  can act again, so the war ends as the turn comes to an empty hand. The knights still in
  with the most walls up win (a tie shares the win); `Outcome.ranks` put the knights still
  in by walls up ahead of those out.

Actions are strings, each under 80 characters. A card is named by its `code` (see
`cards.py`): cards with the same code look the same to the player, so the code names
exactly what its owner can see (of several alike, the one held longest is played). Legal
actions of a seat are shown to that seat only; the only card an action reveals is the one
it plays face up. Seats are `p0`..`p5`, walls `left`, `middle`, `right`. The phase in
`observe` tells which kind of action is due: "attack", "drawn", "defend", "bat", "burn".

    play <trash> at p<N> <wall>                  throw a Trash card (attack)
    play <catapult> <trash> [<trash> [<trash>]] at p<N> <wall>
                                                 a Catapult volley, heaviest first
    discard <card>                               no Trash in hand: discard one and draw
    take                                         let the incoming trash land where aimed
    play <shield>                                block the incoming trash
    play <deflect> <wall>                        move it onto another of your walls
    play <mace>                                  bat it away (then `at`)
    at p<N> <wall>                               where the batted trash flies
    play <burn> <wall> <trash>... [<wall> <trash>...]
                                                 burn trash from your walls
    play <repair> <wall>                         raise a fallen wall
    pass                                         neither burn nor repair

For example `play toaster2 at p1 left`, `play catapult+ drum4+ toaster2 at p2 middle`,
`play shield3`, `play deflect++ right`, `play mace-any++`, `at p0 middle`,
`play burn3 left toaster2 right tv1`, `play repair+ middle`, `discard burn2`. A volley or
a burn with its cards listed in another order is read as the same action.

The engine ties the parts together: `state.py` (state, setup, JSON), `actions.py` (actions and
their words), `legal.py`, `checks.py`, `phases.py` (the phase table of moves) and `table.py`
(the working copy they change) and `view.py` (observations). The AI at its three levels is
`levels.py` (the normal one in `ai.py`; the hard one searches worlds `sample.py` deals).
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
    Outcome,
    one_seat,
    read_parsed,
    with_last_move,
)
from rules.phrases import Filling, phrase, term
from rules.trashwar import levels as trashwar_levels
from rules.trashwar.actions import action_text, describe_action, hand_cards, parse_action
from rules.trashwar.checks import check
from rules.trashwar.groups import (
    MENU_PROMPT,
    group_of,
    group_wording,
    same_choice,
    within_group,
)
from rules.trashwar.legal import legal_attacks, legal_moves
from rules.trashwar.observation import TrashWarObservation
from rules.trashwar.phases import perform
from rules.trashwar.state import (
    ATTACK,
    SCHEMA,
    WALL_NAMES,
    Flight,
    State,
    Wall,
    new_state,
    opening_event,
    to_act,
    walls_up,
)
from rules.trashwar.view import observe

__all__ = [
    "TRASH_WAR",
    "WALL_NAMES",
    "Flight",
    "State",
    "TrashWar",
    "Wall",
    "action_text",
    "legal_moves",
    "parse_action",
    "to_act",
]

# ---------------------------------------------------------------------------------------------
# The game


class TrashWar(Game[State, TrashWarObservation]):
    key = "trashwar"
    title = "Trash War"
    keeps_points = False  # the last wall standing wins; nothing is counted
    tagline = term(
        "tagline", "Knights hurl junk at each other's walls; the last with a wall standing wins."
    )
    min_seats = 2
    max_seats = 6
    ai: ClassVar[Chooser] = trashwar_levels
    codec: ClassVar[Codec] = Codec(State, SCHEMA)
    options = ()
    remembered = ("reshuffled",)

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction(
                phrase(
                    "Trash War takes {least} to {most} players.",
                    least=self.min_seats,
                    most=self.max_seats,
                )
            )
        # No lobby option changes the rules; options other games use are ignored.
        return new_state(seats, seed)

    def opening_events(self, state: State) -> list[Event]:
        """What to log when the game starts (`new_game` returns the state only)."""
        return [opening_event(state.starter)]

    def to_act(self, state: State) -> frozenset[int]:
        return one_seat(to_act(state))

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat != to_act(state):
            return []
        if state.phase == ATTACK:
            return legal_attacks(state, seat)  # the longest lists: straight to text
        return [action_text(action) for action in legal_moves(state)]

    def apply(self, state: State, seat: int, action: str) -> Applied[State]:
        self.check_turn(state, seat)
        parsed = parse_action(action)
        check(state, seat, parsed)
        return with_last_move(perform(state, seat, parsed).applied(), seat)

    def observe(self, state: State, seat: int | None) -> TrashWarObservation:
        view = observe(state, seat)
        if view["hand"] is not None and seat is not None and seat == to_act(state):
            # Which cards a move open now would play: the hand picture dims the others.
            used = {c for a in self.legal_actions(state, seat) for c in hand_cards(parse_action(a))}
            view["playable"] = [card["code"] in used for card in view["hand"]]
        return view

    def outcome(self, state: State) -> Outcome | None:
        if not state.finished:
            return None
        # Knights still in rank by walls up (one of them, unless the war got stuck), then
        # those knocked out, the last out first.
        ups = sorted({walls_up(state, p) for p in range(state.seats) if p not in state.eliminated})
        ranks = [0] * state.seats
        for seat in range(state.seats):
            if seat not in state.eliminated:
                ranks[seat] = len(ups) - 1 - ups.index(walls_up(state, seat))
        for place, seat in enumerate(reversed(state.eliminated)):
            ranks[seat] = len(ups) + place
        return Outcome(ranks=tuple(ranks), points=(0,) * state.seats)

    def describe(self, state: State, action: str) -> Filling:
        try:
            parsed = parse_action(action)
        except IllegalAction:
            # A group's button (see `groups.py`): its card; anything else as it is.
            if action == MENU_PROMPT:
                return phrase("Choose your card…")
            return group_wording(action)[0]
        return describe_action(state, parsed)

    def group_of(self, action: str) -> str:
        # The card first, its target after (see `groups.py`).
        return read_parsed(action, parse_action, group_of)

    def same_choice(self, state: State, action: str) -> str:
        # Trash of one damage and torches plays alike whatever its name (see `groups.py`).
        return same_choice(action)

    def describe_in_group(self, state: State, action: str, group: str) -> Filling:
        try:
            parsed = parse_action(action)
        except IllegalAction:
            return action  # an older game's action stands for itself
        if action == group:  # a move that is a group of its own: its whole label
            return describe_action(state, parsed)
        return within_group(parsed)


TRASH_WAR = TrashWar()
