"""The replay stepper (issue 38, item 6): `/game replay` gives its asker a private message
with one board of a finished game, what happened there, and buttons to step a board back or
on, to the turns' starts and through a menu of turns; the channel gets the short animated
summary, whose button opens a stepper for anyone. The buttons work after a restart; a
forged or stale one is refused with a short reason."""

from __future__ import annotations

import time

import pytest

from bot.models import GameRecord
from bot.replays import load_log, rebuild, turn_starts
from cogs.shared import stepper as stepper_cog
from cogs.shared.components import PICK_ONE
from cogs.shared.interactions import STALE_CONTROL
from rules.phrases import english
from tests.e2e.conftest import Table
from tests.e2e.play import finished_rumble
from tests.fakediscord import FakeMessage, InteractionResult, running_bot

BACK, NEXT, TURN_BACK, TURN_NEXT = "◀ Back", "Next ▶", "⏮ Turn", "Turn ⏭"
TURNS = "Jump to a turn…"


def at(message: FakeMessage) -> int:
    """The board a stepper message shows, from 1 ("board 5 of 40")."""
    return int(message.text.split("· board ", 1)[1].split(" ", 1)[0])


def disabled(message: FakeMessage) -> set[str]:
    return {b.label or "" for b in message.buttons if b.disabled}


def refusal(result: InteractionResult) -> str:
    """The short private reason a refused press got, and nothing else."""
    assert result.acknowledged and not result.failed, result
    assert result.public == [] and result.edited == [], result
    (reply,) = result.ephemeral
    assert reply.text and len(reply.text) < 200, reply.text
    return reply.text


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_the_replay_steps_through_every_board_also_after_a_restart(
    fake_discord, table: Table, make_bot
):
    async with running_bot(fake_discord, make_bot()) as bot:
        game_id = await finished_rumble(bot, table, fake_discord)
        game, log = await load_log(bot.sessions.db, fake_discord.guild.id, game_id)
        frames = rebuild(log)
        starts, last = turn_starts(frames), len(frames)
        names = {f"p{seat}": seat_.shown_name() for seat, seat_ in enumerate(game.seats)}

        def lines_of(board: int) -> list[str]:  # what happened, as the stepper says it
            return [english(line).format_map(names) for line in frames[board - 1].lines]

        replay = await table.bob.slash("/game replay", game=game_id)
        stepper = replay.response
        assert stepper is not None and stepper.ephemeral_to == table.bob.id
        assert f"Replay of Rumble in the Dungeon #{game_id}** · board 1 of {last}" in stepper.text
        assert f"turn 1 of {len(starts)}" in stepper.text
        assert [f for f, _ in stepper.files] == ["dungeon.png"]
        # The first board leads nowhere back.
        assert disabled(stepper) == {BACK, TURN_BACK}

        # ▶ and ◀ edit the same private message, each board with its own lines.
        pressed = time.perf_counter()
        await table.bob.press(stepper, NEXT)
        step_seconds = time.perf_counter() - pressed
        assert at(stepper) == 2 and lines_of(2)
        assert all(f"• {line}" in stepper.text for line in lines_of(2))
        await table.bob.press(stepper, NEXT)
        await table.bob.press(stepper, BACK)
        assert at(stepper) == 2
        # ⏭ to the next turn's start (a turn is a board message: a person's turn, with
        # the AI's after it); ⏮ back to the start of the turn, then the one before.
        turn = next(n for n, start in enumerate(starts) if start >= 2)
        await table.bob.press(stepper, TURN_NEXT)
        assert at(stepper) == starts[turn] + 1
        assert f"turn {turn + 1} of {len(starts)}" in stepper.text
        await table.bob.press(stepper, TURN_BACK)
        assert at(stepper) == starts[turn - 1] + 1
        # The menu of turns (the 25 around this one) jumps to any of them; ⏭ from the last
        # turn's start goes to the last board.
        while (value := int(stepper.selects[0].options[-1]["value"])) > at(stepper) - 1:
            await table.bob.select(TURNS, str(value), message=stepper)
            assert at(stepper) == value + 1
        assert at(stepper) == starts[-1] + 1
        assert f"turn {len(starts)} of {len(starts)}" in stepper.text
        if starts[-1] + 1 < last:
            await table.bob.press(stepper, TURN_NEXT)
        assert at(stepper) == last and "final:" in stepper.text
        assert disabled(stepper) == {NEXT, TURN_NEXT}  # the last board leads nowhere on
        assert [f for f, _ in stepper.files] == ["dungeon.png", "reveal.png"]
        assert all(f"• {line}" in stepper.text for line in lines_of(last))

        # The channel's summary: the animation, captioned, and a stepper for anyone.
        (summary,) = await fake_discord.wait_for(
            lambda: replay.followups, timeout=120, what="the summary"
        )
        assert summary.ephemeral_to is None
        assert f"A summary in 20 of its {last} boards" in summary.text
        assert [f for f, _ in summary.files] == [f"replay-{game_id}.gif"]
        opened = await table.carol.press(summary, "Step through it")
        (own,) = opened.ephemeral
        assert own.ephemeral_to == table.carol.id and at(own) == 1 and at(stepper) == last

        # Forged and stale ids: a board the game has not, a game that is not there, a menu
        # value the menu does not offer, a game whose rules changed since.
        for custom_id, reason in [
            (f"tt:replay:{game_id}:{last}:next", f"has no board {last + 1}: it has {last}"),
            (f"tt:replay:{game_id + 100}:0:next", f"There is no game #{game_id + 100}"),
        ]:
            assert reason in refusal(await table.bob.forge(stepper, custom_id)), custom_id
        for custom_id in [f"tt:replay:{game_id}:٨:next", f"tt:replay:{game_id}:1:jump"]:
            assert refusal(await table.bob.forge(stepper, custom_id)) == str(STALE_CONTROL)
        offered = {option["value"] for option in stepper.selects[0].options}
        assert "0" not in offered  # the menu holds the turns around the last
        forged = await table.bob.forge(stepper, f"tt:replayturn:{game_id}", "0")
        assert refusal(forged) == str(PICK_ONE)

    # A new process on the same database (which has rebuilt no game yet): the buttons
    # posted before still step.
    stepper_cog._rebuilt.clear()
    async with running_bot(fake_discord, make_bot()) as second:
        pressed = time.perf_counter()
        await table.bob.press(stepper, BACK)
        restarted_seconds = time.perf_counter() - pressed
        assert at(stepper) == last - 1
        async with second.sessions.db.transaction() as session:
            row = await session.get(GameRecord, game_id)
            assert row is not None
            row.rules_version = (row.rules_version or 0) + 1
            session.add(row)
        assert "older rules" in refusal(await table.bob.press(stepper, BACK))
    print(f"a step: {step_seconds:.2f} s, after the restart {restarted_seconds:.2f} s")
