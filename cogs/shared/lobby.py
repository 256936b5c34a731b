"""Lobby messages: who has joined, the options chosen, and the lobby buttons."""

from __future__ import annotations

import discord

from bot.games import GAMES
from bot.models import GameRecord, Status
from bot.sessions import UserError
from cogs.shared import components
from cogs.shared.interactions import client_of, player_of, refuse


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
        line = f"{i + 1}. {seat['name']}" + (" (host)" if seat["user_id"] == game.host_id else "")
        if pick is not None:
            line += f" · {labels.get(seat.get('pick', ''), 'random')}"
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


async def open_lobby(
    interaction: discord.Interaction,
    kind: str,
    options: dict[str, str],
    seed: int | None,
    timer: int | None,
) -> None:
    """`/<game> new`: open a lobby in this channel, answering with the lobby message."""
    client = client_of(interaction)
    if interaction.guild_id is None or interaction.channel_id is None:
        await refuse(interaction, "Games are played in a server channel, not in direct messages.")
        return
    try:
        game = await client.sessions.open_lobby(
            interaction.guild_id,
            interaction.channel_id,
            kind,
            player_of(interaction),
            options,
            seed=seed,
            timer=timer,
            default_timer=client.settings.turn_timer_minutes,
        )
    except UserError as error:
        await refuse(interaction, str(error))
        return
    view = components.lobby_view(game)  # a lobby just opened always has its buttons
    await interaction.response.send_message(
        embed=lobby_embed(game), view=view if view is not None else discord.utils.MISSING
    )
    message = await interaction.original_response()
    await client.sessions.set_message(game.id or 0, lobby=message.id)
