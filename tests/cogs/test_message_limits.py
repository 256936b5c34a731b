"""Every message the bot builds stays within Discord's documented limits at its worst: six
players with 32-character names full of emoji and markdown, hundreds of log lines on one
board (a long AI turn, a Toss It turn's drops edited onto one message), the final
standings, private replies, embeds, and files against the guild's upload limit. Each is
checked with the fake Discord's own validation (tests/fakediscord/validation.py), which
refuses what Discord refuses."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.extensions import walk_extensions
from bot.games import GAMES
from bot.models import GameRecord, Note, OutboxEntry, ResultRecord, Seat, Status
from bot.ratings import ScoreLine, Standing
from cogs.guide._cog import page_embed, pages
from cogs.scores._cog import ScoresCog
from cogs.shared import board, components, interactions, lobby_controls, rematch
from cogs.shared.limits import (
    MAX_CONTENT,
    MAX_LAYOUT_TEXT,
    clip,
    fit_embed,
    fit_lines,
)
from cogs.shared.plugin import PLUGINS
from cogs.shared.presenter import PRESENTERS, Buttons, Choice, Picture, Recaps
from cogs.table._cog import TableCog
from rules.toss.engine import PLACE
from tests.fakediscord.state import FLAG_COMPONENTS_V2
from tests.fakediscord.validation import _embed_errors, message_errors

walk_extensions("cogs")

# Discord's longest names (32 characters), emoji and markdown that escaping doubles.
NAMES = [
    "🗑️ Annabelle_Marguerite_Trashcan",
    "**Bartholomew** the *Bin*-Diver 🦝",
    "Цветана Мусорщикова-Контейнерова",
    "ゴミ箱の王様ゴミ箱の王様ゴミ箱の王様ゴミ箱の王様ゴミ箱の王様ゴミ",
    "__Wolfgang__ ~~Amadeus~~ `Dump`🔥",
    "Ξανθίππη Σκουπιδοτενεκέ Πρώτη 🐀",
]
USERS = [10**18 + seat for seat in range(6)]  # snowflake-sized ids: the longest mentions
LONG_LINE = (
    f"{NAMES[3]} throws a Catapult volley at {NAMES[5]}'s third wall, which falls; "
    f"{NAMES[0]} repairs it with a Brick Stack and {NAMES[1]} takes two cards 🃏🃏"
)


def layout_errors(layout: discord.ui.LayoutView, pictures: list[Picture]) -> list[str]:
    """What Discord would say to a layout message with these components and files."""
    return message_errors(
        {"components": layout.to_components(), "flags": FLAG_COMPONENTS_V2},
        file_count=len(pictures),
        file_sizes=[len(p.data) for p in pictures],
        creating=True,
        file_names=frozenset(p.filename for p in pictures),
        flags=FLAG_COMPONENTS_V2,
    )


def text_of(layout: discord.ui.LayoutView) -> str:
    """Every text display of a layout, in order."""
    texts: list[str] = []

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            if item.get("type") == 10:
                texts.append(item["content"])
            walk(item.get("components") or [])

    walk(layout.to_components())
    return "\n".join(texts)


def finished_state(kind: str, seed: int = 1) -> Any:
    """A random game of `kind` at its most players, played to its end."""
    engine = GAMES[kind]
    rng = random.Random(seed)
    state = engine.new_game(engine.max_seats, {}, seed)
    while engine.outcome(state) is None:
        (seat, *_) = sorted(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat))).state
    return state


def game_record(kind: str, state: Any, status: str) -> GameRecord:
    engine = GAMES[kind]
    seats = [
        Seat(user_id=USERS[i], name=NAMES[i], notes=[Note(step=1, text=LONG_LINE)] * 8)
        for i in range(engine.max_seats)
    ]
    return GameRecord(
        id=123456789,
        guild_id=1,
        channel_id=2,
        kind=kind,
        status=status,
        host_id=USERS[0],
        seed=987654321,
        seats=seats,
        state=engine.to_json(state),
        step=engine.step(state),
    )


class Client:
    """What `board_message` and `own_view` use of the bot: the pool runs jobs in place."""

    def __init__(self, upload_limit: int | None = None) -> None:
        self.limit = upload_limit
        engines = {kind: engine for kind, engine in GAMES.items()}

        def state(game: GameRecord) -> Any:
            return engines[game.kind].from_json(game.state or {})

        self.sessions = SimpleNamespace(
            legal_for=lambda game, seat: engines[game.kind].legal_actions(state(game), seat),
            one_of_each=lambda game, actions: engines[game.kind].one_of_each(state(game), actions),
            describer=lambda game, *_, **__: lambda a: engines[game.kind].describe(state(game), a),
        )

        async def run(job: Any, *args: Any) -> Any:
            return job(*args)

        self.workers = SimpleNamespace(run=run)

    def get_guild(self, guild_id: int) -> Any:
        return None if self.limit is None else SimpleNamespace(filesize_limit=self.limit)


def standings(seats: int) -> list[Standing]:
    return [
        Standing(seat=i, name=NAMES[i], rank=i, points=-123, ai=i % 2 == 1, change=-12.3)
        for i in range(seats)
    ]


def board_entry(kind: str, state: Any, status: str, lines: list[str]) -> OutboxEntry:
    engine = GAMES[kind]
    to_act = sorted(engine.to_act(state)) if status == Status.PLAYING else []
    payload = {
        "view": engine.observe(state, None),
        "names": NAMES[: engine.max_seats],
        "lines": lines,
        "since": max(0, engine.step(state) - 40),
        "status": status,
        "waiting": to_act,
        "mention": [USERS[seat] for seat in to_act],
        "continues": False,
        "standings": standings(engine.max_seats) if status == Status.FINISHED else [],
    }
    return OutboxEntry(
        id=1,
        game_id=123456789,
        channel_id=2,
        kind="board",
        step=engine.step(state),
        payload=payload,
    )


@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_the_last_board_of_a_long_game_fits_with_its_standings(kind: str) -> None:
    """Six players (five in Toss It), a final turn of 400 long log lines and the standings:
    the newest lines and a count of the others, the header and every standing kept, within
    4,000 characters; pictures and recap under the upload limit."""
    state = finished_state(kind)
    game = game_record(kind, state, Status.FINISHED)
    lines = [f"{i}: {LONG_LINE}" for i in range(400)]
    shown = await board.board_message(
        Client(), board_entry(kind, state, Status.FINISHED, lines), game
    )
    layout = board.board_layout(
        shown.text, [p.filename for p in shown.pictures], rematch.rematch_view(game.id or 0)
    )
    assert layout_errors(layout, shown.pictures) == []
    text = text_of(layout)
    assert len(text) <= MAX_LAYOUT_TEXT and text == shown.text
    assert text.startswith(f"**{GAMES[kind].title}** · ")
    assert "399: " in text and "earlier lines" in text and "\n• 0: " not in text
    for standing in standings(GAMES[kind].max_seats):
        assert discord.utils.escape_markdown(standing["name"]) in text
    assert text.endswith("with the same seats.")
    # The board, and its recap where the game draws one (a presenter's `recap` is optional).
    assert len(shown.pictures) >= (2 if isinstance(PRESENTERS[kind], Recaps) else 1)


async def test_a_toss_it_turn_edited_onto_one_message_keeps_its_newest_drops() -> None:
    """A turn's drops add their lines to the message's: 300 earlier lines and the newest."""
    engine = GAMES["toss"]
    state = engine.new_game(5, {}, 3)
    # Up to a turn whose first drop is made: its board is edited with each drop after.
    while engine.outcome(state) is None and not (state.phase == PLACE and state.kind):
        (seat, *_) = sorted(engine.to_act(state))
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0]).state
    game = game_record("toss", state, Status.PLAYING)
    earlier = [f"drop {i}: {LONG_LINE}" for i in range(300)]
    entry = board_entry("toss", state, Status.PLAYING, ["the newest drop"])
    shown = await board.board_message(Client(), entry, game, earlier)
    assert len(shown.text) <= MAX_LAYOUT_TEXT
    assert shown.text.splitlines()[-2:] == ["• the newest drop", shown.text.splitlines()[-1]]
    assert "your turn" in shown.text.splitlines()[-1]
    assert "drop 299:" in shown.text and "drop 0:" not in shown.text


async def test_a_board_with_every_control_fits_discords_40_components() -> None:
    """The most controls a board can carry: Discord's (and discord.py's) 25 in 5 rows, the
    hand button among them; with the text and the pictures, within 40 components."""
    kind = "rumble"
    engine = GAMES[kind]
    state = engine.new_game(6, {}, 1)
    game = game_record(kind, state, Status.PLAYING)
    legal = [f"action {i}" for i in range(24)]
    controls = [Buttons([Choice(a, f"{LONG_LINE[:70]} {i}") for i, a in enumerate(legal)])]
    view = components.controls_view(game.id or 0, 999999999, controls, legal, "b", "My secret")
    assert len(view.children) == 25
    lines = [LONG_LINE] * 100
    text = fit_lines("**Rumble in the Dungeon** · rumble 1/3", lines, "➡️ <@1>: your turn.", 4000)
    pictures = [Picture("dungeon.png", b"x" * 1000)]
    layout = board.board_layout(text, ["dungeon.png"], view)
    assert layout_errors(layout, pictures) == []
    # Any text at all: board_layout keeps its one text display within Discord's 4,000.
    assert layout_errors(board.board_layout("x " * 5000, ["dungeon.png"], None), pictures) == []


async def test_a_boards_pictures_stay_under_the_guilds_upload_limit() -> None:
    """Each picture and all of them together under the guild's limit, with a margin: the
    board's own pictures before the recap, which goes first."""
    state = finished_state("trashwar")
    game = game_record("trashwar", state, Status.FINISHED)
    entry = board_entry("trashwar", state, Status.FINISHED, ["the end"])
    whole = await board.board_message(Client(), entry, game)
    sizes = [len(p.data) for p in whole.pictures]
    assert [p.filename for p in whole.pictures] == ["battlefield.png", "recap.png"]
    assert sum(sizes) < 0.9 * discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES
    # A guild whose limit leaves room for the board alone, after the margin and the text.
    tight = int((sizes[0] + board.BOARD_RESERVED) / 0.9) + 1
    kept = await board.board_message(Client(upload_limit=tight), entry, game)
    assert [p.filename for p in kept.pictures] == ["battlefield.png"]


