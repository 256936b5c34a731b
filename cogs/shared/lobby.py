"""Lobby messages: who has joined, the options chosen, and the lobby buttons."""

from __future__ import annotations

import discord

from bot.games import GAMES
from bot.models import GameRecord, Status


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
        f"{option.name}: {option.label(game.options.get(option.name, option.default))}"
        for option in engine.options
        if option.name not in hidden
    ]
    settings.append(f"turn timer: {game.turn_timer} min" if game.turn_timer else "turn timer: off")
    embed.add_field(name="Options", value="\n".join(settings), inline=False)
    if game.status == Status.LOBBY:
        embed.set_footer(text="The host starts the game; the host or a channel manager can cancel.")
    return embed
