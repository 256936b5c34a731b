"""A finished game's final standings as lines of the last board's text: every seat best
first, with its points and its rating change on this server. Drawn from the standings the
game's last outbox entry keeps (`Standing`, bot/ratings.py), so a board delivered after a
restart shows the same figures."""

from __future__ import annotations

import re
from collections.abc import Sequence

from discord.utils import escape_markdown

from bot.ratings import Standing
from lang import ENGLISH, say
from rules.phrases import Phrase, phrase, phrase_in, phrase_n

MEDALS = {0: "🥇", 1: "🥈", 2: "🥉"}  # by rank; lower places get their number


def place(rank: int) -> Phrase | str:
    """A medal for the first three places, "4th" and on after them (a table seats far
    fewer than 21, so English's "th" is always right)."""
    return MEDALS.get(rank) or phrase_in("place", "{n}th", n=rank + 1)


def rating_change(change: float) -> str:
    """A change as shown: "+1.4", "-0.8"; one that rounds to nothing is "±0.0", never "-0.0"."""
    shown = round(change, 1)
    return "±0.0" if shown == 0 else f"{shown:+.1f}"


def says_ai(name: str) -> bool:
    """Whether the seat's name already says it is the AI's ("Rusty (AI)", "AI 9", "Rusty
    (IA, normale)"), as the names the bot gives AI seats do: the mark is not said twice."""
    return bool(re.search(r"\b(AI|IA|KI)\b", name))


def points(n: int) -> Phrase:
    return phrase_n("{n} point", "{n} points", n)


def standings_lines(
    standings: list[Standing], language: str = ENGLISH, names: Sequence[str] | None = None
) -> list[str]:
    """One line a seat: "🥇 **Ann** · 12 points · rating 27.4, +1.4", in `language`, each
    seat named as `names` (the board's) names it, else as its standing kept it. Points are
    left out of a game that keeps no score (every seat 0: Trash War, Dumpster Brawl!
    outside Rummy), and the rating of a seat that was not rated (the AI's, a seat handed to
    the AI, a game with fewer than two rated players)."""
    scored = any(s["points"] for s in standings)
    lines = [say(phrase("**Final standings**"), language)]
    for s in standings:
        seat = s["seat"]
        shown = names[seat] if names is not None and 0 <= seat < len(names) else s["name"]
        name = escape_markdown(shown)
        name = f"**{name}**" if s["rank"] == 0 else name
        if s["ai"] and not says_ai(shown):
            name = say(phrase("{name} (AI)", name=name), language)
        parts = [f"{say(place(s['rank']), language)} {name}"]
        if scored:
            parts.append(say(points(s["points"]), language))
        if s["change"] is not None:
            after, change = s.get("rating"), rating_change(s["change"])
            rating = (
                phrase("rating {rating}, {change}", rating=round(after, 1), change=change)
                if after is not None
                else phrase("rating {change}", change=change)
            )
            parts.append(say(rating, language))
        lines.append(" · ".join(parts))
    return lines