async def test_a_private_reply_of_any_length_is_sent_within_2000_characters() -> None:
    """Every private reply goes through `send_private` or `edit_pressed`, which clip it; the
    notes since a player's last move keep the newest and leave the hand's text its room."""
    sent: list[dict[str, Any]] = []

    class Response:
        def is_done(self) -> bool:
            return False

        async def send_message(self, content: str, **fields: Any) -> None:
            sent.append({"content": content, **fields})

        async def edit_message(self, **fields: Any) -> None:
            sent.append(fields)

    interaction: Any = SimpleNamespace(id=1, response=Response())
    text = "\n".join([LONG_LINE] * 60)
    await interactions.send_private(interaction, False, text, [], None)
    await interactions.edit_pressed(interaction, content=text, view=None)
    for reply in sent:
        assert len(reply["content"]) <= MAX_CONTENT and reply["content"].endswith("…")
        payload = {"content": reply["content"]}
        assert message_errors(payload, file_count=0, file_sizes=[], creating=True) == []

    state = finished_state("trashwar")
    game = game_record("trashwar", state, Status.PLAYING)
    game.seats[0].notes = [Note(step=i, text=f"{i}: {LONG_LINE}") for i in range(40)]
    own = await board.own_view(Client(), game, 0, GAMES["trashwar"].observe(state, 0), "en")
    notes, hand = own.text.split("\n\n", 1)
    assert len(notes) <= MAX_CONTENT // 2 and "39: " in notes and "earlier lines" in notes
    assert hand.startswith("Your hand")


