"""Trash War's presenter and pictures in every language (issue 40): every word shown in the
channel or a private reply, drawn or written, goes through the catalogues (the pseudo
language leaves no plain letter), reads in French and German, and stays legible there."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.requests import format_event
from cogs.shared.presenter import Buttons, Control, Menu
from cogs.trashwar._present import TrashWarPresenter
from lang import PSEUDO
from render import trashwar
from render.common.record import recording
from render.trashwar.recap import draw_recap
from rules.base import Event
from rules.phrases import Readers
from rules.trashwar import TRASH_WAR, State
from tests.languages.pseudo import foreign_only, plain_words
from tests.render.test_caches import clear_render_caches
from tests.render.test_legible import Shown, drawn, too_small
from tests.render.test_trashwar_render import PHASES

PRESENTER = TrashWarPresenter()
TITLE = "Trash War"
# Names with no Latin letter, so a name cut short in a picture leaves none behind.
NAMES = ["Σοφία", "Ёжик", "名無しさん", "Ωμέγα", "Юля", "太郎"]


def moments(seats: int, seed: int) -> Iterator[State]:
    """States of a seeded war of random legal moves: a dozen spread over it, and its end."""
    rng, state = random.Random(seed), TRASH_WAR.new_game(seats, {}, seed)
    states = [state]
    while TRASH_WAR.outcome(state) is None and state.step < 2000:
        (seat,) = TRASH_WAR.to_act(state)
        state = TRASH_WAR.apply(state, seat, rng.choice(TRASH_WAR.legal_actions(state, seat))).state
        states.append(state)
    yield from states[:: max(1, len(states) // 12)]
    yield states[-1]


def control_words(controls: list[Control]) -> Iterator[str]:
    for control in controls:
        if isinstance(control, Menu):
            yield control.placeholder
        choices = control.choices if isinstance(control, Menu) else control.actions
        assert isinstance(control, Buttons | Menu)
        for choice in choices:
            yield choice.label
            if choice.description:
                yield choice.description


def shown(state: State, readers: Readers) -> Iterator[tuple[str, str]]:
    """Everything the presenter shows of `state` to `readers`: (where, words), the words
    drawn in its pictures included."""
    obs, since = TRASH_WAR.observe(state, None), max(0, state.step - 2)
    yield "summary", PRESENTER.summary(obs, readers)
    with recording() as notes:
        PRESENTER.board(obs, readers, since)
        if obs["finished"]:
            PRESENTER.recap(obs, readers)
    yield from (("board picture", note.text) for note in notes if note.kind == "text")
    acting = TRASH_WAR.to_act(state)
    for seat in acting or (0,):
        own = TRASH_WAR.observe(state, seat)
        with recording() as notes:
            reply = PRESENTER.hand(own, readers)
        yield "hand", reply.text
        yield from (("hand picture", note.text) for note in notes if note.kind == "text")
        if not acting:
            continue
        legal = TRASH_WAR.legal_actions(state, seat)

        def describe(action: str) -> str:
            return format_event(Event(TRASH_WAR.describe(state, action)), readers)

        yield from (
            ("control", w) for w in control_words(PRESENTER.hand_controls(own, legal, describe))
        )
        for group in {TRASH_WAR.group_of(action) for action in legal} - set(legal):
            narrowed = PRESENTER.narrowed(obs, group, readers)
            assert narrowed is not None
            yield "narrowed", narrowed.text


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_everything_shown_goes_through_the_catalogues(seats: int) -> None:
    clear_render_caches()  # the words of cached layers are noted when they are drawn
    readers = Readers(NAMES[:seats], PSEUDO)
    places: set[str] = set()
    for state in moments(seats, seed=seats):
        for where, words in shown(state, readers):
            assert foreign_only(words, *readers, TITLE), (
                where,
                words,
                plain_words(words, *readers),
            )
            places.add(where)
    assert places >= {"summary", "board picture", "hand", "hand picture", "control", "narrowed"}


def test_the_sample_boards_go_through_the_catalogues() -> None:
    """The hand-set boards of the render tests: a Mace swung, a volley, a stuck war..."""
    clear_render_caches()
    for label, (obs, names) in PHASES.items():
        # their names, but for ours: a long one cut short would leave plain letters
        readers = Readers([NAMES[i] if name else name for i, name in enumerate(names)], PSEUDO)
        with recording() as notes:
            trashwar.draw_battlefield(obs, readers)
        caption = PRESENTER.summary(obs, readers)
        for words in [caption, *(note.text for note in notes if note.kind == "text")]:
            assert foreign_only(words, *NAMES, TITLE), (label, words, plain_words(words, *NAMES))


@pytest.mark.parametrize("language", ["fr", "de"])
def test_french_and_german_show_every_moment(language: str) -> None:
    """The same moments in French and German: every gap filled (a renamed one raises),
    no English left where a translation is due."""
    readers = Readers(NAMES[:3], language)
    for state in moments(3, seed=8):
        for where, words in shown(state, readers):
            assert "{" not in words and "⟦" not in words, (where, words)


def test_french_and_german_read_as_written() -> None:
    """A few words spot-checked: the summary of a war's start, a hand reply, a question."""
    state = TRASH_WAR.new_game(3, {}, 4)
    obs = TRASH_WAR.observe(state, None)
    starter = obs["to_act"][0]
    names = ["Ann", "Bo", "Cyd"]
    assert PRESENTER.summary(obs, Readers(names, "fr")) == (
        f"tour 1 · {names[starter]} ouvre la guerre : une carte Déchet sur n'importe quel mur"
    )
    assert PRESENTER.summary(obs, Readers(names, "de")) == (
        f"Zug 1 · {names[starter]} eröffnet den Krieg: eine Müllkarte auf irgendeine Mauer"
    )
    own = TRASH_WAR.observe(state, starter)
    assert PRESENTER.hand(own, Readers(names, "de")).text.startswith("Deine Hand (5): ")
    hand = PRESENTER.hand(own, Readers(names, "fr")).text.splitlines()
    assert hand[0].endswith(". Vous seul la voyez.")
    assert hand[1].startswith("Hors de vue (la pioche et les mains des autres) : Déchet : ")
    reply = PRESENTER.narrowed(obs, "play tv2", Readers(names, "fr"))
    assert reply is not None
    assert reply.text == "Votre choix : **Lancer le téléviseur (2)**. Sur quel mur ?"


