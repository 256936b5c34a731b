"""Playing any of the games through the fake Discord without reading a word of it: controls
are found by their custom ids (`tt:act`, `tt:menu`, `tt:group`, `tt:hand`, Toss It's
`tt:toss`), and whose turn it is comes from the session service. For games in other
languages, where the English drivers of each game (`play.py`, `brawl_play.py`...) can't
find their labels.

People play with AI seats: whenever it is one's turn they press one of the controls
at random on the newest board, or in their newest private reply once one is open (Toss
It's Drop first, so that a piece falls)."""

from __future__ import annotations

import asyncio
import random

from bot.client import TrashTableBot
from bot.models import GameRecord, Status
from bot.requests import seat_of
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.state import BUTTON, SELECT_TYPES, Component

PLAYING = ("tt:act:", "tt:menu:", "tt:group:", "tt:hand:", "tt:toss:")


async def open_with_ai(
    bot: TrashTableBot, host: FakeUser, kind: str, ai: int, **options: object
) -> None:
    """`host` opens a lobby of `kind` (with `options`), adds `ai` normal AI seats and starts."""
    await host.slash(f"/{kind} new", **options)
    game = await current(bot, host.fake)
    assert game is not None and game.status == Status.LOBBY
    for seats in range(1, ai + 1):
        await host.select(f"tt:addai:{game.id}:{seats}", "1")  # the levels' second: normal
    await host.click(custom_id=f"tt:lobby:{game.id}:start")
    started = await current(bot, host.fake)
    assert started is not None and started.status == Status.PLAYING, "the game did not start"


async def current(bot: TrashTableBot, fake: FakeDiscord) -> GameRecord | None:
    return await bot.sessions.current(fake.channel.id)


def controls(message: FakeMessage, game: GameRecord) -> list[Component]:
    """The message's enabled controls that play `game` as it stands: made for its current
    step (a stale one would only be refused), or its "My hand" button (no step)."""
    found = []
    for c in message.all_components:
        words = (c.custom_id or "").split(":")
        if c.type not in (BUTTON, *SELECT_TYPES) or c.disabled or len(words) < 3:
            continue
        if f"{words[0]}:{words[1]}:" not in PLAYING or words[2] != str(game.id):
            continue
        if words[1] != "hand" and (len(words) < 4 or words[3] != str(game.step)):
            continue
        found.append(c)
    return found


async def press_one(
    user: FakeUser, message: FakeMessage, game: GameRecord, rng: random.Random
) -> None:
    found = controls(message, game)
    drops = [c for c in found if (c.custom_id or "").endswith(":drop")]
    control = drops[0] if drops else rng.choice(found)
    if control.type == BUTTON:
        await user.click(custom_id=control.custom_id, message=message, settle=False)
    else:
        option = rng.choice(control.options)
        which = control.custom_id or ""
        await user.select(which, option["value"], message=message, settle=False)


def shown(fake: FakeDiscord, user: FakeUser) -> int:
    """How many versions of private replies `user` has been shown."""
    return sum(len(m.history) + 1 for m in fake.messages() if m.ephemeral_to == user.id)


async def play_to_the_end(
    bot: TrashTableBot, user: FakeUser, rng: random.Random, limit: int = 1500
) -> GameRecord:
    """`user` plays their turns until the game is over (the AI seats play theirs); returns
    the finished game."""
    return await people_play_to_the_end(bot, [user], rng, limit)


async def people_play_to_the_end(
    bot: TrashTableBot, users: list[FakeUser], rng: random.Random, limit: int = 1500
) -> GameRecord:
    """`users` play their turns until the game is over, each whenever the game waits on
    them (the AI seats play theirs); returns the finished game."""
    fake = users[0].fake
    game = await current(bot, fake)
    assert game is not None and game.id is not None
    game_id = game.id
    for _ in range(limit):
        game = await current(bot, fake)
        if game is None:
            await fake.settle(timeout=60)  # the last answer and the final board, recap drawn
            finished = await bot.sessions.get(game_id)
            assert finished is not None
            return finished
        waiting = bot.sessions.humans_to_act(game)
        user = next((u for u in users if seat_of(game, u.id) in waiting), None)
        if user is None:
            await asyncio.sleep(0.05)  # the AI is playing: its boards are on their way
            continue
        mine = [m for m in fake.messages() if m.ephemeral_to == user.id and controls(m, game)]
        boards = [m for m in fake.messages() if not m.ephemeral and controls(m, game)]
        pressed = mine[-1] if mine else boards[-1] if boards else None
        if pressed is None:
            await asyncio.sleep(0.05)  # the board with the turn's controls is on its way
            continue
        seen = shown(fake, user)
        await press_one(user, pressed, game, rng)
        # What the press leads to: the next step, or a private reply shown or changed.
        for _ in range(400):
            moved = await current(bot, fake)
            if moved is None or moved.step != game.step or shown(fake, user) != seen:
                break
            await asyncio.sleep(0.05)
    raise AssertionError("the game did not end")
