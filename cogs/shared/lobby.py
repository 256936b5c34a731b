"""Lobby messages: who has joined and the options chosen, as the text of the lobby's layout
(its controls are added by `components.lobby_view`)."""

from __future__ import annotations

import discord

from bot.games import GAMES
from bot.models import GameRecord, Status
from rules.words import counted


def turn_timer(minutes: int) -> str:
    """The turn timer in words: "off", "1 minute a decision", "90 minutes a decision"."""
    return f"{counted(minutes, 'minute')} a decision" if minutes else "off"


def handover(game: GameRecord) -> str:
    """Who plays a seat a person leaves or times out of, in words: "the normal AI"."""
    return f"the {game.handover_level or 'normal'} AI"


TITLES = {
    Status.LOBBY: "lobby",
    Status.PLAYING: "started",
    Status.FINISHED: "finished",
    Status.STOPPED: "closed",
}
HOST_NOTE = (
    "-# The host starts the game; the host or a channel manager can cancel. New to the game? "
    "`/help game:` walks you through a first turn."
)


def accent(game: GameRecord) -> discord.Colour:
    """The lobby's edge colour: gold while it takes players, grey after."""
    open_ = game.status == Status.LOBBY
    return discord.Colour.dark_gold() if open_ else discord.Colour.dark_grey()


def lobby_text(game: GameRecord) -> str:
    """The lobby in Discord markdown: the game, who has joined, the options chosen."""
    engine = GAMES[game.kind]
    lines = [f"## {engine.title} · {TITLES[Status(game.status)]}"]
    if engine.tagline:
        lines.append(f"*{engine.tagline}*")
    pick = engine.seat_pick
    labels = dict(zip(pick.choices, pick.labels or pick.choices, strict=True)) if pick else {}
    lines.append(f"**Players {len(game.seats)}/{engine.max_seats}** (at least {engine.min_seats})")
    for i, seat in enumerate(game.seats):
        line = f"{i + 1}. {seat.shown_name()}"
        line += " (host)" if seat.user_id == game.host_id else ""
        if pick is not None:
            line += f" · {labels.get(seat.pick, 'random')}"
        lines.append(line)
    if not game.seats:
        lines.append("nobody yet")
    hidden = {pick.name} if pick else set()  # shown beside each player instead
    lines.append("**Options**")
    lines += [
        f"{option.heading or option.name}: "
        f"{option.label(game.options.get(option.name, option.default))}"
        for option in engine.options
        if option.name not in hidden
    ]
    lines.append(f"Turn timer: {turn_timer(game.turn_timer)}")
    lines.append(f"A seat a player leaves: {handover(game)}")
    return "\n".join(lines)
