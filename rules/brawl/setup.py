"""Setting up a Dumpster Brawl! game: reading the lobby options, picking characters, the roll-
off for who starts, the deck and the opening events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules.base import Event, IllegalAction, clockwise_from, next_seat, rng_for
from rules.brawl.data import (
    BLOCKER_IDS,
    BLUE_FACES,
    BOOSTER_IDS,
    CHARACTER_INDEX,
    CHARACTERS,
    CROWBAR,
    DEFAULT_BLOCKERS,
    DEFAULT_BOOSTERS,
    DEFAULT_SLUGS,
    MAX_SLUGS,
    SLUG_IDS,
    TRASH_IDS,
)
from rules.brawl.state import ATTACK, DECLARE, KING, MODES, PRE, ROUND, RUMMY, State
from rules.brawl.table import _Table
from rules.brawl.words import commas
from rules.phrases import Phrase, SeatName, phrase

# A start roll's face for a seat, by the face (1 a crowbar, 0 a lid).
FACES = {
    1: lambda seat: phrase("{player} crowbar", player=SeatName(seat)),
    0: lambda seat: phrase("{player} lid", player=SeatName(seat)),
}


def _not_a_number(name: str, top: int) -> Phrase:
    return phrase("{name} must be a number from 0 to {top}.", name=name, top=top)


# ---------------------------------------------------------------------------------------------
# Setting up


def _option_int(options: Mapping[str, str], name: str, default: int, top: int) -> int:
    raw = options.get(name, "") or str(default)
    try:
        value = int(raw)
    except ValueError:
        raise IllegalAction(_not_a_number(name, top)) from None
    if not 0 <= value <= top:
        raise IllegalAction(_not_a_number(name, top))
    return value


def _characters(picks: str, seats: int, seed: int) -> tuple[int, ...]:
    """Each seat's character: the ones picked (by seat, blank for none), the rest drawn at
    random from the characters nobody picked."""
    picked = [w.strip() for w in picks.split(",")] if picks else []
    if len(picked) > seats:
        raise IllegalAction(phrase("More characters than players."))
    chosen = [w for w in picked if w]
    if any(w not in CHARACTER_INDEX for w in chosen) or len(set(chosen)) != len(chosen):
        raise IllegalAction(
            phrase("Characters are distinct keys: {keys}", keys=", ".join(CHARACTER_INDEX))
        )
    rest = [k for k in range(len(CHARACTERS)) if CHARACTERS[k].key not in chosen]
    rng_for(seed, "characters").shuffle(rest)
    picked += [""] * (seats - len(picked))
    return tuple(CHARACTER_INDEX[w] if w else rest.pop() for w in picked)


def start_roll(seed: int, seats: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Everyone rolls a die: lids drop out, crowbars roll on, all lids roll again."""
    rolling = list(range(seats))
    rounds: list[tuple[int, ...]] = []
    n = 0
    while True:
        n += 1
        rng = rng_for(seed, "start", n)
        row = [-1] * seats
        for p in rolling:
            row[p] = int(rng.choice(BLUE_FACES).symbol == CROWBAR)
        rounds.append(tuple(row))
        bars = [p for p in rolling if row[p] == 1]
        if len(bars) == 1:
            return bars[0], tuple(rounds)
        if bars:
            rolling = bars


def new_state(seats: int, options: Mapping[str, str], seed: int) -> State:
    mode = options.get("mode", "") or ROUND
    if mode not in MODES:
        raise IllegalAction(
            phrase("There is no mode '{mode}': pick {modes}.", mode=mode, modes=", ".join(MODES))
        )
    aff = options.get("affinity", "") or "on"
    if aff not in ("on", "off"):
        raise IllegalAction(phrase("affinity is on or off."))
    slugs = _option_int(options, "slugs", DEFAULT_SLUGS, MAX_SLUGS)
    boosters = _option_int(options, "boosters", DEFAULT_BOOSTERS, len(BOOSTER_IDS))
    blockers = _option_int(options, "blockers", DEFAULT_BLOCKERS, len(BLOCKER_IDS))
    characters = _characters(options.get("characters", "") or "", seats, seed)
    chosen_boosters = sorted(rng_for(seed, "boosters").sample(BOOSTER_IDS, boosters))
    chosen_blockers = sorted(rng_for(seed, "blockers").sample(BLOCKER_IDS, blockers))
    starter, rounds = start_roll(seed, seats)
    deck = list(TRASH_IDS) + list(SLUG_IDS[:slugs]) + chosen_boosters
    rng_for(seed, "deal").shuffle(deck)
    each = max(seats, 4)
    hands: list[list[int]] = [[] for _ in range(seats)]
    for _ in range(each):
        for seat in clockwise_from(seats, starter):
            hands[seat].append(deck.pop())
    deck += chosen_blockers
    rng_for(seed, "blockers-in").shuffle(deck)
    king = starter if mode == KING else -1
    turn = next_seat(seats, starter) if mode == KING else starter
    phase = {ROUND: DECLARE, KING: ATTACK, RUMMY: PRE}[mode]
    state = State(
        seed=seed,
        seats=seats,
        mode=mode,
        affinity=aff == "on" and mode != RUMMY,
        characters=characters,
        in_play=tuple(list(SLUG_IDS[:slugs]) + chosen_boosters + chosen_blockers),
        start_rolls=rounds,
        starter=starter,
        hands=tuple(tuple(h) for h in hands),
        trash=tuple(deck),
        laid=((),) * seats,
        turn=turn,
        phase=phase,
        king=king,
        draws=2 if mode == RUMMY else 0,
        stink=(0,) * seats,
    )
    if mode != RUMMY:
        t = _Table(state)
        t.check_victory()
        if t.get("finished"):
            state = replace(t.freeze(), step=0)
    return state


def opening_events(state: State) -> list[Event]:
    events = []
    for n, row in enumerate(state.start_rolls, 1):
        parts = [FACES[1 if face else 0](p) for p, face in enumerate(row) if face >= 0]
        events.append(Event(phrase("Start roll {n}: {faces}.", n=n, faces=commas(parts))))
    starter = SeatName(state.starter)
    events.append(Event(phrase("{player} rolled the last crowbar and goes first.", player=starter)))
    each = max(state.seats, 4)
    events.append(Event(phrase("{player} deals {n} cards to everyone.", player=starter, n=each)))
    if state.mode == KING:
        events.append(Event(phrase("{player} is King of the Heap.", player=starter)))
    if state.finished:
        events += [
            Event(phrase("{player} was dealt three sets and wins!", player=SeatName(p)))
            for p in state.winners
        ]
    return events
