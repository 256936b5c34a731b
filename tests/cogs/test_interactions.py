"""Finding a pressed control on its message (`claimed`, which decides whether a press gets the
stale-control reason) reads every component, however deeply it is nested; and a press is
deferred only when its reply is not ready in time (`in_time`)."""

from __future__ import annotations

import asyncio
import datetime as dt
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.components import _component_factory

from bot.requests import UserError
from cogs.shared import interactions
from cogs.shared.interactions import in_time, walk_components

BUTTON, SELECT, ROW, SECTION, TEXT, CONTAINER = 2, 3, 1, 9, 10, 17


def button(custom_id: str) -> dict[str, Any]:
    return {"type": BUTTON, "style": 1, "label": custom_id, "custom_id": custom_id}


# A board as the bot posts it with layout components: text and buttons in a container,
# a button beside text in a section, and a row of its own under the container.
BOARD: list[dict[str, Any]] = [
    {
        "type": CONTAINER,
        "components": [
            {"type": TEXT, "content": "Turn 3"},
            {"type": ROW, "components": [button("tt:act:1:0"), button("tt:act:1:1")]},
            {
                "type": SECTION,
                "components": [{"type": TEXT, "content": "Your move"}],
                "accessory": button("tt:hand:1"),
            },
        ],
    },
    {
        "type": ROW,
        "components": [
            {"type": SELECT, "custom_id": "tt:pick:1", "options": [{"label": "x", "value": "0"}]}
        ],
    },
]


def test_every_nested_control_is_found() -> None:
    components = [_component_factory(data) for data in BOARD]
    found = {getattr(c, "custom_id", None) for c in walk_components(c for c in components if c)}
    assert {"tt:act:1:0", "tt:act:1:1", "tt:hand:1", "tt:pick:1"} <= found


# ---------------------------------------------------------------------- answering in time


class Response:
    """The part of discord.py's `InteractionResponse` that `in_time` uses."""

    def __init__(self, deferred: asyncio.Event | None = None) -> None:
        self.deferrals: list[dict[str, Any]] = []
        self._deferred = deferred

    def is_done(self) -> bool:
        return bool(self.deferrals)

    async def defer(self, **kwargs: Any) -> None:
        self.deferrals.append(kwargs)
        if self._deferred is not None:
            self._deferred.set()


def press(age_seconds: float = 0.0, deferred: asyncio.Event | None = None) -> Any:
    made = discord.utils.utcnow() - dt.timedelta(seconds=age_seconds)
    return SimpleNamespace(id=1, created_at=made, response=Response(deferred))


async def test_work_done_in_time_is_not_deferred() -> None:
    """A reply ready within QUICK_SECONDS is the press's answer: no deferral is sent."""
    interaction = press()
    assert await in_time(interaction, asyncio.sleep(0, "reply"), in_place=True) == "reply"
    assert interaction.response.deferrals == []


@pytest.mark.parametrize(
    ("in_place", "deferral"), [(True, {}), (False, {"ephemeral": True, "thinking": True})]
)
async def test_work_that_outlasts_the_window_is_deferred_and_still_answered(
    monkeypatch: pytest.MonkeyPatch, in_place: bool, deferral: dict[str, Any]
) -> None:
    """Work still running at the end of the window gets the press deferred (an update of
    the reply pressed in, or a new private "thinking" reply), and its reply still comes:
    here the work can only finish once the deferral has been sent."""
    monkeypatch.setattr(interactions, "QUICK_SECONDS", 0.01)
    deferred = asyncio.Event()
    interaction = press(deferred=deferred)

    async def work() -> str:
        await deferred.wait()
        return "reply"

    answer = await asyncio.wait_for(in_time(interaction, work(), in_place=in_place), 10)
    assert answer == "reply" and interaction.response.deferrals == [deferral]


async def test_a_press_delivered_late_is_deferred_at_once() -> None:
    """The window runs from when Discord made the press: one that reached the bot a second
    late is deferred before any of its work is done."""
    interaction = press(age_seconds=5)
    assert await in_time(interaction, asyncio.sleep(0, "reply"), in_place=True) == "reply"
    assert interaction.response.deferrals == [{}]


async def test_a_refusal_in_time_is_the_answer() -> None:
    """A refusal raised within the window reaches the caller unanswered, to be sent as the
    press's own answer (`refuse`)."""
    interaction = press()

    async def work() -> None:
        raise UserError("It is not your turn.")

    with pytest.raises(UserError):
        await in_time(interaction, work(), in_place=True)
    assert interaction.response.deferrals == []


class SlowResponse:
    """An `InteractionResponse` whose answer takes a while to reach Discord and, as in
    discord.py, counts as sent only once its request has returned."""

    def __init__(self, sending: asyncio.Event, release: asyncio.Event) -> None:
        self.callbacks: list[str] = []
        self._sent = False
        self._sending, self._release = sending, release

    def is_done(self) -> bool:
        return self._sent

    async def edit_message(self, **_: Any) -> None:
        self.callbacks.append("edit")
        self._sending.set()
        await self._release.wait()
        self._sent = True

    async def defer(self, **_: Any) -> None:
        self.callbacks.append("defer")
        self._sent = True


async def test_the_net_never_defers_a_press_whose_answer_is_on_its_way() -> None:
    """Discord takes one callback a press: a net reaching its deadline while the press's
    own answer is still being sent waits for it, and then does not defer."""
    sending, release = asyncio.Event(), asyncio.Event()
    # Discord's clock a minute ahead of ours: the net's window is then exactly `by` from
    # when it starts, so a slow machine cannot let the deadline pass before the answer.
    made = discord.utils.utcnow() + dt.timedelta(minutes=1)
    interaction: Any = SimpleNamespace(
        id=7, created_at=made, response=SlowResponse(sending, release)
    )

    async def work() -> None:
        await interactions.edit_pressed(interaction, content="Done.")

    async def deadline_passes_mid_answer() -> None:
        await sending.wait()
        await asyncio.sleep(0.05)  # past the net's deadline below, the answer still going
        release.set()

    releasing = asyncio.create_task(deadline_passes_mid_answer())
    await asyncio.wait_for(in_time(interaction, work(), in_place=True, by=0.01), 10)
    await releasing
    assert interaction.response.callbacks == ["edit"]
