"""The database tables (sqlmodel).

- `GameRecord`: one row per game, from lobby to the end. The state column holds the whole
  engine state as JSON (seed and decks included), so a row is a whole game.
- `ActionRecord`: the action log, written in the same transaction as the state it led to.
- `ResultRecord`: one row per seat of a finished game; scoreboards are sums over it.
- `OutboxEntry`: what the channel must be shown (a board, controls to clear), written in
  the transaction of the change that caused it and marked delivered once posted.
- `RatingRecord`: the openskill rating of one player in one guild for one game kind
  (kind "all" for every game together).
- `DepartedGuild`: a guild the bot was removed from, and when: its data goes once the
  grace period has passed (`bot/keeping.py`).
- `GuildSettings`: what a server's admins chose for it (the language of its boards).
- `RestoredGame`: a game under way when `make restore` put a backup in place, until the
  next start has redrawn it (`bot/restores.py`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel
from sqlalchemy import JSON, BigInteger, Column, Dialect, Index, Integer, LargeBinary, text
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

from lang import ENGLISH, say
from rules.base import Level
from rules.phrases import phrase, phrase_in

# The levels as the names of AI seats say them ("Grime (AI, hard)").
LEVEL_NAMES = {
    "easy": phrase_in("AI level", "easy"),
    "normal": phrase_in("AI level", "normal"),
    "hard": phrase_in("AI level", "hard"),
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class Status(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    STOPPED = "stopped"  # cancelled in the lobby or stopped mid-game: never rated


ACTIVE = (Status.LOBBY, Status.PLAYING)


def _snowflake(index: bool = False, nullable: bool = False) -> Any:
    """Discord ids need 64 bits; PostgreSQL's INTEGER has 32."""
    return Field(default=None, sa_column=Column(BigInteger, index=index, nullable=nullable))


class Note(BaseModel):
    """Something an action told a player who was not pressing (a card taken from their
    hand), shown in their next "My hand"; `step` is the step of that action."""

    step: int
    text: str  # in English with the names filled in (how notes were kept before phrases)
    # The note as a phrase (`rules.phrases.to_json`), said in the reader's language.
    said: Any = None


AI_MARK = " (AI)"  # how the names given to AI seats end ("Rusty (AI)", bot/games.py)


class Seat(BaseModel):
    """One seat at a game, in seat order: a person, or the AI (added in the lobby, with no
    user, or a person's seat handed over to it)."""

    user_id: int | None
    name: str
    ai: bool = False
    # How well the AI plays this seat; a person's seat gets the host's handover level when
    # the AI takes it. Seats saved before levels existed load as "normal".
    level: Level = "normal"
    rated: bool = True  # counts on the scoreboard (never an AI's)
    timeouts: int = 0  # turns in a row the timer played for this person
    moved: int = -1  # the step of this person's last own move
    notes: list[Note] = []
    pick: str = ""  # a lobby pick, for a game that has one (a character)

    def shown_name(self, language: str = ENGLISH) -> str:
        """The seat's name as the lobby, the boards and the standings show it: an AI seat
        added in the lobby says its level ("Grime (AI, hard)"). A person's seat handed to
        the AI keeps the person's name here (the board's lines say who took it over)."""
        if not self.ai or self.user_id is not None:
            return self.name
        level = LEVEL_NAMES[self.level]
        if self.name.endswith(AI_MARK):
            name = self.name.removesuffix(AI_MARK)
            return say(phrase("{name} (AI, {level})", name=name, level=level), language)
        # "AI 9", the name given when all are taken
        return say(phrase("{name} ({level})", name=self.name, level=level), language)


class SeatsJSON(TypeDecorator[list[Seat]]):
    """The seats column: a JSON list in the database, `Seat`s in Python."""

    impl = JSON
    cache_ok = True

    def process_bind_param(self, value: list[Seat] | None, dialect: Dialect) -> Any:
        return None if value is None else [seat.model_dump() for seat in value]

    def process_result_value(self, value: Any, dialect: Dialect) -> list[Seat] | None:
        return None if value is None else [Seat.model_validate(seat) for seat in value]


