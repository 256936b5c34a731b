"""Trash War's engine words in every language (issue 40): each log line, button label and
refusal goes through the catalogues (said in the tests' pseudo language, no plain letter is
left), and reads in French and German with every gap filled."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.requests import format_event
from lang import PSEUDO, say
from rules import base
from rules.base import Event, IllegalAction
from rules.phrases import Filling, Phrase, Readers
from rules.trashwar import TRASH_WAR, State
from rules.trashwar import state as state_module
from rules.trashwar.groups import MENU_PROMPT
from tests.languages.pseudo import foreign_only, plain_words
from tests.rules.test_trashwar import build

TITLE = "Trash War"
NAMES = ["Ann", "Bo", "Cyd", "Dee", "Eve", "Flo"]
RULES = Path(__file__).resolve().parents[2] / "rules" / "trashwar"


def played(seats: int, seed: int) -> Iterator[tuple[State, list[Event]]]:
    """A seeded war of random legal moves: each state before a move, and the events (the
    opening's first) that led to it."""
    rng, state = random.Random(seed), TRASH_WAR.new_game(seats, {}, seed)
    events = TRASH_WAR.opening_events(state)
    while TRASH_WAR.outcome(state) is None and state.step < 400:
        yield state, events
        (seat,) = TRASH_WAR.to_act(state)
        applied = TRASH_WAR.apply(state, seat, rng.choice(TRASH_WAR.legal_actions(state, seat)))
        state, events = applied.state, applied.events
    yield state, events


def labels(state: State) -> Iterator[Filling]:
    """Every label the seat to act could be shown: each move, each card of a group (the
    engine's `describe` of it) and each move within a group, and the menu's prompt."""
    (seat,) = TRASH_WAR.to_act(state) or (None,)
    if seat is None:
        return
    for action in TRASH_WAR.legal_actions(state, seat):
        group = TRASH_WAR.group_of(action)
        yield TRASH_WAR.describe(state, action)
        yield TRASH_WAR.describe(state, group)
        yield TRASH_WAR.describe_in_group(state, action, group)
    yield TRASH_WAR.describe(state, MENU_PROMPT)


def refused(state: State, seat: int, action: str) -> Filling:
    with pytest.raises(IllegalAction) as caught:
        TRASH_WAR.apply(state, seat, action)
    return caught.value.reason


def refusals() -> list[Filling]:
    """A refusal for each rule an action can break (the engine's own words)."""
    defend = {"turn": 1, "phase": "defend", "flight": [("tv3", 1, "left", 0)]}
    rubble = {**defend, "walls": {1: [None, [], []]}}
    fallen = {"phase": "burn", "walls": {0: [["tv3"], None, []]}}
    cases = [
        (build(hands={0: ["shield1"]}), 0, "discard burn2"),
        (build(hands={1: ["shield1"]}, **defend), 1, "discard shield1"),
        (build(hands={0: ["tv1", "shield1"]}), 0, "discard shield1"),
        (build(hands={0: ["tv1"]}), 0, "at p1 left"),
        (build(swing="left", **{**defend, "phase": "bat"}), 1, "at p0 left"),
        (build(hands={0: ["tv1"]}, eliminated=[2]), 0, "play tv1 at p2 left"),
        (build(hands={0: ["tv1"]}, walls={1: [None, [], []]}), 0, "play tv1 at p1 left"),
        (
            build(hands={0: ["tv3", "toaster1"]}, phase="drawn", drawn="tv3"),
            0,
            "play toaster1 at p1 left",
        ),
        (build(hands={0: ["tv1"]}, **fallen), 0, "play tv1 at p1 left"),
        (build(hands={0: ["catapult+", "tv1"]}, opening=True), 0, "play catapult+ tv1 at p1 left"),
        (build(hands={0: ["catapult+", "tv1"]}), 0, "play catapult+ tv1 tv1 at p1 left"),
        (build(hands={0: ["tv1"]}), 0, "play tv1 at p0 left"),
        (build(swing="left", **{**defend, "phase": "bat"}), 1, "take"),
        (build(), 0, "take"),
        (build(hands={1: ["shield4+"]}, **rubble), 1, "play shield4+"),
        (build(hands={1: ["shield2"]}, **defend), 1, "play shield2"),
        (build(hands={1: ["deflect"]}, **rubble), 1, "play deflect middle"),
        (build(hands={1: ["deflect"]}, **defend), 1, "play deflect left"),
        (
            build(hands={1: ["mace-back"]}, turn=1, phase="defend", flight=[("tv3", 1, "left", 1)]),
            1,
            "play mace-back",
        ),
        (build(hands={1: ["burn2"]}, **defend), 1, "play burn2 left tv3"),
        (build(), 0, "pass"),
        (build(hands={0: ["burn3"]}, **fallen), 0, "play burn3 right tv3"),
        (build(hands={0: ["burn2"]}, **fallen), 0, "play burn2 left tv3"),
        (build(hands={0: ["repair"]}, **fallen), 0, "play repair left"),
        (build(), 0, "nonsense"),
    ]
    reasons = [refused(state, seat, action) for state, seat, action in cases]
    with pytest.raises(IllegalAction) as caught:
        TRASH_WAR.new_game(7, {}, 1)
    return [*reasons, caught.value.reason]


def refusals_in_source() -> set[str]:
    """The English of every refusal the engine's source raises."""
    found: set[str] = set()
    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalAction"):
                continue
            (reason,) = node.args
            if isinstance(reason, ast.Name):  # a phrase kept in a constant (or a shared one)
                kept = getattr(state_module, reason.id, None) or getattr(base, reason.id)
                found.add(kept.text)
            else:
                assert isinstance(reason, ast.Call) and isinstance(reason.args[0], ast.Constant)
                found.add(reason.args[0].value)
    return found


def test_every_refusal_of_the_engine_is_tried_here() -> None:
    """The refusals below cover every rule the engine's source names, so the checks on
    them reach every refusal a player can read."""
    tried = {reason.text for reason in refusals() if isinstance(reason, Phrase)}
    assert tried == refusals_in_source()


def test_every_refusal_goes_through_the_catalogues() -> None:
    for reason in refusals():
        said = say(reason, PSEUDO, NAMES)
        assert foreign_only(said, *NAMES, TITLE), plain_words(said, *NAMES, TITLE)


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_every_log_line_and_label_goes_through_the_catalogues(seats: int) -> None:
    """Each line of a whole war (the lines told to one seat too) and each label of each
    decision, said in the pseudo language, keeps no plain letter."""
    readers = Readers(NAMES[:seats], PSEUDO)
    lines = 0
    for state, events in played(seats, seed=seats):
        for event in events:
            line = format_event(event, readers)
            assert foreign_only(line, *readers, TITLE), (line, plain_words(line, *readers))
            lines += 1
        if state.step % 3 == 0:  # every label of every third decision: quick, and plenty
            for label in labels(state):
                said = format_event(Event(label), readers)
                assert foreign_only(said, *readers), (said, plain_words(said, *readers))
    assert lines > 50


@pytest.mark.parametrize("language", ["fr", "de"])
def test_french_and_german_fill_every_gap(language: str) -> None:
    """Every line, label and refusal says itself in French and German (a gap the
    translation renamed would raise), each one translated (not the English)."""
    readers = Readers(NAMES[:4], language)
    english = Readers(NAMES[:4])
    for state, events in played(4, seed=11):
        said = [*events, *(Event(label) for label in labels(state))]
        for event in said:
            line = format_event(event, readers)
            assert line and "{" not in line, line
    for reason in refusals():
        line = say(reason, language, NAMES)
        assert line != say(reason, "en", NAMES), line
    assert english.language == "en"


def test_french_and_german_read_as_written() -> None:
    """A few lines spot-checked whole: a throw, a shield and a refusal."""
    throw = TRASH_WAR.apply(build(hands={0: ["toaster2"]}), 0, "play toaster2 at p1 left")
    line = throw.events[0]
    assert format_event(line, Readers(NAMES, "fr")) == (
        "Ann lance un grille-pain (2) sur le mur gauche de Bo."
    )
    assert format_event(line, Readers(NAMES, "de")) == (
        "Ann wirft einen Toaster (2) auf die linke Mauer von Bo."
    )
    defend = build(hands={1: ["shield3"]}, turn=1, phase="defend", flight=[("tv3", 1, "left", 0)])
    shield = TRASH_WAR.apply(defend, 1, "play shield3").events[0]
    assert format_event(shield, Readers(NAMES, "fr")) == (
        "Bo pare le téléviseur (3) avec un Bouclier 3."
    )
    assert format_event(shield, Readers(NAMES, "de")) == (
        "Bo hält einen Schild 3 gegen den Fernseher (3)."
    )
    label = TRASH_WAR.describe(defend, "play shield3")
    assert format_event(Event(label), Readers(NAMES, "de")) == "Schild 3 gegen den Fernseher (3)"
    weak = build(hands={1: ["shield2"]}, turn=1, phase="defend", flight=[("tv3", 1, "left", 0)])
    assert say(refused(weak, 1, "play shield2"), "fr") == (
        "Un Bouclier 2 ne peut pas bloquer 3 dégâts : la valeur du bouclier doit être au "
        "moins égale aux dégâts."
    )
