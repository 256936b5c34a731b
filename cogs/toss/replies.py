"""Each player's aiming message for their turn, remembered so the turn keeps just one.

The aiming message (`aim.py`) carries the whole turn on its own: every press in it edits
it. But the board's "Aim … at…" menu stays on the board, and a player may press it again
(to find a message they dismissed, or from habit): that posts a new aiming message, and
the one before, now out of date, is removed through the press that posted it, so the
player never holds two. Kept in memory only, for the 14 minutes a press's token lasts
(as `cogs/shared/carriers.py`): after a restart the old message just stays.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import discord

from cogs.shared.carriers import TOKEN_SECONDS

log = logging.getLogger(__name__)


Turn = tuple[int, int, int]  # game id, user id, round: a player has one turn a round


@dataclass(frozen=True, slots=True)
class Reply:
    turn: Turn
    followup: discord.Webhook  # the token of the board press that posted it
    message_id: int
    since: float  # time.monotonic() when it was posted


class Replies:
    """The newest aiming message of each player in each game."""

    def __init__(self) -> None:
        self._newest: dict[tuple[int, int], Reply] = {}

    @classmethod
    def of(cls, client: discord.Client) -> Replies:
        """The client's (one per bot process), kept on the client so they go with it."""
        replies: Replies | None = getattr(client, "_toss_replies", None)
        if replies is None:
            replies = cls()
            setattr(client, "_toss_replies", replies)  # noqa: B010 (not a declared attribute)
        return replies

    async def posted(self, turn: Turn, followup: discord.Webhook, message_id: int) -> None:
        """A new aiming message was posted for `turn`: the one before in the same turn, if
        its token still lasts, is deleted."""
        now = time.monotonic()
        for key, reply in list(self._newest.items()):
            if now - reply.since >= TOKEN_SECONDS:
                del self._newest[key]  # its token is gone: nothing to remove it with
        before = self._newest.get(turn[:2])
        self._newest[turn[:2]] = Reply(turn, followup, message_id, now)
        if before is None or before.turn != turn or before.message_id == message_id:
            return
        try:
            await before.followup.delete_message(before.message_id)
        except discord.HTTPException as error:  # dismissed, or the token refused: it stays
            log.info("the earlier aiming message %s stays (%r)", before.message_id, error)
