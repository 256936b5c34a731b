"""Rumble's presenter and pictures in every language the bot has (issue 40): the board's line,
controls, private replies and every word drawn go through the catalogues, read in French
and German, and the pictures stay legible and uncut in the longest of them.

The check is the tests' pseudo language (`lang.PSEUDO`), whose every catalogued letter is
accented: a plain letter left over is a word that skipped the catalogues. Names stay as they
are: the players', the game's title and the rooms (A1..D3)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.requests import format_event
from cogs.rumble._present import RumblePresenter, just_started
from cogs.shared.presenter import Buttons, Control, Menu
from lang import PSEUDO, say
from render.common.record import Drawn, recording
from render.rumble import draw_dungeon, draw_reveal, draw_secret
from render.rumble.layout import MAP_SIZE
from render.rumble.recap import draw_recap
from rules.base import Event
from rules.phrases import Readers, phrase_in
from rules.rumble.characters import CHARACTERS
from rules.rumble.dungeon import ROOMS
from rules.rumble.engine import RUMBLE, State
from tests.languages.pseudo import plain_words
from tests.render import samples
from tests.render.test_caches import clear_render_caches
from tests.render.test_legible import NAMES as LONG_NAMES
from tests.render.test_legible import drawn, played, too_small
from tests.rules.test_rumble import make_state

PRESENTER = RumblePresenter()
# Short names, so that none is cut with "…" where a test looks for words left plain.
NAMES = ["Zoë", "Łukasz", "Σοφία", "Ёжик", "名無し", "Øyvind"]
NAMED = (*NAMES, RUMBLE.title, *ROOMS)  # names, not words: the same in every language
LANGUAGES = ("en", "fr", "de")


def moments(seats: int, seed: int) -> Iterator[State]:
    """States of a seeded game played by the engine's AI: the start, every tenth move, the
    first board of each later rumble (the reveal's moment) and the end."""
    rng, state = random.Random(seed), RUMBLE.new_game(seats, {}, seed)
    yield state
    while RUMBLE.outcome(state) is None:
        seat = min(RUMBLE.to_act(state))
        legal = RUMBLE.legal_actions(state, seat)
        action = RUMBLE.choose(RUMBLE.observe(state, seat), legal, rng, "easy")
        state = RUMBLE.apply(state, seat, action).state
        if state.step % 10 == 0 or state.finished or just_started(RUMBLE.observe(state, None)):
            yield state


def control_words(controls: list[Control]) -> list[str]:
    words: list[str] = []
    for control in controls:
        if isinstance(control, Menu):
            words.append(control.placeholder)
            words += [w for c in control.choices for w in (c.label, c.description) if w]
        elif isinstance(control, Buttons):
            words += [c.label for c in control.actions]
    return words


def said_at(state: State, readers: Readers) -> tuple[list[str], list[Drawn]]:
    """Every text the presenter gives at `state` (the board's line, controls, the secret
    reply, the narrowed questions) and every text its pictures draw, for `readers`."""
    public = RUMBLE.observe(state, None)
    texts = [PRESENTER.summary(public, readers)]
    with recording() as notes:
        PRESENTER.board(public, readers, max(0, state.step - 3))
        if public["finished"]:
            PRESENTER.recap(public, readers)
        own = RUMBLE.observe(state, 0)
        reply = PRESENTER.hand(own, readers)
    texts.append(reply.text)
    if not state.finished:
        legal = RUMBLE.legal_actions(state, state.turn)

        def describe(action: str) -> str:
            return format_event(Event(RUMBLE.describe(state, action)), readers)

        controls = PRESENTER.controls(public, legal, describe, readers.language)
        texts += control_words(controls)
        for group in {RUMBLE.group_of(action) for action in legal}:
            narrowed = PRESENTER.narrowed(public, group, readers)
            texts += [narrowed.text] if narrowed else []
    return texts, [note for note in notes if note.kind == "text"]


def everything(seats: int, seed: int, language: str) -> Iterator[str]:
    readers = Readers(NAMES[:seats], language)
    for state in moments(seats, seed):
        texts, notes = said_at(state, readers)
        yield from texts
        yield from (note.text for note in notes)


@pytest.mark.parametrize("seats", [2, 6])
def test_every_word_the_presenter_says_and_draws_goes_through_the_catalogues(
    seats: int,
) -> None:
    clear_render_caches()  # words inside cached backgrounds and tokens are noted when drawn
    shown = list(everything(seats, seats, PSEUDO))
    assert len(shown) > 100
    for text in shown:
        assert not plain_words(text, *NAMED), text


def test_the_hand_made_boards_draw_no_word_that_skipped_the_catalogues() -> None:
    """Crowded rooms (marks on chips), a chest gone, a long exit line, shared wins."""
    clear_render_caches()
    boards = [
        samples.crowded(),
        samples.everyone_in_one_room(),
        samples.chest_gone(),
        samples.long_exit_line(),
        samples.finished(tie=True),
    ]
    readers = Readers(NAMES[:4], PSEUDO)
    for obs in boards:
        with recording() as notes:
            PRESENTER.board(obs, Readers(NAMES[: obs["seats"]], PSEUDO), 0)
            if obs["finished"]:
                PRESENTER.recap(obs, Readers(NAMES[: obs["seats"]], PSEUDO))
            PRESENTER.hand(samples.with_secret(obs, 0, ["cube", "thief"]), readers)
            PRESENTER.hand(obs, readers)  # the public view: no secret to show
        for note in notes:
            if note.kind == "text":
                assert not plain_words(note.text, *NAMED), note.text


@pytest.mark.parametrize("language", ["fr", "de"])
def test_french_and_german_fill_every_gap(language: str) -> None:
    """A gap a translation misnames fails with a KeyError; one it drops leaves a brace."""
    for text in everything(3, 5, language):
        assert "{" not in text and "⟦" not in text, text


def test_the_board_line_and_the_secret_read_in_french_and_german() -> None:
    obs = samples.with_secret(samples.chest_gone(4), 0, ["cube", "thief"])
    french, german = Readers(NAMES[:4], "fr"), Readers(NAMES[:4], "de")
    assert PRESENTER.summary(obs, french) == (
        "mêlée 2/3 · 8 personnages restants · le Voleur s'est enfui avec le coffre"
    )
    assert PRESENTER.summary(obs, german) == (
        "Keilerei 2/3 · 8 Figuren übrig · der Dieb ist mit der Truhe entkommen"
    )
    assert PRESENTER.hand(obs, german).text == (
        "Deine geheimen Figuren für Keilerei 2: **Gallertwürfel** und **Dieb**. Nur du siehst das."
    )
    narrowed = PRESENTER.narrowed(obs, "move cube", french)
    assert narrowed is not None and narrowed.text == "Par où va le Cube gélatineux depuis D3 ?"
    narrowed = PRESENTER.narrowed(obs, "move skeleton", german)
    assert narrowed is not None and narrowed.text == "Wohin geht das Skelett von A3 aus?"


def test_the_menus_read_in_the_boards_language() -> None:
    state = make_state({"knight": "B2", "troll": "C2", "cube": "C2"}, chest="A3")
    readers = Readers(NAMES[:3], "de")
    legal = RUMBLE.legal_actions(state, state.turn)

    def describe(action: str) -> str:
        return format_event(Event(RUMBLE.describe(state, action)), readers)

    movers, fights = PRESENTER.controls(
        RUMBLE.observe(state, None), legal, describe, readers.language
    )
    assert isinstance(movers, Menu) and isinstance(fights, Menu)
    assert movers.placeholder == "Figur bewegen…"
    assert [c.label for c in movers.choices] == ["Ritter (in B2)"]
    assert fights.placeholder == "Kampf beginnen…"
    assert [c.label for c in fights.choices] == [
        "Kampf in C2: Gallertwürfel rauswerfen",  # in the characters' order
        "Kampf in C2: Troll rauswerfen",
    ]


def pictures(language: str) -> Iterator[tuple[str, bytes, list[Drawn]]]:
    """Every Rumble picture of two seeded games and the hand-made boards, in `language`,
    each with the texts it drew (the names are test_legible's long ones in five scripts)."""
    names = Readers(LONG_NAMES, language)
    for obs in (samples.crowded(6), samples.long_exit_line(6), samples.finished(6, tie=True)):
        yield from drawn("board", draw_dungeon, obs, names)
    for seats in (2, 6):
        for state in played(RUMBLE, seats, {}, seats):
            obs, since = RUMBLE.observe(state, None), max(0, state.step - 2)
            yield from drawn(f"board, {seats} players", draw_dungeon, obs, names, since)
            if obs["history"]:
                yield from drawn("reveal", draw_reveal, obs["history"][-1], names)
            own = RUMBLE.observe(state, 0)
            yield from drawn("secret", draw_secret, own, LONG_NAMES[0], language)
            if obs["finished"]:
                yield from drawn(f"recap, {seats} players", draw_recap, obs, names)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_picture_stays_legible_in_each_language(language: str) -> None:
    clear_render_caches()
    small = too_small(pictures(language))
    assert not small, "\n".join(small)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_word_is_cut_to_fit_in_any_language(language: str) -> None:
    """Every word fits where it is drawn, in each language. What may be cut with "…" is cut
    by design: a long player name, a character's name in a tight spot (a token's label,
    as in English) and the last move's caption under the board, whose log lines wrap."""
    clear_render_caches()
    characters = [say(phrase_in("character", name), language) for name in CHARACTERS.values()]
    may_be_cut = (*LONG_NAMES, *characters)
    cut = {
        note.text
        for _, _, notes in pictures(language)
        for note in notes
        if note.text.endswith("…")
        and note.box[1] < MAP_SIZE[1]  # above the caption strip
        and not any(name.startswith(note.text[:-1]) for name in may_be_cut)
    }
    assert not cut, cut
