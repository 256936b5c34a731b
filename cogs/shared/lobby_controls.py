"""The lobby's persistent controls (discord.py `DynamicItem`s) and the lobby message they
sit on: Join, Leave, Start and Cancel, the menu adding an AI player at a level, and a
player's own pick (a Dumpster Brawl! character). Custom ids as `components` lists them;
the lobby's text is drawn by `lobby.py`.
"""

from __future__ import annotations

import re
import time
from typing import Any

import discord

from bot.games import GAMES
from bot.models import GameRecord, Status
from bot.requests import Update, UserError
from cogs.shared import lobby
from cogs.shared.components import NUMBER, PICK_ONE, picked_value, show_turn
from cogs.shared.interactions import (
    AnsweredOnce,
    answer_command,
    client_of,
    edit_pressed,
    in_time,
    player_of,
    routed_by_custom_id,
)
from cogs.shared.limits import MAX_LAYOUT_TEXT, clip
from cogs.shared.menus import MAX_OPTIONS
from cogs.shared.replies import keep_seat
from lang import ENGLISH, language_for, say
from rules.base import LEVELS, Option
from rules.phrases import phrase, phrase_in

LOBBY_LABELS = {
    "join": (phrase_in("button", "Join"), discord.ButtonStyle.success),
    "leave": (phrase_in("button", "Leave"), discord.ButtonStyle.secondary),
    # no longer drawn; see AddAISelect
    "ai": (phrase_in("button", "Add AI player"), discord.ButtonStyle.secondary),
    "start": (phrase_in("button", "Start"), discord.ButtonStyle.primary),
    "cancel": (phrase_in("button", "Cancel"), discord.ButtonStyle.danger),
}
LOBBY_BUTTONS = ("join", "leave", "start", "cancel")  # the buttons a lobby is drawn with
ADD_AI = phrase("Add AI player…")
# Each level as the lobby's menu offers it, in the order of LEVELS: a label and what it means.
LEVEL_CHOICES = {
    "easy": (phrase("Easy AI"), phrase("Makes the mistakes a beginner makes")),
    "normal": (phrase("Normal AI"), phrase("Plays a sound, steady game")),
    "hard": (phrase("Hard AI"), phrase("Thinks ahead: a real opponent")),
}


class LobbyButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        rf"tt:lobby:(?P<game>{NUMBER}):(?P<op>join|leave|ai|start|cancel)"
        rf"(:(?P<seats>{NUMBER}))?"  # only "ai" is made with it
    ),
):
    """A lobby button. Join, Leave, Start and Cancel are safe to repeat. "Add AI player"
    (a normal AI) is only on lobbies posted before the levels' menu (`AddAISelect`) took
    its place; it carries the number of seats the lobby had when it was drawn, so a double
    click adds one seat, and ids without the seats (older still) work too."""

    def __init__(
        self, game_id: int, op: str, seats: int | None = None, language: str = ENGLISH
    ) -> None:
        label, style = LOBBY_LABELS[op]
        custom_id = f"tt:lobby:{game_id}:{op}" + (f":{seats}" if seats is not None else "")
        shown = say(label, language)
        super().__init__(discord.ui.Button(label=shown, style=style, custom_id=custom_id))
        self.game_id, self.op, self.seats = game_id, op, seats

    def leads_to_boards(self) -> bool:
        return self.op == "start"  # the rest only change the lobby message

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        seats = int(match["seats"]) if match["seats"] is not None else None
        return cls(int(match["game"]), match["op"], seats)

    async def pressed(self, interaction: discord.Interaction) -> None:
        pressed_at = time.monotonic()
        sessions = client_of(interaction).sessions
        player = player_of(interaction)
        channel_id = interaction.channel_id or 0
        operations = {
            "join": sessions.join,
            "leave": sessions.leave_lobby,
            "cancel": sessions.cancel,
        }

        async def lobby_changed() -> tuple[GameRecord, Update | None]:
            if self.op == "start":
                update = await sessions.start(channel_id, self.game_id, player)
                return update.game, update
            if self.op == "ai":
                return await sessions.add_ai(channel_id, self.game_id, player, self.seats), None
            return await operations[self.op](channel_id, self.game_id, player), None

        # Under load the database work may take a moment: deferred if it is not done soon.
        game, started = await in_time(interaction, lobby_changed(), in_place=True)
        # A lobby posted before layouts had an embed: an edit clears it.
        await edit_pressed(interaction, content=None, embed=None, view=lobby_view(game))
        if self.op in ("join", "start"):  # seated: their first decision comes on this press
            keep_seat(interaction, language_for(interaction.locale), pressed_at)
        if started is not None:
            # AI seats that act first, then each person asked to decide sees it privately.
            await show_turn(client_of(interaction), (await sessions.play_ai(started)).game)


