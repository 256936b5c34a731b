"""Rematch: the button on a finished game's last board that opens a new lobby in the channel
with the same seats and options (`Lobbies.rematch`). It is a persistent `DynamicItem` like
every control, so it works after a restart; the lobby it opens is a lobby like any other."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.requests import seat_names
from cogs.shared.components import NUMBER
from cogs.shared.interactions import (
    AnsweredOnce,
    client_of,
    held_for_permissions,
    player_of,
    routed_by_custom_id,
)
from cogs.shared.lobby_controls import post_lobby
from lang import ENGLISH, say
from rules.phrases import phrase, phrase_in

REMATCH = phrase_in("button", "Rematch")


class RematchButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"tt:rematch:(?P<game>{NUMBER})",
):
    def __init__(self, game_id: int, language: str = ENGLISH) -> None:
        button = discord.ui.Button[Any](
            label=say(REMATCH, language),
            emoji="🔁",
            style=discord.ButtonStyle.primary,
            custom_id=f"tt:rematch:{game_id}",
        )
        super().__init__(button)
        self.game_id = game_id

    def leads_to_boards(self) -> bool:
        return False  # checked as `/<game> new` is, in `pressed`

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def pressed(self, interaction: discord.Interaction) -> None:
        if await held_for_permissions(interaction, opening=True):
            return  # no lobby opens where no board could be posted
        client = client_of(interaction)
        game = await client.sessions.rematch(
            interaction.channel_id or 0, self.game_id, player_of(interaction)
        )
        people = [seat.user_id for seat in game.seats if seat.user_id is not None]
        others = [user for user in people if user != interaction.user.id]
        # Public, in the new lobby's language (the old game's).
        language = seat_names(game).language
        call = phrase(
            "🔁 **Rematch** of game #{number}, hosted by {host}.",
            number=self.game_id,
            host=interaction.user.mention,
        )
        text = say(call, language)
        if others:
            pings = " ".join(f"<@{user}>" for user in others)
            back = phrase(
                "{players}: you have your seats back; **Leave** if you would rather not play.",
                players=pings,
            )
            text += " " + say(back, language)
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in others])
        await post_lobby(interaction, game, note=text, mentions=mentions)


def rematch_view(game_id: int, language: str = ENGLISH) -> discord.ui.View:
    view = routed_by_custom_id(discord.ui.View(timeout=None))
    view.add_item(RematchButton(game_id, language))
    return view
