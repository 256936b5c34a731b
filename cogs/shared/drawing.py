"""What the poster delivers, drawn: an outbox entry as a board message with its controls
(built from the game as it is now: `board.board_message`), and a lobby without its
controls. The table cog hands the poster (cogs/shared/poster.py) a `Drawer`, so the poster
only delivers what it is given and imports nothing of the controls or the game's live
state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.models import GameRecord, OutboxEntry
from bot.requests import seat_names
from cogs.shared import board, components, lobby_controls, menus, rematch
from cogs.shared.poster import DrawnBoard

if TYPE_CHECKING:
    from bot.client import TrashTableBot


class Drawer:
    """The presenter layer as the poster uses it (`poster.Drawing`)."""

    def __init__(self, client: TrashTableBot) -> None:
        self.client = client

    async def board(
        self, entry: OutboxEntry, game: GameRecord, earlier: Sequence[str] = ()
    ) -> DrawnBoard:
        """A board entry as a message (`board.board_message`), after the `earlier` lines of
        the message it edits, if any, with its controls as components."""
        shown = await board.board_message(self.client, entry, game, earlier)
        files = [picture.filename for picture in shown.pictures]
        layout = board.board_layout(shown.text, files, _view_of(entry, game, shown))
        return DrawnBoard(
            layout, shown.pictures, shown.mentions, {"text": shown.text, "files": files}
        )

    def bare_lobby(self, game: GameRecord) -> discord.ui.LayoutView:
        """The game's lobby message as it stands, without its controls."""
        return lobby_controls.lobby_view(game, controls=False)


def _view_of(
    entry: OutboxEntry, game: GameRecord, shown: board.BoardMessage
) -> discord.ui.View | None:
    if shown.has_view:
        return components.controls_view(
            game.id or 0,
            entry.step,
            shown.controls,
            shown.legal,
            menus.BOARD,  # where the menus' choices come from: the board's
            shown.hand_label,
        )
    if shown.finished:
        return rematch.rematch_view(game.id or 0, seat_names(game).language)
    return None
