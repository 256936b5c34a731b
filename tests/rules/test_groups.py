"""Menu groups come from the engines (issue 13: "no code outside rules/ splits action
strings"): each engine's `group_of` names the menu entry an action sits under, and
`in_group` is what the session service narrows a menu choice by. Checked over seeded games
of random play, for every legal action of every decision.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rules.base import Game
from rules.brawl import BRAWL
from rules.rumble import RUMBLE
from rules.rumble.actions import Move
from rules.rumble.actions import parse_action as parse_rumble
from rules.toss.engine import TOSS, Place, open_spots, parse_spot_group, spot_group
from rules.toss.engine import parse_action as parse_toss
from rules.trashwar import TRASH_WAR
from rules.trashwar.actions import Burn, Deflect, Repair, Throw, hand_cards
from rules.trashwar.actions import parse_action as parse_trashwar
from rules.trashwar.groups import MORE, group_wording
from rules.trashwar.state import LABEL_LIMIT, WALL_NAMES


def decisions(game: Game, seats: int, games: int, steps: int) -> Iterator[tuple[Any, list[str]]]:
    """(state, legal actions) for each decision of a few seeded games of random play."""
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(seats, {}, seed)
        for _ in range(steps):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            legal = game.legal_actions(state, seat)
            yield state, legal
            state = game.apply(state, seat, rng.choice(legal)).state


def members(game: Game, legal: list[str], group: str) -> list[str]:
    return [action for action in legal if game.in_group(action, group)]


def test_every_action_is_in_its_own_group_and_in_no_other():
    for game, seats in ((RUMBLE, 3), (TRASH_WAR, 3), (BRAWL, 4)):
        for _state, legal in decisions(game, seats, games=3, steps=150):
            groups = {game.group_of(action) for action in legal}
            for action in legal:
                holding = [group for group in groups if game.in_group(action, group)]
                assert holding == [game.group_of(action)], (game.key, action, holding)


def test_a_rumble_move_is_grouped_under_its_character_and_nothing_else_is():
    seen = 0
    for _state, legal in decisions(RUMBLE, 3, games=3, steps=100):
        for action in legal:
            parsed = parse_rumble(action)
            if isinstance(parsed, Move):
                group = RUMBLE.group_of(action)
                assert group == f"move {parsed.character}"
                moves = [parse_rumble(a) for a in members(RUMBLE, legal, group)]
                assert {m.character for m in moves if isinstance(m, Move)} == {parsed.character}
                seen += 1
            else:
                assert RUMBLE.group_of(action) == action
    assert seen


def test_a_trash_war_move_is_grouped_by_exactly_the_cards_it_plays():
    # Issue 14 ("choose the card, then the target"): a throw, Deflect, Repair or Burn sits
    # under the card(s) it plays, every other move alone. A group of one card must not take
    # in a throw of that card with others: the groups were once matched as text prefixes,
    # and "play <card>" took in "play <card> <card> at".
    supersets = grouped = 0
    for _state, legal in decisions(TRASH_WAR, 3, games=6, steps=200):
        for action in legal:
            parsed = parse_trashwar(action)
            group = TRASH_WAR.group_of(action)
            if not isinstance(parsed, Throw | Deflect | Repair | Burn):
                assert group == action
                continue
            alike = [
                other
                for other in legal
                if type(parse_trashwar(other)) is type(parsed)
                and hand_cards(parse_trashwar(other)) == hand_cards(parsed)
            ]
            assert members(TRASH_WAR, legal, group) == alike, (action, group)
            grouped += not isinstance(parsed, Throw)
            supersets += any(
                other.startswith(group + " ") and TRASH_WAR.group_of(other) != group
                for other in legal
            )
    assert supersets and grouped  # the prefix trap and the other cards did come up


def test_a_trash_war_group_labels_its_moves_by_where_they_go_and_tells_them_apart():
    # Issue 14: once the card is chosen its buttons say only where it goes (a throw: "{p1}
    # · middle wall"), each different and short enough for a button. (A Burn of many cards
    # falls back to values, "2+1 off left", which two burns can share, as their whole
    # labels already did.)
    seen = 0
    for state, legal in decisions(TRASH_WAR, 3, games=4, steps=200):
        groups = {TRASH_WAR.group_of(action) for action in legal}
        for group in groups:
            moves = members(TRASH_WAR, legal, group)
            labels = [str(TRASH_WAR.describe_in_group(state, a, group)) for a in moves]
            if not group.startswith("play burn"):  # a long Burn's labels can share numbers
                assert len(set(labels)) == len(labels), labels
            if len(moves) > 1:
                seen += 1
                for move, label in zip(moves, labels, strict=True):
                    assert len(label) <= LABEL_LIMIT
                    thrown = parse_trashwar(move)
                    if isinstance(thrown, Throw):
                        wall = WALL_NAMES[thrown.wall]
                        assert label == f"{{p{thrown.target}}} · {wall} wall", (move, label)
                card, question = map(str, group_wording(group))
                assert card.endswith(MORE) and question.endswith("?")
    assert seen


def test_a_toss_drop_is_grouped_by_kind_and_spot_and_turned_after():
    seen = 0
    for _state, legal in decisions(TOSS, 2, games=1, steps=4):
        spots = open_spots(legal)
        for action in legal:
            parsed = parse_toss(action)
            if not isinstance(parsed, Place):
                assert TOSS.group_of(action) == action
                continue
            group = TOSS.group_of(action)
            assert group == spot_group(parsed.kind, parsed.x)
            assert parse_spot_group(group) == (parsed.kind, parsed.x)
            assert parsed.x in spots[parsed.kind]
            turns = [parse_toss(a) for a in members(TOSS, legal, group)]
            assert all(
                isinstance(t, Place) and (t.kind, t.x) == (parsed.kind, parsed.x) for t in turns
            )
            seen += 1
    assert seen
    assert parse_spot_group("choose 3") is None
