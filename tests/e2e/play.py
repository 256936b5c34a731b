"""Playing Rumble through the fake Discord the way a person would: read the newest board
message, and if it is your turn pick a fight, an exit or a move with the menus and buttons.
The game is in `channel` (default: the default guild's first channel, `fake.channel`)."""

from __future__ import annotations

import random
import re

from sqlmodel import col, select

from bot.client import TrashTableBot
from bot.models import ActionRecord, GameRecord
from tests.e2e.conftest import Table
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionResult
from tests.fakediscord.server import DEFERRED_MESSAGE, DEFERRED_UPDATE, MESSAGE, UPDATE
from tests.fakediscord.state import TEXT_DISPLAY, Channel, walk_components

TURN = re.compile(r"<@(\d+)>[^\n]*your turn")
FIGHT_MENU = "Start a fight…"
MOVE_MENU = "Move a character…"
ROOM = re.compile(r"\(in ([A-D][1-3])\)")  # a move menu option: "Knight (in B2)"
GOAL = re.compile(r" to ([A-D][1-3])")  # a direction button: "Move Knight east to C2"


def boards(fake: FakeDiscord, channel: Channel | None = None) -> list[FakeMessage]:
    """Board messages in the channel, oldest first: public, with a dungeon picture."""
    return [
        m
        for m in fake.messages(channel)
        if not m.ephemeral and any(a.filename == "dungeon.png" for a in m.attachments)
    ]


def latest_board(fake: FakeDiscord, channel: Channel | None = None) -> FakeMessage:
    return boards(fake, channel)[-1]


def turn_user_id(board: FakeMessage) -> int | None:
    match = TURN.search(board.text)
    return int(match[1]) if match else None


def is_over(board: FakeMessage) -> bool:
    return "The game is over" in board.text


async def against_the_ai(user: FakeUser, seed: int) -> None:
    """`user` opens a Rumble, adds an AI seat and starts: the first board is posted."""
    await user.slash("/rumble new", seed=seed)
    await user.select("Add AI player…", "Normal AI")
    await user.click("Start")
    await next_board(user.fake, 0)


async def turns_of(user: FakeUser, rng: random.Random, most: int) -> None:
    """Up to `most` turns of `user`'s, each on the newest board, while the turn is theirs."""
    for _ in range(most):
        board = latest_board(user.fake)
        if is_over(board) or turn_user_id(board) != user.id:
            return
        await take_turn(user, board, rng)


async def next_board(fake: FakeDiscord, before: int, channel: Channel | None = None) -> None:
    """Wait for a board after the `before`-th: actions answer at once and post it after."""
    await fake.wait_for(
        lambda: len(boards(fake, channel)) > before, timeout=20, what="the next board"
    )


def board_views(fake: FakeDiscord, channel: Channel | None = None) -> int:
    """How many board texts the channel has shown: a new board, and a board edited to
    show more (a turn going on, issue 34), count one each."""
    return sum(len({text for text, _ in shown(m)}) for m in boards(fake, channel))


PLAY_IDS = ("tt:act:", "tt:menu:", "tt:group:")  # a play control's custom id


def open_decision(reply: FakeMessage | None) -> bool:
    """Whether a player's private reply shows a decision to make now: the bot edits it with
    their next turn (`cogs/shared/replies.py`), so a person plays on from it rather than
    pressing "My hand" for a new one."""
    if reply is None:
        return False
    controls = [*reply.buttons, *reply.selects]
    return any((c.custom_id or "").startswith(PLAY_IDS) for c in controls)


def assert_started(started: InteractionResult) -> None:
    """The host's Start was taken: answered by updating the lobby, where a refusal is a
    private message of its own (a private message beside it is the host's first decision,
    posted on their press: `replies.keep_seat`)."""
    assert not started.failed and started.callback_type in (DEFERRED_UPDATE, UPDATE), started


def newest_private(user: FakeUser) -> FakeMessage | None:
    """The newest private message `user` holds: their open reply, also when the bot posted
    it unasked (on the press that seated them: `replies.keep_seat`)."""
    mine = [m for m in user.fake.messages() if m.ephemeral_to == user.id and not m.deleted]
    return mine[-1] if mine else None


def shown_step(reply: FakeMessage | None) -> int | None:
    """The game step a private reply's play controls were made at (their custom ids say
    it: `tt:act:<game>:<step>:...`), or None without any."""
    controls = [*reply.buttons, *reply.selects] if reply is not None else []
    for control in controls:
        parts = (control.custom_id or "").split(":")
        if (control.custom_id or "").startswith(PLAY_IDS) and len(parts) > 3:
            return int(parts[3])
    return None


async def private_reply(user: FakeUser, result: InteractionResult) -> list[FakeMessage]:
    """The private reply a press on a board opened. The press is answered as an update of
    the board (issue 34) and the reply follows it once drawn, as a followup: read from the
    interaction itself, not from the result's window of events, which closes once Discord
    has been quiet for a moment (a picture drawn on a loaded machine outlasts that)."""

    def replies() -> list[FakeMessage]:
        answers = list(result.followups)
        if result.callback_type in (MESSAGE, DEFERRED_MESSAGE) and result.response:
            answers.insert(0, result.response)
        return [m for m in answers if m.ephemeral_to == user.id and (m.text or m.components)]

    # A bound on a stuck reply, not on a slow one.
    return list(await user.fake.wait_for(replies, timeout=60, what="the private reply"))


