"""The contract every game engine in `rules/` keeps.

An engine is pure: it imports the standard library only (pymunk for the bin), never discord,
PIL, a database or asyncio. The shape follows OpenSpiel and boardgame.io:

- the state is plain data that survives a JSON round trip exactly, holding the seed and the
  shuffled decks, so a saved game is a whole game;
- `legal_actions(state, seat)` lists what a seat may do now, as short strings;
- `apply(state, seat, action)` checks the action, raises `IllegalAction` naming the rule it
  breaks, and returns the next state with the events it caused (the input is not changed);
- `observe(state, seat)` is everything that seat may know; `seat=None` is the public view,
  the only thing the channel and its pictures are ever drawn from;
- `outcome(state)` is `None` while the game runs, then the ranks and points.

Actions are strings (`"move knight E chest"`) so that they fit in a select option's value or a
button's custom id without any encoding step. They must never carry a secret: a card in a
hand is named by what the owner may see, and legal actions of one seat are only ever shown
to that seat.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Generic, Literal, NamedTuple, Protocol, TypeVar, cast

from rules import codec
from rules.observation import LastMoveView
from rules.phrases import Filling, phrase, to_json

JSON = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules forbid. The reason says which rule, in a player's words, as a
    phrase to say in their language (or, until an engine's words are all phrases, English
    text); `str` gives its English."""

    def __init__(self, reason: Filling) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True)
class Event:
    """One line of the game log.

    `text` is a phrase, said in each reader's language, naming seats as `SeatName`s; or,
    where an engine still writes English, text naming seats as `{p0}`, `{p1}`, ... The
    session fills in display names.
    `to` is `None` for an event the whole channel may read, or the one seat it is for (a
    card drawn, a hand peeked at). Private events are never posted publicly.
    """

    text: Filling
    to: int | None = None


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    `ranks[seat]` is 0 for the winners, 1 for the next place and so on; seats that tie share
    a rank. `points[seat]` is the game's own score (0 where the game keeps none).
    """

    ranks: tuple[int, ...]
    points: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 0)


@dataclass(frozen=True)
class Option:
    """A lobby option a game accepts (`/rumble new layout:...`): one of `choices`, or a
    whole number from `low` to `high`. The bot builds each game's `/<game> new` from them."""

    name: str
    description: str
    choices: tuple[str, ...] = ()
    default: str = ""
    labels: tuple[str, ...] = ()  # how each choice reads in a menu, when not its word
    heading: str = ""  # how the lobby names the option, when not its name
    low: int | None = None  # a whole number's range (no `choices` then)
    high: int | None = None
    # True when each choice is a way to play of its own (Brawl's modes): the AI's strength
    # is measured for each apart.
    ways: bool = False

    def label(self, value: str) -> str:
        """How `value` reads to players (a choice's label, or the value itself)."""
        if value in self.choices and self.labels:
            return self.labels[self.choices.index(value)]
        return value


class Stepped(Protocol):
    """What every game state has: how many actions have been applied to it."""

    @property
    def step(self) -> int: ...


StateT = TypeVar("StateT", bound=Stepped)  # a game's state: a frozen dataclass of its own
ObsT = TypeVar("ObsT", bound=Mapping[str, Any])  # a game's observation: a TypedDict


@dataclass
class Applied(Generic[StateT]):
    """What `apply` hands back: the next state and the log lines it caused."""

    state: StateT
    events: list[Event] = field(default_factory=list)


class LastMove(NamedTuple):
    """Who made a game's last move and the public lines it caused, for the board's caption.
    Only lines for the whole channel: a card drawn or a secret chosen never gets here."""

    seat: int
    step: int
    lines: tuple[Any, ...]  # each a phrase as JSON (`rules.phrases.to_json`)

    def view(self) -> LastMoveView:
        return LastMoveView(seat=self.seat, step=self.step, lines=list(self.lines))


def with_last_move(applied: Applied[StateT], seat: int) -> Applied[StateT]:
    """`applied` with its state's `last_move` set to `seat`'s move (a state field with a
    `None` default, so games saved before it load)."""
    lines = tuple(to_json(event.text) for event in applied.events if event.to is None)
    move = LastMove(seat, applied.state.step, lines)
    state = replace(cast(Any, applied.state), last_move=move)
    return Applied(cast(StateT, state), applied.events)


def last_move_view(move: LastMove | None) -> LastMoveView | None:
    return None if move is None else move.view()


class WorkingCopy(ABC, Generic[StateT]):
    """A game's state made mutable for one `apply`, for engines whose handlers change a
    state step by step: they change the copy in place and `say` what happened; `applied`
    freezes it into the next state, with the events for the log."""

    events: list[Event]

    def say(self, text: Filling, to: int | None = None) -> None:
        self.events.append(Event(text, to))

    @abstractmethod
    def freeze(self) -> StateT:
        """The next state, from the copy as it stands."""

    def applied(self) -> Applied[StateT]:
        return Applied(self.freeze(), self.events)


