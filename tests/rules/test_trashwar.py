"""Trash War: one test per rule, on hand-made tables where that reads best.

Each test says which rule it checks: "(rulebook: ...)" paraphrases the published rules,
"(house rule: ...)" the project's house rules, "(table rule: ...)" a choice this engine made
where both are silent (listed in the engine's docstring).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from rules.base import Event, IllegalAction
from rules.trashwar import ai
from rules.trashwar.cards import BY_CODE, CARDS, DECK_LIST, PLAY_IDS, TRASH_NAMES, WALL_IDS
from rules.trashwar.engine import (
    TRASH_WAR,
    WALL_NAMES,
    Flight,
    State,
    Wall,
    action_text,
    legal_moves,
    parse_action,
)
from rules.trashwar.observation import TrashWarObservation

WALL_INDEX = {name: i for i, name in enumerate(WALL_NAMES)}

# --- Building tables by hand ------------------------------------------------------------------


class Deck:
    """Hands out card ids by code, each id once."""

    def __init__(self) -> None:
        self.free: list[int] = list(PLAY_IDS)

    def take(self, code: str) -> int:
        for k, card in enumerate(self.free):
            if CARDS[card].code == code:
                return self.free.pop(k)
        raise AssertionError(f"no {code} left in the deck")

    def many(self, codes: Sequence[str]) -> tuple[int, ...]:
        return tuple(self.take(code) for code in codes)


def build(
    seats: int = 3,
    *,
    hands: dict[int, list[str]] | None = None,
    walls: dict[int, list[list[str] | None]] | None = None,
    turn: int = 0,
    phase: str = "attack",
    opening: bool = False,
    flight: Sequence[tuple[str, int, str, int]] = (),
    held: Sequence[tuple[str, int, str, int]] = (),
    draw: Sequence[str] | None = None,
    draw_top: Sequence[str] = (),
    recycle: Sequence[str] = (),
    torched: Sequence[str] = (),
    eliminated: Sequence[int] = (),
    torch_phase: int = 1,
    swing: str | None = None,
    drawn: str | None = None,
    seed: int = 7,
) -> State:
    """A table set by hand. `walls[seat]` lists three walls, each the trash on it or None
    for a fallen wall; `flight` and `held` hold (trash code, target, wall name, sender).
    `draw_top` are the next cards drawn (first drawn first); `draw` sets the whole draw
    pile, the unused cards then going out of the game. Hands not given are empty."""
    deck = Deck()
    hand_ids = tuple(deck.many((hands or {}).get(seat, [])) for seat in range(seats))
    drawn_id = None
    if drawn is not None:
        drawn_id = next(c for c in hand_ids[turn] if CARDS[c].code == drawn)
    wall_rows = []
    for seat in range(seats):
        row = []
        for i, trash in enumerate((walls or {}).get(seat, [[], [], []])):
            card = WALL_IDS[seat * 3 + i]
            if seat in eliminated or trash is None:
                row.append(Wall(card, standing=False))
            else:
                row.append(Wall(card, trash=deck.many(trash)))
        wall_rows.append(tuple(row))

    def flights(rows: Sequence[tuple[str, int, str, int]]) -> tuple[Flight, ...]:
        return tuple(
            Flight(deck.take(code), target, WALL_INDEX[wall], sender)
            for code, target, wall, sender in rows
        )

    in_flight, in_held = flights(flight), flights(held)
    recycle_ids, torched_ids = deck.many(recycle), deck.many(torched)
    top = deck.many(draw_top)
    if draw is None:
        draw_ids = tuple(deck.free) + tuple(reversed(top))
        out: tuple[int, ...] = ()
    else:
        draw_ids = tuple(reversed(deck.many(draw))) + tuple(reversed(top))
        out = tuple(deck.free)
    return State(
        seed=seed,
        seats=seats,
        phase=phase,
        turn=turn,
        starter=turn,
        opening=opening,
        torch_phase=torch_phase,
        draw=draw_ids,
        recycle=recycle_ids,
        torched=torched_ids,
        out=out,
        box=WALL_IDS[seats * 3 :],
        hands=hand_ids,
        walls=tuple(wall_rows),
        flight=in_flight,
        held=in_held,
        swing=swing,
        drawn=drawn_id,
        eliminated=tuple(eliminated),
    )


def card_list(state: State) -> list[int]:
    """Every card id wherever it lies: piles, hands, walls and the trash on them, flight."""
    found = [*state.draw, *state.recycle, *state.torched, *state.out, *state.box]
    for hand in state.hands:
        found += hand
    for walls in state.walls:
        for wall in walls:
            found.append(wall.card)
            found += wall.trash
    found += [f.card for f in (*state.flight, *state.held)]
    return found


def cards_in_play(state: State) -> Counter[int]:
    return Counter(card_list(state))


def legal(state: State, seat: int) -> list[str]:
    return TRASH_WAR.legal_actions(state, seat)


def play(state: State, seat: int, action: str) -> State:
    assert action in legal(state, seat), (action, legal(state, seat))
    new: State = TRASH_WAR.apply(state, seat, action).state
    assert cards_in_play(new) == Counter(range(112))
    return new


def texts(state: State, seat: int, action: str) -> list[str]:
    """The public log lines an action writes."""
    events = TRASH_WAR.apply(state, seat, action).events
    return [str(e.text) for e in events if e.to is None]


def said(events: Sequence[Event]) -> list[Event]:
    """Events with their lines in English, as the tests compare them."""
    return [Event(str(e.text), e.to) for e in events]


def refuse(state: State, seat: int, action: str) -> str:
    assert action not in legal(state, seat)
    with pytest.raises(IllegalAction) as caught:
        TRASH_WAR.apply(state, seat, action)
    return str(caught.value)


def codes(cards: Sequence[int]) -> list[str]:
    return [CARDS[c].code for c in cards]


def damage(state: State, seat: int, wall: str) -> int:
    return sum(CARDS[c].value for c in state.walls[seat][WALL_INDEX[wall]].trash)


# --- The deck --------------------------------------------------------------------------------


def test_the_deck_is_the_house_rules_list_of_112_cards() -> None:
    """112 cards: 18 walls; 48 Trash (16 ones, 16 twos, 12 threes, 4 fours); 12 Shields
    (3, 5, 3, 1 of values 1 to 4); 8 Maces, 2 of each direction; 5 Deflects; 5 Catapults;
    9 Burns (4, 3, 2 of values 2 to 4); 7 Repair Walls (house rule: deck list)."""
    assert len(CARDS) == 112 and sum(row.count for row in DECK_LIST) == 112
    faces = Counter((c.kind, c.value, c.direction) for c in CARDS)
    assert faces[("wall", 0, "")] == 18
    assert [faces[("trash", v, "")] for v in (1, 2, 3, 4)] == [16, 16, 12, 4]
    assert [faces[("shield", v, "")] for v in (1, 2, 3, 4)] == [3, 5, 3, 1]
    assert [faces[("mace", 0, d)] for d in ("left", "right", "back", "any")] == [2, 2, 2, 2]
    assert faces[("deflect", 0, "")] == 5 and faces[("catapult", 0, "")] == 5
    assert [faces[("burn", v, "")] for v in (2, 3, 4)] == [4, 3, 2]
    assert faces[("repair", 0, "")] == 7


def test_torches_follow_the_house_rules() -> None:
    """One torch: Trash 4, Shield 4, every Catapult, 3 of the Repair Walls; two torches:
    the "any player" Maces, 2 of the Deflects, Burn 4; none on the rest (house rule)."""
    torches = Counter((c.kind, c.torches) for c in CARDS)
    assert all(c.torches == 1 for c in CARDS if c.kind == "trash" and c.value == 4)
    assert all(c.torches == 0 for c in CARDS if c.kind == "trash" and c.value < 4)
    assert [c.torches for c in CARDS if c.kind == "shield"] == [0] * 11 + [1]
    assert all(c.torches == (2 if c.direction == "any" else 0) for c in CARDS if c.kind == "mace")
    assert torches[("deflect", 2)] == 2 and torches[("deflect", 0)] == 3
    assert torches[("catapult", 1)] == 5
    assert all(c.torches == (2 if c.value == 4 else 0) for c in CARDS if c.kind == "burn")
    assert torches[("repair", 1)] == 3 and torches[("repair", 0)] == 4
    assert torches[("wall", 0)] == 18


def test_trash_flavour_names_are_handed_out_in_turn() -> None:
    """Each Trash card gets the next name of the house rules' list, starting again at the
    end (house rule: trash names, cycled)."""
    trash = [c for c in CARDS if c.kind == "trash"]
    names = [name for _, name, _ in TRASH_NAMES]
    assert [c.name for c in trash] == [names[k % 12] for k in range(48)]
    assert trash[0].a == "a grand piano (1)" and trash[3].a == "some false teeth (1)"
    assert trash[7].a == "an X-ray machine (1)"


def test_a_code_names_exactly_the_cards_that_look_alike() -> None:
    """Cards share a code only when their faces match, so an action names a card by what
    its owner sees (engine contract: actions carry no secret)."""
    by_code: dict[str, set[tuple[object, ...]]] = {}
    for c in CARDS:
        by_code.setdefault(c.code, set()).add((c.kind, c.value, c.torches, c.direction, c.name))
    assert all(len(faces) == 1 for faces in by_code.values())
    assert BY_CODE["deflect++"].torches == 2 and BY_CODE["deflect"].torches == 0
    assert BY_CODE["mace-any++"].direction == "any"
    assert max(len(code) for code in by_code) <= 12


# --- Setup -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_setup_three_walls_and_five_cards_each(seats: int) -> None:
    """Each player sets out three Wall cards face up and is dealt five cards from the rest,
    shuffled; the rest is the draw pile (rulebook: setup). Spare walls stay in the box."""
    state = TRASH_WAR.new_game(seats, {}, 100 + seats)
    assert all(
        len(walls) == 3 and all(w.standing and not w.trash for w in walls) for walls in state.walls
    )
    assert all(CARDS[w.card].kind == "wall" for walls in state.walls for w in walls)
    assert [len(hand) for hand in state.hands] == [5] * seats
    assert all(CARDS[c].kind != "wall" for hand in state.hands for c in hand)
    assert len(state.draw) == 94 - 5 * seats and len(state.box) == 18 - 3 * seats
    assert cards_in_play(state) == Counter(range(112))
    assert state.torch_phase == 1 and state.opening and state.phase == "attack"


def test_the_starting_player_is_random_and_opens_by_attacking() -> None:
    """The opener is picked at random from the seed (issue and rulebook: the fiercest
    threat starts, which the bot draws at random) and begins by throwing trash (rulebook:
    the starting player attacks)."""
    starters = {TRASH_WAR.new_game(4, {}, seed).starter for seed in range(60)}
    assert starters == {0, 1, 2, 3}
    state = TRASH_WAR.new_game(4, {}, 3)
    assert TRASH_WAR.to_act(state) == {state.starter} and state.turn == state.starter
    assert TRASH_WAR.opening_events(state)[0].text.__str__() == (
        f"{{p{state.starter}}} roars the fiercest threat at the table and opens the war."
    )


def test_same_seed_and_actions_give_the_same_game() -> None:
    """One seeded generator per game: same seed, same actions, same state (house rule)."""
    a, b = TRASH_WAR.new_game(3, {}, 11), TRASH_WAR.new_game(3, {}, 11)
    assert a == b
    rng = random.Random(1)
    for _ in range(60):
        (seat,) = TRASH_WAR.to_act(a)
        action = rng.choice(legal(a, seat))
        a, b = play(a, seat, action), play(b, seat, action)
        assert a == b


def test_two_to_six_players() -> None:
    """Trash War takes 2 to 6 players (house rule)."""
    assert (TRASH_WAR.min_seats, TRASH_WAR.max_seats) == (2, 6)
    assert (TRASH_WAR.key, TRASH_WAR.title) == ("trashwar", "Trash War")
    for seats in (1, 7):
        with pytest.raises(IllegalAction, match="2 to 6 players"):
            TRASH_WAR.new_game(seats, {}, 1)


# --- The opening -------------------------------------------------------------------------------


def test_the_opening_attack_is_one_trash_card_at_any_opponents_standing_wall() -> None:
    """The opener throws one Trash card at a wall of their choice of any opponent (rulebook:
    the opening attack); not a Catapult (table rule)."""
    state = build(
        3,
        hands={0: ["tv2", "catapult+", "toaster1", "shield1", "burn2"]},
        walls={2: [[], None, []]},
        opening=True,
    )
    moves = legal(state, 0)
    assert "play tv2 at p1 left" in moves and "play toaster1 at p2 right" in moves
    assert "play tv2 at p2 middle" not in moves  # fallen
    assert not any(m.startswith("play tv2 at p0") for m in moves)
    assert not any("catapult" in m for m in moves)
    assert len(moves) == 2 * 5
    reason = refuse(state, 0, "play catapult+ tv2 toaster1 at p1 left")
    assert reason == "The war opens with a single Trash card, not a Catapult."
    assert refuse(state, 0, "play tv2 at p2 middle") == (
        "That wall has fallen: aim at a standing wall."
    )
    assert refuse(state, 0, "play tv2 at p0 left") == (
        "Throw your trash at an opponent, not at your own walls."
    )
    after = play(state, 0, "play tv2 at p1 left")
    assert not after.opening
    assert "play catapult+ toaster1 at p2 left" in legal(
        build(3, hands={0: ["catapult+", "toaster1"]}), 0
    )


def test_an_opener_without_trash_discards_draws_and_throws_drawn_trash_at_once() -> None:
    """With no Trash card the opener discards one card and draws one; a Trash card drawn
    must be thrown at once (rulebook: the opening attack)."""
    state = build(
        3,
        hands={0: ["shield1", "burn2", "repair", "deflect", "shield2"]},
        opening=True,
        draw_top=["tv3"],
    )
    assert legal(state, 0) == [
        "discard burn2",
        "discard deflect",
        "discard repair",
        "discard shield1",
        "discard shield2",
    ]
    applied = TRASH_WAR.apply(state, 0, "discard shield1")
    state = applied.state
    assert said(applied.events) == [
        Event("{p0} has no Trash: discards a Shield 1 and draws a card."),
        Event("You draw a television (3).", to=0),
        Event("It is Trash: {p0} must throw it at once."),
    ]
    assert state.phase == "drawn" and TRASH_WAR.to_act(state) == {0}
    assert legal(state, 0) == [f"play tv3 at p{p} {w}" for p in (1, 2) for w in WALL_NAMES]
    assert refuse(state, 0, "discard burn2") == (
        "You discard and draw only when it is time to attack."
    )
    state = play(state, 0, "play tv3 at p2 middle")
    assert state.turn == 2 and state.phase == "defend" and not state.opening


def test_an_opener_drawing_no_trash_passes_the_opening_to_the_left() -> None:
    """Drawing anything but Trash passes play to the player on the left (rulebook), who
    now opens the war the same way (table rule)."""
    state = build(
        3,
        hands={1: ["shield1", "burn2", "repair", "deflect", "shield2"], 2: ["tv1", "catapult+"]},
        turn=1,
        opening=True,
        draw_top=["mace-left"],
    )
    applied = TRASH_WAR.apply(state, 1, "discard repair")
    state = applied.state
    assert [str(e.text) for e in applied.events if e.to is None] == [
        "{p1} has no Trash: discards a Repair Wall and draws a card.",
        "The card drawn is no Trash.",
        "Play passes to the left, to {p2}.",
    ]
    assert state.turn == 2 and state.phase == "attack" and state.opening
    assert "mace-left" in codes(state.hands[1]) and len(state.hands[1]) == 5
    assert not any("catapult" in m for m in legal(state, 2))


# --- Turn order --------------------------------------------------------------------------------


def test_turn_order_follows_the_trash() -> None:
    """Whoever is attacked takes the next turn, not the next player round the table
    (rulebook: turn order follows who throws at whom)."""
    state = build(4, hands={0: ["tv2", "shield1"]})
    state = play(state, 0, "play tv2 at p2 right")
    assert state.turn == 2 and TRASH_WAR.to_act(state) == {2}
    assert legal(state, 1) == [] and legal(state, 3) == []
    assert refuse(state, 1, "take") == "It is not your turn."


def test_a_turn_defends_then_burns_then_attacks_then_redraws() -> None:
    """A turn runs defence, burn or repair, counter-attack at any player, then a re-draw
    (rulebook: the four turn phases)."""
    state = build(
        3,
        hands={1: ["shield2", "burn2", "toaster1", "xray3", "repair"]},
        walls={1: [["tv1"], [], []]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "middle", 0)],
    )
    state = play(state, 1, "play shield2")
    assert state.phase == "burn" and state.turn == 1
    state = play(state, 1, "play burn2 left tv1")
    assert state.phase == "attack"
    assert "play xray3 at p2 left" in legal(state, 1) and "play xray3 at p0 left" in legal(state, 1)
    state = play(state, 1, "play xray3 at p2 left")
    assert len(state.hands[1]) == 5 and state.turn == 2


def test_the_redraw_fills_the_hand_to_five() -> None:
    """At the end of a turn the player draws back up to five cards (rulebook: re-draw;
    house rule: hands refill at the re-draw, not card by card)."""
    state = build(
        3,
        hands={1: ["shield2", "toaster1", "xray3", "repair", "burn2"]},
        walls={1: [["tv1"], [], []]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "middle", 0)],
        draw_top=["piano1", "car1", "gator1"],
    )
    state = play(state, 1, "play shield2")
    state = play(state, 1, "play burn2 left tv1")
    assert len(state.hands[1]) == 3  # no drawing in between
    applied = TRASH_WAR.apply(state, 1, "play xray3 at p0 left")
    assert codes(applied.state.hands[1]) == ["toaster1", "repair", "piano1", "car1", "gator1"]
    assert Event("{p1} draws 3 cards.") in said(applied.events)
    assert Event(
        "You draw a grand piano (1), a muscle car (1) and a mutant albino alligator (1).", to=1
    ) in said(applied.events)


# --- Defence: Shield -------------------------------------------------------------------------


@pytest.mark.parametrize("trash", ["tv3", "tv2", "tv1"])
def test_a_shield_3_blocks_trash_of_3_2_and_1(trash: str) -> None:
    """A Shield blocks trash whose damage is at most its defence value: a Shield 3 stops a
    3, a 2 or a 1 (rulebook: shield)."""
    state = build(
        2,
        hands={1: ["shield3", "toaster1"]},
        turn=1,
        phase="defend",
        flight=[(trash, 1, "left", 0)],
    )
    assert "play shield3" in legal(state, 1)
    title = BY_CODE[trash].title
    assert texts(state, 1, "play shield3")[0] == f"{{p1}} shields the {title} with a Shield 3."
    after = play(state, 1, "play shield3")
    assert after.walls[1][0].trash == () and after.flight == ()
    assert codes(after.recycle) == ["shield3", trash]


def test_a_shield_2_cannot_block_a_3() -> None:
    """A Shield whose value is below the damage blocks nothing (rulebook: a 2 cannot stop
    a 3)."""
    state = build(
        2, hands={1: ["shield2", "shield1"]}, turn=1, phase="defend", flight=[("tv3", 1, "left", 0)]
    )
    assert legal(state, 1) == ["take"]
    assert refuse(state, 1, "play shield2") == (
        "A Shield 2 cannot block damage 3: the shield's value must be at least the damage."
    )


# --- Defence: Deflect --------------------------------------------------------------------------


def test_deflect_moves_the_trash_onto_another_wall_of_your_choice() -> None:
    """A Deflect overrides the attacker's aim: the trash hits a wall the defender picks
    (rulebook: deflect); another standing wall, not the one aimed at (table rule)."""
    state = build(
        3,
        hands={1: ["deflect++", "deflect"]},
        walls={1: [["tv3"], [], None]},
        turn=1,
        phase="defend",
        flight=[("toaster2", 1, "left", 0)],
    )
    assert legal(state, 1) == ["take", "play deflect middle", "play deflect++ middle"]
    assert refuse(state, 1, "play deflect right") == (
        "Deflect the trash onto another of your standing walls."
    )
    assert refuse(state, 1, "play deflect left") == (
        "Deflect the trash onto another of your standing walls."
    )
    assert texts(state, 1, "play deflect middle")[:2] == [
        "{p1} deflects the toaster (2) onto their middle wall.",
        "{p1}'s middle wall takes the toaster (2): 2 damage of 4.",
    ]
    state = play(state, 1, "play deflect middle")
    assert damage(state, 1, "middle") == 2 and damage(state, 1, "left") == 3


# --- Defence: Mace -----------------------------------------------------------------------------


def test_mace_left_and_right_bat_at_the_neighbours() -> None:
    """A Mace bats the incoming trash at the player its card names: left is the next seat,
    right the one before (rulebook: mace; table rule: clockwise seat order)."""
    state = build(
        3,
        hands={1: ["mace-left", "mace-right"]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "left", 0)],
    )
    assert legal(state, 1) == ["take", "play mace-left", "play mace-right"]
    lefty = play(state, 1, "play mace-left")
    assert lefty.phase == "bat" and lefty.swing == "left"
    assert legal(lefty, 1) == [f"at p2 {w}" for w in WALL_NAMES]
    righty = play(state, 1, "play mace-right")
    assert legal(righty, 1) == [f"at p0 {w}" for w in WALL_NAMES]
    assert refuse(righty, 1, "at p2 left") == "This Mace (right) cannot bat trash at that player."


def test_with_two_players_left_and_right_maces_both_bat_at_the_other() -> None:
    """With two players both the left and the right Mace mean the other player (house
    rule: two players)."""
    state = build(
        2,
        hands={1: ["mace-left", "mace-right"]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "left", 0)],
    )
    for mace in ("mace-left", "mace-right"):
        swung = play(state, 1, f"play {mace}")
        assert legal(swung, 1) == [f"at p0 {w}" for w in WALL_NAMES]
    # The same holds once a table is down to two: out players are skipped (table rule).
    state = build(
        4,
        hands={1: ["mace-left", "mace-right"]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "left", 3)],
        eliminated=[0, 2],
    )
    for mace in ("mace-left", "mace-right"):
        swung = play(state, 1, f"play {mace}")
        assert legal(swung, 1) == [f"at p3 {w}" for w in WALL_NAMES]


def test_mace_any_player_asks_whom_and_which_wall() -> None:
    """The "any player" Mace bats the trash at any other knight's wall, the batter choosing
    (rulebook: mace; house rule: any player)."""
    state = build(
        4,
        hands={1: ["mace-any++"]},
        walls={3: [[], None, []]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "left", 0)],
        eliminated=[2],
    )
    state = play(state, 1, "play mace-any++")
    assert legal(state, 1) == [
        "at p0 left",
        "at p0 middle",
        "at p0 right",
        "at p3 left",
        "at p3 right",
    ]
    assert refuse(state, 1, "at p2 left") == ("This Mace (any) cannot bat trash at that player.")
    assert refuse(state, 1, "at p3 middle") == "That wall has fallen: aim at a standing wall."


def test_mace_back_returns_the_trash_to_its_sender() -> None:
    """The "back" Mace bats the trash at whoever sent it (rulebook: back to the sender);
    trash batted on counts the batter as its sender, and the sender must still be in the
    war (table rule)."""
    state = build(
        4, hands={2: ["mace-back"]}, turn=2, phase="defend", flight=[("tv2", 2, "left", 3)]
    )
    swung = play(state, 2, "play mace-back")
    assert legal(swung, 2) == [f"at p3 {w}" for w in WALL_NAMES]
    batted = play(play(swung, 2, "at p3 middle"), 3, "take")
    assert batted.walls[3][1].trash and batted.turn == 3
    gone = build(
        4,
        hands={2: ["mace-back"]},
        turn=2,
        phase="defend",
        flight=[("tv2", 2, "left", 3)],
        eliminated=[3],
    )
    assert legal(gone, 2) == ["take"]
    assert refuse(gone, 2, "play mace-back") == "There is nobody that Mace can bat the trash at."


def test_a_mace_ends_the_turn_and_hands_it_to_whoever_received_the_trash() -> None:
    """After a Mace the batter skips to the re-draw and the turn goes to the player who got
    the trash, who now defends against it (rulebook: mace; house rule)."""
    state = build(
        3,
        hands={1: ["mace-left", "burn2", "tv3", "repair", "shield1"]},
        walls={1: [["toaster1"], None, []]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "left", 0)],
        draw_top=["piano1"],
    )
    state = play(state, 1, "play mace-left")
    applied = TRASH_WAR.apply(state, 1, "at p2 right")
    state = applied.state
    assert [str(e.text) for e in applied.events if e.to is None] == [
        "{p1} bats the television (2) at {p2}'s right wall.",
        "{p1} draws 1 card.",
        "The batted trash flies on; the turn passes to {p2}.",
    ]
    assert state.turn == 2 and state.phase == "defend"
    assert state.flight == (Flight(state.flight[0].card, 2, 2, 1),)
    assert len(state.hands[1]) == 5


def test_no_burn_after_a_mace() -> None:
    """A player who used a Mace may not burn (or repair, or attack) that turn (rulebook:
    mace)."""
    state = build(
        3,
        hands={1: ["mace-left", "burn2", "tv3"]},
        walls={1: [["toaster1"], [], []]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "left", 0)],
    )
    state = play(state, 1, "play mace-left")
    assert refuse(state, 1, "play burn2 left toaster1") == "It is not the time to burn or repair."
    state = play(state, 1, "at p2 left")
    assert state.turn == 2 and legal(state, 1) == []
    assert damage(state, 1, "left") == 1


def test_maces_in_a_volley_the_last_receiver_takes_the_turn() -> None:
    """Each Mace redirects one card; the turn passes to whoever received the last batted
    trash (house rule). Batted trash waits until the batter's defence is over; a player
    hit by batted trash who does not get the turn meets it at once with a defence of their
    own and re-draws (table rule)."""
    state = build(
        4,
        hands={1: ["mace-left", "mace-right", "shield1"], 2: ["shield3"]},
        turn=1,
        phase="defend",
        flight=[("tv3", 1, "left", 3), ("toaster2", 1, "left", 3), ("bike1", 1, "left", 3)],
        draw_top=["piano1", "car1", "gator1", "teeth1"],
    )
    state = play(play(state, 1, "play mace-left"), 1, "at p2 middle")
    assert [f.target for f in state.held] == [2] and len(state.flight) == 2
    assert state.turn == 1 and state.phase == "defend"
    assert TRASH_WAR.observe(state, None)["maced"] is True
    state = play(play(state, 1, "play mace-right"), 1, "at p0 right")
    state = play(state, 1, "play shield1")
    # p1's defence is over: p0 got the last batted card and takes the turn, but p2 first
    # meets the card batted at them.
    assert state.turn == 0 and TRASH_WAR.to_act(state) == {2}
    assert [(f.target, CARDS[f.card].code) for f in state.flight] == [(2, "tv3"), (0, "toaster2")]
    assert len(state.hands[1]) == 5
    state = play(state, 2, "play shield3")
    assert len(state.hands[2]) == 5  # re-drew after the defence out of turn
    assert TRASH_WAR.to_act(state) == {0} and state.phase == "defend"
    state = play(state, 0, "take")
    assert damage(state, 0, "right") == 2
    assert state.turn == 0 and state.phase == "burn"


def test_two_maces_at_one_player_make_a_volley_for_them() -> None:
    """Trash batted at the player who takes the turn is all theirs to meet, one defence
    card per card (house rule; rulebook: one defence per incoming card)."""
    state = build(
        2,
        hands={1: ["mace-left", "mace-right"]},
        turn=1,
        phase="defend",
        flight=[("tv3", 1, "left", 0), ("toaster2", 1, "left", 0)],
    )
    state = play(play(state, 1, "play mace-left"), 1, "at p0 left")
    state = play(play(state, 1, "play mace-right"), 1, "at p0 middle")
    assert state.turn == 0 and len(state.flight) == 2
    assert all(f.target == 0 and f.sender == 1 for f in state.flight)


# --- Defence: taking the hit, walls falling ------------------------------------------------


def test_a_wall_falls_at_4_damage_and_its_trash_is_discarded() -> None:
    """A wall that has taken 4 damage topples (rulebook: toppling walls); the trash on it
    goes to the discard piles as if played (house rule)."""
    state = build(
        3,
        hands={1: ["toaster1"]},
        walls={1: [["tv2"], [], []]},
        turn=1,
        phase="defend",
        flight=[("piano1", 1, "left", 0)],
    )
    assert (
        texts(state, 1, "take")[0] == "{p1}'s left wall takes the grand piano (1): 3 damage of 4."
    )
    state = build(
        3,
        hands={1: ["toaster1"]},
        walls={1: [["tv2", "car1"], [], []]},
        turn=1,
        phase="defend",
        flight=[("drum4+", 1, "left", 0)],
    )
    assert texts(state, 1, "take")[0] == (
        "{p1}'s left wall takes the toxic waste drum (4): 7 damage, and the wall falls!"
    )
    state = play(state, 1, "take")
    assert not state.walls[1][0].standing and state.walls[1][0].trash == ()
    assert codes(state.recycle) == ["tv2", "car1"] and codes(state.torched) == ["drum4+"]


def test_a_wall_can_fall_before_a_burn() -> None:
    """Burn cards are no defence: trash lands with its full damage first, so a wall can
    fall before its owner may burn (rulebook: burn or repair)."""
    state = build(
        3,
        hands={1: ["burn4++", "toaster1"]},
        walls={1: [["tv3"], [], []]},
        turn=1,
        phase="defend",
        flight=[("piano1", 1, "left", 0)],
    )
    assert legal(state, 1) == ["take"]
    assert refuse(state, 1, "play burn4++ left tv3") == (
        "Burn or repair comes after the defence, never against incoming."
    )
    state = play(state, 1, "take")
    assert not state.walls[1][0].standing
    assert state.phase == "burn" and legal(state, 1) == ["pass"]


def test_a_knight_whose_last_wall_falls_is_out() -> None:
    """Three walls down and the knight is eliminated (rulebook); their hand goes to the
    discard piles and, having batted nothing, their turn passes to the left (table rule)."""
    state = build(
        4,
        hands={1: ["burn2", "shield4+"], 2: ["tv1"]},
        walls={1: [None, ["tv3"], None]},
        turn=1,
        phase="defend",
        flight=[("toaster1", 1, "middle", 0), ("bike1", 1, "middle", 0)],
    )
    applied = TRASH_WAR.apply(state, 1, "take")
    assert [str(e.text) for e in applied.events] == [
        "{p1}'s middle wall takes the toaster (1): 4 damage, and the wall falls!",
        "{p1}'s last wall is down: {p1} is out of the war.",
        "{p1} is out already: the ruins swallow the exercise bike (1).",
        "The turn passes to {p2}.",
    ]
    state = applied.state
    assert state.eliminated == (1,) and state.hands[1] == ()
    assert "burn2" in codes(state.recycle) and "shield4+" in codes(state.torched)
    assert state.turn == 2 and state.phase == "attack"
    assert TRASH_WAR.outcome(state) is None
    assert legal(state, 2) and not any(" at p1 " in a for a in legal(state, 2))


def test_a_knight_with_one_wall_standing_is_still_in() -> None:
    """A knight is out only when all three walls are down (rulebook: a player whose walls
    have all fallen is out): losing the second of three leaves the knight in the war, with
    their hand, to burn or repair and then attack."""
    state = build(
        4,
        hands={1: ["burn2", "toaster1"]},
        walls={1: [None, ["tv3"], []]},
        turn=1,
        phase="defend",
        flight=[("bike1", 1, "middle", 0)],
    )
    state = play(state, 1, "take")
    assert [w.standing for w in state.walls[1]] == [False, False, True]
    assert state.eliminated == () and codes(state.hands[1]) == ["burn2", "toaster1"]
    assert TRASH_WAR.to_act(state) == {1} and state.phase == "burn"
    state = play(state, 1, "pass")
    assert state.phase == "attack" and "play toaster1 at p0 left" in legal(state, 1)


def test_the_last_knight_standing_wins_and_elimination_order_ranks_everyone() -> None:
    """The last player with a standing wall wins; the order of elimination ranks the rest,
    the last out second (rulebook: object; house rule: ranking)."""
    state = build(
        4,
        walls={1: [None, ["tv3"], None]},
        turn=1,
        phase="defend",
        flight=[("toaster1", 1, "middle", 3)],
        eliminated=[2, 0],
    )
    applied = TRASH_WAR.apply(state, 1, "take")
    state = applied.state
    assert (
        str(applied.events[-1].text) == "{p3} is the last knight standing and wins the Trash War!"
    )
    assert state.finished and state.phase == "over" and state.eliminated == (2, 0, 1)
    outcome = TRASH_WAR.outcome(state)
    assert outcome is not None
    assert outcome.ranks == (2, 1, 3, 0) and outcome.winners == (3,)
    assert TRASH_WAR.to_act(state) == frozenset()
    assert all(legal(state, seat) == [] for seat in range(4))
    assert refuse(state, 3, "pass") == "That game is over."
    assert TRASH_WAR.observe(state, None)["winner"] == 3


def test_a_knight_knocked_out_after_batting_still_sends_the_batted_trash() -> None:
    """Trash batted before its batter fell still flies, and the turn goes to whoever it
    flies at (house rule: the last batted trash's receiver takes the turn; table rule)."""
    state = build(
        3,
        hands={1: ["mace-left"]},
        walls={1: [["tv3"], None, None]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "left", 0), ("toaster1", 1, "left", 0)],
    )
    state = play(play(state, 1, "play mace-left"), 1, "at p2 middle")
    state = play(state, 1, "take")
    assert state.eliminated == (1,) and state.hands[1] == ()
    assert state.turn == 2 and TRASH_WAR.to_act(state) == {2} and state.phase == "defend"
    assert [(f.target, f.wall, f.sender) for f in state.flight] == [(2, 1, 1)]


