"""Trash War end to end (issue 3): the real bot, the fake Discord, users pressing buttons."""

from __future__ import annotations

import asyncio
import io
import random

import pytest
from PIL import Image
from sqlmodel import col, select

from bot.client import TrashTableBot
from bot.models import ActionRecord, GameRecord
from rules.base import JSON
from rules.trashwar import TRASH_WAR
from rules.trashwar.engine import WALL_NAMES
from rules.trashwar.groups import MORE
from rules.trashwar.plans import plans
from tests.e2e.conftest import Table
from tests.e2e.play import (
    assert_one_message_a_turn,
    assert_started,
    open_decision,
    private_reply,
    shown_step,
)
from tests.e2e.trashwar_play import (
    THEN,
    battlefields,
    decide,
    play_to_the_end,
    take_turn,
    turn_user_id,
)
from tests.fakediscord import Component, FakeDiscord, FakeMessage, FakeUser, running_bot
from tests.fakediscord.server import CALLBACK_NAMES
from tests.postgres import SQLITE_ONLY


async def open_war(table: Table, seed: int) -> None:
    await table.alice.slash("/trashwar new", seed=seed)
    await table.bob.click("Join")
    await table.carol.click("Join")
    await table.alice.select("Add AI player…", "Normal AI")
    started = await table.alice.click("Start")
    assert_started(started)
    await table.fake.wait_for(lambda: battlefields(table.fake), timeout=20, what="the board")


# A long game: on one database only, to keep the suite within ten minutes (the shorter
# end-to-end tests of this game run on both).
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_three_users_and_an_ai_knight_fight_a_whole_war(bot, table: Table, fake_discord):
    """Issue 3: three users and one AI play a whole game with slash commands, buttons and
    menus only; the order of elimination ranks everyone on the scoreboard."""
    await open_war(table, seed=12)
    first = battlefields(fake_discord)[0]
    assert "opens the war" in first.text or "opening" in first.text.lower()
    assert Image.open(io.BytesIO(first.files[0][1])).format == "PNG"
    players = {u.id: u for u in table.players}
    final = await play_to_the_end(fake_discord, players, random.Random(4))
    await assert_one_message_a_turn(bot, fake_discord)
    assert "wins" in final.text.lower() or "last knight" in final.text.lower()
    # Issue 15: the last board recaps the game: the final standings and the recap picture.
    assert "**Final standings**" in final.text and "recap.png" in [
        a.filename for a in final.attachments
    ]
    board = await table.bob.slash("/scoreboard", game="trashwar")
    text = board.public[0].embeds[0]["description"]
    assert all(user.name in text.lower() for user in table.players)


@SQLITE_ONLY
async def test_hands_stay_private_and_strangers_change_nothing(bot, table: Table, fake_discord):
    """House rule / issue 3: no card of one hand is seen by another player; presses by
    strangers and out-of-turn players change nothing."""
    await open_war(table, seed=30)
    board = battlefields(fake_discord)[-1]
    game = await bot.sessions.current(fake_discord.channel.id)
    state = TRASH_WAR.from_json(game.state)
    turn = table.by_id(turn_user_id(board))
    other = next(u for u in table.players if u is not turn)
    stranger = await table.stranger.click("My hand", message=board)
    assert "not playing" in stranger.ephemeral_text
    peek = await other.click("My hand", message=board)
    (reply,) = await private_reply(other, peek)
    assert reply.ephemeral_to == other.id and not reply.buttons and not reply.selects
    seat = [u.id for u in table.players].index(other.id)
    own = TRASH_WAR.observe(state, seat)["hand"]
    assert all(card["title"] in reply.text for card in own)
    mine = await turn.click("My hand", message=board)
    (controls,) = await private_reply(turn, mine)
    assert controls.buttons or controls.selects
    # Someone else pressing the player's private buttons is impossible (they cannot see
    # them); pressing the public board's "My hand" never changes the game.
    after = await bot.sessions.current(fake_discord.channel.id)
    assert after.step == game.step and after.state == game.state
    for message in fake_discord.messages():
        if message.ephemeral:
            continue
        for card in own:  # a hand's cards never appear in a public message's text
            assert f"Your hand ({len(own)})" not in message.text
            assert card["title"] not in message.text or card["kind"] in {"trash"}