async def take_turn(user: FakeUser, board: FakeMessage, rng: random.Random) -> InteractionResult:
    """One action with the board's controls, then wait for the board that shows it (a new
    one, or the same edited while the turn goes on)."""
    before = board_views(user.fake, board.channel)
    result = await choose_and_act(user, board, rng)
    if not result.ephemeral_text.startswith(("It is not", "You are not", "Those")):
        await user.fake.wait_for(
            lambda: board_views(user.fake, board.channel) > before,
            timeout=20,
            what="the board showing the move",
        )
    return result


async def choose_and_act(
    user: FakeUser, board: FakeMessage, rng: random.Random
) -> InteractionResult:
    """A fight when there is one (so games end), otherwise an exit with the chest, otherwise
    a random move."""
    selects = {c.placeholder: c for c in board.selects}
    if FIGHT_MENU in selects:
        option = rng.choice(selects[FIGHT_MENU].options)
        return await user.select(FIGHT_MENU, option["value"], message=board)
    exits = [b for b in board.buttons if (b.custom_id or "").startswith("tt:act:")]
    if exits:
        return await user.press(board, exits[0].label)
    options = selects[MOVE_MENU].options
    option = rng.choice(options)
    picked = await user.select(MOVE_MENU, option["value"], message=board)
    if is_whole_move(option):
        return picked  # a character with one way out: the pick made the move
    (reply,) = await private_reply(user, picked)
    # Prefer walking into a room where another character stands, so a fight follows.
    occupied = {m[1] for o in options if o is not option and (m := ROOM.search(o["label"]))}
    towards = [b for b in reply.buttons if (m := GOAL.search(b.label or "")) and m[1] in occupied]
    direction = rng.choice(towards or reply.buttons)
    return await user.press(reply, direction.label)


def is_whole_move(option: dict[str, str]) -> bool:
    """A move menu's option that is a move itself ("Move Knight east to C2"), not a
    character whose ways out come next ("Knight (in B2)")."""
    return GOAL.search(option["label"]) is not None


async def play_to_the_end(
    fake: FakeDiscord,
    players: dict[int, FakeUser],
    rng: random.Random,
    limit: int = 2000,
    channel: Channel | None = None,
) -> FakeMessage:
    for _ in range(limit):
        board = latest_board(fake, channel)
        if is_over(board):
            return board
        user_id = turn_user_id(board)
        assert user_id is not None, f"no one to play on the board:\n{board.text}"
        result = await take_turn(players[user_id], board, rng)
        assert not result.ephemeral_text.startswith(("It is not", "You are not")), result
    raise AssertionError("the game did not end")


SHORT_GAME = 23  # a seed whose game ends in about 150 actions (seed 5 took over 400)


async def finished_rumble(bot: TrashTableBot, table: Table, fake: FakeDiscord) -> int:
    """alice and three AI players play a whole game with the board's controls (so its
    boards travel on her presses, as at a real table); alice fights whenever she can."""
    await table.alice.slash("/rumble new", seed=SHORT_GAME)
    for _ in range(3):
        await table.alice.select("Add AI player…", "Normal AI")
    started = await table.alice.click("Start")
    assert_started(started)
    game = await bot.sessions.current(fake.channel.id)
    assert game is not None and game.id is not None
    await next_board(fake, 0)
    await play_to_the_end(fake, {table.alice.id: table.alice}, random.Random(SHORT_GAME))
    return game.id


def shown(message: FakeMessage) -> list[tuple[str, set[str]]]:
    """What a message showed, version by version (a turn's board is edited as it goes): its
    text displays and its attachments' names."""
    versions = []
    for version in message.versions:
        texts = [
            c["content"]
            for c in walk_components(version.get("components") or [])
            if c.get("type") == TEXT_DISPLAY and c.get("content")
        ]
        files = {a["filename"] for a in version.get("attachments") or []}
        versions.append(("\n".join([version.get("content") or "", *texts]), files))
    return versions


async def assert_one_message_a_turn(bot: TrashTableBot, fake: FakeDiscord) -> None:
    """Issue 34 (one board a turn): the bot's channel messages for the newest game are at
    most the times the turn passed to a person, plus its lobby and its final standings.
    The turns are counted from the action log alone: a person's own moves (or the turn
    timer's for them) that follow another seat's action; a single choice the bot made for
    someone (actor "forced") does not take the turn from the person acting. So a second
    board posted while the same person still acts fails."""
    async with bot.db.reading() as session:
        query = select(GameRecord).order_by(col(GameRecord.id).desc())
        game = (await session.exec(query)).first()
        assert game is not None
        records = await session.exec(
            select(ActionRecord)
            .where(ActionRecord.game_id == game.id)
            .order_by(col(ActionRecord.step))
        )
        actions = [(record.seat, record.actor) for record in records.all()]
    turns, last = 0, None
    for seat, actor in actions:
        if actor == "forced":
            continue
        if actor in ("player", "timer") and seat != last:
            turns += 1
        last = seat
    assert game.lobby_message_id is not None
    messages = [
        m
        for m in fake.messages()
        if not m.ephemeral and m.author.id == fake.bot_user.id and m.id >= game.lobby_message_id
    ]
    assert len(messages) <= turns + 2, (
        len(messages),
        turns,
        actions,
        [(m.id, m.text[:300], m.interaction_metadata) for m in messages],
    )
