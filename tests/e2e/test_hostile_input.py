"""Hostile and odd input (issue 11): forged custom ids and select values, a double click, an
interaction delivered twice, a press on a button just taken away, slash command options of
the wrong type. Each gets a short private reason and changes nothing: no game step, state or
seat moves and no public message is posted."""

from __future__ import annotations

import logging
import random

import pytest

from bot.client import TrashTableBot
from bot.models import GameRecord
from cogs.shared.components import PICK_ONE
from cogs.shared.interactions import STALE_CONTROL
from tests.e2e.conftest import Table
from tests.e2e.play import MOVE_MENU, boards, latest_board, take_turn, turn_user_id
from tests.e2e.test_rumble_game import open_and_start
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionResult
from tests.postgres import SQLITE_ONLY

HUGE = 10**25  # past any 64-bit integer: the database cannot even look it up
LARGEST = 10**9 - 1  # the largest number a custom id holds: it fits every integer column
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")  # digits to `\\d`, not to us


async def current(bot: TrashTableBot, fake: FakeDiscord) -> GameRecord:
    game = await bot.sessions.current(fake.channel.id)
    assert game is not None
    return game


def fingerprint(game: GameRecord) -> tuple[object, ...]:
    """What a refused press must leave exactly as it was."""
    return (game.id, game.status, game.step, game.state, game.seats, game.turn_timer)


def refusal(result: InteractionResult) -> str:
    """The one private reason a refused press got, checking it got nothing else: answered
    in time, no public message, nothing edited."""
    assert result.acknowledged and not result.failed, result
    assert result.public == [] and result.edited == [], result
    (reply,) = result.ephemeral
    assert reply.text and len(reply.text) < 200, reply.text
    return reply.text


async def game_on(table: Table, fake: FakeDiscord) -> tuple[FakeMessage, FakeUser]:
    """A Rumble under way: its newest board and the player whose turn it is."""
    await open_and_start(table, seed=7)
    board = latest_board(fake)
    return board, table.by_id(turn_user_id(board) or 0)


@SQLITE_ONLY
async def test_custom_ids_no_control_takes_are_answered_and_change_nothing(
    bot, table: Table, fake_discord: FakeDiscord
):
    """Every press gets a reason: ids that fit no control (negative, missing or non-ASCII
    numbers, junk, unknown words, an empty id) and numbers no game can have, whether or not
    the message carries them. Only ASCII digits are numbers: `٠` is not index 0."""
    board, player = await game_on(table, fake_discord)
    before = fingerprint(await current(bot, fake_discord))
    game, step = before[0], before[2]
    forged = [
        f"tt:act:{game}:-1:4",
        f"tt:act:{game}:{step}:-3",
        "",
        f"tt:act:{game}:{step}:4é",
        "x" * 100,
        f"tt:act:{game}:{step}",
        f"tt:menu:{game}:{step}:z:0",
        f"tt:group:{game}:{step}:a:0",  # a group button is on a board or a hand only
        f"tt:group:{game}:{step}:h:٨",
        f"tt:lobby:{game}:destroy",
        f"tt:act:{game}:{step}:٠",  # Arabic-Indic zero: index 0 is a legal action
        f"tt:act:{game}:{step}:٨",
        f"tt:act:{game}:{str(step).translate(ARABIC_INDIC)}:0",
        f"tt:hand:{str(game).translate(ARABIC_INDIC)}",
        f"tt:act:{HUGE}:{step}:0",
        f"tt:act:{game}:{HUGE}:0",
        f"tt:hand:{HUGE}",
        f"tt:lobby:{HUGE}:join",
        f"tt:lobby:{game}:ai:{HUGE}",
    ]
    posted = len(fake_discord.messages())
    for custom_id in forged:
        for carried in (True, False):
            result = await player.forge(board, custom_id, carried=carried)
            assert refusal(result) == str(STALE_CONTROL), (custom_id, carried)
    # The largest numbers an id can hold reach the game's own checks, and are refused there.
    for custom_id, reason in [
        (f"tt:act:{LARGEST}:{step}:0", "That game no longer exists."),
        (f"tt:act:{game}:{LARGEST}:0", "out of date"),
        (f"tt:act:{game}:{step}:{LARGEST}", "not open to you"),
        (f"tt:group:{game}:{step}:h:{LARGEST}", "not open to you"),
        (f"tt:hand:{LARGEST}", "has not started"),
        (f"tt:lobby:{LARGEST}:join", "That game no longer exists."),
    ]:
        result = await player.forge(board, custom_id)
        assert reason in refusal(result), custom_id
    assert fingerprint(await current(bot, fake_discord)) == before
    public = [m for m in fake_discord.messages()[posted:] if not m.ephemeral]
    assert public == []


