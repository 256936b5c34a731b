"""Toss It in the Trash in every language (issue 40): each line the engine logs and each rule
an action breaks goes through the catalogues (the tests' pseudo language shows any word that
skipped them), and reads in French and German with every gap filled."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest

from lang import say
from rules.base import Event, IllegalAction
from rules.phrases import Filling, Readers
from rules.toss import TOSS, State
from rules.toss.bin import WOBBLE
from rules.toss.engine import Choose
from rules.toss.phases import _apply_choose
from rules.toss.state import KIND_ORDER
from tests.languages.pseudo import PSEUDO, foreign_only, plain_words

NAMES = ["Ann", "Bob", "Cyrielle"]
TITLE = "Toss It in the Trash"
LANGUAGES = ("fr", "de")


@cache
def game_events() -> tuple[Event, ...]:
    """Every event of a seeded three-player game of random legal moves (random drops spill
    soon, so the counters run out in a few rounds), the opening's included."""
    rng, state = random.Random(4), TOSS.new_game(3, {}, 4)
    events = list(TOSS.opening_events(state))
    while TOSS.outcome(state) is None:
        seat = min(TOSS.to_act(state))
        applied = TOSS.apply(state, seat, rng.choice(TOSS.legal_actions(state, seat)))
        state, events = applied.state, events + applied.events
    return tuple(events)


def told(event: Event, readers: Readers) -> str:
    """An event's line as the session says it to `readers` (`bot.requests.format_event`)."""
    return say(event.text, readers.language, readers)


def refusal(state: State, seat: int, action: str) -> Filling:
    with pytest.raises(IllegalAction) as refused:
        TOSS.apply(state, seat, action)
    return refused.value.reason


def refusals() -> dict[str, Filling]:
    """Each reason the engine gives for an action its rules forbid, by the rule."""
    start = TOSS.new_game(2, {}, 3)
    missing = next(card for card in range(1, 11) if card not in start.hands[0])
    # Each lays down their highest card (3 or more): the first turn has pieces after its first.
    chosen = TOSS.apply(start, 0, f"choose {start.hands[0][-1]}").state
    placing = TOSS.apply(chosen, 1, f"choose {start.hands[1][-1]}").state
    seat = min(TOSS.to_act(placing))
    bound = TOSS.apply(placing, seat, "place can 10 0").state
    no_cans = replace(placing, supply=tuple(0 if k == "can" else 5 for k in KIND_ORDER))
    reasons = {
        "not a move": refusal(start, 0, "juggle"),
        "no such card": refusal(start, 0, f"choose {missing}"),
        "choose first": refusal(start, 0, "place can 10 0"),
        "cards are down": refusal(placing, seat, f"choose {start.hands[seat][0]}"),
        "kind run out": refusal(no_cans, seat, "place can 10 0"),
        "kind bound": refusal(bound, seat, "place bottle 10 0"),
    }
    # A second card in one round: `to_act` refuses it before the engine's own rule does.
    with pytest.raises(IllegalAction) as twice:
        _apply_choose(chosen, 0, Choose(chosen.hands[0][0]))
    reasons["chosen already"] = twice.value.reason
    for name, options, seats in (("seats", {}, 6), ("wobble", {"wobble": "drunk"}, 2)):
        with pytest.raises(IllegalAction) as refused:
            TOSS.new_game(seats, options, 1)
        reasons[name] = refused.value.reason
    return reasons


def test_every_log_line_of_a_game_goes_through_the_catalogues() -> None:
    """Each event of a whole game, said in the pseudo language, has no plain word left."""
    readers = Readers(NAMES, PSEUDO)
    lines = [told(event, readers) for event in game_events()]
    assert any("⟦" in line for line in lines)
    assert [line for line in lines if not foreign_only(line, *NAMES, TITLE)] == []


def test_every_refusal_goes_through_the_catalogues() -> None:
    """Each rule an action breaks is named in the reader's language."""
    reasons = refusals()
    assert len(reasons) == 9
    typed = ("drunk", *WOBBLE)  # the option's values, as a host types them, stay as they are
    plain = {
        rule: plain_words(said, TITLE, *typed)
        for rule, reason in reasons.items()
        if plain_words(said := say(reason, PSEUDO), TITLE, *typed)
    }
    assert plain == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_log_lines_and_refusals_read_in_french_and_german(language: str) -> None:
    """Every gap of every line is filled in the language (a missing one would raise), and no
    line is left in English."""
    readers = Readers(NAMES, language)
    lines = [told(event, readers) for event in game_events()]
    english = [told(event, Readers(NAMES)) for event in game_events()]
    assert all(said != plain for said, plain in zip(lines, english, strict=True))
    for reason in refusals().values():
        assert say(reason, language) != say(reason, "en")


def test_a_few_lines_read_as_a_french_and_a_german_player_expect() -> None:
    """Spot checks: the opening, a card laid down, a count, a piece with its article."""
    events = game_events()
    said = {language: [told(e, Readers(NAMES, language)) for e in events] for language in LANGUAGES}
    assert said["fr"][0] == "Manche 1 : chacun pose une carte face cachée."
    assert said["de"][0] == "Runde 1: Alle legen eine Karte verdeckt ab."
    assert "Ann pose une carte." in said["fr"] and "Ann legt eine Karte ab." in said["de"]
    start = TOSS.new_game(2, {}, 1)
    seats = say(refusal(start, 0, "juggle"), "de")
    assert seats == "Das ist in diesem Spiel kein Zug."
    with pytest.raises(IllegalAction) as refused:
        TOSS.new_game(6, {}, 1)
    assert say(refused.value.reason, "fr") == "Toss It in the Trash se joue de 2 à 5 joueurs."