class GameRecord(SQLModel, table=True):
    __tablename__ = "games"
    # One lobby or running game per channel; finished games stay as history.
    __table_args__ = (
        Index(
            "one_active_game_per_channel",
            "channel_id",
            unique=True,
            sqlite_where=text("status IN ('lobby', 'playing')"),
            postgresql_where=text("status IN ('lobby', 'playing')"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    channel_id: int = _snowflake()
    kind: str
    status: str = Status.LOBBY
    host_id: int = _snowflake()
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    options: dict[str, str] = Field(default_factory=dict, sa_column=Column(JSON))
    seats: list[Seat] = Field(default_factory=list, sa_column=Column(SeatsJSON))
    state: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    step: int = 0
    # The engine's `rules_version` when the game started; None for a lobby, and for games
    # started before versions were kept.
    rules_version: int | None = None
    lobby_message_id: int | None = _snowflake(nullable=True)
    board_message_id: int | None = _snowflake(nullable=True)
    turn_timer: int = 0  # minutes; 0 is off
    turn_deadline: datetime | None = None
    # The level the AI plays a seat at when it takes over from a person who left or timed
    # out three times (a `Level`), chosen by the host; None is "normal", as for games
    # opened before it could be chosen.
    handover_level: str | None = None
    # The language of the game's public messages and pictures (`lang.LANGUAGES`), fixed
    # when the lobby opens; None is English, as for games opened before languages.
    language: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None
    # A finished game's action log and boards' steps, compressed, once its rows were folded
    # into it (`bot/keeping.py`: a day after it ends); None until then.
    archive: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))


class ActionRecord(SQLModel, table=True):
    __tablename__ = "actions"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    step: int  # the game's step before this action
    seat: int
    # "player", "planned" (the rest of a plan the player chose with the same press), "ai"
    # (an AI seat), "timer" (the AI for a late player) or "forced" (the player's single
    # choice, made for them)
    actor: str
    action: str
    created_at: datetime = Field(default_factory=utcnow)


class ResultRecord(SQLModel, table=True):
    __tablename__ = "results"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    guild_id: int = _snowflake(index=True)
    kind: str
    seat: int
    user_id: int | None = _snowflake(nullable=True)  # None for an AI seat
    name: str
    rank: int  # 0 = won
    points: int
    rated: bool
    finished_at: datetime = Field(default_factory=utcnow)


class RatingRecord(SQLModel, table=True):
    __tablename__ = "ratings"

    guild_id: int = Field(sa_column=Column(BigInteger, primary_key=True))
    kind: str = Field(primary_key=True)
    user_id: int = Field(sa_column=Column(BigInteger, primary_key=True))
    mu: float
    sigma: float


class OutboxEntry(SQLModel, table=True):
    """One thing the channel must be shown, written in the same transaction as the change
    that caused it, so a crash can never lose it: the poster (cogs/shared/poster.py)
    delivers pending entries in id order after any restart.

    `payload` holds everything needed to draw it without the game's state of that time,
    and never a secret: for a board, the public observation, seat names, the public log
    lines, the step the previous board showed (`since`), the game's status, the users
    asked to act and whether it `continues` the board before it (edited onto that message,
    which then shows the lines kept in `shown`); for "clear", the message ids whose
    controls go.
    """

    __tablename__ = "outbox"
    # The poster looks for a channel's undelivered entries after every change: an index of
    # those alone finds them without walking the channel's whole history (each entry
    # delivered stays, and a busy channel gathers thousands).
    __table_args__ = (
        Index(
            "ix_outbox_undelivered",
            "channel_id",
            "id",
            sqlite_where=text("delivered_at IS NULL"),
            postgresql_where=text("delivered_at IS NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    channel_id: int = _snowflake(index=True)
    kind: str  # "board" or "clear"
    step: int  # the game step the entry shows
    payload: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON))
    # False while the AI is still adding its moves to this board (a press's board shows the
    # player's move and the AI's moves after it); the poster waits for it.
    ready: bool = True
    message_id: int | None = _snowflake(nullable=True)  # the message posted (or edited)
    replaced_id: int | None = _snowflake(nullable=True)  # the board it took over from
    created_at: datetime = Field(default_factory=utcnow)
    delivered_at: datetime | None = None


class GuildSettings(SQLModel, table=True):
    __tablename__ = "guild_settings"

    guild_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    # The language of the server's boards, lobbies and standings, as an admin chose it with
    # `/language`; without a row, the server's own language in Discord (`guild_locale`).
    language: str


class DepartedGuild(SQLModel, table=True):
    __tablename__ = "departed_guilds"

    guild_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    left_at: datetime = Field(default_factory=utcnow)


class RestoredGame(SQLModel, table=True):
    """A game under way when `make restore` put a backup in place (bot/backups.py). No
    foreign key: the row lives only until the next start redraws the game
    (bot/restores.py), and must never stand in the way of removing a game."""

    __tablename__ = "restored_games"

    game_id: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
