"""Lobby messages: who has joined and the options chosen, as the text of the lobby's layout
(its controls are added by `lobby_controls.lobby_view`). Said in the game's language (a
lobby is public), or in another one given (`/game status`, a private reply)."""

from __future__ import annotations

import discord

from bot.games import GAMES
from bot.models import GameRecord, Status
from bot.requests import seat_names
from lang import say
from rules.phrases import Phrase, phrase, phrase_in, phrase_n

# The sense the game helpers mark their options' headings and choices' labels in
# (`term(OPTION_HEADING, "Dungeon")`, `term(CHOICE, "drawn at random")`), and taglines.
OPTION_HEADING = "lobby option"
CHOICE = "choice"
TAGLINE = "tagline"


def spoken(game: GameRecord, language: str | None = None) -> str:
    """The language a game's text is said in: `language`, else the game's own."""
    return seat_names(game, language).language


def turn_timer(minutes: int) -> Phrase:
    """The turn timer in words: "off", "1 minute a decision", "90 minutes a decision"."""
    if not minutes:
        return phrase_in("turn timer", "off")
    return phrase_n("{n} minute a decision", "{n} minutes a decision", minutes)


# Who plays a seat a person leaves or times out of: a whole phrase each, as the level's
# word agrees with "AI" in other languages ("l'IA normale").
HANDOVERS = {
    "easy": phrase_in("handover", "the easy AI"),
    "normal": phrase_in("handover", "the normal AI"),
    "hard": phrase_in("handover", "the hard AI"),
}


def handover(game: GameRecord) -> Phrase:
    """Who plays a seat a person leaves or times out of, in words: "the normal AI"."""
    return HANDOVERS[game.handover_level or "normal"]


TITLES = {
    Status.LOBBY: phrase_in("lobby status", "lobby"),
    Status.PLAYING: phrase_in("lobby status", "started"),
    Status.FINISHED: phrase_in("lobby status", "finished"),
    Status.STOPPED: phrase_in("lobby status", "closed"),
}
HOST_NOTE = phrase(
    "-# The host starts the game; the host or a channel manager can cancel. New to the game? "
    "`/help game:` walks you through a first turn."
)


def accent(game: GameRecord) -> discord.Colour:
    """The lobby's edge colour: gold while it takes players, grey after."""
    open_ = game.status == Status.LOBBY
    return discord.Colour.dark_gold() if open_ else discord.Colour.dark_grey()


def lobby_text(game: GameRecord, language: str | None = None) -> str:
    """The lobby in Discord markdown: the game, who has joined, the options chosen; in
    `language` (the game's unless given)."""
    language = spoken(game, language)
    engine = GAMES[game.kind]

    def said(words: Phrase) -> str:
        return say(words, language)

    status = said(TITLES[Status(game.status)])
    lines = [f"## {engine.title} · {status}"]
    if engine.tagline:
        lines.append(f"*{said(phrase_in(TAGLINE, engine.tagline))}*")
    pick = engine.seat_pick
    labels = dict(zip(pick.choices, pick.labels or pick.choices, strict=True)) if pick else {}
    seated, most, least = len(game.seats), engine.max_seats, engine.min_seats
    players = phrase(
        "**Players {seated}/{most}** (at least {least})", seated=seated, most=most, least=least
    )
    lines.append(said(players))
    names = seat_names(game, language)
    for i, seat in enumerate(game.seats):
        name = names[i]
        if seat.user_id == game.host_id:
            name = said(phrase("{name} (host)", name=name))
        line = f"{i + 1}. {name}"
        if pick is not None:
            label = labels.get(seat.pick)
            chosen = phrase_in(CHOICE, label) if label else phrase_in("choice", "random")
            line += f" · {said(chosen)}"
        lines.append(line)
    if not game.seats:
        lines.append(said(phrase("nobody yet")))
    hidden = {pick.name} if pick else set()  # shown beside each player instead
    lines.append(said(phrase("**Options**")))
    for option in engine.options:
        if option.name in hidden:
            continue
        value = option.label(game.options.get(option.name, option.default))
        heading = phrase_in(OPTION_HEADING, option.heading or option.name)
        # A number (a count of rounds) is said as it is; a choice's label in its sense.
        choice = value if value.isdecimal() else phrase_in(CHOICE, value)
        lines.append(said(phrase("{option}: {choice}", option=heading, choice=choice)))
    lines.append(said(phrase("Turn timer: {timer}", timer=turn_timer(game.turn_timer))))
    lines.append(said(phrase("A seat a player leaves: {who}", who=handover(game))))
    return "\n".join(lines)
