"""Lobby messages: who has joined, the options chosen, and the lobby buttons."""

from __future__ import annotations

import discord

from bot.games import GAMES
from bot.models import GameRecord, Status
from rules.words import counted


def turn_timer(minutes: int) -> str:
    """The turn timer in words: "off", "1 minute a decision", "90 minutes a decision"."""
    return f"{counted(minutes, 'minute')} a decision" if minutes else "off"


def lobby_embed(game: GameRecord) -> discord.Embed:
    engine = GAMES[game.kind]
    titles = {
        Status.LOBBY: "lobby",
        Status.PLAYING: "started",
        Status.FINISHED: "finished",
        Status.STOPPED: "closed",
    }
    embed = discord.Embed(
        title=f"{engine.title} · {titles[Status(game.status)]}",
        description=engine.tagline or None,
        colour=discord.Colour.dark_gold()
        if game.status == Status.LOBBY
        else discord.Colour.dark_grey(),
    )
    pick = engine.seat_pick
    labels = dict(zip(pick.choices, pick.labels or pick.choices, strict=True)) if pick else {}
    players = []
    for i, seat in enumerate(game.seats):
        line = f"{i + 1}. {seat.name}" + (" (host)" if seat.user_id == game.host_id else "")
        if pick is not None:
            line += f" · {labels.get(seat.pick, 'random')}"
        players.append(line)
    embed.add_field(
        name=f"Players {len(game.seats)}/{engine.max_seats} (at least {engine.min_seats})",
        value="\n".join(players) or "nobody yet",
        inline=False,
    )
    hidden = {pick.name} if pick else set()  # shown beside each player instead
    settings = [
        f"{option.heading or option.name}: "
        f"{option.label(game.options.get(option.name, option.default))}"
        for option in engine.options
        if option.name not in hidden
    ]
    settings.append(f"Turn timer: {turn_timer(game.turn_timer)}")
    embed.add_field(name="Options", value="\n".join(settings), inline=False)
    if game.status == Status.LOBBY:
        embed.set_footer(text="The host starts the game; the host or a channel manager can cancel.")
    return embed
