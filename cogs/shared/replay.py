"""`/game replay`: a finished game posted again as one animated picture.

The game is rebuilt (`bot/replays.py`), drawn board by board by its presenter from public
views only, and animated (`render/animation.py`), all in one worker job: seconds of CPU for a
long game, so one replay runs at a time and the players of running games keep the other
workers.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.games import GAMES
from bot.replays import GameLog, ReplayRefused, load_log, rebuild, turn_ends
from bot.sessions import seat_names
from cogs.shared.board import board_layout
from cogs.shared.interactions import answer_command, first_answer
from cogs.shared.limits import MAX_LAYOUT_TEXT, upload_budget, upload_limit
from cogs.shared.presenter import PRESENTERS
from render.animation import MOST_FRAMES, Animation, Board, TooLarge, animate, pick
from rules.words import and_list

if TYPE_CHECKING:
    from bot.client import TrashTableBot

# The rest of the replay's request besides the GIF: its text (4,000 characters at most, up
# to 4 bytes each in UTF-8), the components' JSON and the form around them.
REST_OF_MESSAGE = 4 * MAX_LAYOUT_TEXT + 8192
TOO_LARGE = (
    "Game #{id} does not fit in a picture under this server's upload limit "
    "({limit:.1f} MiB), not even its last board."
)
CHOICES = 25  # Discord shows at most 25 autocomplete choices

_one_at_a_time = asyncio.Lock()


def replay_budget(limit: int) -> int:
    """The bytes the GIF may take under an upload `limit` (a margin kept, the rest of the
    message counted)."""
    return upload_budget(limit, REST_OF_MESSAGE)


def replay_animation(log: GameLog, names: list[str], budget: int, title: str) -> Animation:
    """Runs in a worker: the game rebuilt, the boards it will show (`render.animation.pick`)
    drawn from their public views, animated. A board drawn after others were left out marks
    everything since the board before it in the replay, as a board of the channel marks a
    player's move and the AI's after it."""
    presenter = PRESENTERS[log.kind]
    frames = rebuild(log)
    ends = turn_ends(frames)
    boards, since = [], frames[0].since
    for number in pick(len(frames), ends, MOST_FRAMES):
        frame = frames[number]
        pictures = presenter.board(frame.view, names, since)
        boards.append(Board([p.data for p in pictures], number, result=number in ends))
        since = frame.step
    return animate(boards, len(frames), budget, title)


async def post_replay(
    client: TrashTableBot, interaction: discord.Interaction, game_id: int
) -> None:
    """Post the replay of a finished game of this server in the channel. A refusal (no such
    game, not finished, other rules) is a UserError for the command's refusal path."""
    game, log = await load_log(client.sessions.db, interaction.guild_id or 0, game_id)
    # Deferred in the channel, unless `command_net` has deferred it privately already
    # (its database slow): then the replay goes in the channel on its own.
    async with first_answer(interaction):
        public = not interaction.response.is_done()
        if public:
            await interaction.response.defer(thinking=True)
    engine, names = GAMES[game.kind], seat_names(game)
    title = f"{engine.title} #{game_id}"
    limit = upload_limit(interaction)
    try:
        async with _one_at_a_time:
            animation = await client.workers.run(
                replay_animation, log, names, replay_budget(limit), title
            )
    except ReplayRefused as refusal:
        await interaction.followup.send(str(refusal))
        return
    except TooLarge:
        await interaction.followup.send(TOO_LARGE.format(id=game_id, limit=limit / 2**20))
        return
    final = engine.observe(engine.from_json(game.state or {}), None)
    lines = [f"**Replay of {title}** · {PRESENTERS[game.kind].summary(final, names)}"]
    if animation.frames < animation.boards:
        lines.append(
            f"{animation.frames} of its {animation.boards} boards: the first, the last and "
            "the turns' results before the others, spread over the game."
        )
    else:
        lines.append(f"All {animation.boards} boards, as the channel saw them.")
    name = f"replay-{game_id}.gif"
    picture = discord.File(io.BytesIO(animation.data), filename=name)
    # A layout message like the boards it replays: the text and the animation in a container.
    view = board_layout("\n".join(lines), [name])
    if public:
        await interaction.followup.send(file=picture, view=view)
    else:
        await answer_command(interaction, file=picture, view=view)


async def replay_choices(
    client: TrashTableBot, interaction: discord.Interaction, typed: str
) -> list[app_commands.Choice[int]]:
    """This server's finished games, newest first, those matching what was typed."""
    choices = []
    for game, results in await client.sessions.history(interaction.guild_id or 0, limit=100):
        winners = and_list([r.name for r in results if r.rank == 0]) or "nobody"
        when = (game.finished_at or game.updated_at).strftime("%d %b %Y")
        name = f"#{game.id} {GAMES[game.kind].title}: {winners} won, {when}"
        if typed.strip().lower().lstrip("#") in name.lower():
            choices.append(app_commands.Choice(name=name[:100], value=game.id or 0))
    return choices[:CHOICES]