def test_a_player_with_no_card_left_and_nothing_to_draw_passes_left() -> None:
    """With the draw and recycle piles both empty a player draws what there is; one with
    no card at all when it is time to attack passes play to the left (table rule)."""
    state = build(
        3,
        hands={1: ["shield4+"], 2: ["tv1"]},
        turn=1,
        phase="defend",
        flight=[("drum4+", 1, "left", 0)],
        draw=[],
        torch_phase=3,
    )
    applied = TRASH_WAR.apply(state, 1, "play shield4+")
    assert [str(e.text) for e in applied.events] == [
        "{p1} shields the toxic waste drum (4) with a Shield 4 (1 torch).",
        "{p1} has no cards left to attack with.",
        "Play passes to the left, to {p2}.",
    ]
    state = applied.state
    assert state.hands[1] == () and state.turn == 2 and state.phase == "attack"
    assert codes(state.out[-2:]) == ["shield4+", "drum4+"]


# --- Catapults ---------------------------------------------------------------------------------


def test_a_catapult_throws_up_to_three_trash_cards_at_one_wall() -> None:
    """A Catapult launches one to three Trash cards at any single wall (rulebook:
    catapult); the volley flies heaviest first (table rule)."""
    state = build(3, hands={0: ["catapult+", "toaster2", "drum4+", "bike1", "tv3"]})
    moves = legal(state, 0)
    volleys = {m.split(" at ")[0] for m in moves if m.startswith("play catapult+")}
    assert len(volleys) == 4 + 6 + 4
    assert "play catapult+ drum4+ tv3 toaster2 at p1 left" in moves
    assert parse_action("play catapult+ toaster2 drum4+ tv3 at p1 left") == parse_action(
        "play catapult+ drum4+ tv3 toaster2 at p1 left"
    )
    assert refuse(state, 0, "play catapult+ drum4+ tv3 toaster2 bike1 at p1 left") == (
        "That is not a move in this game."
    )
    applied = TRASH_WAR.apply(state, 0, "play catapult+ toaster2 drum4+ at p1 middle")
    assert str(applied.events[0].text) == (
        "{p0}'s Catapult throws a toxic waste drum (4) and a toaster (2) at {p1}'s middle wall."
    )
    state = applied.state
    assert [codes([f.card])[0] for f in state.flight] == ["drum4+", "toaster2"]
    assert codes(state.torched) == ["catapult+"] and state.turn == 1


