"""Board messages: after every change the channel gets one new message with the public
picture, the log lines since the last one, whose turn it is and the controls; the previous
board message loses its controls. A player's own view is an ephemeral reply.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import defaultdict
from typing import TYPE_CHECKING

import discord

from bot.models import Status
from bot.sessions import (
    ShowPart,
    Update,
    UserError,
    engine_of,
    format_event,
    notes_since_last_move,
    seat_names,
    seat_of,
)
from cogs.shared import components
from cogs.shared.interactions import client_of, refuse
from cogs.shared.presenter import PRESENTERS, HandReply, Picture
from rules.base import Event

if TYPE_CHECKING:
    from bot.client import TrashTableBot

log = logging.getLogger(__name__)

MAX_CONTENT = 2000  # Discord's limit for a message's text
_posting: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)


def files_of(pictures: list[Picture]) -> list[discord.File]:
    return [discord.File(io.BytesIO(p.data), filename=p.filename) for p in pictures]


def fit_lines(header: str, lines: list[str], footer: str) -> str:
    """Header, as many of the latest log lines as fit, footer: within Discord's limit."""
    budget = MAX_CONTENT - len(header) - len(footer) - 20
    kept: list[str] = []
    for line in reversed(lines):
        if len(line) + 1 > budget:
            kept.append("…")
            break
        kept.append(line)
        budget -= len(line) + 1
    body = "\n".join(reversed(kept))
    return "\n".join(part for part in (header, body, footer) if part)


async def show_update(client: TrashTableBot, update: Update) -> None:
    """Post the board after an update, and take the controls off the previous one."""
    if not update.events and not update.started:
        return
    game = update.game
    async with _posting[game.channel_id]:
        latest = await client.sessions.get(game.id or 0)
        if latest is None or latest.step > game.step:
            return  # a newer update is waiting for this lock and will post the board
        old_board = latest.board_message_id
        content, pictures, view, mentions = await _board_message(client, latest, update)
        channel = client.get_partial_messageable(game.channel_id)
        message = await channel.send(
            content, files=files_of(pictures), view=view, allowed_mentions=mentions
        )
        await client.sessions.set_message(game.id or 0, board=message.id)
        if old_board:
            await clear_controls(client, game.channel_id, old_board)


def shown_apart(client: TrashTableBot, part: Update) -> bool:
    """Whether a request's changes so far get their own board before the AI's next move: in
    a game that shows every action apart (Toss It: the bin after each drop), unless a
    person must act too (a card to choose beside the AI's): that board's controls would be
    out of date the moment the AI acts."""
    board_each_action = PRESENTERS[part.game.kind].board_each_action
    return board_each_action and not client.sessions.humans_to_act(part.game)


def part_poster(client: TrashTableBot) -> ShowPart:
    """The `show_part` of requests with nobody's reply to answer (the timer, a restart)."""

    async def show_part(part: Update) -> bool:
        if not shown_apart(client, part):
            return False
        await show_update(client, part)
        return True

    return show_part


async def clear_controls(client: TrashTableBot, channel_id: int, message_id: int) -> None:
    try:
        await (
            client.get_partial_messageable(channel_id)
            .get_partial_message(message_id)
            .edit(view=None)
        )
    except discord.HTTPException as error:  # deleted by a moderator, say: nothing to clear
        log.info("could not clear controls of message %s: %s", message_id, error.status)


async def _board_message(
    client: TrashTableBot, game, update: Update
) -> tuple[str, list[Picture], discord.ui.View | None, discord.AllowedMentions]:
    sessions = client.sessions
    presenter = PRESENTERS[game.kind]
    engine = engine_of(game)
    names = seat_names(game)
    obs = sessions.public_view(game)
    pictures = await asyncio.to_thread(presenter.board, obs, names, update.first_step)
    header = f"**{engine.title}** · {presenter.summary(obs, names)}"
    lines = [f"• {line}" for line in update.public_lines]
    waiting = sessions.humans_to_act(game) if game.status == Status.PLAYING else []
    mentions = discord.AllowedMentions.none()
    if game.status == Status.FINISHED:
        footer = "**The game is over.** `/scoreboard` has the standings."
        view = None
    elif waiting:
        users = [game.seats[s]["user_id"] for s in waiting]
        footer = "➡️ " + ", ".join(f"<@{u}>" for u in users) + ": your turn."
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in users])
        # Controls on the board only when one player is to act; simultaneous choices are
        # made in each player's private reply.
        legal = sessions.legal_for(game, waiting[0]) if len(waiting) == 1 else []
        controls = presenter.controls(obs, legal, lambda action: describe(game, action))
        view = components.controls_view(
            game.id, game.step, controls, legal, components.BOARD, presenter.hand_label
        )
    else:
        footer = ""
        view = components.controls_view(
            game.id, game.step, [], [], components.BOARD, presenter.hand_label
        )
    return fit_lines(header, lines, footer), pictures, view, mentions


