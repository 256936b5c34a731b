"""The last move on the board (issue 14), checked from what the renderer noted it drew: Trash
War frames and tags each wall where something happened since the board before; Rumble draws
an arrow along each move (gold with the chest), frames the room of a fight with who went,
and an arrow out for a character gone with the chest; Dumpster Brawl!'s dice picture ends with
each fight's verdict; Toss It outlines the piece just dropped and, after a spill, shows the
bin as the spill left it."""

from __future__ import annotations

import random

from render.brawl import band_box, draw_rolls, draw_table
from render.common import Box
from render.common.record import recording
from render.rumble import draw_dungeon
from render.toss import draw_bin
from render.trashwar import draw_battlefield, draw_hand
from rules.brawl import BRAWL
from rules.phrases import english
from rules.rumble import RUMBLE
from rules.toss import TOSS
from rules.trashwar import TRASH_WAR
from rules.trashwar.state import WALL_NAMES
from rules.words import counted

NAMES = ["Ann", "Bob", "Cy"]
TRACE_KINDS = ("move", "chest", "fight", "exit")  # what Rumble notes of its trail


def test_every_wall_event_is_marked_on_the_next_board_and_only_there() -> None:
    rng, state, seen = random.Random(7), TRASH_WAR.new_game(3, {}, 11), set()
    while TRASH_WAR.outcome(state) is None and state.step < 400:
        seat = min(TRASH_WAR.to_act(state))
        before = state.step
        action = rng.choice(TRASH_WAR.legal_actions(state, seat))
        state = TRASH_WAR.apply(state, seat, action).state
        obs = TRASH_WAR.observe(state, None)
        with recording() as notes:
            draw_battlefield(obs, NAMES, before)
        drawn = {note.text for note in notes if note.kind == "wall"}
        newest = {(m.seat, m.wall): m.what for m in state.marks if m.step > before}
        assert drawn == {f"{s} {WALL_NAMES[w]} {what}" for (s, w), what in newest.items()}
        seen.update(newest.values())
        with recording() as later:  # the board after this one: nothing new to mark
            draw_battlefield(obs, NAMES, state.step)
        assert not [note for note in later if note.kind == "wall"]
    assert {"hit", "shielded"} <= seen  # the seed's game has both


def test_a_hit_and_a_fall_are_marked_with_the_card_that_did_it() -> None:
    rng, state, kinds = random.Random(2), TRASH_WAR.new_game(3, {}, 5), set()
    while TRASH_WAR.outcome(state) is None and state.step < 2000:
        seat = min(TRASH_WAR.to_act(state))
        applied = TRASH_WAR.apply(state, seat, rng.choice(TRASH_WAR.legal_actions(state, seat)))
        marks = [m for m in applied.state.marks if m.step == applied.state.step]
        for event in applied.events:
            line = str(event.text)
            if " takes the " in line:  # "{p1}'s left wall takes the Toaster: ..."
                what = "felled" if "wall falls" in line else "hit"
                assert any(m.what == what and m.card for m in marks), event.text
                kinds.add(what)
        state = applied.state
    assert kinds == {"hit", "felled"}


def test_rumble_draws_every_move_fight_and_exit_since_the_board_before() -> None:
    kinds = set()
    for seed in range(2):
        rng, state = random.Random(seed), RUMBLE.new_game(3, {}, seed)
        while RUMBLE.outcome(state) is None:
            seat = min(RUMBLE.to_act(state))
            before = state.step - 1  # a board showing two actions: the last two are drawn
            state = RUMBLE.apply(state, seat, rng.choice(RUMBLE.legal_actions(state, seat))).state
            obs = RUMBLE.observe(state, None)
            with recording() as notes:
                draw_dungeon(obs, NAMES, before)
            drawn = sorted((n.kind, n.text) for n in notes if n.kind in TRACE_KINDS)
            shown = [t for t in state.trail if t.step > before and t.rumble == state.rumble]
            assert drawn == sorted((t.kind, f"{t.character} {t.start}-{t.goal}") for t in shown)
            kinds.update(t.kind for t in shown)
            with recording() as later:
                draw_dungeon(obs, NAMES, state.step)
            assert not [n for n in later if n.kind in TRACE_KINDS]
    assert kinds >= {"move", "chest", "fight"}