def test_a_volley_is_met_one_defence_card_per_trash_card() -> None:
    """Against a volley the defender may play one defence card for each incoming Trash
    card, card by card (rulebook: catapult)."""
    state = build(
        3,
        hands={1: ["shield3", "shield2", "deflect", "mace-left", "shield1"]},
        turn=1,
        phase="defend",
        flight=[("tv3", 1, "left", 0), ("toaster2", 1, "left", 0), ("bike1", 1, "left", 0)],
    )
    assert legal(state, 1) == [
        "take",
        "play shield3",
        "play deflect middle",
        "play deflect right",
        "play mace-left",
    ]
    state = play(state, 1, "play shield3")
    assert len(state.flight) == 2 and state.phase == "defend"
    assert "play shield2" in legal(state, 1) and "play shield1" not in legal(state, 1)
    state = play(state, 1, "play deflect right")
    assert len(state.flight) == 1 and damage(state, 1, "right") == 2
    assert "play shield1" in legal(state, 1)
    state = play(state, 1, "play shield1")
    assert state.flight == () and state.phase == "burn"


def test_trash_aimed_at_a_wall_that_fell_in_the_volley_lands_in_the_rubble() -> None:
    """Once the aimed wall is down, the rest of the volley falls into its rubble and is
    discarded; a Mace may still bat it on, a Shield or Deflect is not offered (table
    rule)."""
    state = build(
        3,
        hands={1: ["shield3", "deflect", "mace-left"]},
        walls={1: [["car2"], [], []]},
        turn=1,
        phase="defend",
        flight=[("tv3", 1, "left", 0), ("toaster2", 1, "left", 0)],
    )
    state = play(state, 1, "take")
    assert not state.walls[1][0].standing
    assert legal(state, 1) == ["take", "play mace-left"]
    assert str(TRASH_WAR.describe(state, "take")) == "Let the toaster (2) fall into the rubble"
    assert texts(state, 1, "take")[0] == (
        "{p1}'s left wall is down already: the rubble swallows the toaster (2)."
    )
    state = play(state, 1, "take")
    assert "toaster2" in codes(state.recycle)