def test_a_lobby_of_six_long_names_and_a_rematch_call_fits() -> None:
    for kind in sorted(GAMES):
        engine = GAMES[kind]
        state = engine.new_game(engine.max_seats, {}, 1)
        game = game_record(kind, state, Status.LOBBY)
        call = "🔁 **Rematch** of game #123456789, hosted by <@1>. " + " ".join(
            f"<@{user}>" for user in USERS
        )
        for note in (call, "x " * 5000):  # and a call far past any real one
            layout = lobby_controls.lobby_view(game, note=note)
            assert layout_errors(layout, []) == [], kind
            assert len(text_of(layout)) <= MAX_LAYOUT_TEXT


async def test_the_scoreboard_history_status_and_rules_fit_discords_embeds() -> None:
    embeds: list[discord.Embed] = []

    async def send_message(*, embed: discord.Embed, **_: Any) -> Any:
        embeds.append(embed)
        return SimpleNamespace(message_id=len(embeds))  # Discord's answer names the message

    interaction: Any = SimpleNamespace(
        id=2,
        guild_id=1,
        guild_locale="en-GB",
        response=SimpleNamespace(send_message=send_message, is_done=lambda: False),
    )
    when = datetime(2026, 11, 27, tzinfo=UTC)
    history = [
        (
            game_record("brawl", GAMES["brawl"].new_game(6, {}, 1), Status.FINISHED),
            [
                ResultRecord(
                    game_id=1,
                    guild_id=1,
                    kind="brawl",
                    seat=i,
                    name=NAMES[i],
                    rank=i,
                    points=-123456,
                    rated=True,
                )
                for i in range(6)
            ],
        )
        for _ in range(10)
    ]
    for game, _ in history:
        game.finished_at = when
    scores = [ScoreLine(i, NAMES[i % 6], 99999, 99999, -9999999, -99.9) for i in range(15)]

    async def scoreboard(guild_id: int, kind: str | None) -> list[ScoreLine]:
        return scores

    async def history_of(guild_id: int) -> list[Any]:
        return history

    async def guild_language(guild_id: int) -> str | None:
        return None  # the server's own

    sessions = SimpleNamespace(
        scoreboard=scoreboard, history=history_of, guild_language=guild_language
    )
    settings = SimpleNamespace(game_retention_days=90)
    cog = ScoresCog(SimpleNamespace(sessions=sessions, settings=settings))  # type: ignore[arg-type]
    await cog.scoreboard(interaction, None)
    await cog.scoreboard(interaction, "rumble")  # with points: the widest table
    await cog.history.callback(cog, interaction)  # type: ignore[arg-type]

    state = GAMES["brawl"].new_game(6, {}, 1)
    game = game_record("brawl", state, Status.PLAYING)
    game.board_message_id = 10**18
    game.updated_at = when
    table = SimpleNamespace(
        public_view=lambda g: GAMES["brawl"].observe(state, None),
        humans_to_act=lambda g: list(range(6)),
    )
    cog_table: Any = TableCog.__new__(TableCog)
    cog_table.sessions = table
    embeds.append(cog_table.status_embed(game, "en"))
    for kind in sorted(PLUGINS):
        for page in range(len(pages(kind))):
            embed = page_embed(kind, page)
            assert embed.description == pages(kind)[page][1]  # no page needs cutting
            embeds.append(embed)
    for embed in embeds:
        assert _embed_errors([embed.to_dict()]) == [], embed.title


def test_an_embed_past_every_limit_is_cut_to_fit() -> None:
    embed = discord.Embed(title="t" * 300, description=("word " * 200).strip())
    for i in range(30):
        embed.add_field(name=f"field {i} " + "n" * 300, value=f"{i} " + "v " * 700)
    embed.set_footer(text="f " * 1500)
    fitted = fit_embed(embed)
    assert _embed_errors([fitted.to_dict()]) == []
    assert fitted.fields[0].value.startswith("0 ")  # the first fields are the ones kept
    huge = discord.Embed(description="word " * 2000, title="t" * 300)
    huge.set_footer(text="f " * 1500)
    assert _embed_errors([fit_embed(huge).to_dict()]) == []


def test_clip_cuts_at_a_line_or_a_word_and_says_so() -> None:
    assert clip("short", 10) == "short"
    assert clip("one two three four", 12) == "one two …"
    assert clip("line one\nline two\nline three", 22) == "line one\nline two\n…"
    assert len(clip("x" * 50, 10)) == 10
    text = fit_lines("head", [f"line {i}" for i in range(100)], "foot", 60)
    assert text.startswith("head\n… ") and text.endswith("line 99\nfoot") and len(text) <= 60
