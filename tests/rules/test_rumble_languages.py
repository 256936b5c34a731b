"""Rumble's engine speaks every language the bot has (issue 40): each log line and each
refusal goes through the catalogues, and reads in French and German with its gaps filled.

The check is the tests' pseudo language (`lang.PSEUDO`): every catalogued letter comes out
accented, so a word that skipped the catalogues shows as plain letters. What may stay plain
is what is a name, not a word: the players' names, the game's title, the rooms (A1..D3) and
the layouts' values as `/rumble new layout:` takes them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from lang import PSEUDO, say
from rules.base import Event, IllegalAction
from rules.phrases import Filling, Readers
from rules.rumble.dungeon import FIXED_LAYOUTS, LAYOUT_CHOICES, ROOMS
from rules.rumble.engine import RUMBLE, State
from tests.languages.pseudo import plain_words
from tests.rules.test_rumble import make_state

NAMES = ["Zoë", "Łukasz", "Σοφία", "Ёжик", "名無し", "Øyvind"]
# Not words but names: they stay as they are in every language.
NAMED = (*NAMES, RUMBLE.title, *ROOMS, *LAYOUT_CHOICES, "castle")


def read(said: Filling, language: str, seats: int = 6) -> str:
    """What a reader of `language` sees, seats named."""
    return say(said, language, Readers(NAMES[:seats], language))


def skipped(said: Filling, seats: int = 6) -> list[str]:
    """The words of `said` that skipped the catalogues (none when all went through)."""
    return plain_words(read(said, PSEUDO, seats), *NAMED)


def whole_game(seats: int, seed: int) -> Iterator[tuple[State, list[Event]]]:
    """Each state of a seeded game played by the engine's AI, with the events that led
    there, private ones included."""
    rng, state = random.Random(seed), RUMBLE.new_game(seats, {}, seed)
    while RUMBLE.outcome(state) is None:
        seat = min(RUMBLE.to_act(state))
        legal = RUMBLE.legal_actions(state, seat)
        action = RUMBLE.choose(RUMBLE.observe(state, seat), legal, rng, "easy")
        applied = RUMBLE.apply(state, seat, action)
        state = applied.state
        yield state, applied.events


def refusal(state: State, seat: int, action: str) -> Filling:
    with pytest.raises(IllegalAction) as caught:
        RUMBLE.apply(state, seat, action)
    return caught.value.reason


def refusals() -> dict[str, Filling]:
    """A reason for every rule the engine names when it refuses (its own and the turn's)."""
    open_ = FIXED_LAYOUTS["open"]
    alone = make_state({"knight": "B2", "troll": "C2", "cube": "C2"}, chest="A3", layout=open_)
    chest_room = make_state({"knight": "B2", "troll": "B2", "cube": "C2"}, chest="B2")
    maze = make_state({"knight": "A2", "troll": "C2"}, chest="D3", layout=FIXED_LAYOUTS["maze"])
    reasons: dict[str, Filling] = {
        "not a move": refusal(alone, 0, "dance knight"),
        "not your turn": refusal(alone, 1, "fight troll"),
        "gone": refusal(alone, 0, "fight thief"),
        "fight alone": refusal(alone, 0, "fight knight"),
        "shares its room": refusal(alone, 0, "move troll W"),
        "no passage": refusal(maze, 0, "move knight E"),
        "chest elsewhere": refusal(alone, 0, "move knight E chest"),
        "chest must go": refusal(chest_room, 0, "move knight E"),
        "exit": refusal(alone, 0, "exit knight"),
    }
    with pytest.raises(IllegalAction) as caught:
        RUMBLE.new_game(1, {}, 1)
    reasons["seats"] = caught.value.reason
    with pytest.raises(IllegalAction) as caught:
        RUMBLE.new_game(3, {"layout": "castle"}, 1)
    reasons["layout"] = caught.value.reason
    finished = next(state for state, _ in whole_game(2, 4) if state.finished)
    reasons["game over"] = refusal(finished, 0, "fight knight")
    return reasons


@pytest.mark.parametrize("seats", [2, 5])
def test_every_log_line_of_a_whole_game_goes_through_the_catalogues(seats: int) -> None:
    lines = [event.text for _, events in whole_game(seats, seats) for event in events]
    assert len(lines) > 30  # three rumbles: moves, fights, reveals and the winner
    for line in lines:
        assert not skipped(line, seats), read(line, PSEUDO, seats)


def test_every_refusal_names_its_rule_through_the_catalogues() -> None:
    for rule, reason in refusals().items():
        assert not skipped(reason), (rule, read(reason, PSEUDO))


def test_every_button_label_goes_through_the_catalogues() -> None:
    for state, _ in whole_game(3, 8):
        if state.finished:
            break
        for action in RUMBLE.legal_actions(state, state.turn):
            label = RUMBLE.describe(state, action)
            assert not skipped(label), read(label, PSEUDO)


@pytest.mark.parametrize("language", ["fr", "de"])
def test_french_and_german_fill_every_gap_of_every_line(language: str) -> None:
    """No gap is left unfilled or misnamed in a translation (a KeyError if so)."""
    for state, events in whole_game(4, 11):
        for event in events:
            assert "{" not in read(event.text, language)
        if not state.finished:
            for action in RUMBLE.legal_actions(state, state.turn):
                assert "{" not in read(RUMBLE.describe(state, action), language)
    for reason in refusals().values():
        assert "{" not in read(reason, language)


def test_log_lines_read_in_french_and_german() -> None:
    state = make_state({"knight": "B2", "troll": "C2", "cube": "C2"}, exit_line=["thief"])
    moved = RUMBLE.apply(state, 0, "move knight E").events[0].text
    assert read(moved, "fr") == "Zoë déplace le Chevalier vers l'est, de B2 à C2."
    assert read(moved, "de") == "Zoë zieht: der Ritter geht nach Osten, von B2 nach C2."
    fight = RUMBLE.apply(state, 0, "fight cube").events[0].text
    assert read(fight, "fr") == (
        "Zoë déclenche une bagarre en C2 : le Cube gélatineux est expulsé (2e à sortir)."
    )
    assert read(fight, "de") == (
        "Zoë beginnt einen Kampf in C2: der Gallertwürfel fliegt raus (als 2.)."
    )
    assert read(RUMBLE.describe(state, "move knight E"), "de") == "Ritter nach Osten ziehen (C2)"


def test_refusals_read_in_french_and_german() -> None:
    reasons = refusals()
    assert read(reasons["gone"], "fr") == "Le Voleur n'est plus dans le donjon."
    assert read(reasons["gone"], "de") == "Der Dieb ist nicht mehr im Verlies."
    assert read(reasons["no passage"], "fr") == "Il n'y a pas de passage vers l'est depuis A2."
    assert read(reasons["no passage"], "de") == "Von A2 gibt es keinen Durchgang nach Osten."


def test_a_shared_win_lists_the_winners_as_each_language_joins_a_list() -> None:
    # The Knight, last standing, scores 10 for Zoë; the line gives Łukasz 1 and Σοφία 3.
    totals = (0, 9, 7, 0)
    state = make_state({"knight": "B2", "troll": "B2"}, seats=4, rumble=3, totals=totals)
    last = RUMBLE.apply(state, 0, "fight troll").events[-1].text
    assert read(last, "fr", 4) == "Zoë, Łukasz et Σοφία se partagent la victoire avec 10 points !"
    assert read(last, "de", 4) == "Zoë, Łukasz und Σοφία teilen sich den Sieg mit 10 Punkten!"
