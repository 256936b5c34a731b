"""Playing Dumpster Brawl! through the fake Discord as people would: press "My hand" on the
newest board, then the private reply's buttons and menus.

The players here play like the AI animal: the test reads their own view from the game, asks
the AI what it would do next, for as long as the decision stays theirs, and presses the
control that plays most of that line in one press (a draw of two, two discards picked at
once). So a seeded game runs as a seeded all-AI game would (unless a menu plays picks in
another order than the AI's): the tests pick seeds whose games are short. Every decision
still goes through a real button or menu.
"""

from __future__ import annotations

import re
from typing import Any

from bot.client import TrashTableBot
from bot.requests import seat_of
from cogs.brawl._present import BrawlPresenter, SweepMenu
from cogs.shared.menus import buttons_of, menu_chunks
from cogs.shared.presenter import Menu, is_plan, plan_of
from rules.base import rng_for
from rules.brawl import BRAWL
from tests.e2e.play import newest_private, open_decision, shown_step
from tests.fakediscord import (
    FakeDiscord,
    FakeDiscordError,
    FakeMessage,
    FakeUser,
    InteractionResult,
)

TURN = re.compile(r"<@(\d+)>[^\n]*your turn")
PRESENTER = BrawlPresenter()


def alley_boards(fake: FakeDiscord) -> list[FakeMessage]:
    return [
        m
        for m in fake.messages()
        if not m.ephemeral and any(a.filename == "alley.png" for a in m.attachments)
    ]


def turn_user_id(board: FakeMessage) -> int | None:
    match = TURN.search(board.text)
    return int(match[1]) if match else None


async def wait_for_edit(user: FakeUser, reply: FakeMessage, versions: int) -> None:
    await user.fake.wait_for(
        lambda: len(reply.history) > versions, timeout=20, what="the reply's next decision"
    )


def ai_line(game: Any, state: Any, seat: int, most: int = 8) -> list[tuple[str, Any]]:
    """The actions the AI-like mind takes next while the decision stays this seat's (what
    one press may play), each with the state after it."""
    line: list[tuple[str, Any]] = []
    step = game.step
    while len(line) < most and BRAWL.outcome(state) is None and seat in BRAWL.to_act(state):
        legal = BRAWL.legal_actions(state, seat)
        action = BRAWL.choose(
            BRAWL.observe(state, seat), legal, rng_for(game.seed, "ai", step, seat)
        )
        state = BRAWL.apply(state, seat, action).state
        line.append((action, state))
        step += 1
    return line


def played(state: Any, seat: int, value: str) -> tuple[int, Any]:
    """How many actions of a choice's `value` (one action, or a plan) the session service
    plays, as it plays them (the rest while still open to the seat), and the state after."""
    first, *rest = plan_of(value)
    if first not in BRAWL.legal_actions(state, seat):
        return 0, state
    state, count = BRAWL.apply(state, seat, first).state, 1
    for action in rest:
        if BRAWL.outcome(state) is not None or seat not in BRAWL.to_act(state):
            break
        if action not in BRAWL.legal_actions(state, seat):
            break
        state, count = BRAWL.apply(state, seat, action).state, count + 1
    return count, state


def menu_picks(menu: Menu, line: list[str]) -> list[list[int]]:
    """The picks of a menu that take several at once that follow the AI's `line`: its
    cards picked in turn, one more each time (the menu plays them in its own order)."""
    if menu.most < 2 or tuple(line[: len(menu.before)]) != menu.before:
        return []
    wanted = line[len(menu.before) :]
    if isinstance(menu, SweepMenu):  # one action names the cards swept
        wanted = [f"play sweep {key}" for key in wanted[0].split()[2:]] if wanted else []
    picks: list[list[int]] = []
    taken: list[int] = []
    for action in wanted[: menu.most]:
        free = [i for i, c in enumerate(menu.choices) if c.value == action and i not in taken]
        if not free:
            break
        taken.append(free[0])
        picks.append(sorted(taken))
    return picks


def best_control(
    controls: list[Any], state: Any, seat: int, line: list[tuple[str, Any]]
) -> tuple[str, int, list[int], str]:
    """The control that plays most of the AI's `line` exactly, as ("button", index, [],
    value) or ("menu", slot, positions, value); else one whose first action is the AI's
    (the game then leaves the AI's line: a menu plays its picks in its own order)."""
    actions = [action for action, _ in line]
    found: list[tuple[str, int, list[int], str]] = []
    for index, choice in enumerate(buttons_of(controls)):
        found.append(("button", index, [], choice.value))
    for slot, menu in enumerate(menu_chunks(controls)):
        for index in range(len(menu.choices)):
            found.append(("menu", slot, [index], menu.picked([index])))
        for positions in menu_picks(menu, actions):
            found.append(("menu", slot, positions, menu.picked(positions)))
    best, most = None, 0
    for candidate in found:
        count, after = played(state, seat, candidate[3])
        if not most < count <= len(line):
            continue
        # A person picks the cards the AI would, together: the menu plays them in its own
        # order, the same cards.
        picked = candidate[0] == "menu" and len(candidate[2]) > 1
        same_cards = sorted(plan_of(candidate[3])[:count]) == sorted(actions[:count])
        if after == line[count - 1][1] or (picked and same_cards):
            best, most = candidate, count
    if best is not None:
        return best
    for candidate in found:  # a group's entry, or a plan starting with the AI's choice
        value = candidate[3]
        if plan_of(value)[0] == actions[0] or BRAWL.in_group(actions[0], value):
            return candidate
    raise AssertionError(f"{actions[0]!r} is not among the controls")