def test_the_dice_picture_ends_with_every_fights_verdict() -> None:
    rng, state, fights, kept = random.Random(1), BRAWL.new_game(4, {}, 1), 0, 0
    while BRAWL.outcome(state) is None and fights < 12:
        seat = min(BRAWL.to_act(state))
        before = state.step
        applied = BRAWL.apply(state, seat, rng.choice(BRAWL.legal_actions(state, seat)))
        state = applied.state
        lines = [english(e.text) for e in applied.events]
        said = [line.split(":")[0] for line in lines if "wins the fight" in line]
        with recording() as notes:
            draw_rolls(BRAWL.observe(state, None), [*NAMES, "Di"], before)
        drawn = [n.text for n in notes if n.kind == "verdict"]
        assert [text.split(":")[0] for text in drawn] == said  # "3 crowbars beat 2 lids"
        winners = [v.winner for v in state.verdicts if v.step > before]
        assert all([*NAMES, "Di"][w] in text for w, text in zip(winners, drawn, strict=True))
        fights += len(said)
        kept += bool(said) and not [r for r in state.roll_log if r[0] > before]
    assert fights >= 12
    assert kept  # a fight decided with no new roll (both kept their dice) is shown too


def test_each_verdict_sits_under_its_own_fights_dice() -> None:
    """Issue 38: a dice picture of several actions puts every verdict after the rolls of its
    fight and before any later roll, not all verdicts at the end."""
    rng, state, checked = random.Random(1), BRAWL.new_game(4, {}, 1), 0
    while BRAWL.outcome(state) is None and checked < 6:
        seat = min(BRAWL.to_act(state))
        state = BRAWL.apply(state, seat, rng.choice(BRAWL.legal_actions(state, seat))).state
        since = max(0, state.step - 12)  # a picture of the last dozen actions
        verdicts = [v for v in state.verdicts if v.step > since]
        if len(verdicts) < 2:
            continue
        with recording() as notes:
            draw_rolls(BRAWL.observe(state, None), [*NAMES, "Di"], since)
        rows = sorted((n for n in notes if n.kind in ("roll", "verdict")), key=lambda n: n.box[1])
        said = iter(verdicts)
        for index, row in enumerate(rows):
            if row.kind != "verdict":
                continue
            step = next(said).step
            assert all(int(r.text) <= step for r in rows[:index] if r.kind == "roll")
            assert all(int(r.text) > step for r in rows[index:] if r.kind == "roll"), rows
        checked += 1
    assert checked == 6


def test_the_brawl_board_marks_cards_handed_over_by_count_and_direction() -> None:
    """Issue 14 ("cards moved between hands shown by count and direction"): an arrow from
    giver to receiver with how many cards went, for every pair since the board before (a
    board showing several actions adds them up), and none on the board after."""
    names = [*NAMES, "Di"]
    rng, state, counts, most = random.Random(3), BRAWL.new_game(4, {}, 3), set(), 0
    while BRAWL.outcome(state) is None and state.step < 120:
        seat = min(BRAWL.to_act(state))
        before = state.step - 1  # a board showing the last two actions
        state = BRAWL.apply(state, seat, rng.choice(BRAWL.legal_actions(state, seat))).state
        went: dict[tuple[int, int], int] = {}
        for h in state.handovers:
            if h.step > before:
                went[h.giver, h.receiver] = went.get((h.giver, h.receiver), 0) + h.cards
        if not went and state.step % 5:
            continue  # (every fifth board without a handover is drawn: that saves time)
        obs = BRAWL.observe(state, None)
        with recording() as notes:
            draw_table(obs, names, before)
        drawn = sorted(n.text for n in notes if n.kind == "handover")
        assert drawn == sorted(f"{g}>{r} {counted(n, 'card')}" for (g, r), n in went.items())
        counts.update(went.values())
        with recording() as later:
            draw_table(obs, names, state.step)
        assert not [n for n in later if n.kind == "handover"]
        with recording() as crowded:  # a board after several actions: many counts
            draw_table(obs, names, max(0, state.step - 8))
        chips = [n.box for n in crowded if n.kind == "handover"]
        bands = [band_box(4, seat, False) for seat in range(4)]
        most = max(most, len(chips))
        for index, chip in enumerate(chips):  # issue 38: "2 cards" lay over a name
            assert not [b for b in bands + chips[:index] if overlap(chip, b)], state.step
    assert {1, 2} <= counts  # single cards and two in one board came up
    assert most >= 3


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_handover_never_says_which_cards() -> None:
    """House rule (hands are secret): the fight's winner gives the loser either of two
    different cards; the public view and the board are the same either way."""
    state = BRAWL.new_game(3, {}, 4)
    rng = random.Random(4)
    while True:  # to the first spoils with two different cards to give
        seat = min(BRAWL.to_act(state))
        legal = BRAWL.legal_actions(state, seat)
        gives = [action for action in legal if action.startswith("give ")]
        if len(gives) >= 2:
            break
        state = BRAWL.apply(state, seat, rng.choice(legal)).state
    other = state.defender if seat == state.turn else state.turn
    boards, views = set(), []
    for give in gives[:2]:
        after = BRAWL.apply(state, seat, give).state
        view = BRAWL.observe(after, None)
        assert [h["cards"] for h in view["handovers"] if h["step"] == after.step] == [1]
        views.append(view)
        with recording() as notes:
            boards.add(draw_table(view, NAMES, state.step))
        (mark,) = [n.text for n in notes if n.kind == "handover"]
        assert mark == f"{seat}>{other} 1 card"
    assert views[0] == views[1] and len(boards) == 1