# --- Burn or repair ----------------------------------------------------------------------------


def test_burn_removes_trash_across_walls_up_to_its_value() -> None:
    """A Burn removes Trash cards from the player's walls, from several walls at once,
    as long as their damage adds up to at most its value (rulebook: burn trash)."""
    state = build(
        3,
        hands={0: ["burn3", "tv1"]},
        walls={0: [["toaster2"], ["car2"], ["bike1", "piano1"]]},
        phase="burn",
    )
    moves = legal(state, 0)
    assert "play burn3 left toaster2 right bike1" in moves
    assert "play burn3 right bike1 piano1" in moves
    assert "play burn3 left toaster2 middle car2" not in moves
    assert refuse(state, 0, "play burn3 left toaster2 middle car2") == (
        "A Burn 3 burns trash worth at most 3 in all, not 4."
    )
    assert refuse(state, 0, "play burn3 middle toaster2") == (
        "Burn only trash that is on your own standing walls."
    )
    applied = TRASH_WAR.apply(state, 0, "play burn3 left toaster2 right bike1")
    assert str(applied.events[0].text) == (
        "{p0} burns the toaster (2) off their left wall and the exercise bike (1) off their "
        "right wall with a Burn 3."
    )
    state = applied.state
    assert damage(state, 0, "left") == 0 and damage(state, 0, "right") == 1
    assert codes(state.recycle) == ["burn3", "toaster2", "bike1"]
    assert state.phase == "attack"