@SQLITE_ONLY
async def test_select_values_are_exactly_one_of_the_menus_own(
    bot, table: Table, fake_discord: FakeDiscord
):
    """A menu pick is one value and one of the menu's own option values, all ASCII digits:
    `²` (a digit to `isdigit()`), `٠`, an option the menu does not have, the same value
    twice or two values are refused, not read as their first."""
    board, player = await game_on(table, fake_discord)
    before = fingerprint(await current(bot, fake_discord))
    menu = next(s for s in board.selects if s.placeholder.startswith(MOVE_MENU))
    assert menu.custom_id and "0" in menu.option_values
    game, step = before[0], before[2]
    forged: list[tuple[str, tuple[str, ...]]] = [
        (menu.custom_id, ("²",)),
        (menu.custom_id, ("٠",)),
        (menu.custom_id, ("99",)),
        (menu.custom_id, ("-1",)),
        (menu.custom_id, ("0", "0")),
        (menu.custom_id, ("0", "1")),
        # A menu the message does not have, offering the forged values themselves.
        (f"tt:menu:{game}:{step}:a:0", ("²",)),
        (f"tt:menu:{game}:{step}:a:0", ("0", "0")),
    ]
    for custom_id, values in forged:
        result = await player.forge(board, custom_id, *values)
        assert refusal(result) == str(PICK_ONE), (custom_id, values)
    assert fingerprint(await current(bot, fake_discord)) == before
    # The real menu still takes its own options.
    picked = await player.select(menu.placeholder, menu.option_labels[0], message=board)
    assert str(PICK_ONE) not in picked.ephemeral_text and not picked.failed


async def test_a_double_click_on_add_ai_player_adds_one_seat(
    bot, table: Table, fake_discord: FakeDiscord
):
    """Two picks in one "Add AI player…" menu add one seat; a pick on the updated lobby
    adds another, and the "Add AI player" button of lobbies posted before the menu still
    works, with or without the seat count it carried."""
    opened = await table.alice.slash("/rumble new", seed=1)
    lobby = opened.response
    assert lobby is not None
    (menu,) = lobby.selects
    add_ai = menu.custom_id
    assert add_ai is not None
    first = await table.alice.forge(lobby, add_ai, "2", settle=False)
    second = await table.alice.forge(lobby, add_ai, "0", settle=False)
    await first.wait()
    await second.wait()
    game = await current(bot, fake_discord)
    assert len(game.seats) == 2
    # The two presses overlap: each one's own reply is its answer or follow-up.
    reasons = ["".join(m.text for m in r.replies) for r in (first, second)]
    assert sorted(bool(r) for r in reasons) == [False, True], reasons
    assert "changed" in "".join(reasons)
    for values in (("3",), ("²",), ("0", "1")):  # a level the menu does not offer, or two
        assert refusal(await table.alice.forge(lobby, add_ai, *values)) == str(PICK_ONE), values

    again = await table.alice.select("Add AI player…", "Normal AI", message=lobby)
    assert again.ephemeral_text == ""
    assert len((await current(bot, fake_discord)).seats) == 3

    for old_form in (f"tt:lobby:{game.id}:ai:3", f"tt:lobby:{game.id}:ai"):
        assert (await table.alice.forge(lobby, old_form)).ephemeral_text == ""
    seats = (await current(bot, fake_discord)).seats
    assert len(seats) == 5 and {seat.level for seat in seats[3:]} == {"normal"}


@SQLITE_ONLY
async def test_a_brawl_lobby_pick_takes_exactly_one_of_its_options(
    bot, table: Table, fake_discord: FakeDiscord
):
    """The lobby's character pick is checked like a menu: one value, one of its own."""
    opened = await table.alice.slash("/brawl new", seed=1)
    lobby = opened.response
    assert lobby is not None
    (pick,) = [menu for menu in lobby.selects if menu.custom_id.startswith("tt:pick:")]
    assert pick.custom_id
    before = fingerprint(await current(bot, fake_discord))
    for values in (("²",), ("٠",), ("0", "1"), ("0", "0"), ("999",)):
        result = await table.alice.forge(lobby, pick.custom_id, *values)
        assert refusal(result) == str(PICK_ONE), values
    assert fingerprint(await current(bot, fake_discord)) == before


