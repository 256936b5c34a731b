"""Toss It in the Trash's presenter, aim replies and pictures in every language (issue 40).

In the tests' pseudo language every word that went through the catalogues is accented, so a
plain word left in a summary, a reply, a button, a menu or a picture is one that skipped
them. In French and German every gap is filled (a missing one would raise), a few texts are
checked word for word, and the pictures keep every word legible and whole.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

from cogs.shared.presenter import Buttons, OwnItems
from cogs.toss._present import TossPresenter
from cogs.toss.aim import (
    NOT_OPEN,
    OFF_THE_BIN,
    TURN_OVER,
    Aim,
    Turn,
    aim_text,
    aim_view,
    switched,
)
from lang import say
from render.common.record import recording
from render.toss import draw_bin, draw_cards, draw_preview
from render.toss.recap import draw_recap
from rules.phrases import Readers
from rules.toss import TOSS, State
from rules.toss.engine import Place, parse_action
from rules.toss.state import CHOOSE, PLACE
from tests.cogs.test_reading import item_words
from tests.languages.pseudo import PSEUDO, plain_words
from tests.render.test_caches import clear_render_caches
from tests.render.test_legible import NAMES as LEGIBLE_NAMES
from tests.render.test_legible import Shown, drawn, played, too_small

NAMES = ["Ann", "Bob", "Cyrielle"]
TITLE = "Toss It in the Trash"
PRESENTER = TossPresenter()
# Words French and German write as English does: the score's "points", the recap's "Score",
# the rounds' columns ("R1": Runde).
SHARED_WITH_ENGLISH = {"fr": {"points", "Score"}, "de": {f"R{n}" for n in range(1, 11)}}


@cache
def moments() -> dict[str, State]:
    """A seeded three-player game with shaky hands (random drops spill soon, so it is short),
    at the moments that show different words: its start, cards half chosen, a turn bound to
    a kind, just after a spill, and its end."""
    rng, state = random.Random(4), TOSS.new_game(3, {"wobble": "shaky"}, 4)
    found = {"start": state}
    while TOSS.outcome(state) is None:
        seat = min(TOSS.to_act(state))
        state = TOSS.apply(state, seat, rng.choice(TOSS.legal_actions(state, seat))).state
        if state.phase == CHOOSE and 0 < sum(c is not None for c in state.chosen) < 3:
            found.setdefault("choosing", state)
        if state.phase == PLACE and state.kind is not None and state.to_place > 0:
            found.setdefault("dropping", state)
        if state.spill:
            found.setdefault("spilled", state)
    found["over"] = state
    assert len(found) == 5
    return found


def pictured(draw: Callable[..., Any], *args: Any) -> list[str]:
    """The texts a picture draws (its cached layers drawn afresh, so they are noted too)."""
    clear_render_caches()
    with recording() as notes:
        draw(*args)
    return [note.text for note in notes if note.kind == "text"]


def shown(state: State, readers: Readers) -> list[str]:
    """Every text the channel and seat 0 see of `state`: the summary, the board (after the
    first move: before it the shared caption strip says "No moves yet."), the board's
    menus, the hand reply, its buttons and picture, the aim reply, its controls and
    preview, and the recap."""
    language = readers.language
    public, own = TOSS.observe(state, None), TOSS.observe(state, 0)
    texts = [PRESENTER.summary(public, readers)]
    if state.last_move is not None:
        texts += pictured(PRESENTER.board, public, readers, state.step - 1)
    seat = min(TOSS.to_act(state), default=None)
    legal = [] if seat is None else TOSS.legal_actions(state, seat)

    def describe(action: str) -> str:
        return say(TOSS.describe(state, action), language, readers)

    for control in PRESENTER.controls(public, legal, describe, language):
        assert isinstance(control, OwnItems)
        for item in control.make(1, state.step):
            texts += item_words(item)
    if 0 in TOSS.to_act(state) or own["hand"]:
        for buttons in PRESENTER.hand_controls(own, TOSS.legal_actions(state, 0), describe):
            assert isinstance(buttons, Buttons)
            texts += [choice.label for choice in buttons.actions]
        with recording() as notes:
            reply = PRESENTER.hand(own, readers)
        texts += [reply.text] + [note.text for note in notes if note.kind == "text"]
    drop = parse_action(legal[0]) if legal else None
    if isinstance(drop, Place):
        aim = Aim(1, state.step, drop.kind, drop.x, drop.angle)
        # Every control the aiming message may show: the rest, another kind instead.
        turn = Turn([*Turn.of(public, legal).kinds, "apple"], max(2, public["to_place"]))
        for again in (False, True):
            note = switched(drop.kind, "apple") if again else None
            texts.append(aim_text(aim, turn, again, note, language))
            for item in aim_view(aim, turn, again, language).children:
                texts += item_words(item)
        texts += pictured(draw_preview, public, drop.kind, drop.x, drop.angle, language)
    if state.finished:
        texts += pictured(PRESENTER.recap, public, readers)
    return [text for text in texts if text]


@pytest.mark.parametrize("moment", ["start", "choosing", "dropping", "spilled", "over"])
def test_every_word_shown_goes_through_the_catalogues(moment: str) -> None:
    """In the pseudo language no text keeps a plain word (names and the title aside)."""
    texts = shown(moments()[moment], Readers(NAMES, PSEUDO))
    texts += [say(reason, PSEUDO) for reason in (OFF_THE_BIN, NOT_OPEN, TURN_OVER)]
    assert any("⟦" in text for text in texts)
    plain = {text: words for text in texts if (words := plain_words(text, *NAMES, TITLE))}
    assert plain == {}


@pytest.mark.parametrize("language", ["fr", "de"])
@pytest.mark.parametrize("moment", ["start", "choosing", "dropping", "spilled", "over"])
def test_every_word_shown_reads_in_french_and_german(moment: str, language: str) -> None:
    """Every gap is filled in the language, and no text reads as its English does."""
    state = moments()[moment]
    english = set(shown(state, Readers(NAMES)))
    said = shown(state, Readers(NAMES, language))
    # Numbers, spots and names read the same in every language; words do not, but for
    # the few a language shares with English.
    worded = [text for text in said if plain_words(text, *NAMES, TITLE)]
    same = {text for text in worded if text in english} - SHARED_WITH_ENGLISH[language]
    assert worded and same == set()


def test_a_few_texts_read_as_a_french_and_a_german_player_expect() -> None:
    """Spot checks: the summary, the hand, the aim buttons and the turn's end."""
    start = moments()["start"]
    public, own = TOSS.observe(start, None), TOSS.observe(start, 0)
    french, german = Readers(NAMES, "fr"), Readers(NAMES, "de")
    assert PRESENTER.summary(public, french).startswith("manche 1/10 · ")
    assert PRESENTER.summary(public, french).endswith(" · 6 jetons restants")
    assert PRESENTER.summary(public, german).endswith(" · 6 Plättchen übrig")
    assert PRESENTER.hand(own, french).text.startswith("Vos cartes (")
    assert PRESENTER.hand(own, german).text.endswith("\nNur du siehst das.")
    view = aim_view(Aim(1, 1, "can", 7, 0), Turn(["can", "apple"], 3), False, "de")
    labels = [next(item_words(item)) for item in view.children]
    assert "↺ 15° drehen" in labels and "Fallen lassen" in labels
    assert "Den Rest so fallen lassen (3 Teile)" in labels
    assert "Stattdessen einen Apfelrest nehmen" in labels
    assert say(TURN_OVER, "fr").startswith("Lâché. Votre tour est fini")
    assert say(switched("can", "apple"), "de") == (
        "Keine Konservendosen mehr: Jetzt richtest du einen Apfelrest aus."
    )


