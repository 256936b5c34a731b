"""How the capacity benchmark (bench/capacity.py) walks its curve, with a stand-in for
`measure` whose p95 crosses the target at a set number of games: no bot runs."""

from __future__ import annotations

import pytest

from bench import capacity
from bench.capacity import TARGET_P95_MS, Step, curve


def step_of(channels: int, p95: float) -> Step:
    return Step(
        channels=channels,
        seconds=10,
        processes=1,
        presses=100,
        results=[p95],
        boards=[],
        bot_cpu=1.0,
        db_cpu=0.0,
        loop_cpu=0.5,
        driver_lags=[],
        bench_cpu=1.0,
        bot_waited=0.0,
        loop_waited=0.0,
        late=[],
        held=[],
        causes=[],
        stacks_log="",
        stalls=[],
        failed=0,
        load=0.0,
    )


def knee_at(monkeypatch: pytest.MonkeyPatch, knee: int) -> list[int]:
    """Steps up to `knee` games pass the target, beyond it fail; returns the Ns measured."""
    measured: list[int] = []

    async def measure(kind: str, channels: int, *_args: object) -> Step:
        measured.append(channels)
        return step_of(channels, TARGET_P95_MS / 2 if channels <= knee else TARGET_P95_MS * 2)

    monkeypatch.setattr(capacity, "measure", measure)
    return measured


async def test_the_gap_after_the_last_passing_step_is_halved_down_to_refine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    measured = knee_at(monkeypatch, 530)
    lines: list[str] = []
    steps = await curve(
        "trashwar", [400, 450, 500, 600], 10, 1, 1, 4, refine=25, report=lines.append
    )
    # 600 failed after 500 passed: 550 (fails), then 525 (passes), and 525 to 550 is refine.
    assert measured == [400, 450, 500, 600, 550, 525]
    assert [s.channels for s in steps] == [400, 450, 500, 525, 550, 600]
    assert "capacity 525 games" in lines[-1]


async def test_no_refining_without_a_pass_below_the_failure_or_with_refine_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    measured = knee_at(monkeypatch, 10)
    await curve("trashwar", [100, 200], 10, 1, 1, 4, refine=25, report=lambda _: None)
    assert measured == [100]
    measured = knee_at(monkeypatch, 530)
    await curve("trashwar", [500, 600], 10, 1, 1, 4, refine=0, report=lambda _: None)
    assert measured == [500, 600]
