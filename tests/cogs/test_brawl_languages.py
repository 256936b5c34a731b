"""Dumpster Brawl! in every language (issue 40): each word the game shows, from the log's lines
and the refusals to the presenter's replies and the pictures' texts, goes through the
catalogues, and French and German read as those languages.

Seeded games played by the AI, in each way to play, are looked at in several moments: the
summary, the board's pictures (their drawn texts, through `recording`), the private
controls, the hand reply and its picture, the narrowed replies, the recap; and every line
of the log, private ones included. In the tests' pseudo language (`lang.PSEUDO`) every word
that went through a catalogue is accented, so a plain word is one that skipped them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.requests import format_event
from cogs.brawl._present import BrawlPresenter
from cogs.shared.presenter import Menu
from lang import say
from render.brawl import draw_rolls, draw_table
from render.common.record import recording
from rules.base import Event, IllegalAction
from rules.brawl import BRAWL
from rules.brawl.engine import MODES, State
from rules.brawl.table import _Table
from rules.phrases import Readers
from tests.cogs.test_brawl_present import crowded_decisions
from tests.languages.pseudo import PSEUDO, plain_words
from tests.render.test_caches import clear_render_caches
from tests.render.test_legible import too_small

PRESENTER = BrawlPresenter()
NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay"]
TITLE = "Dumpster Brawl!"
MOMENTS = 6  # states looked at in each game besides the end: enough phases, quick
# Actions tried in every moment: most are not legal there, and each refusal is read.
TRIED = ("declare draw", "draw trash", "discard pizza", "attack p1", "defend", "keep",
         "take", "done", "lay pizza 3", "go out", "play dive", "reroll")  # fmt: skip


@dataclass
class Said:
    """Everything the game showed in one language, with where each text came from."""

    texts: list[tuple[str, str]] = field(default_factory=list)
    drawn: list[tuple[str, bytes, list[Any]]] = field(default_factory=list)

    def add(self, where: str, text: str) -> None:
        self.texts.append((where, text))


def played(mode: str, seats: int, seed: int) -> tuple[list[State], list[Event]]:
    """A seeded game played by the AI: the states looked at and every event of the game."""
    rng, state = random.Random(seed), BRAWL.new_game(seats, {"mode": mode}, seed)
    states, events = [state], list(BRAWL.opening_events(state))
    while BRAWL.outcome(state) is None and len(states) < 2000:
        (seat,) = BRAWL.to_act(state)
        legal = BRAWL.legal_actions(state, seat)
        action = BRAWL.choose(BRAWL.observe(state, seat), legal, rng)
        applied = BRAWL.apply(state, seat, action)
        events += applied.events
        state = applied.state
        states.append(state)
    every = max(1, len(states) // (MOMENTS + 1))
    return [*states[every:-1:every][:MOMENTS], states[-1]], events


def shown(language: str, mode: str, seats: int, seed: int) -> Said:
    """What the game shows in `language` over one seeded game."""
    said, names = Said(), Readers(NAMES[:seats], language)
    states, events = played(mode, seats, seed)
    for event in events:
        said.add("log line", format_event(event, names))
    # Crowded hands of random play, whose choices gather in menus and narrowed replies.
    for state, _ in crowded_decisions(mode, games=2, keep=3):
        _private(said, state, Readers(NAMES[: state.seats], language))
    for state in states:
        public = BRAWL.observe(state, None)
        said.add("summary", PRESENTER.summary(public, names))
        _pictures(said, public, names, max(0, state.step - 6))
        _private(said, state, names)
        if BRAWL.outcome(state) is not None:
            continue  # (the game-wide refusals, a game over or not your turn, are shared)
        (seat,) = BRAWL.to_act(state)
        for action in TRIED:
            try:
                BRAWL.apply(state, seat, action)
            except IllegalAction as refused:
                said.add(f"refusal of {action!r}", say(refused.reason, language, names))
    return said


def _pictures(said: Said, public: Any, names: Readers, since: int) -> None:
    """The board's pictures (and the recap of a finished game), each with its drawn texts."""
    board = {
        "alley": lambda: draw_table(public, names, since),
        "dice": lambda: draw_rolls(public, names, since),
    }
    if public["finished"]:
        board["recap"] = lambda: PRESENTER.recap(public, names).data
    for picture, draw in board.items():
        with recording() as notes:
            png = draw()
        if png is not None:
            said.drawn.append((picture, png, [n for n in notes if n.kind == "text"]))
            said.texts += [(f"{picture} picture", n.text) for n in notes if n.text]


def _private(said: Said, state: State, names: Readers) -> None:
    """The seat to act's own reply: its controls, its hand, the narrowed replies."""
    if BRAWL.outcome(state) is not None:
        return
    (seat,) = BRAWL.to_act(state)
    own, legal = BRAWL.observe(state, seat), BRAWL.legal_actions(state, seat)

    def describe(action: str) -> str:
        return format_event(Event(BRAWL.describe(state, action)), names)

    for control in PRESENTER.hand_controls(own, legal, describe, names.language):
        choices = control.choices if isinstance(control, Menu) else control.actions
        if isinstance(control, Menu):
            said.add("menu", control.placeholder)
        for choice in choices:
            said.add("control", choice.label)
            if choice.description:
                said.add("control's note", choice.description)
            if choice.value not in legal:  # a group, finished in a narrowed reply
                narrowed = PRESENTER.narrowed(own, choice.value, names)
                assert narrowed is not None
                said.add("narrowed", narrowed.text)
    with recording() as notes:
        reply = PRESENTER.hand(own, names)
    said.add("hand reply", reply.text)
    said.drawn.append(("hand", reply.pictures[0].data, [n for n in notes if n.kind == "text"]))
    said.texts += [("hand picture", n.text) for n in notes if n.text]


