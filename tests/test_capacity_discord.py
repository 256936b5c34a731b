"""How the capacity benchmark counts the bot's requests (tests/capacity_discord.py), on
requests made up here: no bot runs."""

from __future__ import annotations

from tests.capacity_discord import busiest, emptying
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
    assert [r.started for r in emptying(records, RateLimits())] == [0.6]
    # The window closes 2 s after its first request: five more then empty it again.
    later = [webhook("a", 2.0 + 0.1 * i) for i in range(5)]
    assert [r.started for r in emptying(records + later, RateLimits())] == [0.6, 2.4]


def test_the_busiest_second_counts_requests_within_any_one_second() -> None:
    assert busiest([], 1.0) == 0
    assert busiest([0.0, 0.5, 0.99, 1.0, 1.2, 3.0], 1.0) == 4  # 0.5, 0.99, 1.0 and 1.2
