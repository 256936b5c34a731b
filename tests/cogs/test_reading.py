"""A held-back reading (issue 38, item 2): one seeded game of each kind, an AI at the table,
played through the engines while every word a player could read is gathered (each log
line, public or private, each headline, caption, title note, button, menu entry, narrowed
question, hand text now and then, Toss It's aim reply, the final standings), then read for
the slips players met: "(AI) (AI)", a count that disagrees with its noun, "(0 more to go)",
"takes -6", brackets stacked, "card(s)", a bare "Choose:", "torching phase 1", a way to
play that reads like a round, "3 mice each", a turn button that names where the piece ends.

Each kind of slip also has a small test of its own, on the words' source; these games catch
a slip that comes back anywhere else.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import discord
import inflect
import pytest

from bot.games import ai_name
from bot.models import Seat
from bot.ratings import Standing
from bot.requests import format_event
from cogs.brawl._present import BrawlPresenter
from cogs.rumble._present import RumblePresenter
from cogs.shared.board import PLAIN_QUESTION
from cogs.shared.presenter import Buttons, Control, Menu, OwnItems, Presenter
from cogs.shared.standings import standings_lines
from cogs.toss._present import TossPresenter
from cogs.toss.aim import Aim, Turn, aim_text, aim_view
from cogs.trashwar._present import TrashWarPresenter
from render.brawl.words import caption as brawl_caption
from render.brawl.words import title_note as brawl_note
from render.toss.panel import caption as toss_caption
from render.toss.panel import title_note as toss_note
from render.trashwar.words import recap_foot
from render.trashwar.words import title_note as trashwar_note
from rules.base import Event, Game, rng_for
from rules.brawl import BRAWL
from rules.brawl.data import CARDS as BRAWL_CARDS
from rules.brawl.data import KINDS as BRAWL_KINDS
from rules.rumble import RUMBLE
from rules.toss.bin import KINDS as TOSS_KINDS
from rules.toss.engine import TOSS, Place, parse_action
from rules.trashwar import TRASH_WAR

# The last seat is the AI's, named as the boards name it: "Rusty (AI, hard)".
NAMES = [
    "Zoë 王小明 🦝✨",
    "Bob",
    Seat(user_id=None, name=ai_name(set()), ai=True, level="hard").shown_name(),
]
AI_SEAT = 2
# Seeds whose games are short enough to read in a moment (Round Rummage with every Booster
# in runs to 3,000 steps with some), and play Clean Sweep.
SEEDS = {"brawl round rummage": 2}
SEED = 1
STEP_CAP = 3000  # every game below ends well before; a runaway game fails instead
HANDS_EVERY = 40  # steps between reads of the private hand texts (they draw a picture)

# Nouns the games count, and Dumpster Brawl!'s card names (Rummy lays down several at once);
# a name already plural ("Fish Bones") is the same after any number.
ENGLISH = inflect.engine()
NOUNS = {"card", "turn", "point", "torch", "mouse", "step", "piece", "way", "character"}
NOUNS |= {"wall", "phase", "torching phase", "counter", "round", "time", "player"}
NOUNS |= {"lid", "crowbar", "torched card", "die"}
NOUNS |= {k.name for k in BRAWL_KINDS} | {c.name for c in BRAWL_CARDS}
NOUNS |= {kind.name for kind in TOSS_KINDS.values()}
COUNTED = sorted((n for n in NOUNS if not ENGLISH.singular_noun(n)), key=len, reverse=True)
PLURALS = sorted({str(ENGLISH.plural_noun(n)) for n in COUNTED}, key=len, reverse=True)
# Each noun made plural once too often ("Fish Boneses", "cardses").
TWICE = sorted(
    {str(ENGLISH.plural_noun(n)) for n in NOUNS - set(COUNTED)}
    | {str(ENGLISH.plural_noun(p)) for p in PLURALS}
)

# Verbs said after a count in the log ("1 lid holds off", "2 torched cards leave").
SINGULAR_VERBS = [
    "holds",
    "beats",
    "leaves",
    "is",
    "was",
    "has",
    "falls",
    "flies",
    "takes or gives",
]
PLURAL_VERBS = [str(ENGLISH.plural_verb(verb, 2)) for verb in SINGULAR_VERBS]


def any_of(words: list[str]) -> str:
    return "|".join(map(re.escape, words))


SLIPS = {
    "the AI named twice": re.compile(r"\(AI(, \w+)?\)[^\w\n]*\(AI"),
    "a count with a plural that is not there": re.compile(
        rf"(?i)\b(?:0|[2-9]|\d\d+) (?:more \(?)?(?:{any_of(COUNTED)})\b(?!')"
    ),
    "a plural after 1": re.compile(rf"\b1 (?:\w+ )?(?:{any_of(PLURALS)})\b"),
    "a plural made twice": re.compile(rf"\b(?:{any_of(TWICE)})\b"),
    "a plural left to the reader": re.compile(r"\w\(s\)|\(es\)"),
    "nothing more to go": re.compile(r"\(0 more"),
    "a sign where words belong": re.compile(r"\btakes [-+−]\d"),
    "brackets stacked": re.compile(r"\)[ \t]*\("),
    "a bare question": re.compile(rf"(?m)^(?:Choose:?|{re.escape(str(PLAIN_QUESTION))})$"),
    "torching phase 1 said": re.compile(r"(?i)torching phase 1\b"),
    "a way to play read as a round": re.compile(r"Round Rummage(?: Rummy)? - turn"),
    "mice counted in brackets": re.compile(r"\d+ (?:mice|mouse) each\)"),
    "a turn button naming the end": re.compile(r"(?m)^[↺↻] \d+°$"),
    "a word said twice": re.compile(r"(?i)\b(the|a|an|and|of|to) \1\b"),
    "a verb that disagrees with its count": re.compile(
        rf"\b1 (?:{any_of(COUNTED)}) (?:{any_of(PLURAL_VERBS)})\b"
        rf"|\b(?:0|[2-9]|\d\d+) (?:{any_of(PLURALS)}) (?:{any_of(SINGULAR_VERBS)})\b"
    ),
    "a plural on the wrong word": re.compile(r"\btake or gives\b"),
    "a seat left unnamed": re.compile(r"\{p\d\}"),
    "an article before an article": re.compile(r"(?i)\ban? (?:a|an|the)\b"),
}


def slips_in(text: str) -> list[str]:
    """The kinds of slip `text` holds (no pattern reaches across a line)."""
    return [kind for kind, pattern in SLIPS.items() if pattern.search(text)]


def control_words(controls: list[Control] | Any, step: int) -> Iterator[str]:
    for control in controls:
        if isinstance(control, Menu):
            yield control.placeholder
            for choice in control.choices:
                yield from (choice.label, choice.description)
        elif isinstance(control, Buttons):
            for choice in control.actions:
                yield from (choice.label, choice.description)
        elif isinstance(control, OwnItems):
            for item in control.make(1, step):
                yield from item_words(item)


def item_words(item: Any) -> Iterator[str]:
    """A discord.py item's words (a dynamic item's are on the item it wraps)."""
    inner = getattr(item, "item", item)
    yield getattr(inner, "label", None) or getattr(inner, "placeholder", None) or ""
    for option in getattr(inner, "options", []):
        yield from (option.label, option.description or "")


def toss_aim_words(action: str, step: int, turn: Turn) -> Iterator[str]:
    """The aim reply a drop is made from: its text and every button."""
    parsed = parse_action(action)
    if not isinstance(parsed, Place):
        return
    aim = Aim(1, step, parsed.kind, parsed.x, parsed.angle)
    for again in (False, True):
        yield aim_text(aim, turn, again)
        for item in aim_view(aim, turn, again).children:
            yield from item_words(item)


# Each game: the engine, its presenter, its options, how many seats, and the words of its
# pictures that are not in the summary (title notes and captions).
Pictured = Callable[[Any, list[str]], list[str]]
GAMES: dict[str, tuple[Game[Any, Any], Presenter[Any], dict[str, str], Pictured]] = {
    "rumble": (RUMBLE, RumblePresenter(), {}, lambda obs, names: []),
    "trashwar": (
        TRASH_WAR,
        TrashWarPresenter(),
        {},
        lambda obs, names: (
            [str(trashwar_note(obs))] + ([str(recap_foot(obs))] if obs["finished"] else [])
        ),
    ),
    "brawl round rummage": (
        BRAWL,
        BrawlPresenter(),
        {"mode": "round-rummage", "boosters": "7"},
        lambda obs, names: [brawl_note(obs), brawl_caption(obs, names)],
    ),
    "brawl rummy": (
        BRAWL,
        BrawlPresenter(),
        {"mode": "rummy", "boosters": "7"},
        lambda obs, names: [brawl_note(obs), brawl_caption(obs, names)],
    ),
    "toss": (
        TOSS,
        TossPresenter(),
        {},
        lambda obs, names: [toss_note(obs), toss_caption(obs, names)],
    ),
}


def named(text: str) -> str:
    """Seats named as the bot names them in log lines and labels ("{p1}" is "Bob")."""
    return format_event(Event(text), NAMES)


def read_game(kind: str, seed: int) -> Iterator[tuple[int, str]]:
    """(step, words) for everything a player of one seeded game could read. The AI plays
    its seat; the others play at random, but for Toss It's drops, where random aims keep
    the game short enough to read all of."""
    engine, presenter, options, pictured = GAMES[kind]
    state = engine.new_game(len(NAMES), options, seed)
    rng = random.Random(seed)
    for event in engine.opening_events(state):
        yield 0, named(event.text)
    while engine.outcome(state) is None:
        step = engine.step(state)
        assert step < STEP_CAP, f"{kind} runs past {STEP_CAP} steps"
        public = engine.observe(state, None)
        yield step, presenter.summary(public, NAMES)
        yield from ((step, words) for words in pictured(public, NAMES))
        seat = min(engine.to_act(state))
        legal = engine.legal_actions(state, seat)

        def describe(action: str, now: Any = state) -> str:
            return named(engine.describe(now, action))  # as the bot's `describer` fills them

        own = engine.observe(state, seat)
        yield from (
            (step, w) for w in control_words(presenter.controls(public, legal, describe), step)
        )
        yield from (
            (step, w) for w in control_words(presenter.hand_controls(own, legal, describe), step)
        )
        groups: dict[str, list[str]] = {}
        for action in legal:
            groups.setdefault(engine.group_of(action), []).append(action)
        for group, members in groups.items():
            # (Toss It's drops are aimed in their own reply, read below, not from groups.)
            if len(members) > 1 and kind != "toss":
                narrowed = presenter.narrowed(public, group, NAMES)
                yield step, narrowed.text if narrowed else PLAIN_QUESTION  # as the bot does
                yield from (
                    (step, named(engine.describe_in_group(state, a, group))) for a in members
                )
        if step % HANDS_EVERY == 0:
            yield step, presenter.hand(own, NAMES).text
        # The AI's drops in Toss It search dozens of simulated drops each (seconds a game):
        # its seat lays its cards down as the AI does and drops like the others.
        if seat == AI_SEAT and not (kind == "toss" and public["phase"] == "place"):
            action = engine.choose(own, legal, rng_for(seed, "ai", step, seat))
        else:
            action = rng.choice(legal)
        if kind == "toss":
            turn = Turn.of(public, legal)
            yield from ((step, words) for words in toss_aim_words(action, step, turn))
        applied = engine.apply(state, seat, action)
        for event in applied.events:
            yield step, named(event.text)
        state = applied.state
    final = engine.observe(state, None)
    step = engine.step(state)
    yield step, presenter.summary(final, NAMES)
    yield from ((step, words) for words in pictured(final, NAMES))
    outcome = engine.outcome(state)
    assert outcome is not None
    standings = [
        Standing(
            seat=seat,
            name=NAMES[seat],
            rank=outcome.ranks[seat],
            points=outcome.points[seat],
            ai=seat == AI_SEAT,
            change=None if seat == AI_SEAT else 1.4 - seat,
        )
        for seat in sorted(range(len(NAMES)), key=lambda s: (outcome.ranks[s], s))
    ]
    yield step, "\n".join(standings_lines(standings))


@pytest.mark.parametrize("kind", list(GAMES))
def test_a_whole_game_reads_without_the_slips_players_met(kind: str) -> None:
    first_read: dict[str, int] = {}
    for step, words in read_game(kind, SEEDS.get(kind, SEED)):
        first_read.setdefault(words, step)  # most words recur: each is read once
    assert len(first_read) > 100  # a whole game, not its first board
    if not slips_in("\n".join(first_read)):
        return  # all read at once, quicker; the words one by one only to say where
    slips = [(step, words, slips_in(words)) for words, step in first_read.items()]
    slips = [slip for slip in slips if slip[2]]
    assert not slips, "\n".join(f"step {s}: {w!r}: {k}" for s, w, k in slips[:20])


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("the AI named twice", "🥇 **Rusty (AI)** (AI) · rating +1.4"),
        ("the AI named twice", "🥇 **Rusty (AI, hard)** (AI) · rating +1.4"),
        ("a count with a plural that is not there", "{p1} lays down 3 Milk Jug."),
        ("a count with a plural that is not there", "Lay down 3 Pizza Box"),
        ("a plural after 1", "30 turns, 1 torching phases."),
        ("a plural made twice", "Lay down 2 Fish Boneses"),
        ("a plural left to the reader", "sweeps 2 card(s) onto the discard pile"),
        ("nothing more to go", "Bob places a milk carton (0 more to go)."),
        ("a sign where words belong", "Zoë takes -6."),
        ("brackets stacked", "Mace (bat at any player) (2 torches)"),
        ("brackets stacked", "The batted trash flies on (1 card) (to Bob)"),
        ("a bare question", "Choose:"),
        ("torching phase 1 said", "turn 3 · torching phase 1 · Bob defends"),
        ("a way to play read as a round", "Round Rummage - turn 1"),
        ("mice counted in brackets", "Your cards: 3, 5 (green, 3 mice each)."),
        ("a turn button naming the end", "↻ 165°"),
        ("a verb that disagrees with its count", "1 lid hold off 1 crowbar: Bob wins the fight."),
        ("a verb that disagrees with its count", "2 torched cards leaves the game"),
        ("a plural on the wrong word", "Bandit (Bob) held off Hissy: 2 take or gives left"),
        ("a count with a plural that is not there", "Bob drops 9 more (tin can)"),
        ("an article before an article", "Give a an Egg Carton"),
    ],
)
def test_each_slip_is_caught(kind: str, text: str) -> None:
    """The reading finds each slip players met, in the words they met it in."""
    assert kind in slips_in(text)


@pytest.mark.parametrize(
    "text",
    [
        "🥇 **Rusty (AI)** · rating +1.4",
        "Bob lays down 3 Milk Jugs.",
        "Lay down 2 Fish Bones",
        "Lay down 1 Fish Bones",
        "30 turns; the draw pile ran out once.",
        "Bob places a milk carton.",
        "Bob places a milk carton (2 more to go).",
        "Zoë loses 6 points.",
        "Mace (bat at any player, 2 torches)",
        "The batted trash flies on; the turn passes to Bob.",
        "Turn 1 - playing Round Rummage",
        "↻ Turn 15°",
        "Pizza Boxes …",
    ],
)
def test_the_words_as_now_written_pass(text: str) -> None:
    assert slips_in(text) == []


def test_discord_is_only_used_for_its_items() -> None:
    """(aim_view builds discord.py items; they need no client or event loop to be read)"""
    assert discord.ui.Button(label="x").label == "x"


# ---------------------------------------------------------------- each slip at its source


def test_the_standings_name_the_ai_once() -> None:
    """(issue 38: "🥇 **Rusty (AI)** (AI)") An AI seat's name says it already; a seat whose
    name does not still gets the mark."""

    def line(name: str) -> str:
        standing = Standing(seat=0, name=name, rank=0, points=0, ai=True, change=None)
        return standings_lines([standing])[1]

    assert line(ai_name(set())) == "🥇 **Rusty (AI)**"
    assert line("Grime (AI, hard)") == "🥇 **Grime (AI, hard)**"  # issue 39: with its level
    assert line("AI 9") == "🥇 **AI 9**"
    assert line("Mop") == "🥇 **Mop** (AI)"


def test_trash_war_says_the_torching_phase_only_once_it_changes_things() -> None:
    """(issue 38: "torching phase 1" in every headline, "1 torching phases") The first
    phase goes unsaid; later ones say what now burns; the recap counts in words."""
    war = TRASH_WAR.new_game(3, {}, 1)
    obs = TRASH_WAR.observe(war, None)
    presenter = TrashWarPresenter()
    assert "torch" not in presenter.summary(obs, NAMES).lower()
    assert str(trashwar_note(obs)) == "Turn 1"
    second, third = {**obs, "torch_phase": 2}, {**obs, "torch_phase": 3, "turns": 30}
    assert " · 2-torch cards burn too · " in presenter.summary(second, NAMES)
    assert str(trashwar_note(third)) == "Turn 30 - torch cards now leave the game"
    assert str(recap_foot({**obs, "turns": 1})) == "1 turn; the draw pile never ran out."
    assert str(recap_foot(third)) == "30 turns; the draw pile ran out twice."


def test_questions_name_what_is_chosen() -> None:
    """(issue 38: Rumble's bare "Choose:") A menu entry for several moves opens a question
    of the game's own: which way a character goes, how many cards are laid down."""
    rumble = RUMBLE.new_game(3, {}, 1)
    obs = RUMBLE.observe(rumble, None)
    character, room = next(iter(obs["positions"].items()))
    asked = RumblePresenter().narrowed(obs, f"move {character}", NAMES)
    assert asked is not None and asked.text.startswith("Which way does the ")
    assert asked.text.endswith(f" go from {room}?")
    brawl = BRAWL.observe(BRAWL.new_game(3, {"mode": "rummy"}, 1), None)
    laid = BrawlPresenter().narrowed(brawl, "lay pizza", NAMES)
    assert laid is not None and laid.text == "How many Pizza Boxes do you lay down?"


def test_a_way_to_play_reads_as_one() -> None:
    """(issue 38: "Round Rummage - turn 1") The board's title names the turn first and the
    way to play as a game; the lobby's labels say in a few words what each way is."""
    brawl = BRAWL.observe(BRAWL.new_game(3, {}, 1), None)
    assert brawl_note(brawl) == "Turn 1 - playing Round Rummage"
    (mode,) = [option for option in BRAWL.options if option.name == "mode"]
    assert mode.label("round-rummage") == "Round Rummage: everyone attacks in turn"


def test_toss_it_words_its_cards_counters_and_turns() -> None:
    """(issue 38: "(green, 3 mice each)", "takes -6", "↻ 165°") The hand says the colour and
    the mice in a sentence; the turn buttons say how far a press turns the piece."""
    toss = TOSS.new_game(2, {}, 1)
    seat_obs = TOSS.observe(toss, 0)
    text = TossPresenter().hand(seat_obs, NAMES).text
    colour, mice = seat_obs["colours"][0], seat_obs["mice"][0]
    assert text.startswith(f"Your {colour} cards: ")
    assert f"Each shows {mice} mi" in text and " each)" not in text
    turn = Turn(["can"], 3)
    view = aim_view(Aim(1, 1, "can", 7, 0), turn, False)
    labels = [next(item_words(item)) for item in view.children]
    assert "↺ Turn 15°" in labels and "↻ Turn 15°" in labels


def test_every_brawl_menu_entry_asks_its_own_question() -> None:
    """Each group Dumpster Brawl! makes has its question; a group it never makes still gets
    a question rather than an error."""
    presenter = BrawlPresenter()
    brawl = BRAWL.observe(BRAWL.new_game(3, {}, 1), None)
    groups = ["attack p1", "play peek", "play swap p2", "play sweep pizza", "lay fish", "", "x"]
    asked = [presenter.narrowed(brawl, group, NAMES) for group in groups]
    texts = [reply.text if reply else "" for reply in asked]
    assert texts == [
        "Do you add Extra Elbow to the attack?",
        "Whose hand do you peek at?",
        "Which card do you give in the swap?",
        "Which one?",
        "How many Fish Bones do you lay down?",
        "Which one?",
        "Which one?",
    ]