def test_burn_3_burns_one_3_or_three_1s() -> None:
    """A Burn 3 can burn a single 3 or three 1s (rulebook: burn trash example)."""
    state = build(
        3, hands={0: ["burn3"]}, walls={0: [["tv3"], ["bike1", "piano1", "car1"], []]}, phase="burn"
    )
    moves = legal(state, 0)
    assert "play burn3 left tv3" in moves
    assert "play burn3 middle bike1 car1 piano1" in moves
    assert not any(m.startswith("play burn3 left tv3 middle") for m in moves)


def test_never_burn_and_repair_in_one_turn() -> None:
    """One Burn or one Repair Wall per turn, never both (rulebook: burn or repair)."""
    state = build(
        3, hands={0: ["burn2", "repair", "tv1"]}, walls={0: [["toaster2"], None, []]}, phase="burn"
    )
    assert legal(state, 0) == ["pass", "play burn2 left toaster2", "play repair middle"]
    state = play(state, 0, "play burn2 left toaster2")
    assert state.phase == "attack"
    assert refuse(state, 0, "play repair middle") == "It is not the time to burn or repair."
    state = build(
        3, hands={0: ["burn2", "repair", "tv1"]}, walls={0: [["toaster2"], None, []]}, phase="burn"
    )
    state = play(state, 0, "play repair middle")
    assert state.walls[0][1].standing and state.walls[0][1].trash == ()
    assert refuse(state, 0, "play burn2 left toaster2") == "It is not the time to burn or repair."