def pictures(language: str) -> Iterator[Shown]:
    """The pictures of two wars and the sample boards, for readers of `language`."""
    for label, (obs, names) in PHASES.items():
        yield from drawn(
            f"board '{label}'", trashwar.draw_battlefield, obs, Readers(names, language)
        )
    for seats in (2, 6):
        readers = Readers(NAMES[:seats], language)
        for state in moments(seats, seed=seats):
            obs: Any = TRASH_WAR.observe(state, None)
            since = max(0, state.step - 2)
            yield from drawn(
                f"board, {seats} players", trashwar.draw_battlefield, obs, readers, since
            )
            own = TRASH_WAR.observe(state, 0)
            yield from drawn("hand", trashwar.draw_hand, own, NAMES[0], language)
            if obs["finished"]:
                yield from drawn(f"recap, {seats} players", draw_recap, obs, readers)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_pictures_stay_legible_and_their_cards_fit_in_every_language(language: str) -> None:
    """Every text at least 11 px high as Discord shows it (as `test_legible` asks), and the
    hand's cards no more often cut short with "…" than in English."""
    clear_render_caches()  # the words of cached sprites are noted when they are drawn
    english = cut_on_cards(list(pictures("en")))
    clear_render_caches()
    shown_pictures = list(pictures(language))
    small = too_small(iter(shown_pictures))
    assert not small, "\n".join(small)
    assert len(cut_on_cards(shown_pictures)) <= len(english), cut_on_cards(shown_pictures)


def cut_on_cards(shown_pictures: list[Shown]) -> list[str]:
    """The words of the hand pictures cut short with "…" (but a wall's list of trash,
    which says what it can)."""
    return [
        text.text
        for label, _png, texts in shown_pictures
        if label == "hand"
        for text in texts
        if text.text.endswith("…") and ", " not in text.text
    ]
