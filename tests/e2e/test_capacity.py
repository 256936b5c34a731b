"""The capacity benchmark's machinery (bench/capacity.py) on a tiny load: two Trash War
tables with quick thinkers against a real `python -m bot` for a few seconds. It checks the
benchmark measures something (samples, presses, the bot's CPU, its requests to Discord),
never how fast."""

from __future__ import annotations

from bench.capacity import Setup, measure
from tests.postgres import Postgres


async def test_two_tables_give_press_to_result_samples_and_bot_cpu() -> None:
    step = await measure("trashwar", 2, seconds=6, warmup=1, seed=1, think_mean=0.3)
    assert not step.stalls
    assert step.results, "no press-to-result samples"
    assert step.boards, "no board-after-a-move samples"
    assert step.presses >= len(step.boards)  # every timed move was a counted press
    assert step.bot_cpu > 0  # the bot process's CPU, read from /proc
    assert step.cpu_ms_per_press > 0
    assert 0 < step.ceiling_left < step.ceiling  # the driver's own CPU leaves the bot less
    assert 0 < step.loop_cpu <= step.bot_cpu  # the event loop's thread is the bot's
    assert step.ceiling_loop > 0
    assert step.driver_lags  # the load driver's own lateness, sampled through the window
    use = step.discord  # what the bot asked of Discord, with Discord's rate limits on
    assert use is not None
    assert use.callbacks > 0 and use.webhooks > 0  # presses answered, boards on their tokens
    assert use.boards > 0 and use.turns > 0  # the channels' boards, the action log's turns
    assert step.decisions is None  # no --ai-level: the AI's decisions are not timed


async def test_with_an_ai_level_the_ai_seats_decisions_are_timed() -> None:
    """`--ai-level hard`: the tables' AI seats play hard, and each of their decisions in the
    window is timed from the bot's log. Rumble, whose turns go round the table, so the AI
    seat decides within a few seconds (a Trash War AI waits until someone attacks it)."""
    setup = Setup(ai_level="hard")
    step = await measure("rumble", 2, seconds=6, warmup=1, seed=1, think_mean=0.3, setup=setup)
    assert not step.stalls
    assert step.decisions and min(step.decisions) >= 0


async def test_two_shard_processes_on_one_postgresql_serve_their_own_guilds(
    postgres: Postgres,
) -> None:
    """`--shards 2`: a table in a guild of each shard, each answered by its own process (a
    table no process served would stall), and the database server's CPU counted."""
    setup = Setup(shards=2, postgres=postgres)
    step = await measure("trashwar", 2, seconds=6, warmup=1, seed=1, think_mean=0.3, setup=setup)
    assert not step.stalls
    assert step.results and step.boards
    assert 0 < step.db_cpu < step.bot_cpu  # the server's share is part of the press's cost
    assert step.processes == 2 and 0 < step.loop_cpu < step.bot_cpu
