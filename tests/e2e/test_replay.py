"""`/game replay` (issue 15, item 3): a finished game shown again, rebuilt from its seed and
action log; only public boards; refused for other rules. Its summary is an animated picture
of up to 20 boards (issue 38); the stepper's own test is tests/e2e/test_replay_stepper.py."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from sqlmodel import col, select

from bot.client import TrashTableBot
from bot.models import GameRecord, OutboxEntry
from bot.outbox import BOARD
from bot.replays import load_log, rebuild
from cogs.shared import replay as replay_cog
from rules.rumble import RUMBLE
from tests.e2e.conftest import Table
from tests.e2e.play import finished_rumble

MIB = 1024 * 1024


async def board_views(
    bot: TrashTableBot, game_id: int, recorded: dict[tuple[int, int], dict]
) -> list[dict]:
    """The public views of the boards the channel was shown, in the order the outbox kept
    them (each entry's step, and its view as `recorded_views` saw it written)."""
    async with bot.sessions.db.reading() as session:
        entries = await session.exec(
            select(OutboxEntry)
            .where(OutboxEntry.game_id == game_id, OutboxEntry.kind == BOARD)
            .order_by(col(OutboxEntry.id))
        )
        return [recorded[(game_id, entry.step)] for entry in entries.all()]


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_replay_shows_every_board_the_channel_saw_and_nothing_secret(
    bot, table: Table, fake_discord, recorded_views
):
    """Issue 15: the replay's frames are the game's public boards, one each, rebuilt from the
    seed and the action log; no frame holds anything only a seat's own view has."""
    game_id = await finished_rumble(bot, table, fake_discord)
    posted = await board_views(bot, game_id, recorded_views)

    _, log = await load_log(bot.sessions.db, fake_discord.guild.id, game_id)
    frames = rebuild(log)
    assert [frame.view for frame in frames] == posted  # exactly what the channel was shown
    # Checked against every seat's secrets: wherever a seat's own view differs from the
    # public one (its secret characters), the frame shows the public side.
    secrets_kept = 0
    state = RUMBLE.new_game(log.seats, log.options, log.seed)
    actions = iter(log.actions)
    for frame, step in zip(frames, log.shown, strict=True):
        while RUMBLE.step(state) < step:
            _, seat, action = next(actions)
            state = RUMBLE.apply(state, seat, action).state
        public = RUMBLE.observe(state, None)
        for seat in range(log.seats):
            own = RUMBLE.observe(state, seat)
            for key in own:
                if own[key] != public[key]:
                    assert frame.view[key] == public[key] != own[key], (step, seat, key)
                    secrets_kept += 1
    assert secrets_kept  # there were secrets to keep

    choices = await table.bob.autocomplete("/game replay", "game", "rumble")
    assert [choice["value"] for choice in choices] == [game_id]
    # The public lines the stepper shows are the engine's own (`to` None) for the actions
    # since the board before: Rumble has no private lines, the other games' are checked in
    # tests/bot/test_replay_lines.py.
    assert sum(len(frame.lines) for frame in frames) >= len(log.actions)

    # The summary draws up to 20 boards: seconds of CPU, more on a busy machine.
    replay = await table.bob.slash("/game replay", game=game_id)
    (message,) = await summary_of(fake_discord, replay)
    assert f"Replay of Rumble in the Dungeon #{game_id}" in message.text
    ((filename, data),) = message.files
    assert filename == f"replay-{game_id}.gif"
    animation = Image.open(io.BytesIO(data))
    assert animation.format == "GIF"
    shown = min(len(posted), replay_cog.SUMMARY_BOARDS)
    assert animation.n_frames == shown
    assert f"A summary in {shown} of its {len(posted)} boards" in message.text


async def summary_of(fake_discord, replay) -> list:
    """The channel's summary: the public followup after the asker's private stepper (the
    animation takes seconds to make)."""
    return list(
        await fake_discord.wait_for(lambda: replay.followups, timeout=120, what="the summary")
    )


@pytest.fixture
def boosted(fake_discord) -> None:
    """The guild at boost tier 2 (50 MiB a file), before the bot connects and reads it."""
    fake_discord.guild.premium_tier = 2


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_the_replay_follows_the_guilds_upload_limit(
    boosted, bot, table: Table, fake_discord, monkeypatch
):
    """The GIF's budget is taken from the guild's upload limit: a boosted guild's is five
    times an unboosted one's; under a small limit the replay keeps fewer boards, the first
    and the last among them, and the fake (which refuses a file over the guild's limit,
    413) takes it."""
    budgets: list[int] = []

    job = replay_cog.replay_animation

    def recorded(log, names, budget, title):  # the worker job (WORKERS=0: in a thread)
        budgets.append(budget)
        return job(log, names, budget, title)

    monkeypatch.setattr(replay_cog, "replay_animation", recorded)
    game_id = await finished_rumble(bot, table, fake_discord)
    whole = await table.bob.slash("/game replay", game=game_id)
    (summary,) = await summary_of(fake_discord, whole)
    assert budgets == [replay_cog.replay_budget(50 * MIB)]
    assert replay_cog.replay_budget(50 * MIB) > 5 * replay_cog.replay_budget(10 * MIB) - MIB
    ((_, data),) = summary.files
    kept = Image.open(io.BytesIO(data)).n_frames
    assert kept == replay_cog.SUMMARY_BOARDS and f"in {kept} of its" in summary.text

    fake_discord.guild.upload_limit = limit = max(len(data) // 2, 200_000)
    small = await table.bob.slash("/game replay", game=game_id)
    (fitted_summary,) = await summary_of(fake_discord, small)
    assert budgets[-1] == replay_cog.replay_budget(limit)
    ((_, fitted),) = fitted_summary.files
    assert len(fitted) <= budgets[-1]
    frames = Image.open(io.BytesIO(fitted)).n_frames
    assert 2 <= frames < kept and f"in {frames} of its" in fitted_summary.text
    assert not fake_discord.pop_violations()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_replays_are_refused_for_other_rules_and_unfinished_games(
    bot, table: Table, fake_discord
):
    """Issue 15: a game played under other rules is refused with a reason, not shown wrong;
    so is a game whose log no longer plays back into its saved end; only finished games of
    this server replay."""
    game_id = await finished_rumble(bot, table, fake_discord)

    async def change(**values: object) -> None:
        async with bot.sessions.db.transaction() as session:
            game = await session.get(GameRecord, game_id)
            assert game is not None
            for name, value in values.items():
                setattr(game, name, value)
            session.add(game)

    await change(rules_version=RUMBLE.rules_version + 1)
    refused = await table.bob.slash("/game replay", game=game_id)
    assert "older rules" in refused.ephemeral_text and not refused.public

    # A game from before versions were kept, whose saved end the log does not reach.
    game = await bot.sessions.get(game_id)
    assert game is not None and game.state is not None
    await change(rules_version=None, state={**game.state, "step": game.state["step"] + 1})
    refused = await table.bob.slash("/game replay", game=game_id)
    assert "older rules" in refused.ephemeral_text and not refused.files and not refused.public

    missing = await table.bob.slash("/game replay", game=game_id + 100)
    assert "no game" in missing.ephemeral_text
    await table.alice.slash("/rumble new", seed=1)
    lobby = await bot.sessions.current(fake_discord.channel.id)
    assert lobby is not None
    unfinished = await table.bob.slash("/game replay", game=lobby.id)
    assert "has not finished" in unfinished.ephemeral_text