def test_toss_outlines_the_piece_just_dropped_and_shows_a_spill_before_the_refill() -> None:
    rng, state, seen = random.Random(1), TOSS.new_game(3, {}, 1), set()
    while seen != {"dropped", "spill"} and state.step < 300:
        seat = min(TOSS.to_act(state))
        before = state.step
        applied = TOSS.apply(state, seat, rng.choice(TOSS.legal_actions(state, seat)))
        state = applied.state
        obs = TOSS.observe(state, None)
        with recording() as notes:
            draw_bin(obs, NAMES, before)
        marks = [n for n in notes if n.kind in ("dropped", "spill")]
        text = " ".join(str(e.text) for e in applied.events)
        if "falls out" in text:
            (spill,) = marks
            assert spill.kind == "spill" and spill.text == f"{len(state.spill)} pieces"
            assert state.spill != state.pieces  # the board shows the bin before the refill
        elif " places " in text and "emptied" not in text:
            (dropped,) = marks
            assert dropped.kind == "dropped" and dropped.text == state.pieces[-1].kind
        else:
            assert not marks, text
        seen.update(n.kind for n in marks)
        with recording() as later:
            draw_bin(obs, NAMES, state.step)
        assert not [n for n in later if n.kind in ("dropped", "spill")]
    assert seen == {"dropped", "spill"}


def test_trash_war_dims_exactly_the_cards_no_open_move_plays() -> None:
    """Checked against the rules from outside: a card is playable when applying some legal
    action takes it out of the hand; the hand picture dims the others, and only those."""
    rng, state, dimmed_some = random.Random(5), TRASH_WAR.new_game(3, {}, 8), False
    while TRASH_WAR.outcome(state) is None and state.step < 120:
        (seat,) = TRASH_WAR.to_act(state)
        own = TRASH_WAR.observe(state, seat)
        hand = [card["code"] for card in own["hand"] or []]
        leaves: set[str] = set()
        for action in TRASH_WAR.legal_actions(state, seat):
            after = TRASH_WAR.observe(TRASH_WAR.apply(state, seat, action).state, seat)
            if not after["players"][seat]["in_game"]:
                continue  # a knight knocked out loses the whole hand: nothing played
            left = [card["code"] for card in after["hand"] or []]
            leaves |= {code for code in hand if hand.count(code) > left.count(code)}
        assert own["playable"] == [code in leaves for code in hand]
        with recording() as notes:
            draw_hand(own, "Ann")
        dimmed = [n.text for n in notes if n.kind == "dimmed"]
        assert dimmed == [code for code in hand if code not in leaves]
        dimmed_some |= bool(dimmed)
        action = rng.choice(TRASH_WAR.legal_actions(state, seat))
        state = TRASH_WAR.apply(state, seat, action).state
    assert dimmed_some