async def test_a_restart_mid_defence_resumes(fake_discord, table: Table, make_bot):
    """Issue 3: the bot stops while a player must defend; after a restart that player
    defends with the buttons already in the channel."""
    players = {u.id: u for u in table.players}
    rng = random.Random(9)
    async with running_bot(fake_discord, make_bot()) as first:
        await open_war(table, seed=5)
        for _ in range(200):
            await fake_discord.settle()  # the newest board, not one on its way
            board = battlefields(fake_discord)[-1]
            game = await first.sessions.current(fake_discord.channel.id)
            phase = TRASH_WAR.observe(TRASH_WAR.from_json(game.state), None)["phase"]
            if phase == "defend" and turn_user_id(board) in players:
                break
            await take_turn(players[turn_user_id(board)], board, rng)
        else:
            raise AssertionError("no human defence came up")
        before = game.step
    async with running_bot(fake_discord, make_bot()) as second:
        assert battlefields(fake_discord)[-1].id == board.id
        await take_turn(players[turn_user_id(board)], board, rng)
        after = await second.sessions.current(fake_discord.channel.id)
        assert after.step > before


async def test_a_turn_decodes_the_game_state_at_most_once(
    bot, table: Table, fake_discord, monkeypatch
):
    """Issue 13 ("the state is decoded once per request"): a whole turn through the fake
    Discord (open "My hand", decide, the AI seat's move after it, the board) decodes the
    saved state at most once: each request reuses the state the one before it made."""
    await open_war(table, seed=30)
    decoded: list[int] = []
    decode = type(TRASH_WAR).from_json

    def counted(self, data):  # type: ignore[no-untyped-def]
        decoded.append(data["step"])
        return decode(self, data)

    monkeypatch.setattr(type(TRASH_WAR), "from_json", counted)
    for _ in range(3):
        board = battlefields(fake_discord)[-1]
        turn = table.by_id(turn_user_id(board))
        await take_turn(turn, board, random.Random(2))
        await fake_discord.settle()
    steps = (await bot.sessions.current(fake_discord.channel.id)).step
    assert steps > 3  # three turns, each with the AI's after it, were played
    assert len(decoded) <= 1, decoded


async def open_attack(table: Table, fake: FakeDiscord) -> tuple[FakeUser, FakeMessage]:
    """A war whose opener is a person (seed 2: Bob, with three Trash cards that can each go
    at nine walls), and that person's private reply, opened from the board."""
    await open_war(table, seed=2)
    board = battlefields(fake)[-1]
    user = table.by_id(turn_user_id(board) or 0)
    opened = await user.click("My hand", message=board)
    (reply,) = await private_reply(user, opened)
    return user, reply


def seat_name(game: GameRecord, user: FakeUser) -> tuple[int, str]:
    (seat,) = [i for i, s in enumerate(game.seats) if s.user_id == user.id]
    return seat, game.seats[seat].name


def thrown(game: GameRecord, card: int, target: int, wall: str) -> JSON:
    """The state after the seat to act throws the card(s) of their `card`-th button at
    seat `target`'s `wall`, and nothing else happens (that player must defend next)."""
    state = TRASH_WAR.from_json(game.state)
    (seat,) = TRASH_WAR.to_act(state)
    legal = TRASH_WAR.legal_actions(state, seat)
    group = list(dict.fromkeys(TRASH_WAR.group_of(action) for action in legal))[card]
    label = f"{{p{target}}} · {wall} wall"
    (action,) = [
        action
        for action in legal
        if TRASH_WAR.in_group(action, group)
        and str(TRASH_WAR.describe_in_group(state, action, group)) == label
    ]
    return TRASH_WAR.to_json(TRASH_WAR.apply(state, seat, action).state)


def card_menus(reply: FakeMessage) -> list[Component]:
    return [s for s in reply.selects if (s.custom_id or "").startswith("tt:menu:")]