def describe(game, action: str) -> str:
    """A control's label, with the players' names filled in."""
    engine = engine_of(game)
    label = engine.describe(engine.from_json(game.state), action)
    return format_event(Event(label), seat_names(game))


async def show_hand(interaction: discord.Interaction, game_id: int) -> None:
    """The player's own view, privately, with the controls only they may see."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    sessions = client_of(interaction).sessions
    try:
        game, seat, obs = await sessions.view_for(game_id, interaction.user.id)
    except UserError as error:
        await refuse(interaction, str(error))
        return
    text, pictures, view = await private_reply(client_of(interaction), game, seat, obs)
    kwargs = {"view": view} if view is not None else {}
    await interaction.followup.send(text, files=files_of(pictures), ephemeral=True, **kwargs)


async def private_reply(
    client: TrashTableBot, game, seat: int, obs
) -> tuple[str, list[Picture], discord.ui.View | None]:
    """A player's own view and, when it is their turn, their controls."""
    sessions = client.sessions
    presenter = PRESENTERS[game.kind]
    legal = sessions.legal_for(game, seat) if game.status == Status.PLAYING else []
    reply = await asyncio.to_thread(presenter.hand, obs, seat_names(game))
    controls = presenter.hand_controls(obs, legal, lambda action: describe(game, action))
    view = None
    if controls:
        view = components.controls_view(game.id or 0, game.step, controls, legal, components.HAND)
    text = reply.text
    notes = notes_since_last_move(game, seat)  # a card taken from this hand, a Slug given…
    if notes:
        text = "\n".join(["Since your last move:", *(f"🔒 {note}" for note in notes), "", text])
    return text, reply.pictures, view


async def follow_on(interaction: discord.Interaction, update: Update) -> None:
    """After an action from a private reply: show that player their next decision in the
    same reply when it is theirs again at once (defend, then burn, then attack), or close it.
    """
    client = client_of(interaction)
    game = update.game
    seat = seat_of(game, interaction.user.id)
    # What the action told this player alone (the card drawn, a peek at a hand) leads.
    told = (
        "\n".join(f"🔒 {line}" for line in update.private_lines(seat)) if seat is not None else ""
    )
    if seat is not None and seat in client.sessions.humans_to_act(game):
        _game, seat, obs = await client.sessions.view_for(game.id or 0, interaction.user.id)
        if PRESENTERS[game.kind].private_controls:
            text, pictures, view = await private_reply(client, game, seat, obs)
            text = f"{told}\n\n{text}" if told else text
            await interaction.edit_original_response(
                content=text[:MAX_CONTENT], attachments=files_of(pictures), view=view
            )
            return
    done = f"{told}\n\nDone." if told else "Done."
    await interaction.edit_original_response(content=done[:MAX_CONTENT], attachments=[], view=None)


async def narrowed_reply(client: TrashTableBot, game, prefix: str) -> HandReply:
    """The text (and picture, if the game has one) over the buttons that finish a choice
    started in a menu. Drawn from the public view: the choices narrowed are public ones or
    the chooser's own."""
    presenter = PRESENTERS[game.kind]
    obs = client.sessions.public_view(game)
    reply = await asyncio.to_thread(presenter.narrowed, obs, prefix, seat_names(game))
    return reply or HandReply("Choose:")


async def menu_choice(
    interaction: discord.Interaction, game_id: int, step: int, source: str, slot: int, picked: int
) -> str:
    """What the `picked` option of menu `slot` stood for: the menus are built again from the
    game at `step`, exactly as they were when posted (the step check guarantees it)."""
    sessions = client_of(interaction).sessions
    own = source == components.HAND
    game, obs, legal = await sessions.turn_view(
        interaction.channel_id or 0, game_id, interaction.user.id, step, own
    )
    presenter = PRESENTERS[game.kind]
    build = presenter.hand_controls if own else presenter.controls
    menus = components.menu_chunks(build(obs, legal, lambda action: describe(game, action)))
    if not (0 <= slot < len(menus) and 0 <= picked < len(menus[slot].choices)):
        raise UserError("That choice is not open to you any more.")
    return menus[slot].choices[picked].value