def pictures(language: str, names: list[str]) -> Iterator[Shown]:
    """Toss's pictures over seeded games of random moves, in `language` (as the legibility
    test draws them in English)."""
    readers = Readers(names, language)
    for seats, wobble in ((2, "steady"), (5, "shaky")):
        for state in played(TOSS, seats, {"wobble": wobble}, seats):
            obs, since = TOSS.observe(state, None), max(0, state.step - 2)
            yield from drawn(f"bin, {seats} players", draw_bin, obs, readers, since)
            own = TOSS.observe(state, 0)
            if own["hand"]:
                yield from drawn("cards", draw_cards, own, names[0], language)
            seat = min(TOSS.to_act(state), default=None)
            drops = [] if seat is None else TOSS.legal_actions(state, seat)
            if drops and drops[0].startswith("place"):
                drop = parse_action(drops[0])
                assert isinstance(drop, Place)
                yield from drawn("preview", draw_preview, obs, drop.kind, drop.x, 0, language)
            if obs["finished"]:
                yield from drawn(f"recap, {seats} players", draw_recap, obs, readers)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_every_text_of_the_pictures_stays_legible_in_each_language(language: str) -> None:
    """(issue 14, in every language) Longer words shrink no text under 11 px as shown."""
    clear_render_caches()
    small = too_small(pictures(language, LEGIBLE_NAMES))
    assert small == [], "\n".join(small)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_no_word_of_the_pictures_is_cut_in_any_language(language: str) -> None:
    """Every text fits its place whole: none ends cut with "…" (short names, so any cut
    would be the game's own words)."""
    clear_render_caches()
    cut = {
        (label, note.text)
        for label, _, notes in pictures(language, NAMES)
        for note in notes
        if note.text.endswith("…")
    }
    assert cut == set()


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_no_two_words_of_the_board_overlap_in_any_language(language: str) -> None:
    """A longer heading does not run into the count beside it. (Words only: the cards'
    numbers are drawn on sprites, noted where the sprite was drawn.)"""
    clear_render_caches()
    crossed = set()
    for label, _, notes in pictures(language, NAMES):
        words = [
            note for note in notes if label.startswith("bin") and re.search(r"[^\W\d]", note.text)
        ]
        crossed |= {
            (a.text, b.text)
            for index, a in enumerate(words)
            for b in words[index + 1 :]
            if overlap(a.box, b.box)
        }
    assert crossed == set()
