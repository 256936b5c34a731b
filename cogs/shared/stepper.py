"""The replay stepper: a finished game walked through board by board, privately.

`/game replay` answers its asker with the game's first board in a private message, and
posts a short animated summary in the channel whose "Step through" button opens the same
for anyone. Private, because each reader steps at their own pace: one public message
stepped by several people would jump under everyone's eyes, and every press would redraw
a channel message.

Each moment shows the board the channel saw, the public log lines of the actions that led
to it (`bot/replays.py` rebuilds both through the engine: nothing meant for one seat), and
buttons ◀ ▶ (a board back or on), ⏮ ⏭ (the start of this turn or the one before, the
next turn's start or the end), and a menu of the turns. Their custom ids hold only the
game's id and a board's number (`tt:replay:<game>:<board>:<op>`, `tt:replayturn:<game>`),
so they work after a restart: each press loads the game's log again, rebuilds it in a
worker (unless it is one of the few games read lately) and draws the one board there.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.games import GAMES
from bot.models import GameRecord
from bot.replays import Frame, GameLog, frame_count, load_log, rebuild, turn_starts
from bot.requests import UserError, format_event, seat_names
from cogs.shared import board
from cogs.shared.components import NUMBER, PICK_ONE, picked_value
from cogs.shared.interactions import (
    AnsweredOnce,
    client_of,
    in_private_reply,
    in_time,
    routed_by_custom_id,
    send_private,
)
from cogs.shared.limits import MAX_CONTENT, fit_lines
from cogs.shared.menus import MAX_OPTIONS
from cogs.shared.presenter import PRESENTERS, Picture
from lang import ENGLISH, language_for, say
from rules.base import Event
from rules.phrases import Phrase, phrase, phrase_in

if TYPE_CHECKING:
    from bot.client import TrashTableBot

FIRST_LINE = phrase("The game begins.")
NOTHING_SHOWN = phrase("Nothing anyone could see happened since the board before.")

# A button's target and what it does: a board back or on, a turn's start back or on, and
# the summary's "Step through" (which opens a new private message at board 1).
OPS = {
    "turnback": phrase_in("button", "⏮ Turn"),
    "back": phrase_in("button", "◀ Back"),
    "next": phrase_in("button", "Next ▶"),
    "turnnext": phrase_in("button", "Turn ⏭"),
    "open": phrase_in("button", "Step through it"),
}


@dataclass(frozen=True)
class Moment:
    """One board of a replay as the stepper shows it."""

    index: int  # the board's place, from 0
    count: int  # boards in the replay
    pictures: list[Picture]
    summary: str  # the presenter's line about the game at that board
    lines: list[str]  # what happened since the board before, names filled in
    starts: list[int]  # the boards that start a turn
    turns: list[tuple[int, str]]  # the menu's turns: (board, summary), around this one
    language: str = ENGLISH  # its reader's: the stepper is private


def turn_window(starts: list[int], index: int) -> list[int]:
    """Up to 25 turn starts for the menu (Discord's most): all of them, or those around
    the turn `index` is in."""
    current = max((n for n, start in enumerate(starts) if start <= index), default=0)
    first = max(0, min(current - MAX_OPTIONS // 2, len(starts) - MAX_OPTIONS))
    return starts[first : first + MAX_OPTIONS]


# Games rebuilt lately, by a digest of their whole log: a rebuild takes up to a second
# (Toss It's throws are simulated again), drawing one board a tenth of that, and a reader
# steps through one game press after press. Keyed by everything `rebuild` reads, so a
# frame kept is the one it would make now (a log that changed, its end included, is
# rebuilt and checked again); the rules are checked on every press (`load_log`).
KEPT_GAMES = 8
_rebuilt: OrderedDict[str, list[Frame]] = OrderedDict()


def digest(log: GameLog) -> str:
    text = json.dumps(asdict(log), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


async def frames_of(client: TrashTableBot, log: GameLog) -> list[Frame]:
    """The game's frames, rebuilt in a worker (raises `ReplayRefused` for other rules)."""
    key = digest(log)
    frames = _rebuilt.get(key)
    if frames is None:
        frames = await client.workers.run(rebuild, log)
        _rebuilt[key] = frames
        while len(_rebuilt) > KEPT_GAMES:
            _rebuilt.popitem(last=False)
    _rebuilt.move_to_end(key)
    return frames


async def moment_of(
    client: TrashTableBot, game: GameRecord, log: GameLog, index: int, language: str
) -> tuple[str, Moment]:
    """Board `index` of a finished game (its row and log, `load_log`'s), and the game's
    title, for a reader of `language`; a UserError says why not (no such board, other
    rules). The board is drawn in a worker, from its public view only."""
    count = frame_count(log)
    if not 0 <= index < count:  # a forged id: no press of ours leads there
        raise UserError(
            phrase(
                "Game #{id}'s replay has no board {number}: it has {count}.",
                id=log.id,
                number=index + 1,
                count=count,
            )
        )
    frames = await frames_of(client, log)
    frame, names = frames[index], seat_names(game, language)
    presenter = PRESENTERS[log.kind]
    pictures = await client.workers.run(presenter.board, frame.view, names, frame.since)
    starts = turn_starts(frames)
    moment = Moment(
        index=index,
        count=len(frames),
        pictures=pictures,
        summary=presenter.summary(frame.view, names),
        lines=[format_event(Event(line), names) for line in frame.lines],
        starts=starts,
        turns=[(n, presenter.summary(frames[n].view, names)) for n in turn_window(starts, index)],
        language=names.language,
    )
    return f"{GAMES[game.kind].title} #{log.id}", moment


def moment_text(title: str, moment: Moment) -> str:
    """The message's words: which board of which turn, the game then, what happened."""
    turn = sum(1 for start in moment.starts if start <= moment.index)
    where = phrase(
        "**Replay of {title}** · board {board} of {boards} · turn {turn} of {turns}",
        title=title,
        board=moment.index + 1,
        boards=moment.count,
        turn=turn,
        turns=len(moment.starts),
    )
    header = f"{say(where, moment.language)}\n{moment.summary}"
    nothing: Phrase = FIRST_LINE if moment.index == 0 else NOTHING_SHOWN
    lines = moment.lines or [say(nothing, moment.language)]
    return fit_lines(header, [f"• {line}" for line in lines], "", MAX_CONTENT, moment.language)


def moment_view(game_id: int, moment: Moment) -> discord.ui.View:
    """◀ ▶ a board back or on, ⏮ ⏭ a turn's start back or on (the last board after the
    last turn's start), and the menu of turns; each disabled where it would lead nowhere."""
    index, last = moment.index, moment.count - 1
    earlier = [start for start in moment.starts if start < index]
    later = [start for start in moment.starts if start > index]
    targets = {
        "turnback": earlier[-1] if earlier else 0,
        "back": max(index - 1, 0),
        "next": min(index + 1, last),
        "turnnext": later[0] if later else last,
    }
    view = routed_by_custom_id(discord.ui.View(timeout=None))
    for op, target in targets.items():
        view.add_item(
            ReplayButton(game_id, target, op, disabled=target == index, language=moment.language)
        )
    if len(moment.starts) > 1:
        view.add_item(TurnSelect(game_id, moment))
    return view


async def show_moment(interaction: discord.Interaction, game_id: int, index: int) -> None:
    """Board `index` in the private message pressed in, or (from the channel's summary)
    in a new private message."""
    in_place = in_private_reply(interaction)
    client = client_of(interaction)
    guild_id = interaction.guild_id or 0
    # Drawn in a worker: deferred if it is not ready by the time the picture's upload
    # needs the rest of Discord's 3 s.

    language = language_for(interaction.locale)  # the stepper is private

    async def moment() -> tuple[str, Moment]:
        game, log = await load_log(client.sessions.db, guild_id, game_id)
        return await moment_of(client, game, log, index, language)

    title, shown = await in_time(interaction, moment(), in_place=in_place)
    files = board.files_of(shown.pictures)
    await send_private(
        interaction, in_place, moment_text(title, shown), files, moment_view(game_id, shown)
    )


class ReplayButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"tt:replay:(?P<game>{NUMBER}):(?P<board>{NUMBER}):(?P<op>{'|'.join(OPS)})",
):
    """A step of the replay: to board `board` (from 0) of game `game`. The op only tells
    the buttons of one message apart (two may lead to the same board) and gives the label."""

    def __init__(
        self,
        game_id: int,
        index: int,
        op: str,
        disabled: bool = False,
        language: str = ENGLISH,
    ) -> None:
        style = discord.ButtonStyle.primary if op == "open" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=say(OPS[op], language),
                style=style,
                disabled=disabled,
                custom_id=f"tt:replay:{game_id}:{index}:{op}",
            )
        )
        self.game_id, self.index = game_id, index

    def leads_to_boards(self) -> bool:
        return False  # it posts nothing in the channel

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(int(match["game"]), int(match["board"]), match["op"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        await show_moment(interaction, self.game_id, self.index)


class TurnSelect(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"tt:replayturn:(?P<game>{NUMBER})",
):
    """The menu of turns: each option's value is the board its turn starts at."""

    COMPONENT = discord.ComponentType.string_select

    def __init__(self, game_id: int, moment: Moment | None = None) -> None:
        options = []
        language = moment.language if moment is not None else ENGLISH
        if moment is not None:
            current = max(s for s in moment.starts if s <= moment.index)
            for start, summary in moment.turns:
                number = moment.starts.index(start) + 1
                label = phrase("Turn {turn} · board {board}", turn=number, board=start + 1)
                options.append(
                    discord.SelectOption(
                        label=say(label, language),
                        value=str(start),
                        description=summary[:100] or None,
                        default=start == current,
                    )
                )
        super().__init__(
            discord.ui.Select(
                custom_id=f"tt:replayturn:{game_id}",
                placeholder=say(phrase("Jump to a turn…"), language),
                options=options or [discord.SelectOption(label="-", value="0")],
            )
        )
        self.game_id = game_id

    def leads_to_boards(self) -> bool:
        return False

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TurnSelect:
        menu = cls(int(match["game"]))
        menu.item.options = getattr(item, "options", [])  # the message's own
        return menu

    async def pressed(self, interaction: discord.Interaction) -> None:
        index = picked_value(interaction, self.item)
        if index is None:
            raise UserError(PICK_ONE)
        await show_moment(interaction, self.game_id, index)