async def decide(bot: TrashTableBot, user: FakeUser, reply: FakeMessage) -> FakeMessage | None:
    """Make one decision in a private reply; the reply that holds the next one, or None."""
    game: Any = await bot.sessions.current(user.fake.channel.id)
    if game is None or game.status != "playing":
        return None
    seat = seat_of(game, user.id)
    state = BRAWL.from_json(game.state)
    if seat is None or seat not in BRAWL.to_act(state):
        return None
    line = ai_line(game, state, seat)
    obs = BRAWL.observe(state, seat)
    legal = BRAWL.legal_actions(state, seat)
    describe = bot.sessions.describer(game)
    controls = PRESENTER.hand_controls(obs, legal, describe)
    kind, where, positions, value = best_control(controls, state, seat, line)
    versions = len(reply.history)
    if kind == "button":
        label = buttons_of(controls)[where].label
        result = await user.press(reply, label, settle=False)
        await wait_for_edit(user, reply, versions)
        # A new private note to this player is a refusal (another's, their first reply).
        refused = [m.text for m in result.created if m.ephemeral_to == user.id]
        assert not refused, refused
        return reply
    select = reply.selects[where]
    picked = [str(p) for p in positions]
    result = await user.select(select.custom_id, *picked, message=reply, settle=False)
    if is_plan(value) or value in legal:  # played at once
        await wait_for_edit(user, reply, versions)
        return reply
    (narrowed,) = await replied(user, result)  # a group's entry: its buttons finish it
    versions = len(narrowed.history)
    await user.press(narrowed, describe(line[0][0]), settle=False)
    await wait_for_edit(user, narrowed, versions)
    return narrowed


async def replied(user: FakeUser, result: InteractionResult) -> list[FakeMessage]:
    """The private reply to an interaction started without settling (the drivers wait for
    what they expect rather than for a quiet spell after every press: it keeps games quick)."""

    def answered() -> list[FakeMessage]:  # a deferred "thinking" reply has no content yet
        return [m for m in result.ephemeral if m.text or m.components]

    await user.fake.wait_for(answered, timeout=20, what="a private reply")
    return answered()


async def take_turn(
    bot: TrashTableBot,
    user: FakeUser,
    board: FakeMessage,
    replies: dict[int, FakeMessage] | None = None,
) -> None:
    """Decide until the decision is no longer this player's: in their open private reply
    when the bot shows it there (given `replies`: their newest private message, also one
    the bot posted unasked), else in a new one from "My hand", as a person would."""
    reply = newest_private(user) if replies is not None else None
    if open_decision(reply):  # shown there: the decision of the game's step, once edited
        game = await bot.sessions.current(user.fake.channel.id)
        step = game.step if game is not None else None
        try:
            await user.fake.wait_for(lambda: shown_step(reply) == step, timeout=10)
        except TimeoutError:
            reply = None  # not shown there after all: "My hand", as a person would
    if not open_decision(reply):
        try:
            opened = await user.click("My hand", message=board, settle=False)
        except FakeDiscordError:
            return  # a newer board took this one's controls meanwhile: look again
        (reply,) = await replied(user, opened)
    assert reply is not None and reply.ephemeral_to == user.id
    if replies is not None:
        replies[user.id] = reply
    for _ in range(60):
        if not reply.buttons and not reply.selects:
            return  # "Done.": the turn moved on
        following = await decide(bot, user, reply)
        if following is None:
            return
        reply = following
    raise AssertionError("one player's decisions did not end")


async def next_board(fake: FakeDiscord, seen: int) -> FakeMessage:
    await fake.wait_for(lambda: len(alley_boards(fake)) > seen, timeout=20, what="the next board")
    return alley_boards(fake)[-1]


async def play_to_the_end(
    bot: TrashTableBot, fake: FakeDiscord, players: dict[int, FakeUser], limit: int = 400
) -> FakeMessage:
    replies: dict[int, FakeMessage] = {}
    for _ in range(limit):
        board = alley_boards(fake)[-1]
        if "The game is over" in board.text:
            return board
        user_id = turn_user_id(board)
        assert user_id is not None, board.text
        seen = len(alley_boards(fake))
        await take_turn(bot, players[user_id], board, replies)
        await next_board(fake, seen)
        await fake.settle()  # let a board still on its way arrive before reading the newest
    raise AssertionError("the brawl did not end")
