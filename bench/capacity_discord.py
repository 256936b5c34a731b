"""What the capacity benchmark's bot asked of Discord (`bench/capacity.py`), from what the
fake Discord recorded: its requests on the bot token (the 50 a second every process of the
bot shares) and on the presses' interaction tokens (outside that limit), the 429s it met by
scope, the interaction tokens it emptied (discord.py then holds that token's next request
until the bucket resets), and the messages it put in the channels."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.state import Channel, RequestRecord

# An interaction's callback, and its token's webhook (followups, `@original`): Discord
# counts neither against the bot token's global limit (bot/ratelimits.py).
CALLBACK = re.compile(r"/interactions/(\d+)/([^/]+)/callback$")
WEBHOOK = re.compile(r"/webhooks/\d+/([^/]+)")
NUMBER = re.compile(r"/\d{5,}")
LOBBY_BUTTON = "Join"
OVER = "The game is over"
# A turn is a run of actions by one seat in the action log (an AI seat's too).
TURNS_SQL = (
    "SELECT count(*) FROM (SELECT seat, lag(seat) OVER (PARTITION BY game_id ORDER BY step, id)"
    " AS before FROM actions) AS runs WHERE before IS NULL OR before <> seat"
)


@dataclass
class DiscordUse:
    """A window's requests and 429s, and the run's channel messages."""

    seconds: float
    presses: int
    bot_token: int = 0  # requests on the bot token (under the global limit)
    busiest_second: int = 0  # the most of them within any one second
    callbacks: int = 0  # interaction callbacks
    webhooks: int = 0  # requests on a press's token: followups, `@original` edits and reads
    token_emptied: int = 0  # interaction-token requests that left their token's bucket empty
    held: list[float] = field(default_factory=list)  # at most how long (ms) the next was held
    limited: Counter[str] = field(default_factory=Counter)  # 429s in the window, by scope
    limited_outside: Counter[str] = field(default_factory=Counter)  # and before or after it
    bot_routes: Counter[str] = field(default_factory=Counter)  # bot-token requests by route
    boards: int = 0  # the run's board messages in the channels
    turns: int = 0  # the run's turns, from the action log
    games_finished: int = 0  # games played from lobby to final standings in the run
    game_messages: int = 0  # the public messages of those games, lobby and boards

    @property
    def bot_token_per_second(self) -> float:
        return self.bot_token / self.seconds

    @property
    def bot_token_per_press(self) -> float:
        return self.bot_token / max(1, self.presses)

    @property
    def interaction_per_press(self) -> float:
        return (self.callbacks + self.webhooks) / max(1, self.presses)

    @property
    def boards_per_turn(self) -> float:
        return self.boards / self.turns if self.turns else float("nan")

    @property
    def messages_per_game(self) -> float:
        return self.game_messages / self.games_finished if self.games_finished else float("nan")

    def scopes(self) -> str:
        """429s by scope, `user 3 global 1`, or `0`."""
        return " ".join(f"{scope} {n}" for scope, n in sorted(self.limited.items())) or "0"


def requests_in(fake: FakeDiscord, window: tuple[float, float], use: DiscordUse) -> None:
    """Count the window's requests (by when the fake received them) and 429s into `use`."""
    start, end = window
    bot_token_at = []
    for record in fake.state.requests:
        inside = start <= record.started < end
        if CALLBACK.search(record.path):
            use.callbacks += inside
        elif WEBHOOK.search(record.path):
            use.webhooks += inside
        elif inside:
            bot_token_at.append(record.started)
            use.bot_routes[f"{record.method} {NUMBER.sub('/#', path_of(record))}"] += 1
    use.bot_token = len(bot_token_at)
    use.busiest_second = busiest(bot_token_at, 1.0)
    limits = fake.rate_limiter.limits or RateLimits()
    for empty in emptying(fake.state.requests, limits):
        if start <= empty.record.started < end:
            use.token_emptied += 1
            if empty.held is not None:
                use.held.append(empty.held_at_most * 1000)
    for hit in fake.rate_limited:
        (use.limited if start <= hit.at < end else use.limited_outside)[hit.scope] += 1


def path_of(record: RequestRecord) -> str:
    """The request's path under the API's version (`/channels/1/messages`)."""
    return re.sub(r"^.*/api/v\d+", "", record.path)


def busiest(times: list[float], span: float) -> int:
    """The most of `times` within any `span` seconds."""
    times, most, first = sorted(times), 0, 0
    for last, at in enumerate(times):
        while at - times[first] >= span:
            first += 1
        most = max(most, last - first + 1)
    return most


@dataclass(eq=False)
class Emptied:
    """A request on an interaction's token that took the last of its bucket, and the next
    one on that token if it came as the bucket reset: discord.py's webhook adapter held it
    until then, at most from the answer that emptied the bucket (`held_at_most`)."""

    record: RequestRecord
    resets: float
    held: RequestRecord | None = None

    @property
    def held_at_most(self) -> float:
        return self.resets - (self.record.finished or self.record.started) if self.held else 0.0


HELD_WITHIN = 0.05  # seconds after a bucket's reset a request counts as held until it


def emptying(records: Iterable[RequestRecord], limits: RateLimits) -> list[Emptied]:
    """The requests on an interaction's token that took the last of its bucket (as the fake
    counts: a window opens at the first request and closes its seconds later), each with
    the request discord.py held for it, if any."""
    windows: dict[tuple[str, str], tuple[int, float]] = {}  # (bucket, token): used, resets
    last: dict[tuple[str, str], Emptied] = {}  # the token's bucket last emptied
    emptied = []
    for record in sorted(records, key=lambda r: r.started):
        if record.status == 429:
            continue
        if found := CALLBACK.search(record.path):
            key, limit = ("callback", found[2]), limits.interaction_callback
        elif found := WEBHOOK.search(record.path):
            key, limit = ("webhook", found[1]), limits.webhook
        else:
            continue
        used, resets = windows.get(key, (0, 0.0))
        if record.started >= resets:
            before = last.pop(key, None)
            if before is not None and record.started - before.resets < HELD_WITHIN:
                before.held = record
            used, resets = 0, record.started + limit.seconds
        used += 1
        windows[key] = (used, resets)
        if used == limit.requests:
            last[key] = Emptied(record, resets)
            emptied.append(last[key])
    return emptied


def messages_in(
    fake: FakeDiscord,
    channels: Iterable[Channel],
    is_board: Callable[[FakeMessage], bool],
    use: DiscordUse,
) -> None:
    """Count the run's boards, and the messages of each game played from its lobby to its
    final standings (public messages only: a player's private replies are not the
    channel's)."""
    for channel in channels:
        lobby_at: int | None = None
        count = 0
        for message in fake.messages(channel):
            if message.ephemeral:
                continue
            if is_lobby(message):
                lobby_at, count = message.id, 0
            count += 1
            if is_board(message):
                use.boards += 1
                if lobby_at is not None and OVER in message.text:
                    use.games_finished += 1
                    use.game_messages += count
                    lobby_at = None


def is_lobby(message: FakeMessage) -> bool:
    """A lobby: its first version had a Join button."""
    first = message.versions[0] if message.versions else {}
    return LOBBY_BUTTON in str(first.get("components"))


def turns_in_sqlite(path: str) -> int:
    """The turns played in a SQLite database file."""
    with sqlite3.connect(path) as connection:
        (turns,) = connection.execute(TURNS_SQL).fetchone()
    return int(turns)