async def test_an_interaction_delivered_twice_is_handled_once(
    bot, table: Table, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
):
    """Discord may deliver one interaction twice: the second delivery is ignored quietly,
    with no second answer (the fake flags one), no change and no traceback in the log."""
    caplog.set_level(logging.INFO)
    opened = await table.alice.slash("/rumble new", seed=2)
    lobby = opened.response
    assert lobby is not None
    again = await fake_discord.redeliver(opened)
    assert again.messages == []
    added = await table.alice.select("Add AI player…", "Normal AI", message=lobby)
    seats = (await current(bot, fake_discord)).seats
    assert (await fake_discord.redeliver(added)).messages == []
    assert (await current(bot, fake_discord)).seats == seats
    junk = await table.alice.forge(lobby, "tt:nothing")
    assert refusal(junk) == str(STALE_CONTROL)
    assert (await fake_discord.redeliver(junk)).messages == []
    status = await table.bob.slash("/game status")
    assert (await fake_discord.redeliver(status)).messages == []

    assert fake_discord.problems() == []
    assert [r for r in caplog.records if r.exc_info] == []
    assert len([r for r in caplog.records if "delivered again" in r.getMessage()]) == 4


@SQLITE_ONLY
async def test_a_press_on_a_control_just_taken_off_its_message_gets_a_reason(
    bot, table: Table, fake_discord: FakeDiscord
):
    """After a move the old board loses its controls; a press that still arrives from it
    (the player's screen was behind) is answered as stale and changes nothing."""
    board, player = await game_on(table, fake_discord)
    menu = next(s for s in board.selects if s.placeholder.startswith(MOVE_MENU))
    await take_turn(player, board, random.Random(3))
    await fake_discord.settle()
    assert not board.buttons and not board.selects and len(boards(fake_discord)) > 1
    before = fingerprint(await current(bot, fake_discord))
    late = await player.forge(board, menu.custom_id or "", "0", carried=False)
    assert refusal(late) == str(STALE_CONTROL)
    hand = await player.forge(board, f"tt:hand:{before[0]}", carried=False)
    assert refusal(hand) == str(STALE_CONTROL)
    assert fingerprint(await current(bot, fake_discord)) == before


@pytest.mark.parametrize(
    ("command", "raw", "named"),
    [
        ("/rumble new", {"seed": "abc"}, "seed"),
        ("/rumble new", {"seed": True}, "seed"),
        ("/rumble new", {"seed": 2**31}, "seed"),
        ("/trashwar new", {"seed": 1.0}, "seed"),
        ("/toss new", {"timer": 1.5}, "timer"),
        ("/toss new", {"timer": -1}, "timer"),
        ("/brawl new", {"slugs": "x"}, "slugs"),
        ("/brawl new", {"blockers": 2.5}, "blockers"),
    ],
)
async def test_slash_options_are_checked_by_type_as_well_as_range(
    bot, table: Table, fake_discord: FakeDiscord, command: str, raw: dict, named: str
):
    """Whatever a client sends, a whole-number option is a whole number in its range: the
    reply names the option and what it must be, and no lobby opens."""
    result = await table.alice.slash(command, raw=raw)
    reason = refusal(result)
    assert f"`{named}`" in reason and "whole number" in reason
    assert await bot.sessions.current(fake_discord.channel.id) is None


@SQLITE_ONLY
async def test_game_timer_minutes_are_checked_by_type(bot, table: Table, fake_discord: FakeDiscord):
    """`/game timer minutes:1.5` is refused, naming the option; the timer stays as it was."""
    await table.alice.slash("/rumble new", timer=5)
    before = fingerprint(await current(bot, fake_discord))
    for minutes in (1.5, "10", True):
        result = await table.alice.slash("/game timer", raw={"minutes": minutes})
        assert "`minutes` must be a whole number" in refusal(result)
    assert fingerprint(await current(bot, fake_discord)) == before


@SQLITE_ONLY
async def test_a_control_of_ours_pressed_as_another_kind_gets_a_reason(
    bot, table: Table, fake_discord: FakeDiscord
):
    """A menu's custom id sent as a button press (and a button's as a menu pick), from a
    message that carries that control, is answered with a reason and changes nothing."""
    board, player = await game_on(table, fake_discord)
    before = fingerprint(await current(bot, fake_discord))
    menu = board.selects[0].custom_id or ""
    button = next(b.custom_id for b in board.buttons if b.custom_id)
    assert refusal(await player.forge(board, menu)) == str(STALE_CONTROL)
    assert refusal(await player.forge(board, button, "0")) == str(STALE_CONTROL)
    assert fingerprint(await current(bot, fake_discord)) == before


async def test_a_replay_number_past_the_database_s_range_gets_a_reason(
    bot, table: Table, fake_discord: FakeDiscord
):
    """`/game replay` with a number no game can have: no such game, said, not an error."""
    for number in (2**31, 2**63, -1, 0):
        result = await table.alice.slash("/game replay", game=number)
        assert refusal(result) == f"There is no game #{number} in this server.", number
    # Past 64 bits the number reaches the bot as a float (JSON): refused alike.
    huge = await table.alice.slash("/game replay", game=HUGE)
    assert refusal(huge).startswith("There is no game #")
