"""How the presses-a-turn benchmark (bench/presses.py) counts: one short seeded game of
Last Lid (the template plug-in, so a game found through the registry) through the fake
Discord with the real bot, checked against its own action log; and the counting alone on
a game made up here."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from bench import presses
from bench.games import plugins
from bench.presses import Logged, Played, Press, Private, Turn, count, single_choice_presses
from tests.plugin_game.rules import LAST_LID


@pytest.fixture
def last_lid(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Last Lid in the registry the bench reads, and in the bot it starts."""
    monkeypatch.setenv("EXTRA_EXTENSIONS", "tests.plugin_game")
    plugins.cache_clear()
    yield
    plugins.cache_clear()


def turns_in_log(actions: list[Logged], people: set[int]) -> int:
    """The turns that passed to a person, from the action log alone: a person's own move
    after another seat's (a choice made for someone does not take the turn)."""
    turns, last = 0, None
    for logged in actions:
        if logged.actor == "forced":
            continue
        if logged.actor == "player" and logged.seat in people and logged.seat != last:
            turns += 1
        last = logged.seat
    return turns


async def test_a_seeded_game_s_counts_agree_with_its_action_log(last_lid: None) -> None:
    # Seed 1: three turns for the two people, the AI's one between, and the last lid taken
    # for Bob (actor "forced": he had one choice).
    played = await presses.play_one(LAST_LID.key, {}, 1)
    assert played.problems == []
    people = {s for s, a in {(a.seat, a.actor) for a in played.actions} if a == "player"}
    assert len(people) == 2 and played.seats == 3

    counts = count(LAST_LID, played)
    pinged = [text for _, text in played.boards if "your turn" in text]
    assert counts.turns == len(pinged) == turns_in_log(played.actions, people) > 0
    # Every press falls in a turn of the presser's, and every move a person made took one
    # press of a play control (`tt:act`); "My hand" is counted too, beside them.
    assert sum(counts.per_turn) == counts.presses and counts.outside == 0
    acts = [p for p in played.presses if p.custom_id.startswith("tt:act:")]
    mine = [a for a in played.actions if a.actor == "player"]
    assert len(acts) == len(mine) == counts.player_actions
    assert counts.presses >= len(mine)
    assert all(p.user in played.people for p in played.presses)
    assert counts.private == len(played.private) and counts.private_outside == 0

    # No move of a person's was forced; told that the forced one was theirs, the counter
    # finds it (and only it) by replaying the game through its engine.
    assert counts.single_choice == 0
    forced = [a for a in played.actions if a.actor == "forced"]
    assert forced, "seed 1 has a single choice"
    planted = replace(
        played,
        actions=[replace(a, actor="player") if a.actor == "forced" else a for a in played.actions],
    )
    assert single_choice_presses(LAST_LID, planted) == [replace(a, actor="player") for a in forced]


def test_presses_and_private_messages_fall_in_the_turn_they_were_made_in() -> None:
    """Snowflakes order boards, presses and private messages: each press and message is
    counted in the latest turn of its own person's that began before it."""
    alice, bob = 1, 2
    played = Played(
        key=LAST_LID.key,
        options={},
        seed=0,
        seats=3,
        people=[alice, bob],
        boards=[
            (10, "Last Lid\n➡️ <@1>: your turn."),
            (20, "Last Lid\n➡️ <@2>: your turn."),
            (25, "Last Lid\n• <@1> takes a lid"),  # a mention, but no one's turn
            (27, "Last Lid\n➡️ <@99>: your turn."),  # someone not at the table
            (30, "Last Lid\n➡️ <@1>, <@2>: your turn."),  # both at once: a turn each
        ],
        presses=[
            Press(5, alice, "tt:hand:1"),  # before any turn of hers: in her first
            Press(11, alice, "tt:hand:1"),
            Press(12, alice, "tt:act:1:0:0"),
            Press(21, bob, "tt:act:1:1:0"),
            Press(26, alice, "tt:hand:1"),  # still in her first turn: Bob's board is not hers
            Press(31, bob, "tt:act:1:3:0"),
            Press(32, alice, "tt:act:1:4:0"),
        ],
        private=[Private(13, alice, 2), Private(14, alice, 0), Private(33, bob, 1)],
        actions=[],
    )
    counts = count(LAST_LID, played)
    assert presses.turns_of(played) == [
        Turn(10, alice),
        Turn(20, bob),
        Turn(30, alice),
        Turn(30, bob),
    ]
    assert counts.turns == 4 and counts.presses == 7 and counts.outside == 0
    assert counts.per_turn == [4, 1, 1, 1]
    assert counts.presses_a_turn == 7 / 4
    assert counts.private_per_turn == [2, 0, 0, 1] and counts.private_max == 2
    assert counts.private_edits == 3
