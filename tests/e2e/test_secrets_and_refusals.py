"""Nobody can see another player's secret characters before the reveal, and presses by
strangers, by players out of turn, or on out-of-date controls change nothing (issue 2)."""

from __future__ import annotations

import asyncio
import random
import re
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import pytest

from bot.client import TrashTableBot
from cogs.shared import components
from render.rumble import draw_dungeon
from rules.rumble import CHARACTERS, RUMBLE
from tests.e2e.conftest import Table
from tests.e2e.play import (
    FIGHT_MENU,
    MOVE_MENU,
    latest_board,
    private_reply,
    take_turn,
    turn_user_id,
)
from tests.e2e.test_rumble_game import open_and_start
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.postgres import SQLITE_ONLY

ACTION_ROW = 1
# Every custom id the bot makes: numbers and fixed words only, never an action or a card.
CUSTOM_ID = re.compile(
    r"tt:(act:\d+:\d+:\d+|menu:\d+:\d+:[bha]:\d+|hand:\d+"
    r"|group:\d+:\d+:[bh]:\d+|lobby:\d+:(join|leave|start|cancel|ai:\d+)"
    r"|rules:[a-z]+:\d+:(back|next)|rematch:\d+)"
)


async def current_state(bot: TrashTableBot, fake: FakeDiscord):
    game = await bot.sessions.current(fake.channel.id)
    assert game is not None
    return game, RUMBLE.from_json(game.state)


def texts_of(message: FakeMessage) -> list[str]:
    """Everything a user can read in a message, besides pictures."""
    parts = [message.text, str(message.embeds)]  # text: content, embeds and layout text
    for component in message.all_components:
        parts += [component.label or "", component.custom_id or "", component.placeholder or ""]
        parts += [str(option) for option in component.options]
    return parts


@SQLITE_ONLY
async def test_no_one_sees_another_players_secret_before_the_reveal(
    bot, table: Table, fake_discord, delivered
):
    """Rulebook: the two secret characters stay face down until the rumble ends. House rule
    of the architecture: public messages and pictures come from the public observation."""
    await open_and_start(table, seed=4)
    players = {u.id: u for u in table.players}
    seat_of = {u.id: seat for seat, u in enumerate(table.players)}
    rng = random.Random(8)
    checked_rumbles: set[int] = set()
    for _ in range(400):
        game, state = await current_state(bot, fake_discord)
        board = latest_board(fake_discord)
        # The board picture is exactly the drawing of the public observation (marking the
        # moves since the board before: a public step number, kept with the board).
        public = RUMBLE.observe(state, None)
        assert public["secret"] is None
        since = since_of(delivered, board.id)
        assert board.files[0][1] == draw_dungeon(
            public, [s.shown_name() for s in game.seats], since
        )

        if state.rumble not in checked_rumbles:
            checked_rumbles.add(state.rumble)
            for user in table.players:
                reply = await user.click("My secret", message=board)
                (message,) = await private_reply(user, reply)
                assert message.ephemeral_to == user.id
                own = state.secrets[seat_of[user.id]]
                for seat, pair in enumerate(state.secrets):
                    for character in pair:
                        shown = f"**{CHARACTERS[character]}**" in message.text
                        assert shown == (seat == seat_of[user.id] and character in own)
            refused = await table.stranger.click("My secret", message=board)
            assert "not playing" in refused.ephemeral_text

        # Until the reveal, nothing anyone can see names a secret outside its owner's replies.
        for user in [*table.players, table.stranger]:
            for message in user.visible_messages():
                if message.ephemeral:
                    continue
                for text in texts_of(message):
                    assert "Your secret" not in text
                    assert "secretly backing" not in text or "is over" in message.text
        # Custom ids and menu values, even in private replies, hold numbers only.
        for message in fake_discord.messages():
            for component in message.all_components:
                if component.custom_id is not None:  # controls; layout parts have none
                    assert CUSTOM_ID.fullmatch(component.custom_id), component.custom_id
                    assert all(option["value"].isdigit() for option in component.options)

        if state.finished or state.rumble == 2:
            break
        await take_turn(players[turn_user_id(board)], board, rng)
    assert checked_rumbles == {1, 2}


@SQLITE_ONLY
async def test_strangers_out_of_turn_and_stale_presses_change_nothing(
    bot, table: Table, fake_discord
):
    await open_and_start(table, seed=9)
    board = latest_board(fake_discord)
    game, _state = await current_state(bot, fake_discord)
    turn = next(u for u in table.players if u.id == turn_user_id(board))
    waiting = next(u for u in table.players if u is not turn)
    menu = MOVE_MENU if any(c.placeholder == MOVE_MENU for c in board.selects) else FIGHT_MENU
    option = next(c for c in board.selects if c.placeholder == menu).options[0]["value"]
    public_before = len([m for m in fake_discord.messages() if not m.ephemeral])

    for user, reason in [(table.stranger, "not playing"), (waiting, "not your turn")]:
        refused = await user.select(menu, option, message=board)
        assert reason in refused.ephemeral_text.lower()
        assert all(m.ephemeral_to == user.id for m in refused.created)

    # A private direction reply, then the player acts another way: its buttons are stale.
    moves = next(c for c in board.selects if c.placeholder == MOVE_MENU)
    picked = await turn.select(MOVE_MENU, moves.options[0]["value"], message=board)
    (directions,) = await private_reply(turn, picked)
    await take_turn(turn, board, random.Random(1))
    after, _state_after = await current_state(bot, fake_discord)
    assert after.step > game.step  # the move, and the AI seat's turn after it
    stale = await turn.press(directions, directions.buttons[0].label)
    assert "out of date" in stale.ephemeral_text
    unchanged, _ = await current_state(bot, fake_discord)
    assert unchanged.step == after.step and unchanged.state == after.state
    posted = [m for m in fake_discord.messages() if not m.ephemeral]
    assert len(posted) == public_before + 1  # only the one real move posted a board


