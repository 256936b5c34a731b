"""A finished game's final standings as lines of the last board's text: every seat best
first, with its points and its rating change on this server. Drawn from the standings the
game's last outbox entry keeps (`bot/ratings.Standing`), so a board delivered after a
restart shows the same figures."""

from __future__ import annotations

import re

from discord.utils import escape_markdown

from bot.ratings import Standing
from render.common.text import ordinal
from rules.words import counted

MEDALS = {0: "🥇", 1: "🥈", 2: "🥉"}  # by rank; lower places get their number


def place(rank: int) -> str:
    """A medal for the first three places, "4th" and on after them."""
    return MEDALS.get(rank, ordinal(rank + 1))


def rating_change(change: float) -> str:
    """A change as shown: "+1.4", "-0.8"; one that rounds to nothing is "±0.0", never "-0.0"."""
    shown = round(change, 1)
    return "±0.0" if shown == 0 else f"{shown:+.1f}"


def says_ai(standing: Standing) -> bool:
    """Whether the seat's name already says it is the AI's ("Rusty (AI)", "AI 9"), as the
    names the bot gives AI seats do: the mark is not said twice."""
    return bool(re.search(r"\bAI\b", standing["name"]))


def standings_lines(standings: list[Standing]) -> list[str]:
    """One line a seat: "🥇 **Ann** · 12 points · rating 27.4, +1.4". Points are left out of a
    game that keeps no score (every seat 0: Trash War, Dumpster Brawl! outside Rummy), and
    the rating of a seat that was not rated (the AI's, a seat handed to the AI, a game with
    fewer than two rated players)."""
    scored = any(s["points"] for s in standings)
    lines = ["**Final standings**"]
    for s in standings:
        name = escape_markdown(s["name"])
        name = f"**{name}**" if s["rank"] == 0 else name
        parts = [f"{place(s['rank'])} {name}" + (" (AI)" if s["ai"] and not says_ai(s) else "")]
        if scored:
            parts.append(counted(s["points"], "point"))
        if s["change"] is not None:
            after = s.get("rating")
            shown = f"{after:.1f}, " if after is not None else ""
            parts.append(f"rating {shown}{rating_change(s['change'])}")
        lines.append(" · ".join(parts))
    return lines
