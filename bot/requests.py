"""What requests to the session service are made of, and plain readings of a game row:
who asks (`Player`), what a request changed (`Update`), a refusal (`UserError`), the seats'
names, the engine of a row, and a lobby's options checked against its game."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.games import GAMES
from bot.models import GameRecord, Note, Seat, Status
from bot.ratings import Standing
from lang import ENGLISH, say
from rules.base import JSON, AnyGame, Event
from rules.phrases import Filling, Readers, from_json, language_of, phrase, to_json

SEED_LIMIT = 2**31
RESTARTING = phrase("The bot is restarting; press again in a moment.")


class UserError(Exception):
    """A request refused with a short reason for the user; nothing was changed. The reason
    is said in the user's language (`reason`); `str` gives its English, for the logs."""

    def __init__(self, reason: Filling) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True)
class Player:
    """Who is asking: their Discord id, display name, and whether they manage the channel."""

    user_id: int
    name: str
    can_manage: bool = False


@dataclass
class Update:
    """What a request changed, for the cog to show."""

    game: GameRecord
    events: list[Event] = field(default_factory=list)
    finished: bool = False
    requester: int | None = None  # the seat whose own press this is: its reply tells it
    # The board showing the change so far is complete and on its way to the channel (the
    # AI's moves after it, if any, get boards of their own).
    board_ready: bool = False
    # The final standings, set by the action that finished the game (its board shows them).
    standings: list[Standing] | None = None
    told_ended: bool = False  # its end counted and logged, after the commit (bot/store.py)

    def private_lines(self, seat: int, language: str | None = None) -> list[str]:
        """What this request told `seat` alone (a card drawn, a Sneak Peek), in `language`
        (the game's unless given)."""
        names = seat_names(self.game, language)
        return [format_event(event, names) for event in self.events if event.to == seat]


@dataclass
class Press:
    """What a player's press did, for the cog to answer it (`SessionService.press`): the
    update, the presser's seat and, when they must decide again at once, their own view
    (the private reply's next decision). The AI's turns the service left for after the
    answer are `then`'s."""

    update: Update
    seat: int | None = None
    own_view: JSON | None = None
    after_answer: Callable[[], Awaitable[object]] | None = None

    async def then(self) -> None:
        """Once the presser is answered: what the service left for then (the AI's turns),
        or nothing when it played them before answering."""
        later, self.after_answer = self.after_answer, None
        if later is not None:
            await later()


NOTES_KEPT = 8  # private notes kept per seat for "My hand" (see `keep_notes`)


def keep_notes(game: GameRecord, update: Update, step: int, events: list[Event]) -> None:
    """Keep what an action told a person who was not the one pressing (a card taken from
    their hand, a Slug given to them, or a move the turn timer made for them), for their
    next "My hand". Kept in the seat, stamped with the step, in the action's transaction."""
    names = seat_names(game)
    for event in events:
        if event.to is None or event.to == update.requester or game.seats[event.to].ai:
            continue
        notes = game.seats[event.to].notes
        said = None if isinstance(event.text, str) else to_json(event.text)
        notes.append(Note(step=step, text=format_event(event, names), said=said))
        del notes[:-NOTES_KEPT]


def notes_since_last_move(game: GameRecord, seat: int, language: str | None = None) -> list[str]:
    """The seat's private notes from after its own last move (older ones it has seen), in
    `language` (the game's unless given)."""
    player = game.seats[seat]
    names = seat_names(game, language)
    return [
        note.text if note.said is None else format_event(Event(from_json(note.said)), names)
        for note in player.notes
        if note.step > player.moved
    ]


def seat_names(game: GameRecord, language: str | None = None) -> Readers:
    """The seats' names as the boards and their lines show them (an AI seat with its level),
    for readers of `language`: the game's own (its public messages) unless another is
    given (a player's private reply, in their client's language)."""
    language = language or game.language or ENGLISH
    return Readers([seat.shown_name(language) for seat in game.seats], language)


def format_event(event: Event, names: list[str]) -> str:
    """An event's line for readers who see the seats as `names`, in their language (that of
    `Readers`; English for a plain list)."""
    if isinstance(event.text, str):
        return event.text.format_map({f"p{i}": name for i, name in enumerate(names)})
    return say(event.text, language_of(names), names)


@dataclass(frozen=True)
class Describer:
    """Labels for a game's controls as it stands, for readers who see the seats as `names`
    (in their language): an action's whole label (`Game.describe`), or once its group is
    chosen what sets it apart from the group's others (`in_group`: "Carol · left wall")."""

    engine: AnyGame
    state: Any
    names: list[str]

    def __call__(self, action: str) -> str:
        return format_event(Event(self.engine.describe(self.state, action)), self.names)

    def in_group(self, action: str, group: str) -> str:
        said = self.engine.describe_in_group(self.state, action, group)
        return format_event(Event(said), self.names)


def seat_of(game: GameRecord, user_id: int) -> int | None:
    """The seat a user plays, or None. A seat handed to the AI is no longer theirs."""
    for index, seat in enumerate(game.seats):
        if seat.user_id == user_id and not seat.ai:
            return index
    return None


def engine_of(game: GameRecord) -> AnyGame:
    return GAMES[game.kind]


def forced_action(engine: AnyGame, state: Any, seat: int) -> str | None:
    """The move made for `seat` when it has no choice: its one legal action, or the first
    of several that are all one decision (the same move with one or another of identical
    cards: `Game.same_choice`). The bot makes it for the player (a click that decides
    nothing is not asked for), and the board's lines say it."""
    legal = engine.legal_actions(state, seat)
    if not legal:
        return None
    first = engine.same_choice(state, legal[0])
    # Most seats differ at their second action already: the rest is not read then.
    if all(engine.same_choice(state, action) == first for action in legal[1:]):
        return legal[0]
    return None


def waiting_for(game: GameRecord, engine: AnyGame, state: Any) -> list[int]:
    """The seats a person must decide for now: to act, not played by the AI, and with more
    than one choice."""
    if game.status != Status.PLAYING:
        return []
    return sorted(
        seat
        for seat in engine.to_act(state)
        if not game.seats[seat].ai and forced_action(engine, state, seat) is None
    )


def human_seat(player: Player) -> Seat:
    return Seat(user_id=player.user_id, name=player.name)


def check_options(engine: AnyGame, options: dict[str, str]) -> dict[str, str]:
    """Fill in defaults and refuse an unknown option or value, naming it."""
    known = {option.name: option for option in engine.options}
    checked = {name: option.default for name, option in known.items()}
    for name, value in options.items():
        if value is None:
            continue
        if name not in known:
            raise UserError(phrase("{game} has no option `{name}`.", game=engine.title, name=name))
        option = known[name]
        if option.choices and value not in option.choices:
            raise UserError(
                phrase(
                    "`{name}` must be one of: {choices}.",
                    name=name,
                    choices=", ".join(option.choices),
                )
            )
        if (
            option.low is not None
            and option.high is not None
            and not (value.isdecimal() and option.low <= int(value) <= option.high)
        ):
            raise UserError(
                phrase(
                    "`{name}` must be a whole number from {low} to {high}.",
                    name=name,
                    low=option.low,
                    high=option.high,
                )
            )
        checked[name] = value
    return engine.settle_options(checked)