GAMES = [
    (mode, seats, seed) for seed, (mode, seats) in enumerate(zip(MODES, (3, 4, 5), strict=True), 1)
]


@pytest.fixture(scope="module", params=GAMES, ids=[game[0] for game in GAMES])
def game(request: pytest.FixtureRequest) -> tuple[str, int, int]:
    return request.param  # type: ignore[no-any-return]


# A list's last joiner is Babel's, not a catalogue's: the pseudo language joins as English.
JOINER = " and "


def skipped(said: Said) -> list[str]:
    """The texts with words that skipped the catalogues, and where they were shown."""
    fillings = (*NAMES, TITLE, JOINER)
    return sorted(
        {
            f"{where}: {text!r} {plain_words(text, *fillings)}"
            for where, text in said.texts
            if plain_words(text, *fillings)
        }
    )


def test_every_word_goes_through_the_catalogues(game: tuple[str, int, int]) -> None:
    """(issue 40: "a pseudo-locale in the tests that fails on any text that skips the
    catalogue") Log lines, refusals, the presenter's texts and every drawn text, in all
    three ways to play."""
    clear_render_caches()  # a card face cached in English would be pasted unread
    said = shown(PSEUDO, *game)
    kinds = {where.split(" of ")[0] for where, _ in said.texts}
    assert {
        "log line",
        "summary",
        "alley picture",
        "dice picture",
        "hand reply",
        "refusal",
    } <= kinds
    left = skipped(said)
    assert not left, f"{len(left)} texts skipped the catalogues:\n" + "\n".join(left[:40])


@pytest.mark.parametrize("language", ["fr", "de"])
def test_french_and_german_fill_every_gap_and_stay_legible(
    game: tuple[str, int, int], language: str
) -> None:
    """(issue 40: "pictures keep fitting in the longest language") Every moment says itself
    without a missing gap (a KeyError), no English catalogue key shows through, and the
    pictures' texts stay readable at Discord's size."""
    clear_render_caches()
    said = shown(language, *game)
    assert not [text for _, text in said.texts if "{" in text]
    small = too_small(iter(said.drawn))
    assert not small, "\n".join(small)


def first(said: Said, where: str) -> Iterator[str]:
    return (text for place, text in said.texts if place == where)


def test_french_reads_as_french_and_german_as_german() -> None:
    """Spot checks of a few exact strings: a refusal, an action's label, a log line and the
    hand reply's last line, in each language."""
    state = BRAWL.new_game(3, {"mode": "round-rummage"}, 4)
    (seat,) = BRAWL.to_act(state)
    expected = {
        "fr": (
            "Annoncez d'abord si vous piochez, défaussez, faites les deux ou aucun.",
            "Attaquer Bob avec le Coude en plus",
            "Ann annonce : les deux.",
            "Vous seul pouvez voir ceci.",
        ),
        "de": (
            "Sag zuerst an, ob du ziehst, abwirfst, beides tust oder keins.",
            "Bob mit Extra-Ellbogen angreifen",
            "Ann sagt an: beides.",
            "Nur du siehst das.",
        ),
    }
    for language, (refusal, label, line, last) in expected.items():
        names = Readers(NAMES[:3], language)
        with pytest.raises(IllegalAction) as refused:
            BRAWL.apply(state, seat, "attack p1")
        assert say(refused.value.reason, language, names) == refusal
        assert format_event(Event(BRAWL.describe(state, "attack p1 elbow")), names) == label
        declared = BRAWL.apply(state, seat, "declare both").events
        assert format_event(declared[0], Readers(NAMES[:3], language)).endswith(line[4:])
        reply = PRESENTER.hand(BRAWL.observe(state, seat), names)
        assert reply.text.splitlines()[-1] == last


def test_the_engines_guards_and_the_lobbys_checks_are_catalogued() -> None:
    """The refusals no legal-action check reaches first (an engine's own guards, a bad
    option): each is said in the pseudo language."""
    state = BRAWL.new_game(3, {}, 2)
    reasons = []
    for attempt in (
        lambda: _Table(state).held(0, "tin"),
        lambda: _Table(state).draw(0, "discard"),
        lambda: BRAWL.new_game(2, {}, 1),
        lambda: BRAWL.new_game(3, {"mode": "chess"}, 1),
        lambda: BRAWL.new_game(3, {"affinity": "maybe"}, 1),
        lambda: BRAWL.new_game(3, {"slugs": "9"}, 1),
        lambda: BRAWL.new_game(3, {"characters": "bandit,bandit"}, 1),
        lambda: BRAWL.new_game(3, {"characters": "a,b,c,d"}, 1),
    ):
        with pytest.raises(IllegalAction) as refused:
            attempt()
        reasons.append(say(refused.value.reason, PSEUDO))
    # An option's own word (its name, the modes' keys) is said as typed.
    typed = ("slugs", "chess", "round", "rummage", "king", "of", "the", "heap", "rummy")
    typed += ("iscratchu", "moosetache", "bandit", "squeakers", "hissy", "gulliver")
    left = [r for r in reasons if plain_words(r, TITLE, *typed)]
    assert not left, left
