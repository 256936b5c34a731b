"""A restore that plays on (issue 57): a backup taken several moves before the bot stops,
put back in the database's place, takes the game back to the backup's step. With `make
restore`'s code (bot/backups.py) the next start takes the boards of the steps lost off and
posts a fresh board before anyone presses; put back by hand, the first press on a stale
board is told the way forward and brings the fresh board. Either way the game goes on."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot import backups
from bot.client import TrashTableBot
from bot.models import GameRecord
from tests.e2e.conftest import Table, bot_settings
from tests.e2e.play import PLAY_IDS, against_the_ai, boards, latest_board, turns_of
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionResult, running_bot
from tests.postgres import Postgres


def control_steps(board: FakeMessage) -> set[int]:
    """The steps a board's play controls were made at (`tt:act:<game>:<step>:...`)."""
    controls = [*board.buttons, *board.selects]
    ids = [c.custom_id or "" for c in controls]
    return {int(i.split(":")[3]) for i in ids if i.startswith(PLAY_IDS)}


async def press_a_play_control(user: FakeUser, board: FakeMessage) -> InteractionResult:
    """The board's first play control: its first menu's first option, or its first button."""
    for select in board.selects:
        if (select.custom_id or "").startswith(PLAY_IDS):
            return await user.select(
                select.custom_id or "", select.options[0]["value"], message=board
            )
    button = next(b for b in board.buttons if (b.custom_id or "").startswith(PLAY_IDS))
    return await user.click(custom_id=button.custom_id, message=board)


@dataclass
class Played:
    """A game played past a backup: the database's URL and the backup, the game as the
    backup holds it and as it stood at the stop, and the boards shown by then."""

    url: str
    dump: Path
    pg_bin: str | None
    saved: GameRecord
    lost: GameRecord
    kept: set[int]
    rng: random.Random  # the test's moves go on from the same random sequence


@pytest.fixture(params=["sqlite", "postgresql"])
async def played(
    fake_discord: FakeDiscord, table: Table, tmp_path: Path, request: pytest.FixtureRequest
) -> Played:
    fake, alice, rng = fake_discord, table.alice, random.Random(3)
    pg_bin = None
    if request.param == "sqlite":
        url, dump = f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "backup.db"
    else:
        server: Postgres = request.getfixturevalue("postgres")
        url, dump = server.create_database(), tmp_path / "backup.dump"
        pg_bin = str(Path(server.tool("pg_dump")).parent)
    first = TrashTableBot(bot_settings(fake, url), guild_ready_timeout=0.1)
    async with running_bot(fake, first):
        await against_the_ai(alice, seed=7)
        await turns_of(alice, rng, 1)
        await fake.settle()
        saved = await first.sessions.current(fake.channel.id)
        assert saved is not None
        await asyncio.to_thread(backups.backup, first.settings.database_url, dump, pg_bin)
        await turns_of(alice, rng, 3)  # the moves the restore loses
        await fake.settle()
        lost = await first.sessions.current(fake.channel.id)
        assert lost is not None and lost.step > saved.step + 2, "moves made after the backup"
        kept = {board.id for board in boards(fake)}
    return Played(url, dump, pg_bin, saved, lost, kept, rng)


async def test_a_restore_by_hand_is_redrawn_at_the_first_press_and_plays_on(
    fake_discord: FakeDiscord, table: Table, played: Played
) -> None:
    fake, alice, saved, lost, kept = (
        fake_discord,
        table.alice,
        played.saved,
        played.lost,
        played.kept,
    )
    # Put back by hand: no marks, so the press-time check is all there is.
    await asyncio.to_thread(backups.put_back, played.url, played.dump, played.pg_bin)

    second = TrashTableBot(bot_settings(fake, played.url), guild_ready_timeout=0.1)
    async with running_bot(fake, second):
        restored = await second.sessions.current(fake.channel.id)
        assert restored is not None and (restored.id, restored.step) == (saved.id, saved.step)
        stale = latest_board(fake)
        assert control_steps(stale) == {lost.step}, "the newest board shows a lost step"
        # A press on it: refused with the way forward, and a fresh board comes.
        pressed = await press_a_play_control(alice, stale)
        assert f"went back to step {saved.step}" in pressed.ephemeral_text, pressed
        await fake.wait_for(
            lambda: latest_board(fake).id not in kept, timeout=20, what="a fresh board"
        )
        await plays_on_from_a_fresh_board(fake, alice, second, played)


async def test_make_restore_redraws_at_start_up_before_any_press(
    fake_discord: FakeDiscord, table: Table, played: Played
) -> None:
    fake, alice, kept = fake_discord, table.alice, played.kept
    await asyncio.to_thread(backups.restore, played.url, played.dump, played.pg_bin)

    second = TrashTableBot(bot_settings(fake, played.url), guild_ready_timeout=0.1)
    async with running_bot(fake, second):
        # Nobody presses: the start itself shows the fresh board.
        await fake.wait_for(
            lambda: latest_board(fake).id not in kept, timeout=20, what="a fresh board"
        )
        # The first press is on the board the restore put back, which would otherwise
        # have moved the game on and left the lost steps' boards their controls: it has
        # none left, so the press goes to the fresh board of the same step.
        await plays_on_from_a_fresh_board(fake, alice, second, played)
    # Redrawn once: the next start finds no marks and posts nothing.
    shown = len(boards(fake))
    third = TrashTableBot(bot_settings(fake, played.url), guild_ready_timeout=0.1)
    async with running_bot(fake, third):
        await fake.settle()
        assert len(boards(fake)) == shown, fake.transcript()


async def plays_on_from_a_fresh_board(
    fake: FakeDiscord, alice: FakeUser, bot: TrashTableBot, played: Played
) -> None:
    saved = played.saved
    await fake.settle()
    fresh = latest_board(fake)
    assert control_steps(fresh) == {saved.step}, fake.transcript()
    assert "A backup was restored" in fresh.text
    # The boards of the steps lost (and the board put back) have no controls left, or
    # are gone: nothing to press that means another move once the game reaches those
    # steps again.
    for board in boards(fake):
        assert board.id == fresh.id or not control_steps(board), fake.transcript()
    # And the game plays on from the restored step, on the new board's controls.
    await turns_of(alice, played.rng, 3)
    await fake.settle()
    later = await bot.sessions.current(fake.channel.id)
    assert later is None or later.step > saved.step + 2, "the game went on"