def test_repair_raises_a_fallen_wall() -> None:
    """A Repair Wall turns a fallen wall face up again (rulebook), with no damage on it
    (house rule); a standing wall cannot be repaired."""
    state = build(3, hands={0: ["repair+", "tv1"]}, walls={0: [None, [], None]}, phase="burn")
    assert legal(state, 0) == ["pass", "play repair+ left", "play repair+ right"]
    assert refuse(state, 0, "play repair+ middle") == (
        "That wall is standing: a Repair Wall raises a fallen one."
    )
    assert texts(state, 0, "play repair+ right") == ["{p0} repairs their right wall."]
    state = play(state, 0, "play repair+ right")
    assert state.walls[0][2] == Wall(WALL_IDS[2])
    assert codes(state.torched) == ["repair+"]


def test_burn_or_repair_is_asked_only_with_something_to_burn_or_repair() -> None:
    """With no trash on their walls and no wall down the phase is skipped, since anyone can
    see there is nothing to do; a Burn must burn at least one card (table rules)."""
    state = build(
        3,
        hands={1: ["shield2", "burn2", "tv1"]},
        turn=1,
        phase="defend",
        flight=[("toaster2", 1, "left", 0)],
    )
    assert play(state, 1, "play shield2").phase == "attack"
    state = build(3, hands={0: ["burn2"]}, walls={0: [["toaster2"], [], []]}, phase="burn")
    assert refuse(state, 0, "play burn2") == "That is not a move in this game."
    state = build(3, hands={0: ["tv1"]}, walls={0: [["toaster2"], [], []]}, phase="burn")
    assert legal(state, 0) == ["pass"]
    assert texts(state, 0, "pass") == ["{p0} neither burns nor repairs."]


# --- Counter-attack ----------------------------------------------------------------------------


def test_with_trash_in_hand_the_attack_is_compulsory() -> None:
    """A player holding Trash launches it; only without Trash do they discard and draw
    (rulebook: counter-attack)."""
    state = build(3, hands={0: ["tv1", "shield2"]})
    assert not any(m.startswith("discard") for m in legal(state, 0))
    assert refuse(state, 0, "discard shield2") == "You hold Trash, so you must attack with it."
    assert refuse(state, 0, "pass") == "It is not the time to burn or repair."


def test_with_no_trash_discard_draw_and_throw_drawn_trash_at_once() -> None:
    """No Trash in hand: discard one card and draw one; drawn Trash is thrown at once, on
    its own (rulebook: counter-attack; table rule: no Catapult with it)."""
    state = build(3, hands={0: ["catapult+", "burn2"]}, draw_top=["tv2"])
    state = play(state, 0, "discard burn2")
    assert state.phase == "drawn"
    assert legal(state, 0) == [f"play tv2 at p{p} {w}" for p in (1, 2) for w in WALL_NAMES]
    assert refuse(state, 0, "play catapult+ tv2 at p1 left") == (
        "The Trash card you drew must be thrown at once, on its own."
    )


