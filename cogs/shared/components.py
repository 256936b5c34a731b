"""Persistent buttons and menus (discord.py `DynamicItem`s): the play controls here, the
lobby's in `lobby_controls.py`.

Every custom id names the game by its database id and, for play controls, the step the
control was made at; nothing secret ever goes into one. The callback loads the game from the
database, so buttons keep working after a restart, and a control from an earlier step is
refused as out of date.

    tt:lobby:<game>:<op>            Join, Leave, Start, Cancel
    tt:lobby:<game>:ai:<seats>      Add AI player (a normal one): lobbies posted before levels
    tt:addai:<game>:<seats>         Add AI player at a level (option values: positions in
                                    LEVELS), made when the lobby had that many seats
    tt:pick:<game>                  a player's own lobby pick (a character), by position
    tt:act:<game>:<step>:<index>    one legal action, by its index among the seat's legal actions
    tt:menu:<game>:<step>:<b|h|a>:<slot>  a menu (board, hand, or a group of actions)
    tt:group:<game>:<step>:<b|h>:<index>  a button standing for a group of actions
    tt:hand:<game>                  "My secret" / "My hand": the player's own view
    tt:rules:<kind>:<page>          paging through /rules
    tt:replay:<game>:<board>:<op>   a step of the replay stepper (cogs/shared/stepper.py)
    tt:replayturn:<game>            its menu of turns (option values: boards)

Numbers in custom ids and option values are ASCII digits only (`\\d` would also take `٨`), and
at most 9 of them, so any number read fits the database's integer columns (a game id is a
32-bit integer on PostgreSQL). A press whose id fits no template is answered by
`interactions.answer_unclaimed`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.models import GameRecord
from bot.requests import Press, UserError
from cogs.shared import board
from cogs.shared.interactions import (
    AnsweredOnce,
    client_of,
    defer_on_board,
    edit_pressed,
    in_private_reply,
    in_time,
    routed_by_custom_id,
    send_private,
)
from cogs.shared.limits import (
    MAX_BUTTON_LABEL,
    MAX_CONTENT,
    MAX_OPTION_TEXT,
    MAX_PLACEHOLDER,
    clip,
    fit_lines,
)
from cogs.shared.menus import ACTIONS, HAND, MAX_OPTIONS, MAX_ROWS, buttons_of, menu_chunks
from cogs.shared.presenter import (
    PRESENTERS,
    BoardControl,
    Choice,
    Menu,
    OwnItems,
    Picture,
    hand_button,
    is_plan,
    plan_of,
)
from cogs.shared.replies import keep_reply, refresh, writing
from lang import ENGLISH, language_for, say
from rules.base import JSON
from rules.phrases import phrase

if TYPE_CHECKING:
    from bot.client import TrashTableBot

NUMBER = "[0-9]{1,9}"  # see the module's docstring
PICK_ONE = phrase("Pick one of the options.")
CHOOSE = phrase("Choose…")
DONE = phrase("Done.")


def picked_values(
    interaction: discord.Interaction, select: discord.ui.Select[Any]
) -> list[int] | None:
    """The options a player picked, as the numbers they are, or None unless each is one
    of the menu's own option values (all numbers the bot made), none twice and no more
    than the menu takes."""
    data = cast("dict[str, Any]", interaction.data or {})
    values = data.get("values") or []
    own = {option.value for option in select.options}
    if not values or len(values) > max(1, select.max_values) or len(set(values)) < len(values):
        return None
    if not all(value in own and re.fullmatch(NUMBER, str(value)) for value in values):
        return None
    return [int(value) for value in values]


def picked_value(interaction: discord.Interaction, select: discord.ui.Select[Any]) -> int | None:
    """The one option a player picked (`picked_values`), or None unless exactly one came."""
    picked = picked_values(interaction, select)
    return picked[0] if picked is not None and len(picked) == 1 else None


# ---------------------------------------------------------------------- play
#
# Play controls never carry an action in their custom id or option values, only numbers:
# a button holds the index of its action in the seat's legal actions at that step, and a
# menu option its position in a menu that is rebuilt, the same, from the game at that step.
# So even a hand game's controls name no card, and an old control can only ever mean what
# it meant when it was made (the step check refuses it otherwise).


class ActButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"tt:act:(?P<game>{NUMBER}):(?P<step>{NUMBER}):(?P<index>{NUMBER})",
):
    def __init__(self, game_id: int, step: int, index: int, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, MAX_BUTTON_LABEL),
                style=discord.ButtonStyle.primary,
                custom_id=f"tt:act:{game_id}:{step}:{index}",
            )
        )
        self.game_id, self.step, self.index = game_id, step, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        label = getattr(item, "label", None) or "?"
        return cls(int(match["game"]), int(match["step"]), int(match["index"]), label)

    async def pressed(self, interaction: discord.Interaction) -> None:
        await act(interaction, self.game_id, self.step, self.index)


async def act(
    interaction: discord.Interaction, game_id: int, step: int, action: int | list[str]
) -> None:
    """A player's action (its index in their legal actions, or a plan of several rebuilt
    from the controls at `step`: `presenter.plan`): Discord's answer in time, one call to
    the session service, which decides when the AI plays, and its answer sent. The
    boards reach the channel through the outbox's poster; a press from a private reply is
    answered there with what comes next for its player (`next_decision`)."""
    client = client_of(interaction)
    sessions = client.sessions
    channel_id, user_id = interaction.channel_id or 0, interaction.user.id
    if not in_private_reply(interaction):
        await defer_on_board(interaction)
        pressed = await sessions.press(channel_id, game_id, user_id, step, action, answered=False)
        await show_turn(client, pressed.update.game)  # the presser's reply was not answered
        return

    async def until_reply() -> tuple[Press, dict[str, Any]]:
        pressed = await sessions.press(channel_id, game_id, user_id, step, action, answered=True)
        return pressed, await next_decision(interaction, pressed)

    pressed, reply = await in_time(interaction, until_reply(), in_place=True)
    async with writing(interaction):
        await edit_pressed(interaction, **reply)
        language = language_for(interaction.locale)
        keep_reply(interaction, None, language, pressed.update.game.step)
    # Answered before the AI's turns, the presser's reply learns only now that the game has
    # come back to them; answered after them, it already shows their next decision.
    answered_first = pressed.after_answer is not None
    await pressed.then()
    await show_turn(client, pressed.update.game, 0 if answered_first else user_id)


class MenuSelect(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=(
        rf"tt:menu:(?P<game>{NUMBER}):(?P<step>{NUMBER}):(?P<source>[bha]):(?P<slot>{NUMBER})"
    ),
):
    COMPONENT = discord.ComponentType.string_select

    def __init__(
        self, game_id: int, step: int, source: str, slot: int, menu: Menu, values: list[str]
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"tt:menu:{game_id}:{step}:{source}:{slot}",
                placeholder=clip(menu.placeholder, MAX_PLACEHOLDER),
                max_values=max(1, min(menu.most, len(values))),
                options=[
                    discord.SelectOption(
                        label=clip(c.label, MAX_OPTION_TEXT),
                        value=value,
                        description=clip(c.description, MAX_OPTION_TEXT) or None,
                    )
                    for c, value in zip(menu.choices, values, strict=True)
                ],
            )
        )
        self.game_id, self.step, self.source, self.slot = game_id, step, source, slot

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MenuSelect:
        # A forged press may bring a button here: `interaction_check` then refuses it.
        placeholder, options = getattr(item, "placeholder", ""), getattr(item, "options", [])
        most = getattr(item, "max_values", 1) or 1
        menu = Menu(placeholder or "", [Choice("", o.label) for o in options], most=most)
        values = [o.value for o in options]
        game, step, slot = int(match["game"]), int(match["step"]), int(match["slot"])
        return cls(game, step, match["source"], slot, menu, values)

    async def pressed(self, interaction: discord.Interaction) -> None:
        picked = picked_values(interaction, self.item)
        if picked is None:
            raise UserError(PICK_ONE)
        if self.source == ACTIONS:
            if len(picked) != 1:
                raise UserError(PICK_ONE)
            await act(interaction, self.game_id, self.step, picked[0])
            return
        game, choice = await board.menu_choice(
            interaction, self.game_id, self.step, self.source, self.slot, picked
        )
        await open_group(interaction, game, self.step, self.source, choice)


class GroupButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        rf"tt:group:(?P<game>{NUMBER}):(?P<step>{NUMBER}):(?P<source>[bh]):(?P<index>{NUMBER})"
    ),
):
    """A button standing for several actions (a card that can go at several walls). Like a
    menu option it holds only its place among the buttons of the controls, which are built
    again, the same, from the game at `step`."""

    def __init__(self, game_id: int, step: int, source: str, index: int, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, MAX_BUTTON_LABEL),
                style=discord.ButtonStyle.primary,
                custom_id=f"tt:group:{game_id}:{step}:{source}:{index}",
            )
        )
        self.game_id, self.step, self.source, self.index = game_id, step, source, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GroupButton:
        label = getattr(item, "label", None) or "?"
        game, step, index = int(match["game"]), int(match["step"]), int(match["index"])
        return cls(game, step, match["source"], index, label)

    async def pressed(self, interaction: discord.Interaction) -> None:
        game, choice = await board.button_choice(
            interaction, self.game_id, self.step, self.source, self.index
        )
        await open_group(interaction, game, self.step, self.source, choice)


async def open_group(
    interaction: discord.Interaction, read: GameRecord, step: int, source: str, choice: str
) -> None:
    """Finish a choice that may stand for several actions (`choice`, a group, found in the
    game's row `read`): a group of one action is played at once (a set of one is no
    choice); several open as buttons, in the player's private reply itself when the choice
    was made there (with a way back), else in a new one."""
    client = client_of(interaction)
    game_id = read.id or 0
    if is_plan(choice):
        await act(interaction, game_id, step, plan_of(choice))
        return
    language = language_for(interaction.locale)  # the buttons come in a private reply
    game, actions = await client.sessions.narrow(
        interaction.channel_id or 0, game_id, interaction.user.id, step, choice, read, language
    )
    if len(actions) == 1:
        await act(interaction, game_id, step, actions[0][0])
        return
    in_place = source == HAND
    if not in_place:
        await defer_on_board(interaction)
    back = hand_button(game.kind, language) if in_place else None
    actions_shown = [(i, label) for i, _, label in actions]
    view = narrowed_view(game_id, step, actions_shown, back, language)
    # The reply's text may be drawn in a worker.
    reply = await in_time(
        interaction, board.narrowed_reply(client, game, choice, language), in_place=in_place
    )
    async with writing(interaction):
        if reply.pictures or not in_place:
            files = board.files_of(reply.pictures)
            sent = await send_private(interaction, in_place, reply.text, files, view)
        else:  # the hand's picture stays above the new buttons
            await edit_pressed(interaction, content=reply.text, view=view)
            sent = None
        keep_reply(interaction, sent, language, step)


def controls_view(
    game_id: int,
    step: int,
    controls: Sequence[BoardControl],
    legal: list[str],
    source: str,
    hand_label: str | None = None,
) -> discord.ui.View:
    """Turn a presenter's controls into components within Discord's limits: menus of more
    than 25 choices are split, buttons fill rows of five, at most five rows in all."""
    view = routed_by_custom_id(discord.ui.View(timeout=None))
    for slot, menu in enumerate(menu_chunks(controls)):
        values = [str(i) for i in range(len(menu.choices))]
        view.add_item(MenuSelect(game_id, step, source, slot, menu, values))
    for index, choice in enumerate(buttons_of(controls)):
        if choice.value in legal:
            view.add_item(ActButton(game_id, step, legal.index(choice.value), choice.label))
        else:  # a group of actions, finished after
            view.add_item(GroupButton(game_id, step, source, index, choice.label))
    for control in controls:
        if isinstance(control, OwnItems):
            for item in control.make(game_id, step):
                view.add_item(item)
    if hand_label:
        view.add_item(HandButton(game_id, hand_label))
    return view


def narrowed_view(
    game_id: int,
    step: int,
    actions: list[tuple[int, str]],
    back: str | None = None,
    language: str = ENGLISH,
) -> discord.ui.View:
    """The actions of one group: buttons while they fit, menus of them beyond that; and,
    given its label, a button `back` to the player's whole view (it takes a button, or a
    row beside menus)."""
    view = routed_by_custom_id(discord.ui.View(timeout=None))
    if len(actions) + (back is not None) <= MAX_OPTIONS:
        for index, label in actions:
            view.add_item(ActButton(game_id, step, index, label))
    else:
        menu = Menu(say(CHOOSE, language), [Choice("", label) for _, label in actions])
        rows = MAX_ROWS - (back is not None)
        for slot, chunk in enumerate(menu_chunks([menu])[:rows]):
            first = slot * MAX_OPTIONS
            values = [str(index) for index, _ in actions[first : first + len(chunk.choices)]]
            view.add_item(MenuSelect(game_id, step, ACTIONS, slot, chunk, values))
    if back is not None:
        view.add_item(HandButton(game_id, back))
    return view


class HandButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"tt:hand:(?P<game>{NUMBER})",
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

    async def pressed(self, interaction: discord.Interaction) -> None:
        await show_hand(interaction, self.game_id)


# ---------------------------------------------------------------------- private replies


async def show_hand(interaction: discord.Interaction, game_id: int) -> None:
    """The player's own view, privately, with the controls only they may see: a new reply
    from the board, the same reply made whole again from within it (back from a card's
    targets)."""
    in_place = in_private_reply(interaction)
    client = client_of(interaction)
    if not in_place:
        await defer_on_board(interaction)

    language = language_for(interaction.locale)

    async def reply() -> tuple[int, tuple[str, list[Picture], discord.ui.View | None]]:
        game, seat, obs = await client.sessions.view_for(game_id, interaction.user.id)
        return game.step, await private_reply(client, game, seat, obs, language)

    step, (text, pictures, view) = await in_time(interaction, reply(), in_place=in_place)
    async with writing(interaction):
        sent = await send_private(interaction, in_place, text, board.files_of(pictures), view)
        keep_reply(interaction, sent, language, step)


async def private_reply(
    client: TrashTableBot,
    game: GameRecord,
    seat: int,
    obs: JSON,
    language: str,
    deciding_only: bool = False,
) -> tuple[str, list[Picture], discord.ui.View | None]:
    """A player's own view and, when it is their turn, their controls, in `language`
    (`deciding_only`: nothing drawn, and no view, unless they have controls now)."""
    reply = await board.own_view(client, game, seat, obs, language, deciding_only)
    view = None
    if reply.controls:
        view = controls_view(game.id or 0, game.step, reply.controls, reply.legal, HAND)
    return reply.text, reply.pictures, view


async def show_turn(client: TrashTableBot, game: GameRecord, presser: int = 0) -> None:
    """Whoever must decide now in `game` sees it in their open private reply, without
    pressing "My hand" (`replies.refresh`); `presser`'s own answer shows theirs."""
    await refresh(client, game, presser, partial(private_reply, deciding_only=True))


async def next_decision(interaction: discord.Interaction, pressed: Press) -> dict[str, Any]:
    """After an action from a private reply, what that reply shows next (for `edit_pressed`):
    the player's next decision when it is theirs again at once (defend, then burn, then
    attack), else "Done."."""
    client = client_of(interaction)
    game, seat = pressed.update.game, pressed.seat
    language = language_for(interaction.locale)
    # What the action told this player alone (the card drawn, a peek at a hand) leads.
    told = (
        # The newest, in at most half of the reply (clipped to Discord's 2,000 when sent).
        fit_lines(
            "",
            [f"🔒 {line}" for line in pressed.update.private_lines(seat, language)],
            "",
            MAX_CONTENT // 2,
            language,
        )
        if seat is not None
        else ""
    )
    obs = pressed.own_view  # set when the player must decide again now
    if seat is not None and obs is not None and PRESENTERS[game.kind].private_controls:
        text, pictures, view = await private_reply(client, game, seat, obs, language)
        text = f"{told}\n\n{text}" if told else text
        return {"content": text, "attachments": board.files_of(pictures), "view": view}
    done = say(DONE, language)
    done = f"{told}\n\n{done}" if told else done
    return {"content": done, "attachments": [], "view": None}
