"""How the capacity benchmark counts the bot's requests (bench/capacity_discord.py), on
requests made up here: no bot runs."""

from __future__ import annotations

from bench.capacity_discord import busiest, emptying
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.state import RequestRecord


def webhook(token: str, at: float, status: int = 200) -> RequestRecord:
    return RequestRecord("POST", f"/api/v10/webhooks/1/{token}", {}, status=status, started=at)


def callback(token: str, at: float) -> RequestRecord:
    return RequestRecord("POST", f"/api/v10/interactions/9/{token}/callback", {}, started=at)


def test_a_token_is_emptied_by_the_request_that_takes_its_bucket_s_last_slot() -> None:
    # Five on one token within its 2 s window: the fifth empties it. The callback has a
    # bucket of its own, another token is counted apart, and a 429 took no slot.
    records = [webhook("a", 0.1 * i) for i in range(4)]
    records += [callback("a", 0.45), webhook("b", 0.5), webhook("a", 0.55, status=429)]
    records += [webhook("a", 0.6), webhook("a", 0.7)]
    assert [e.record.started for e in emptying(records, RateLimits())] == [0.6]
    # The window closes 2 s after its first request: the next request, sent as it closes,
    # was held until then (at most from the answer that emptied it); five empty it again.
    later = [webhook("a", at) for at in (2.01, 2.1, 2.2, 2.3, 2.4)]
    records[-2].finished = 0.65
    found = emptying(records + later, RateLimits())
    assert [(e.record.started, e.held and e.held.started) for e in found] == [
        (0.6, 2.01),
        (2.4, None),
    ]
    assert round(found[0].held_at_most, 2) == 1.35  # from 0.65 to the reset at 2.0


def test_the_busiest_second_counts_requests_within_any_one_second() -> None:
    assert busiest([], 1.0) == 0
    assert busiest([0.0, 0.5, 0.99, 1.0, 1.2, 3.0], 1.0) == 4  # 0.5, 0.99, 1.0 and 1.2