def test_with_no_trash_and_none_drawn_play_passes_left_after_the_redraw() -> None:
    """Drawing anything but Trash passes play to the left (rulebook); the player still
    re-draws to five, and the next player's turn begins with burn or repair when they
    have something to burn or repair (table rules)."""
    state = build(
        3,
        hands={1: ["catapult+", "burn2"], 2: ["burn3", "tv1"]},
        walls={2: [["toaster2"], [], []]},
        turn=1,
        draw_top=["shield1", "piano1", "car1", "gator1"],
    )
    state = play(state, 1, "discard burn2")
    assert codes(state.hands[1]) == ["catapult+", "shield1", "piano1", "car1", "gator1"]
    assert state.turn == 2 and state.phase == "burn"
    assert "play burn3 left toaster2" in legal(state, 2)


# --- Torching and recycling --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "shield4", "deflect2", "plain"),
    [
        (1, "torched", "recycle", "recycle"),
        (2, "torched", "torched", "recycle"),
        (3, "out", "out", "recycle"),
        (4, "out", "out", "recycle"),
    ],
)
def test_played_cards_go_where_the_torching_phase_sends_them(
    phase: int, shield4: str, deflect2: str, plain: str
) -> None:
    """Phase 1 torches cards with 1 torch, phase 2 cards with 1 or 2, and from phase 3 on a
    torch card leaves the game as it is played; cards without torches are recycled
    (rulebook: torching phases; house rule)."""

    def where(state: State, code: str) -> str:
        for pile in ("recycle", "torched", "out"):
            if code in codes(getattr(state, pile)):
                return pile
        raise AssertionError(code)

    state = build(
        3,
        hands={1: ["shield4+", "deflect++", "shield2", "tv1"]},
        turn=1,
        phase="defend",
        torch_phase=phase,
        flight=[("tv3", 1, "left", 0), ("toaster2", 1, "left", 0), ("bike1", 1, "left", 0)],
    )
    state = play(state, 1, "play shield4+")
    state = play(state, 1, "play deflect++ middle")
    state = play(state, 1, "play shield2")
    assert where(state, "shield4+") == shield4
    assert where(state, "deflect++") == deflect2
    assert where(state, "shield2") == plain and where(state, "tv3") == plain


def test_the_draw_pile_is_recycled_when_it_runs_out() -> None:
    """When the draw pile is used up the recycle pile is shuffled into a new one, the
    torched pile leaves the game and the next torching phase begins (rulebook: recycling,
    torching phases)."""
    state = build(
        3,
        hands={0: ["tv1", "shield1", "shield2", "shield3", "deflect"]},
        draw=["piano1"],
        recycle=["car1", "gator1", "teeth1"],
        torched=["shield4+"],
    )
    applied = TRASH_WAR.apply(state, 0, "play tv1 at p1 left")
    state = applied.state
    assert state.torch_phase == 2 and state.recycles == 1
    assert sorted(codes(state.draw)) == ["car1", "gator1", "teeth1"]
    assert state.recycle == () and state.torched == ()
    assert "shield4+" in codes(state.out)
    assert str(applied.events[1].text) == (
        "The draw pile is empty: the recycle pile is shuffled into a new one (3 cards). "
        "Torching phase 2 begins; 1 torched card leaves the game."
    )
    assert cards_in_play(state) == Counter(range(112))


def test_torching_phase_3_and_later_throw_torch_cards_out_and_recycle_goes_on() -> None:
    """After the second recycling every torch card played leaves the game; the draw pile
    is recycled as often as needed (rulebook: torching phases)."""
    state = build(
        3,
        hands={0: ["drum4+", "shield1", "shield2", "shield3", "deflect"]},
        draw=["car1"],
        recycle=["gator1"],
        torch_phase=3,
    )
    state = play(state, 0, "play drum4+ at p1 left")
    assert state.torch_phase == 4 and codes(state.draw) == ["gator1"]
    state = play(state, 1, "take")
    assert "drum4+" in codes(state.out)


def test_the_shuffle_of_a_recycling_comes_from_the_seed() -> None:
    """Same seed, same new draw pile; another seed, most likely another (house rule: one
    seeded generator per game)."""
    pile = ["car1", "gator1", "teeth1", "piano1", "toaster1", "tv1", "bike1", "drum1"]

    def recycled(seed: int) -> tuple[int, ...]:
        state = build(3, hands={0: ["tv2"]}, draw=["xray1"], recycle=pile, seed=seed)
        return play(state, 0, "play tv2 at p1 left").draw

    assert recycled(1) == recycled(1)
    assert len({recycled(seed) for seed in range(6)}) > 1


# --- Actions, views, JSON ----------------------------------------------------------------------


def test_malformed_actions_are_refused() -> None:
    """Only the action grammar is understood (engine contract)."""
    state = build(3, hands={0: ["tv2", "catapult+"]})
    for text in [
        "",
        "play",
        "play tv2",
        "play tv2 at",
        "play tv2 at p1",
        "play tv2 at p1 top",
        "play tv2 at x1 left",
        "play dragon at p1 left",
        "throw tv2 at p1 left",
        "take now",
        "pass now",
        "discard",
        "at p1",
        "play catapult+ at p1 left",
        "play catapult+ wall at p1 left",
        "play shield2 now",
        "play deflect",
        "play burn2 tv2",
        "play tv2  at p1 left",
        "PLAY tv2 at p1 left",
    ]:
        assert refuse(state, 0, text) == "That is not a move in this game.", text


def test_actions_name_only_what_their_owner_sees_and_stay_short() -> None:
    """Actions name cards by their face and fit a button's custom id (engine contract)."""
    state = build(6, hands={0: ["catapult+", "gator3", "leftovers3", "microwave3", "tv1"]})
    moves = legal(state, 0)
    assert all(action_text(parse_action(m)) == m for m in moves)
    assert max(len(m) for m in moves) <= 80
    burn = build(
        3,
        hands={0: ["burn4++"]},
        walls={0: [["leftovers1", "microwave1"], ["sardines1"], ["gator1"]]},
        phase="burn",
    )
    assert max(len(m) for m in legal(burn, 0)) <= 80
    assert all(len(str(TRASH_WAR.describe(burn, m))) <= 80 for m in legal(burn, 0))


def test_labels_describe_actions_for_their_owner() -> None:
    """Button labels in plain words (engine contract: describe)."""
    state = build(
        3,
        hands={1: ["shield3", "mace-left", "deflect++"]},
        turn=1,
        phase="defend",
        flight=[("piano3", 1, "left", 0)],
    )
    assert str(TRASH_WAR.describe(state, "play shield3")) == "Shield 3 against the grand piano (3)"
    assert str(TRASH_WAR.describe(state, "play mace-left")) == (
        "Mace (bat left): bat the grand piano (3) at {p2}"
    )
    assert str(TRASH_WAR.describe(state, "play deflect++ right")) == (
        "Deflect (2 torches) the grand piano (3) onto your right wall"
    )
    assert str(TRASH_WAR.describe(state, "take")) == (
        "Take the hit: the grand piano (3) on your left wall"
    )
    burn = build(
        3, hands={0: ["burn4++"]}, walls={0: [["toaster2", "bike1"], [], []]}, phase="burn"
    )
    assert str(TRASH_WAR.describe(burn, "play burn4++ left toaster2 bike1")) == (
        "Burn 4 (2 torches): the toaster (2) and the exercise bike (1) off your left wall"
    )
    burn = build(
        3, hands={0: ["burn4++"]}, walls={0: [["toaster2"], ["bike1"], ["tv1"]]}, phase="burn"
    )
    assert str(TRASH_WAR.describe(burn, "play burn4++ left toaster2 middle bike1 right tv1")) == (
        "Burn 4 (2 torches): 2 off left, 1 off middle, 1 off right"
    )
    attack = build(3, hands={0: ["catapult+", "tv1", "toaster2"]})
    assert str(TRASH_WAR.describe(attack, "play toaster2 at p1 middle")) == (
        "Throw the toaster (2) at {p1}'s middle wall"
    )
    assert str(TRASH_WAR.describe(attack, "play catapult+ toaster2 tv1 at p2 left")) == (
        "Catapult the toaster (2) and the television (1) at {p2}'s left wall"
    )
    assert str(TRASH_WAR.describe(attack, "discard burn2")) == "Discard Burn 2 and draw"
    assert str(TRASH_WAR.describe(attack, "pass")) == "Neither burn nor repair"