async def test_an_attack_is_one_pick_of_the_cards_target(bot, table: Table, fake_discord):
    """Issue 55 ("an attack in two presses, the card then the target", and fewer where
    nothing is lost): the private reply lists each card once, a card with several targets
    as a menu named by the card whose options are its targets in short ("Carol · left
    wall"), so one pick plays the card at that wall; no reply holds more than five rows;
    once played, the menu is out of date."""
    user, reply = await open_attack(table, fake_discord)
    game = await bot.sessions.current(fake_discord.channel.id)
    state = TRASH_WAR.from_json(game.state)
    (seat,) = TRASH_WAR.to_act(state)
    legal = TRASH_WAR.legal_actions(state, seat)
    groups = list(dict.fromkeys(TRASH_WAR.group_of(action) for action in legal))
    menus = card_menus(reply)
    assert len(menus) == len(groups) == 3 and len(legal) == 27
    assert all((menu.placeholder or "").endswith(MORE) for menu in menus)
    assert len(reply.selects) + -(-len(reply.buttons) // 5) <= 5
    names = [s.shown_name() for s in game.seats]
    others = [name for i, name in enumerate(names) if i != seat]
    targets = [o["label"] for o in menus[0].options]
    assert targets == [f"{n} · {w} wall" for n in others for w in WALL_NAMES]

    carol, name = seat_name(game, table.carol)
    (option,) = [o for o in menus[0].options if o["label"] == f"{name} · left wall"]
    versions = len(reply.history)
    await user.select(menus[0].custom_id, option["value"], message=reply, settle=False)
    await fake_discord.wait_for(lambda: len(reply.history) > versions, timeout=20, what="edit")
    after = await bot.sessions.current(fake_discord.channel.id)
    assert after.state == thrown(game, 0, carol, "left")  # that card at that wall, one pick

    stale = await user.forge(reply, menus[0].custom_id or "", option["value"])
    assert "out of date" in stale.ephemeral_text
    assert (await bot.sessions.current(fake_discord.channel.id)).step == after.step


async def test_identical_cards_make_one_card(bot, table: Table, fake_discord):
    """Issue 55 ("which of several identical cards is not a choice"): Trash of one damage
    under two names is one card in the private reply (seed 3: the opener holds an exercise
    bike (3), leftovers (3) and a television (2), so two cards to choose from), and the
    card's targets are each wall once."""
    await open_war(table, seed=3)
    board = battlefields(fake_discord)[-1]
    user = table.by_id(turn_user_id(board) or 0)
    (reply,) = await private_reply(user, await user.click("My hand", message=board))
    game = await bot.sessions.current(fake_discord.channel.id)
    state = TRASH_WAR.from_json(game.state)
    (seat,) = TRASH_WAR.to_act(state)
    held = sorted(card["code"] for card in TRASH_WAR.observe(state, seat)["hand"])
    assert {"bike3", "leftovers3", "tv2"} <= set(held), held
    cards = [menu.placeholder or "" for menu in card_menus(reply)]
    assert len(cards) == 2, cards
    assert sum("(3)" in label for label in cards) == 1 and any("(2)" in c for c in cards)
    (three,) = [menu for menu in card_menus(reply) if "(3)" in (menu.placeholder or "")]
    targets = [o["label"] for o in three.options]
    assert len(targets) == len(set(targets)) == 9  # three knights, three walls each


async def test_a_restart_between_the_reply_and_the_pick(fake_discord, table: Table, make_bot):
    """Issue 14 ("everything still works after a restart"): a player opens their hand, the
    bot restarts, and the card's menu already in their reply still throws it."""
    async with running_bot(fake_discord, make_bot()) as first:
        user, reply = await open_attack(table, fake_discord)
        before = await first.sessions.current(fake_discord.channel.id)
    async with running_bot(fake_discord, make_bot()) as second:
        carol, name = seat_name(before, table.carol)
        menu = card_menus(reply)[0]
        (option,) = [o for o in menu.options if o["label"] == f"{name} · middle wall"]
        versions = len(reply.history)
        await user.select(menu.custom_id, option["value"], message=reply, settle=False)
        await fake_discord.wait_for(lambda: len(reply.history) > versions, timeout=20)
        after = await second.sessions.current(fake_discord.channel.id)
    assert after.state == thrown(before, 0, carol, "middle")


async def test_a_reply_ready_in_time_is_the_press_answer(bot, table: Table, fake_discord):
    """Issue 16 (fewer requests a press): a press whose reply is ready within a second is
    answered by that reply itself, not by a deferral and then an edit: a decision in a
    private reply with the reply rewritten (the next decision, or "Done."), and a lobby
    button or menu with the lobby. "My hand" on the board is the exception (issue 34): it is
    answered as an update of the board, its reply a private followup, so that its token
    can show the player's moves on the board without the bot token."""
    await open_war(table, seed=30)
    # The lobby's id comes with the callback's answer: it is not asked for again.
    assert not [r for r in fake_discord.requests if r.method == "GET" and "@original" in r.path]
    lobby = [
        p
        for p in fake_discord.interactions
        if p.data.get("custom_id", "").startswith(("tt:lobby:", "tt:addai:"))
    ]
    answers = [CALLBACK_NAMES[p.callback_type or 0] for p in lobby]
    assert len(lobby) == 4 and answers.count("UPDATE_MESSAGE") > len(lobby) / 2, answers
    first = len(fake_discord.interactions)
    rng = random.Random(4)
    for _ in range(3):
        board = battlefields(fake_discord)[-1]
        await take_turn(table.by_id(turn_user_id(board) or 0), board, rng)
    presses = fake_discord.interactions[first:]
    opened = [p for p in presses if p.data.get("custom_id", "").startswith("tt:hand:")]
    decided = [p for p in presses if p.message is not None and p.message.ephemeral_to]
    assert opened and decided
    # On a loaded machine a reply can miss the second and be deferred; most never do.
    answers = [CALLBACK_NAMES[p.callback_type or 0] for p in opened]
    assert set(answers) == {"DEFERRED_UPDATE_MESSAGE"}, answers
    answers = [CALLBACK_NAMES[p.callback_type or 0] for p in decided]
    assert answers.count("UPDATE_MESSAGE") > len(decided) / 2, answers
    # Each was answered once, with the reply: no edit of "@original" after it before the
    # next press (a later one shows its player their next turn: `replies.refresh`).
    edits = [r for r in fake_discord.requests if r.method == "PATCH" and "@original" in r.path]
    answered = [p for p in presses if p.callback_type in (4, 7)]
    sent = sorted(p.sent_at for p in fake_discord.interactions)
    for press in answered:
        following = [at for at in sent if at > press.sent_at]
        until = following[0] if following else float("inf")
        assert not [r for r in edits if press.token in r.path and r.started < until]


def view_timers() -> list[asyncio.Task[object]]:
    """Tasks discord.py runs to time out a view it keeps (`BaseView.__timeout_task_impl`)."""
    return [
        task
        for task in asyncio.all_tasks()
        if "__timeout_task_impl" in getattr(task.get_coro(), "__qualname__", "")
    ]


@SQLITE_ONLY
async def test_sent_controls_leave_no_view_or_timer_behind(bot, table: Table, fake_discord):
    """Every control is answered by its custom id (`DynamicItem`), so a view sent is not
    kept: discord.py would otherwise keep each private reply's view with a 15-minute timer,
    thousands of them in a busy hour. The controls still work once sent."""
    await open_war(table, seed=30)
    board = battlefields(fake_discord)[-1]
    turn = table.by_id(turn_user_id(board))
    mine = await turn.click("My hand", message=board)
    (controls,) = await private_reply(turn, mine)
    assert controls.buttons or controls.selects
    assert view_timers() == []
    assert bot.persistent_views == []
    before = (await bot.sessions.current(fake_discord.channel.id)).step
    await take_turn(turn, board, random.Random(2))
    after = await bot.sessions.current(fake_discord.channel.id)
    assert after.step > before  # the private reply's controls answered
    assert view_timers() == []


PASS = "Neither burn nor repair"
ATTACKS = ("Throw", "Catapult")


def pass_then_throw(reply: FakeMessage) -> list[tuple[Component, dict[str, str]]]:
    """The picks of a private reply that pass burn or repair and throw, as (menu, option):
    in a card's menu ("Neither burn nor repair → Throw the toaster (2) …", its options the
    targets), or in a menu of every attack after the pass ("Neither burn nor repair → …")
    where the reply has no room for a menu a card."""
    return [
        (menu, option)
        for menu in card_menus(reply)
        if (menu.placeholder or "").startswith(PASS + THEN)
        for option in menu.options
        if (menu.placeholder or "").startswith(PASS + THEN + ATTACKS[0])
        or (menu.placeholder or "").startswith(PASS + THEN + ATTACKS[1])
        or option["label"].startswith(ATTACKS)
    ]


async def reach_pass_then_throw(
    bot: TrashTableBot, table: Table, rng: random.Random
) -> tuple[FakeUser, FakeMessage, GameRecord]:
    """Play as the scripted players do until a person's private reply offers to pass burn
    or repair and throw in one pick: that person, the reply and the game then."""
    players = {u.id: u for u in table.players}
    replies: dict[int, FakeMessage] = {}
    for _ in range(100):
        await table.fake.settle()
        board = battlefields(table.fake)[-1]
        assert "The game is over" not in board.text
        user = players[turn_user_id(board) or 0]
        reply = replies.get(user.id)
        if not open_decision(reply):
            (reply,) = await private_reply(user, await user.click("My hand", message=board))
            replies[user.id] = reply
        assert reply is not None
        for _ in range(20):
            if not reply.buttons and not reply.selects:
                break
            game = await bot.sessions.current(table.fake.channel.id)
            if pass_then_throw(reply) and shown_step(reply) == game.step:
                return user, reply, game
            reply = await decide(user, reply, rng)
    raise AssertionError("no person was offered to pass and throw in one pick")


async def logged(bot: TrashTableBot, game_id: int, since: int) -> list[tuple[int, str, str]]:
    """(seat, actor, action) of each action from step `since` on."""
    async with bot.db.reading() as session:
        records = await session.exec(
            select(ActionRecord)
            .where(ActionRecord.game_id == game_id, col(ActionRecord.step) >= since)
            .order_by(col(ActionRecord.step))
        )
        return [(r.seat, r.actor, r.action) for r in records.all()]


async def test_passing_burn_or_repair_and_attacking_is_one_press(
    bot: TrashTableBot, table: Table, fake_discord: FakeDiscord
) -> None:
    """Issue 55 ("one decision, one press"): a knight who neither burns nor repairs
    attacks next with the hand they hold (the re-draw waits for the turn's end), so their
    private reply offers the pass with each attack after it and no pass alone: one pick
    plays both, the pass as the player's and the attack as planned, in the same press."""
    await open_war(table, seed=2)
    user, reply, game = await reach_pass_then_throw(bot, table, random.Random(5))
    state = TRASH_WAR.from_json(game.state)
    (seat,) = TRASH_WAR.to_act(state)
    assert PASS not in [b.label for b in reply.buttons]  # a pass alone would decide nothing
    menu, option = pass_then_throw(reply)[-1]
    placeholder = menu.placeholder or ""
    describe = bot.sessions.describer(game)

    def named(attack: str) -> bool:
        """Whether the option picked names `attack`: in its card's menu by its target, in
        the menu of every attack in full."""
        card = TRASH_WAR.group_of(attack)
        if placeholder == PASS + THEN + describe(card):
            return option["label"] == describe.in_group(attack, card)
        return placeholder.startswith(PASS + THEN + "…") and option["label"] == describe(attack)

    legal = TRASH_WAR.legal_actions(state, seat)
    (attack,) = [a for a in plans(TRASH_WAR.observe(state, seat), legal)["pass"] if named(a)]
    first = len(fake_discord.interactions)
    versions = len(reply.history)
    await user.select(menu.custom_id, option["value"], message=reply, settle=False)
    await fake_discord.wait_for(lambda: len(reply.history) > versions, timeout=20, what="edit")
    presses = [p for p in fake_discord.interactions[first:] if p.user.id == user.id]
    assert len(presses) == 1
    played = (await logged(bot, game.id or 0, game.step))[:2]
    assert played == [(seat, "player", "pass"), (seat, "planned", attack)]