def one_seat(seat: int | None) -> frozenset[int]:
    """`Game.to_act` for a game where one seat acts at a time: that seat, or none at all."""
    return frozenset() if seat is None else frozenset({seat})


def rng_for(seed: int, *salt: object) -> random.Random:
    """A generator drawn from the game's seed and a salt (a counter, a rumble number).

    Seeding with a string is stable across Python runs, so the state only needs to keep the
    seed and a counter, never the generator's internal state.
    """
    return random.Random(":".join([str(seed), *map(str, salt)]))


def next_seat(seats: int, seat: int, *, step: int = 1, skip: Container[int] = ()) -> int:
    """The seat `step` places on from `seat`, passing over the seats in `skip` (players out,
    a King), or `seat` itself when every other is skipped. Seats sit clockwise in seat order
    in every game, so `step=1` is the left neighbour and `step=-1` the right."""
    for k in range(1, seats):
        other = (seat + step * k) % seats
        if other not in skip:
            return other
    return seat


def clockwise_from(seats: int, first: int) -> list[int]:
    """Every seat once, clockwise, starting with `first` (who is dealt to or asked first)."""
    return [(first + k) % seats for k in range(seats)]


def ranks_from_points(points: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Dense ranks from scores, highest first: [5, 9, 5] gives (1, 0, 1). Ties share a rank."""
    distinct = sorted(set(points), reverse=True)
    return tuple(distinct.index(p) for p in points)


Parsed = TypeVar("Parsed")  # an action read by its game's `parse_action`
Read = TypeVar("Read")  # what `read_parsed` makes of it (a label, a menu group)
# What `check_turn` refuses with, in every game: phrases, said in the presser's language.
GAME_OVER = phrase("That game is over.")
NOT_YOUR_TURN = phrase("It is not your turn.")
# What a `parse_action` refuses text outside its game's grammar with.
NOT_A_MOVE = phrase("That is not a move in this game.")


Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")  # how well an AI seat plays


class Chooser(Protocol):
    """A game's AI: its `ai` module plays at each of the three levels.

    Every level decides from the seat's own observation and legal actions only; `rng` is
    seeded by the caller, so the same game replays the same way. `choose_hard` is handed the
    engine to search with (`rules/search.py`): it may simulate worlds it samples from the
    observation, never read the real state.
    """

    def choose_easy(
        self, observation: Mapping[str, Any], legal: list[str], rng: random.Random
    ) -> str: ...

    def choose(
        self, observation: Mapping[str, Any], legal: list[str], rng: random.Random
    ) -> str: ...

    def choose_hard(
        self,
        game: AnyGame,
        observation: Mapping[str, Any],
        legal: list[str],
        rng: random.Random,
    ) -> str: ...


@dataclass(frozen=True)
class Codec:
    """A game state's JSON form: its dataclass (`state`) written and read by the one codec
    every game uses (rules/codec.py), carrying the schema `version` the game is at."""

    state: type
    version: int

    def to_json(self, state: Any) -> JSON:
        data: JSON = codec.to_json(state)
        return data

    def from_json(self, data: JSON) -> Any:
        if data.get("version") != self.version:
            where = self.state.__module__
            raise ValueError(f"Unknown state version {data.get('version')!r} ({where})")
        return codec.from_json(self.state, data)


def read_parsed(
    action: str, parse: Callable[[str], Parsed], then: Callable[[Parsed], Read]
) -> Read | str:
    """`then` of `action` parsed (its label, its menu group); an action that does not parse
    (an older game's, say) stands for itself rather than failing the whole message."""
    try:
        parsed = parse(action)
    except IllegalAction:
        return action
    return then(parsed)


class Game(ABC, Generic[StateT, ObsT]):
    """One game's rules, typed by its state and its observation (`Game[State,
    RumbleObservation]`). Each engine module exposes a single instance of its subclass."""

    key: str
    title: str
    tagline: str = ""  # the game in one line, under the lobby's title
    min_seats: int
    max_seats: int
    options: tuple[Option, ...] = ()
    # An option each player sets for their own seat in the lobby (a character, say). The
    # lobby hands it to `new_game` as one comma-separated value, seat by seat, blank for a
    # seat that left it to chance.
    seat_pick: Option | None = None
    # True when the channel shows every action on its own board (Toss It: the bin after
    # each drop) rather than a player's move together with the AI's moves after it.
    board_each_action: bool = False
    # True when `new_game` and `apply` may take tens of milliseconds (Toss It simulates the
    # bin's physics): the bot then runs them in its worker pool, off the event loop.
    heavy: bool = False
    # False when `outcome` gives every seat 0 points whatever happens: the standings then
    # show no points at all. A game scoring only some ways of playing says which in
    # `keeps_points_with`.
    keeps_points: bool = True
    # Raised by one whenever a change to the rules would play the same seed and actions
    # differently. A game keeps the version it was played under, and a replay of a game
    # from another version is refused rather than shown wrong.
    rules_version: int = 1
    # State fields the rules never read, kept only for what the table has seen (a pile's
    # cards, for the AI to count): a replay does not compare them with the saved state, as
    # a game begun before such a field was added saved it empty.
    remembered: tuple[str, ...] = ()
    ai: ClassVar[Chooser]  # the game's AI module (`rules/<game>/ai.py`)
    codec: ClassVar[Codec]  # the state to and from JSON (`rules/<game>/state.py`)

    @abstractmethod
    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> StateT:
        """A new game for `seats` players; raises `IllegalAction` for a bad option."""

    @abstractmethod
    def to_act(self, state: StateT) -> frozenset[int]:
        """The seats that must act now (several where choices are simultaneous)."""

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> list[str]:
        """Every action `seat` may take now; empty when it is not theirs to act."""

    @abstractmethod
    def apply(self, state: StateT, seat: int, action: str) -> Applied[StateT]:
        """Check and apply one action. Never changes `state` in place."""

    @abstractmethod
    def observe(self, state: StateT, seat: int | None) -> ObsT:
        """What `seat` may know (`None`: anyone in the channel). JSON-able."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """`None` while the game runs."""

    def to_json(self, state: StateT) -> JSON:
        """The state as JSON-able data, with a schema version (the game's `codec`)."""
        return self.codec.to_json(state)

    def from_json(self, data: JSON) -> StateT:
        """The inverse of `to_json`: `from_json(to_json(s)) == s`."""
        return cast(StateT, self.codec.from_json(data))

    @abstractmethod
    def describe(self, state: StateT, action: str) -> Filling:
        """A short label for a legal action, for a button or a select option: a phrase
        (or, where an engine still writes English, text naming seats as `{p0}`...)."""

    def group_of(self, action: str) -> str:
        """The menu entry `action` sits under when a player's choices are grouped: a name
        several actions share (a character to move, a card thrown at any of several walls),
        finished with buttons in a private reply; by default the action itself. Only the
        engine reads its actions' words, so the grouping is the engine's."""
        return action

    def describe_in_group(self, state: StateT, action: str, group: str) -> Filling:
        """A label for `action` once its `group` was chosen: what sets it apart from the
        group's other actions (where a chosen card goes). By default its whole label."""
        return self.describe(state, action)

    def in_group(self, action: str, group: str) -> bool:
        """Whether `action` is `group` itself or one of the actions grouped under it."""
        return action == group or self.group_of(action) == group

    def same_choice(self, state: StateT, action: str) -> str:
        """What `action` decides for its player, as a key: two legal actions with the same
        key are one decision (the same move with one or another of several cards that play
        alike), so a player is offered one of them, and a seat whose actions all share a
        key has no choice. By default the action itself."""
        return action

    def one_of_each(self, state: StateT, actions: Iterable[str]) -> list[str]:
        """`actions` with one of each decision: the first of those `same_choice` makes one,
        in their order."""
        kept: dict[str, str] = {}
        for action in actions:
            kept.setdefault(self.same_choice(state, action), action)
        return list(kept.values())

    def choose(
        self, observation: ObsT, legal: list[str], rng: random.Random, level: Level = "normal"
    ) -> str:
        """The AI's pick at `level`, from its own observation and its legal actions only:
        the game's `ai` module decides."""
        if level == "hard":
            return self.ai.choose_hard(self, observation, legal, rng)
        if level == "easy":
            return self.ai.choose_easy(observation, legal, rng)
        return self.ai.choose(observation, legal, rng)

    def check_turn(self, state: StateT, seat: int) -> None:
        """The guard every `apply` starts with: the game is on and it is `seat`'s turn."""
        if self.outcome(state) is not None:
            raise IllegalAction(GAME_OVER)
        if seat not in self.to_act(state):
            raise IllegalAction(NOT_YOUR_TURN)

    def settle_options(self, chosen: dict[str, str]) -> dict[str, str]:
        """The options a lobby opens with, from those the host chose (the others keep their
        defaults): a game fills in what one choice implies, so the lobby shows it."""
        return chosen

    def keeps_points_with(self, options: Mapping[str, str]) -> bool:
        """Whether a game played with `options` scores points (`keeps_points`)."""
        return self.keeps_points

    def opening_events(self, state: StateT) -> list[Event]:
        """What to log when a game starts (`new_game` returns only the state)."""
        return []

    def step(self, state: StateT) -> int:
        """How many actions have been applied: stale buttons compare against it."""
        return state.step


AnyGame = Game[Any, Any]  # a game of any kind, as the bot holds them (`GAMES`)