def test_views_show_hand_sizes_publicly_and_cards_only_to_their_owner() -> None:
    """The public view has every wall and the trash in flight but only hand sizes; a
    player's view adds their own hand (engine contract: observe)."""
    state = build(
        3,
        hands={0: ["tv2", "shield1"], 1: ["burn3", "mace-any++", "deflect"]},
        walls={1: [["toaster1"], None, []]},
        turn=1,
        phase="defend",
        flight=[("piano3", 1, "left", 0)],
        recycle=["car1"],
    )
    public = TRASH_WAR.observe(state, None)
    assert public.keys() == TrashWarObservation.__required_keys__
    assert public["hand"] is None and public["seat"] is None
    assert [p["hand_size"] for p in public["players"]] == [2, 3, 0]
    assert public["players"][1]["under_attack"] == 3
    assert public["players"][1]["walls"][0]["damage"] == 1
    assert public["players"][1]["walls"][1]["standing"] is False
    assert public["incoming"][0]["card"]["title"] == "grand piano (3)"
    assert public["incoming"][0]["wall"] == "left" and public["incoming"][0]["sender"] == 0
    assert public["recycle_top"] is not None and public["recycle_top"]["code"] == "car1"
    assert public["phase"] == "defend" and public["to_act"] == [1]
    ids = json.dumps(public)
    for hand in state.hands:
        for card in hand:
            assert f'"id": {card},' not in ids
    mine = TRASH_WAR.observe(state, 1)
    assert [c["code"] for c in mine["hand"]] == ["burn3", "mace-any++", "deflect"]
    # Beyond the public view: the hand, and which of its cards a move open now plays.
    own_only = ("seat", "hand", "playable")
    assert {k: v for k, v in mine.items() if k not in own_only} == {
        k: v for k, v in public.items() if k not in own_only
    }
    assert public["playable"] is None and len(mine["playable"] or []) == len(mine["hand"])


def test_the_state_survives_a_json_round_trip() -> None:
    """The saved state is the whole game (engine contract)."""
    state = build(
        4,
        hands={1: ["mace-left", "burn2"]},
        walls={1: [["tv1"], None, []]},
        turn=1,
        phase="bat",
        swing="left",
        flight=[("piano3", 1, "left", 0)],
        held=[("car1", 3, "right", 1)],
        eliminated=[2],
        recycle=["gator1"],
        torched=["shield4+"],
    )
    data = json.loads(json.dumps(TRASH_WAR.to_json(state)))
    assert TRASH_WAR.from_json(data) == state
    with pytest.raises(ValueError, match="version"):
        TRASH_WAR.from_json({**data, "version": 99})


# --- The AI ------------------------------------------------------------------------------------


def choose(state: State, seat: int) -> str:
    return TRASH_WAR.choose(TRASH_WAR.observe(state, seat), legal(state, seat), random.Random(3))


def test_ai_shields_when_it_can() -> None:
    """The AI blocks with the weakest Shield that holds."""
    state = build(
        3,
        hands={1: ["shield3", "shield2", "mace-left"]},
        turn=1,
        phase="defend",
        flight=[("toaster2", 1, "left", 0)],
    )
    assert choose(state, 1) == "play shield2"


def test_ai_maces_trash_towards_the_strongest_opponent() -> None:
    """Without a Shield the AI bats a painful hit away, at the strongest knight."""
    state = build(
        4,
        hands={1: ["mace-any++", "mace-left"]},
        walls={0: [["car1"], [], []], 2: [["tv1"], ["toaster1"], []]},
        turn=1,
        phase="defend",
        flight=[("toaster2", 1, "left", 0)],
    )
    assert choose(state, 1) == "play mace-any++"
    state = play(state, 1, "play mace-any++")
    assert choose(state, 1).startswith("at p3")


def test_ai_bats_trash_where_it_topples_a_wall() -> None:
    """Batting, a wall that falls beats damage elsewhere."""
    state = build(
        3,
        hands={1: ["mace-any++"]},
        walls={0: [[], [], []], 2: [[], ["tv2"], []]},
        turn=1,
        phase="bat",
        swing="any",
        flight=[("toaster2", 1, "left", 0)],
    )
    assert choose(state, 1) == "at p2 middle"


def test_ai_burns_before_a_wall_falls_and_repairs_a_fallen_wall() -> None:
    """The AI burns the trash off its most battered wall, and repairs a wall that is down."""
    state = build(
        3, hands={0: ["burn3", "tv1"]}, walls={0: [["toaster1"], ["car3"], []]}, phase="burn"
    )
    assert choose(state, 0) == "play burn3 middle car3"
    state = build(
        3, hands={0: ["burn3", "repair"]}, walls={0: [["toaster1"], None, []]}, phase="burn"
    )
    assert choose(state, 0) == "play repair middle"


def test_ai_attacks_the_weakest_wall_it_can_topple() -> None:
    """The AI throws at the wall it can bring down, a last wall first, with the fewest cards."""
    state = build(
        3,
        hands={0: ["tv1", "toaster3", "catapult+"]},
        walls={1: [["car2"], ["piano3"], []], 2: [None, ["gator2"], None]},
    )
    assert choose(state, 0) == "play toaster3 at p2 middle"
    state = build(3, hands={0: ["tv1", "toaster2"]}, walls={1: [["car2"], ["piano3"], []]})
    assert choose(state, 0) == "play tv1 at p1 middle"


def test_ai_and_random_player_pick_legal_actions() -> None:
    """Both players the bot provides only ever return one of the legal actions."""
    rng = random.Random(5)
    state = TRASH_WAR.new_game(4, {}, 5)
    for _ in range(200):
        if state.finished:
            break
        (seat,) = TRASH_WAR.to_act(state)
        moves = legal(state, seat)
        assert ai.choose(TRASH_WAR.observe(state, seat), moves, rng) in moves
        assert ai.random_choice(moves, rng) in moves
        state = play(state, seat, ai.random_choice(moves, rng))
    with pytest.raises(ValueError):
        ai.choose(TRASH_WAR.observe(state, 0), [], rng)


def test_the_fast_list_of_attacks_matches_the_rules() -> None:
    """`legal_attacks` (text straight away) says the same as `legal_moves` (engine)."""
    for state in (
        build(4, hands={0: ["catapult+", "toaster2", "drum4+", "bike1", "tv3"]}),
        build(3, hands={0: ["catapult+", "toaster2", "tv1"]}, opening=True),
        build(3, hands={0: ["burn2", "shield1", "shield1"]}),
    ):
        assert legal(state, 0) == [action_text(a) for a in legal_moves(state)]
