"""Board messages: after every change the channel gets one new message with the public
picture, the log lines since the last one, whose turn it is and the controls; the previous
board message loses its controls (the poster, `cogs/shared/poster.py`, posts them from the
outbox). A player's own view is an ephemeral reply.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.models import GameRecord, OutboxEntry, Status
from bot.sessions import (
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
from cogs.shared.presenter import PRESENTERS, Control, HandReply, Picture
from rules.base import JSON, Event

if TYPE_CHECKING:
    from bot.client import TrashTableBot

log = logging.getLogger(__name__)

MAX_CONTENT = 2000  # Discord's limit for a message's text


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


async def clear_controls(client: TrashTableBot, channel_id: int, message_id: int) -> None:
    try:
        await (
            client.get_partial_messageable(channel_id)
            .get_partial_message(message_id)
            .edit(view=None)
        )
    except (discord.NotFound, discord.Forbidden) as error:  # deleted by a moderator, say
        log.info("could not clear controls of message %s: %s", message_id, error.status)


async def board_message(
    client: TrashTableBot, entry: OutboxEntry, game: GameRecord
) -> tuple[str, list[Picture], discord.ui.View | None, discord.AllowedMentions]:
    """A board entry of the outbox as a message. It is drawn from the entry alone (the
    public view saved with it); `game` as it is now only decides the controls: they go on
    a board that shows the game's current step, and a board delivered late (after a
    restart, say) gets none that would be out of date, only "My hand"."""
    sessions = client.sessions
    presenter = PRESENTERS[game.kind]
    board = entry.payload
    obs, names = board["view"], board["names"]
    pictures = await client.workers.run(presenter.board, obs, names, board["since"])
    header = f"**{engine_of(game).title}** · {presenter.summary(obs, names)}"
    lines = [f"• {line}" for line in board["lines"]]
    playing = game.status == Status.PLAYING
    current = playing and entry.step == game.step
    mentions = discord.AllowedMentions.none()
    footer = ""
    controls: list[Control] = []
    legal: list[str] = []
    if board["status"] == Status.FINISHED:
        footer = "**The game is over.** `/scoreboard` has the standings."
    elif board["mention"]:
        users = board["mention"]
        footer = "➡️ " + ", ".join(f"<@{u}>" for u in users) + ": your turn."
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in users])
        # Controls on the board only when one player is to act; simultaneous choices are
        # made in each player's private reply.
        if current and len(board["waiting"]) == 1:
            legal = sessions.legal_for(game, board["waiting"][0])
            controls = presenter.controls(obs, legal, describer(game))
    view = None
    if playing and board["status"] == Status.PLAYING:
        view = components.controls_view(
            game.id or 0, entry.step, controls, legal, components.BOARD, presenter.hand_label
        )
    return fit_lines(header, lines, footer), pictures, view, mentions


def describer(game: GameRecord) -> Callable[[str], str]:
    """Labels for the controls of `game` as it stands, with the players' names filled in;
    the state is decoded once for all of a message's controls."""
    engine = engine_of(game)
    assert game.state is not None, "only a started game has controls"
    state = engine.from_json(game.state)
    names = seat_names(game)
    return lambda action: format_event(Event(engine.describe(state, action)), names)


def describe(game: GameRecord, action: str) -> str:
    """One control's label (`describer` for many)."""
    return describer(game)(action)


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
    await interaction.followup.send(
        text,
        files=files_of(pictures),
        ephemeral=True,
        view=view if view is not None else discord.utils.MISSING,
    )


async def private_reply(
    client: TrashTableBot, game: GameRecord, seat: int, obs: JSON
) -> tuple[str, list[Picture], discord.ui.View | None]:
    """A player's own view and, when it is their turn, their controls."""
    sessions = client.sessions
    presenter = PRESENTERS[game.kind]
    legal = sessions.legal_for(game, seat) if game.status == Status.PLAYING else []
    reply = await client.workers.run(presenter.hand, obs, seat_names(game))
    controls = presenter.hand_controls(obs, legal, describer(game))
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
        # `update.game` is the row as the request last saved it: no need to read it again.
        seat, obs = client.sessions.own_view(game, interaction.user.id)
        if PRESENTERS[game.kind].private_controls:
            text, pictures, view = await private_reply(client, game, seat, obs)
            text = f"{told}\n\n{text}" if told else text
            await interaction.edit_original_response(
                content=text[:MAX_CONTENT], attachments=files_of(pictures), view=view
            )
            return
    done = f"{told}\n\nDone." if told else "Done."
    await interaction.edit_original_response(content=done[:MAX_CONTENT], attachments=[], view=None)


async def narrowed_reply(client: TrashTableBot, game: GameRecord, prefix: str) -> HandReply:
    """The text (and picture, if the game has one) over the buttons that finish a choice
    started in a menu. Drawn from the public view: the choices narrowed are public ones or
    the chooser's own."""
    presenter = PRESENTERS[game.kind]
    obs = client.sessions.public_view(game)
    reply = await client.workers.run(presenter.narrowed, obs, prefix, seat_names(game))
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
    menus = components.menu_chunks(build(obs, legal, describer(game)))
    if not (0 <= slot < len(menus) and 0 <= picked < len(menus[slot].choices)):
        raise UserError("That choice is not open to you any more.")
    return menus[slot].choices[picked].value