class AddAISelect(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"tt:addai:(?P<game>{NUMBER}):(?P<seats>{NUMBER})",
):
    """The lobby's "Add AI player…" menu of the AI's levels: picking one adds an AI seat
    playing at it. Like the button it replaced, it carries the number of seats the lobby
    had when it was drawn, so a double pick adds one seat."""

    COMPONENT = discord.ComponentType.string_select

    def __init__(self, game_id: int, seats: int, language: str = ENGLISH) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"tt:addai:{game_id}:{seats}",
                placeholder=say(ADD_AI, language),
                options=[
                    discord.SelectOption(
                        label=say(label, language),
                        value=str(i),
                        description=say(meaning, language),
                    )
                    for i, (label, meaning) in enumerate(LEVEL_CHOICES[lv] for lv in LEVELS)
                ],
            )
        )
        self.game_id, self.seats = game_id, seats

    def leads_to_boards(self) -> bool:
        return False

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AddAISelect:
        return cls(int(match["game"]), int(match["seats"]))

    async def pressed(self, interaction: discord.Interaction) -> None:
        choice = picked_value(interaction, self.item)  # one of the menu's own: a level
        if choice is None:
            raise UserError(PICK_ONE)
        sessions = client_of(interaction).sessions
        adding = sessions.add_ai(
            interaction.channel_id or 0,
            self.game_id,
            player_of(interaction),
            self.seats,
            LEVELS[choice],
        )
        game = await in_time(interaction, adding, in_place=True)
        await edit_pressed(interaction, content=None, embed=None, view=lobby_view(game))


class PickSelect(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"tt:pick:(?P<game>{NUMBER})",
):
    """A player's own pick in the lobby (Dumpster Brawl!'s character): option values are
    positions among the game's choices."""

    COMPONENT = discord.ComponentType.string_select

    def __init__(self, game_id: int, option: Option | None = None, language: str = ENGLISH) -> None:
        choices = [] if option is None else list(option.labels or option.choices)
        # The pick's description and each choice's label in the senses the games mark them
        # in (`term("lobby pick", ...)`, `term("choice", ...)`).
        placeholder = phrase_in("lobby pick", option.description) if option else phrase("Pick…")
        super().__init__(
            discord.ui.Select(
                custom_id=f"tt:pick:{game_id}",
                placeholder=say(placeholder, language)[:150],
                options=[
                    discord.SelectOption(
                        label=say(phrase_in(lobby.CHOICE, label), language)[:100], value=str(i)
                    )
                    for i, label in enumerate(choices[:MAX_OPTIONS])
                ]
                or [discord.SelectOption(label="-", value="0")],
            )
        )
        self.game_id = game_id

    def leads_to_boards(self) -> bool:
        return False

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSelect:
        pick = cls(int(match["game"]))
        pick.item.options = getattr(item, "options", [])  # the message's own
        return pick

    async def pressed(self, interaction: discord.Interaction) -> None:
        choice = picked_value(interaction, self.item)
        if choice is None:
            raise UserError(PICK_ONE)
        sessions = client_of(interaction).sessions
        picking = sessions.pick(
            interaction.channel_id or 0, self.game_id, player_of(interaction), choice
        )
        game = await in_time(interaction, picking, in_place=True)
        # A lobby posted before layouts had an embed: an edit clears it.
        await edit_pressed(interaction, content=None, embed=None, view=lobby_view(game))


def lobby_view(
    game: GameRecord, note: str = "", controls: bool = True, language: str | None = None
) -> discord.ui.LayoutView:
    """The lobby message, in Discord's layout components: one container with `note` (a
    rematch's call), the lobby's text and, while it takes players, its controls (a player's
    own pick, the menu adding an AI player, then the lobby buttons); in `language` (the
    game's, as the lobby is public, unless given)."""
    language = lobby.spoken(game, language)
    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=lobby.accent(game))
    taking = controls and game.status == Status.LOBBY
    host_note = say(lobby.HOST_NOTE, language)
    # Discord's 4,000 characters are for all of a message's text displays together: the
    # note (a rematch's call) and the host's note first, the lobby's text in what is left.
    note = clip(note, MAX_LAYOUT_TEXT // 4)
    room = MAX_LAYOUT_TEXT - len(note) - (len(host_note) if taking else 0)
    if note:
        container.add_item(discord.ui.TextDisplay(note))
    container.add_item(discord.ui.TextDisplay(clip(lobby.lobby_text(game, language), room)))
    if taking:
        game_id = game.id or 0
        option = GAMES[game.kind].seat_pick
        if option is not None:
            container.add_item(discord.ui.ActionRow(PickSelect(game_id, option, language)))
        adding = AddAISelect(game_id, len(game.seats), language)
        container.add_item(discord.ui.ActionRow(adding))
        buttons = [LobbyButton(game_id, op, language=language) for op in LOBBY_BUTTONS]
        container.add_item(discord.ui.ActionRow(*buttons))
        container.add_item(discord.ui.TextDisplay(host_note))
    view = routed_by_custom_id(discord.ui.LayoutView(timeout=None))
    view.add_item(container)
    return view


async def post_lobby(
    interaction: discord.Interaction,
    game: GameRecord,
    note: str = "",
    mentions: discord.AllowedMentions = discord.utils.MISSING,
) -> None:
    """Answer with a new lobby's message, and record it as the game's lobby message (its
    controls come off it once the game starts or the lobby closes). Discord's answer to
    the callback names the message; only without it is the message asked for."""
    lobby = await answer_command(
        interaction, view=lobby_view(game, note=note), allowed_mentions=mentions
    )
    await client_of(interaction).sessions.set_message(game.id or 0, lobby=lobby)
