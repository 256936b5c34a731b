"""Persistent buttons and menus (discord.py `DynamicItem`s).

Every custom id names the game by its database id and, for play controls, the step the
control was made at; nothing secret ever goes into one. The callback loads the game from the
database, so buttons keep working after a restart, and a control from an earlier step is
refused as out of date.

    tt:lobby:<game>:<op>            Join, Leave, Add AI player, Start, Cancel
    tt:act:<game>:<step>:<action>   one legal action
    tt:menu:<game>:<step>:<slot>    a menu of actions or prefixes of actions
    tt:hand:<game>                  "My secret" / "My hand": the player's own view
    tt:rules:<kind>:<page>          paging through /rules
"""

from __future__ import annotations

import re
from typing import Any, cast

import discord

from bot.sessions import UserError
from cogs.shared import board, lobby
from cogs.shared.interactions import client_of, player_of, refuse
from cogs.shared.presenter import Buttons, Choice, Control, Menu

MAX_OPTIONS = 25  # Discord's limit for a select menu
MAX_ROWS = 5  # Discord's limit of component rows on a message


# ---------------------------------------------------------------------- lobby


LOBBY_LABELS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "ai": ("Add AI player", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:lobby:(?P<game>\d+):(?P<op>join|leave|ai|start|cancel)",
):
    def __init__(self, game_id: int, op: str) -> None:
        label, style = LOBBY_LABELS[op]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"tt:lobby:{game_id}:{op}")
        )
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["game"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        # Answer first: under load the database work below may take a moment.
        await interaction.response.defer()
        client = client_of(interaction)
        sessions = client.sessions
        player = player_of(interaction)
        channel_id = interaction.channel_id or 0
        operations = {
            "join": sessions.join,
            "leave": sessions.leave_lobby,
            "ai": sessions.add_ai,
            "cancel": sessions.cancel,
        }
        try:
            if self.op == "start":
                update = await sessions.start(channel_id, self.game_id, player)
                game = update.game
            else:
                game = await operations[self.op](channel_id, self.game_id, player)
        except UserError as error:
            await refuse(interaction, str(error))
            return
        await interaction.edit_original_response(
            embed=lobby.lobby_embed(game), view=lobby_view(game.id or 0, game.status)
        )
        if self.op == "start":
            await board.show_update(client, update)


def lobby_view(game_id: int, status: str) -> discord.ui.View | None:
    if status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    for op in LOBBY_LABELS:
        view.add_item(LobbyButton(game_id, op))
    return view


# ---------------------------------------------------------------------- play


class ActButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:act:(?P<game>\d+):(?P<step>\d+):(?P<action>.+)",
):
    def __init__(self, game_id: int, step: int, action: str, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"tt:act:{game_id}:{step}:{action}",
            )
        )
        self.game_id, self.step, self.action = game_id, step, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        label = getattr(item, "label", None) or match["action"]
        return cls(int(match["game"]), int(match["step"]), match["action"], label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await act(interaction, self.game_id, self.step, self.action)


async def act(interaction: discord.Interaction, game_id: int, step: int, action: str) -> None:
    """Apply a player's action and show the channel what happened."""
    await interaction.response.defer()
    client = client_of(interaction)
    try:
        update = await client.sessions.act(
            interaction.channel_id or 0, game_id, interaction.user.id, step, action
        )
    except UserError as error:
        await refuse(interaction, str(error))
        return
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        # The private choice buttons have done their job.
        await interaction.edit_original_response(content="Done.", view=None)
    await board.show_update(client, update)


class MenuSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tt:menu:(?P<game>\d+):(?P<step>\d+):(?P<slot>\d+)",
):
    def __init__(self, game_id: int, step: int, slot: int, menu: Menu) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"tt:menu:{game_id}:{step}:{slot}",
                placeholder=menu.placeholder[:150],
                options=[
                    discord.SelectOption(
                        label=c.label[:100], value=c.value, description=c.description[:100] or None
                    )
                    for c in menu.choices[:MAX_OPTIONS]
                ],
            )
        )
        self.game_id, self.step, self.slot = game_id, step, slot

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MenuSelect:
        select = cast("discord.ui.Select[Any]", item)
        menu = Menu(
            placeholder=select.placeholder or "",
            choices=[Choice(o.value, o.label, o.description or "") for o in select.options],
        )
        return cls(int(match["game"]), int(match["step"]), int(match["slot"]), menu)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values:
            await refuse(interaction, "Pick one of the options.")
            return
        choice = str(values[0])
        sessions = client_of(interaction).sessions
        try:
            _game, actions = await sessions.narrow(
                interaction.channel_id or 0, self.game_id, interaction.user.id, self.step, choice
            )
        except UserError as error:
            await refuse(interaction, str(error))
            return
        if len(actions) == 1 and actions[0][0] == choice:
            await act(interaction, self.game_id, self.step, choice)
            return
        # A prefix: let the player finish the choice privately.
        view = controls_view(
            self.game_id, self.step, [Buttons([Choice(a, label) for a, label in actions])]
        )
        await interaction.response.send_message("Choose:", view=view, ephemeral=True)


def controls_view(
    game_id: int, step: int, controls: list[Control], hand_label: str | None = None
) -> discord.ui.View:
    """Turn a presenter's controls into components, within Discord's limits: a menu of
    more than 25 choices is split over several menus, buttons fill rows of five."""
    view = discord.ui.View(timeout=None)
    slot = 0
    for control in controls:
        if isinstance(control, Menu):
            chunks = [
                control.choices[i : i + MAX_OPTIONS]
                for i in range(0, len(control.choices), MAX_OPTIONS)
            ]
            for number, chunk in enumerate(chunks, start=1):
                placeholder = control.placeholder
                if len(chunks) > 1:
                    placeholder = f"{placeholder} ({number}/{len(chunks)})"
                view.add_item(MenuSelect(game_id, step, slot, Menu(placeholder, chunk)))
                slot += 1
        else:
            for choice in control.actions:
                view.add_item(ActButton(game_id, step, choice.value, choice.label))
    if hand_label:
        view.add_item(HandButton(game_id, hand_label))
    return view


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:hand:(?P<game>\d+)",
):
    def __init__(self, game_id: int, label: str = "My hand") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id=f"tt:hand:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        return cls(int(match["game"]), getattr(item, "label", None) or "My hand")

    async def callback(self, interaction: discord.Interaction) -> None:
        await board.show_hand(interaction, self.game_id)
