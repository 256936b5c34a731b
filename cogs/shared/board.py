"""Board messages: one a turn. When the turn passes to a person the channel gets a new
message with the public picture, the log lines since the last one, whose turn it is and
the controls; while it goes on (the same person acting, the AI playing after them) that
message is edited, adding its lines to the ones it showed (the poster,
`cogs/shared/poster.py`, delivers them from the outbox). A player's own view is an
ephemeral reply.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.models import GameRecord, OutboxEntry, Status
from bot.requests import UserError, engine_of, notes_since_last_move, seat_names
from cogs.shared.interactions import client_of, routed_by_custom_id
from cogs.shared.limits import (
    MAX_CONTENT,
    MAX_FILES,
    MAX_LAYOUT_TEXT,
    clip,
    fit_lines,
    guild_upload_limit,
    upload_budget,
)
from cogs.shared.menus import HAND, buttons_of, menu_chunks
from cogs.shared.presenter import (
    PRESENTERS,
    BoardControl,
    HandReply,
    Picture,
    Recaps,
    hand_button,
)
from cogs.shared.standings import standings_lines
from lang import ENGLISH, say
from rules.base import JSON
from rules.phrases import Readers, phrase

if TYPE_CHECKING:
    from bot.client import TrashTableBot

log = logging.getLogger(__name__)

GONE = phrase("That choice is not open to you any more.")
# Over the buttons of a menu entry whose game asks nothing of its own (each game here does).
PLAIN_QUESTION = phrase("Pick one of these:")
GAME_OVER = phrase(
    "**The game is over.** `/scoreboard` has the standings; **Rematch** plays again "
    "with the same seats."
)
SINCE_LAST_MOVE = phrase("Since your last move:")


def files_of(pictures: list[Picture]) -> list[discord.File]:
    return [discord.File(io.BytesIO(p.data), filename=p.filename) for p in pictures]


def fit_pictures(pictures: list[Picture], budget: int) -> list[Picture]:
    """The pictures, in order, while they fit `budget` bytes together (and Discord's ten
    files): the first ones matter most (a board's, before its recap). A board is about
    0.1 MB and the limit 10 MiB or more, so this only ever guards."""
    kept: list[Picture] = []
    for picture in pictures[:MAX_FILES]:
        if sum(len(p.data) for p in kept) + len(picture.data) > budget:
            break
        kept.append(picture)
    if len(kept) < len(pictures):
        left = [p.filename for p in pictures[len(kept) :]]
        log.warning("pictures %s left off a message: over %s bytes", left, budget)
    return kept


ROW_WIDTH = 5  # an action row holds five buttons, or one menu (width 5)


def control_rows(view: discord.ui.View | None) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    """A classic view's controls as action rows, in order: each menu on a row of its own,
    buttons five to a row (the rows Discord would have made of them)."""
    rows: list[discord.ui.ActionRow[discord.ui.LayoutView]] = []
    room = 0
    for item in view.children if view is not None else []:
        if item.width > room:
            rows.append(discord.ui.ActionRow())
            room = ROW_WIDTH
        rows[-1].add_item(item)
        room -= item.width
    return rows


def board_layout(
    text: str, files: Sequence[str], controls: discord.ui.View | None = None
) -> discord.ui.LayoutView:
    """A board message in Discord's layout components: one container with the text (its
    only text display, so it may take all of Discord's 4,000 characters), the pictures (the
    message's own attachments, by name) and the controls. At most 3 components besides the
    controls, whose view Discord (and discord.py) holds to 25 items in 5 rows: 33 at most
    of the 40 a message may have."""
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container()
    container.add_item(discord.ui.TextDisplay(clip(text, MAX_LAYOUT_TEXT)))
    if files:
        items = [discord.MediaGalleryItem(f"attachment://{name}") for name in files]
        container.add_item(discord.ui.MediaGallery(*items))
    for row in control_rows(controls):
        container.add_item(row)
    layout = routed_by_custom_id(discord.ui.LayoutView(timeout=None))
    layout.add_item(container)
    return layout


async def clear_controls(
    client: TrashTableBot,
    channel_id: int,
    message_id: int,
    layout: discord.ui.LayoutView | None = None,
) -> None:
    """Take the controls off a message; a layout message is given again as `layout`,
    without them (it has no text outside its components)."""
    message = client.get_partial_messageable(channel_id).get_partial_message(message_id)
    try:
        if layout is None:
            await message.edit(view=None)
        else:
            await message.edit(content=None, embed=None, view=layout)
    except (discord.NotFound, discord.Forbidden) as error:  # deleted by a moderator, say
        log.info("could not clear controls of message %s: %s", message_id, error.status)


# The rest of a board's request besides its pictures: the text (4,000 characters, up to 4
# bytes each in UTF-8) and the components' JSON.
BOARD_RESERVED = 4 * MAX_LAYOUT_TEXT + 8192


@dataclass(frozen=True)
class BoardMessage:
    """A board as the channel gets it; the poster turns `controls` into components."""

    text: str
    pictures: list[Picture]
    mentions: discord.AllowedMentions
    controls: Sequence[BoardControl]
    legal: list[str]
    has_view: bool
    hand_label: str
    finished: bool  # the last board: it gets the Rematch button


async def board_message(
    client: TrashTableBot, entry: OutboxEntry, game: GameRecord, earlier: Sequence[str] = ()
) -> BoardMessage:
    """A board entry of the outbox as a message. It is drawn from the entry alone (the
    public view saved with it) and the `earlier` lines of the message it edits, if any;
    `game` as it is now only decides the controls: they go on a board that shows the
    game's current step, and a board delivered late (after a restart, say) gets none that
    would be out of date, only "My hand"."""
    sessions = client.sessions
    presenter = PRESENTERS[game.kind]
    board = entry.payload
    # The names as the entry kept them, read in the game's language: a board is public.
    language = seat_names(game).language
    obs, names = board["view"], Readers(board["names"], language)
    pictures = await client.workers.run(presenter.board, obs, names, board["since"])
    header = f"**{engine_of(game).title}** · {presenter.summary(obs, names)}"
    lines = [f"• {line}" for line in [*earlier, *board["lines"]]]
    playing = game.status == Status.PLAYING
    current = playing and entry.step == game.step
    mentions = discord.AllowedMentions.none()
    footer = ""
    controls: Sequence[BoardControl] = []
    legal: list[str] = []
    if board["status"] == Status.FINISHED:
        footer = say(GAME_OVER, language)
        if board.get("standings"):  # kept since the recap; older entries have none
            footer = "\n".join([*standings_lines(board["standings"], language, names), footer])
        if isinstance(presenter, Recaps):
            pictures.append(await client.workers.run(presenter.recap, obs, names))
    elif board["mention"]:
        users = board["mention"]
        pings = ", ".join(f"<@{u}>" for u in users)
        footer = "➡️ " + say(phrase("{players}: your turn.", players=pings), language)
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in users])
        # Controls on the board only when one player is to act; simultaneous choices are
        # made in each player's private reply.
        if current and len(board["waiting"]) == 1:
            legal = sessions.legal_for(game, board["waiting"][0])
            language = game.language or ENGLISH
            offered = sessions.one_of_each(game, legal)  # identical cards: one control
            controls = presenter.controls(obs, offered, sessions.describer(game), language)
    limit = guild_upload_limit(client.get_guild(game.guild_id))
    return BoardMessage(
        fit_lines(header, lines, footer, MAX_LAYOUT_TEXT, language),
        fit_pictures(pictures, upload_budget(limit, BOARD_RESERVED)),
        mentions,
        controls,
        legal,
        # Controls (at least "My hand") while the game is on, none on a finished game's board.
        has_view=playing and board["status"] == Status.PLAYING,
        hand_label=hand_button(game.kind, language),
        finished=board["status"] == Status.FINISHED,
    )


@dataclass(frozen=True)
class OwnView:
    """A player's private reply: their own view, and the controls of their decision."""

    text: str
    pictures: list[Picture]
    controls: Sequence[BoardControl]
    legal: list[str]


async def own_view(
    client: TrashTableBot,
    game: GameRecord,
    seat: int,
    obs: JSON,
    language: str,
    deciding_only: bool = False,
) -> OwnView:
    """A player's own view and, when it is their turn, what they may do: a private reply,
    in its reader's `language`. `deciding_only`: nothing is drawn (an empty view) unless
    the player has controls in it now."""
    sessions = client.sessions
    presenter = PRESENTERS[game.kind]
    legal = sessions.legal_for(game, seat) if game.status == Status.PLAYING else []
    describe = sessions.describer(game, language=language)
    # One control a decision (identical cards: one button); `legal` keeps every action,
    # as a button holds its action's index among them.
    controls = presenter.hand_controls(obs, sessions.one_of_each(game, legal), describe, language)
    if deciding_only and not controls:
        return OwnView("", [], [], legal)
    reply = await client.workers.run(presenter.hand, obs, seat_names(game, language))
    text = reply.text
    # A card taken from this hand, a Slug given…
    notes = notes_since_last_move(game, seat, language)
    if notes:
        # The newest notes, in at most half of a private reply (its text is clipped to fit
        # Discord's 2,000 characters when sent): the hand's own text keeps the other half.
        told = [f"🔒 {note}" for note in notes]
        since = say(SINCE_LAST_MOVE, language)
        text = f"{fit_lines(since, told, '', MAX_CONTENT // 2, language)}\n\n{text}"
    return OwnView(text, reply.pictures, controls, legal)


async def narrowed_reply(
    client: TrashTableBot, game: GameRecord, group: str, language: str
) -> HandReply:
    """The text (and picture, if the game has one) over the buttons that finish a choice
    started in a menu, in its reader's `language`. Drawn from the public view: the choices
    narrowed are public ones or the chooser's own."""
    presenter = PRESENTERS[game.kind]
    obs = client.sessions.public_view(game)
    names = seat_names(game, language)
    reply = await client.workers.run(presenter.narrowed, obs, group, names)
    return reply or HandReply(say(PLAIN_QUESTION, language))


async def built_controls(
    interaction: discord.Interaction, game_id: int, step: int, source: str
) -> tuple[GameRecord, Sequence[BoardControl]]:
    """The controls of the board (`source` BOARD) or of the player's own reply (HAND) as
    they were made at `step`: built again from the game, the same (the step check
    guarantees it); with the game's row they were built from."""
    sessions = client_of(interaction).sessions
    own = source == HAND
    game, obs, legal = await sessions.turn_view(
        interaction.channel_id or 0, game_id, interaction.user.id, step, own
    )
    presenter = PRESENTERS[game.kind]
    build = presenter.hand_controls if own else presenter.controls
    return game, build(obs, sessions.one_of_each(game, legal), sessions.describer(game))


async def menu_choice(
    interaction: discord.Interaction,
    game_id: int,
    step: int,
    source: str,
    slot: int,
    picked: Sequence[int],
) -> tuple[GameRecord, str]:
    """What the `picked` options of menu `slot` stood for (one choice, or the plan several
    picked together make: `Menu.picked`), and the game's row it was read from."""
    game, controls = await built_controls(interaction, game_id, step, source)
    menus = menu_chunks(controls)
    if not 0 <= slot < len(menus):
        raise UserError(GONE)
    menu = menus[slot]
    positions = sorted(set(picked))
    if not positions or len(positions) != len(picked) or len(positions) > menu.most:
        raise UserError(GONE)
    if not all(0 <= p < len(menu.choices) for p in positions):
        raise UserError(GONE)
    return game, menu.picked(positions)


async def button_choice(
    interaction: discord.Interaction, game_id: int, step: int, source: str, index: int
) -> tuple[GameRecord, str]:
    """What the button at `index` among the controls' buttons stood for, and the game's
    row it was read from."""
    game, controls = await built_controls(interaction, game_id, step, source)
    buttons = buttons_of(controls)
    if not 0 <= index < len(buttons):
        raise UserError(GONE)
    return game, buttons[index].value