@SQLITE_ONLY
async def test_lobby_refusals(bot, table: Table, fake_discord):
    """One game per channel, the host starts, enough players, a full lobby, who cancels."""
    await table.alice.slash("/rumble new")
    busy = await table.bob.slash("/rumble new")
    assert "already has a game" in busy.ephemeral_text
    too_few = await table.alice.click("Start")
    assert "at least 2" in too_few.ephemeral_text
    await table.bob.click("Join")
    not_host = await table.bob.click("Start")
    assert "Only the host" in not_host.ephemeral_text
    again = await table.bob.click("Join")
    assert "already in this lobby" in again.ephemeral_text
    for _ in range(4):
        await table.alice.select("Add AI player…", "Normal AI")
    full = await table.carol.click("Join")
    assert "full" in full.ephemeral_text
    stranger_cancel = await table.carol.click("Cancel")
    assert "Only the host" in stranger_cancel.ephemeral_text
    stop = await table.bob.slash("/game stop")
    assert "Only the host" in stop.ephemeral_text
    cancelled = await table.mod.click("Cancel")
    assert not cancelled.ephemeral_text
    lobby = cancelled.edited[0]
    assert not lobby.buttons and "closed" in lobby.text
    assert await bot.sessions.current(fake_discord.channel.id) is None


async def test_a_refusal_that_waits_on_a_slow_database_still_reaches_the_player(
    bot, table: Table, fake_discord, monkeypatch
):
    """A press is answered at once with a deferral; its refusal follows once the database
    has said no. However slow that is (a loaded machine), the player is told why, and the
    test's view of the press includes it: the fake waits for the bot's work in flight."""
    await table.alice.slash("/rumble new")
    await table.bob.click("Join")
    slower = bot.sessions.db.transaction

    @asynccontextmanager
    async def slow_transaction():
        await asyncio.sleep(3 * fake_discord.settle_quiet)  # longer than the fake's quiet spell
        async with slower() as session:
            yield session

    monkeypatch.setattr(bot.sessions.db, "transaction", slow_transaction)
    again = await table.bob.click("Join")
    assert "already in this lobby" in again.ephemeral_text


async def test_turn_timer_lets_the_ai_play_for_a_late_player(bot, table: Table, fake_discord):
    """House rule: when the turn timer runs out the AI plays that decision."""
    await open_and_start(table, seed=2)
    set_timer = await table.bob.slash("/game timer", minutes=1)
    assert "Only the host" in set_timer.ephemeral_text
    await table.alice.slash("/game timer", minutes=1)
    game, _ = await current_state(bot, fake_discord)
    later = game.turn_deadline + timedelta(seconds=1)
    bot.sessions.clock = lambda: later
    await bot.get_cog("TableCog").check_timers()
    await fake_discord.settle()
    board = latest_board(fake_discord)
    assert "ran out of time" in board.text
    after, _ = await current_state(bot, fake_discord)
    assert after.step > game.step


@SQLITE_ONLY
async def test_rules_pages_and_secret_replies_after_fifteen_minutes(
    bot, table: Table, fake_discord
):
    """Ephemeral tokens die after 15 minutes: the bot never edits an old one, and "My secret"
    and the rules pages still answer after that."""
    rules = await table.alice.slash("/rules", game="rumble")
    (page,) = rules.ephemeral
    assert "Page 1 of" in str(page.embeds)
    fake_discord.clock.advance(minutes=16)
    turned = await table.alice.press(page, "Next ▶")
    assert "Page 2 of" in str(turned.edited[0].embeds)
    await open_and_start(table, seed=3)
    fake_discord.clock.advance(minutes=16)
    reply = await table.bob.click("My secret", message=latest_board(fake_discord))
    assert "Your secret characters" in reply.ephemeral_text


@SQLITE_ONLY
async def test_a_private_reply_drawn_slowly_still_reaches_its_player(
    bot: TrashTableBot, table: Table, fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A "My secret" press is deferred on the board at once; its reply, however long it takes
    to draw (a loaded machine), still comes, and the tests wait for it (`bot_busy`)."""
    drawn = components.private_reply

    async def slowly(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.6)  # longer than the fake's quiet period
        return await drawn(*args, **kwargs)

    monkeypatch.setattr(components, "private_reply", slowly)
    await open_and_start(table, seed=3)
    reply = await table.bob.click("My secret", message=latest_board(fake_discord))
    assert "Your secret characters" in reply.ephemeral_text


def since_of(delivered: dict[int, dict], message_id: int) -> int:
    """The step the board posted as `message_id` shows the moves after (its outbox entry,
    as it went out: `delivered`)."""
    return int(delivered[message_id]["since"])
