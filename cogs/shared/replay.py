"""`/game replay`: a finished game shown again, in two parts.

Its asker gets the replay stepper (`cogs/shared/stepper.py`) privately, at the first board,
at once. Then the channel gets a short animated summary: the first and last boards and the
ends of turns between, at most SUMMARY_BOARDS (a whole game at 1.6 s a board took minutes to
watch), captioned with what it shows, and a button that opens the stepper for anyone. The
game is rebuilt (`bot/replays.py`), drawn board by board by its presenter from public views
only, and animated (`render/animation.py`), all in one worker job: seconds of CPU for a long
game, so one summary is made at a time and the players of running games keep the other
workers.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.games import GAMES
from bot.replays import GameLog, load_log, rebuild, turn_ends
from bot.requests import seat_names
from cogs.shared.board import board_layout
from cogs.shared.board import files_of as board_files
from cogs.shared.interactions import answer_command, in_time, routed_by_custom_id
from cogs.shared.limits import MAX_LAYOUT_TEXT, upload_budget, upload_limit
from cogs.shared.presenter import PRESENTERS
from cogs.shared.stepper import ReplayButton, moment_of, moment_text, moment_view
from lang import language_for, say
from render.animation import Animation, Board, TooLarge, animate, pick
from rules.phrases import Phrase, language_of, listing, phrase

if TYPE_CHECKING:
    from bot.client import TrashTableBot

# The rest of the replay's request besides the GIF: its text (4,000 characters at most, up
# to 4 bytes each in UTF-8), the components' JSON and the form around them.
REST_OF_MESSAGE = 4 * MAX_LAYOUT_TEXT + 8192


def too_large(game_id: int, limit: int) -> Phrase:
    return phrase(
        "Game #{id} does not fit in a picture under this server's upload limit "
        "({limit} MiB), not even its last board.",
        id=game_id,
        limit=round(limit / 2**20, 1),
    )


CHOICES = 25  # Discord shows at most 25 autocomplete choices
SUMMARY_BOARDS = 20  # about half a minute at 1.6 s a board; the stepper shows them all

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
    for number in pick(len(frames), ends, SUMMARY_BOARDS):
        frame = frames[number]
        pictures = presenter.board(frame.view, names, since)
        boards.append(Board([p.data for p in pictures], number, result=number in ends))
        since = frame.step
    return animate(boards, len(frames), budget, title, language_of(names))


async def post_replay(
    client: TrashTableBot, interaction: discord.Interaction, game_id: int
) -> None:
    """The stepper at the first board to the asker, then the summary in the channel. A
    refusal (no such game, not finished, other rules) is a UserError for the command's
    refusal path."""
    guild_id = interaction.guild_id or 0
    asker = language_for(interaction.locale)  # the stepper is the asker's alone
    game, log = await load_log(client.sessions.db, guild_id, game_id)
    # The first board is drawn in a worker: deferred privately if it is not soon ready.
    first = moment_of(client, game, log, 0, asker)
    title, moment = await in_time(interaction, first, in_place=False)
    files = board_files(moment.pictures)
    text, view = moment_text(title, moment), moment_view(game_id, moment)
    await answer_command(interaction, public=False, content=text, files=files, view=view)

    # The summary is the channel's: in the game's language.
    engine, names = GAMES[game.kind], seat_names(game)
    language = names.language
    limit = upload_limit(interaction)
    try:
        async with _one_at_a_time:
            animation = await client.workers.run(
                replay_animation, log, names, replay_budget(limit), title
            )
    except TooLarge:  # the asker's stepper is there all the same: a word to them alone
        message = say(too_large(game_id, limit), asker)
        await interaction.followup.send(message, ephemeral=True)
        return
    final = engine.observe(engine.from_json(game.state or {}), None)
    heading = say(phrase("**Replay of {title}**", title=title), language)
    lines = [f"{heading} · {PRESENTERS[game.kind].summary(final, names)}"]
    shown = (
        phrase(
            "A summary in {frames} of its {boards} boards: the first, the last and the ends "
            "of turns between.",
            frames=animation.frames,
            boards=animation.boards,
        )
        if animation.frames < animation.boards
        else phrase("All {boards} boards, as the channel saw them.", boards=animation.boards)
    )
    lines.append(say(shown, language))
    stepping = phrase(
        "**Step through it** to walk through every board at your own pace, with what "
        "happened at each (just for you)."
    )
    lines.append(say(stepping, language))
    name = f"replay-{game_id}.gif"
    picture = discord.File(io.BytesIO(animation.data), filename=name)
    controls = routed_by_custom_id(discord.ui.View(timeout=None))
    controls.add_item(ReplayButton(game_id, 0, "open", language=language))
    # A layout message like the boards it replays: the text and the animation in a container.
    layout = board_layout("\n".join(lines), [name], controls)
    # A followup of its own, public (the stepper before it was the private answer).
    await interaction.followup.send(file=picture, view=layout, ephemeral=False)


async def replay_choices(
    client: TrashTableBot, interaction: discord.Interaction, typed: str
) -> list[app_commands.Choice[int]]:
    """This server's finished games, newest first, those matching what was typed."""
    choices = []
    language = language_for(interaction.locale)  # autocomplete is the typist's alone
    for game, results in await client.sessions.history(interaction.guild_id or 0, limit=100):
        won = [r.name for r in results if r.rank == 0]
        when = (game.finished_at or game.updated_at).strftime("%Y-%m-%d")
        said = (
            phrase(
                "#{number} {game}: {winners} won, {when}",
                number=game.id or 0,
                game=GAMES[game.kind].title,
                winners=listing(won),
                when=when,
            )
            if won
            else phrase(
                "#{number} {game}: nobody won, {when}",
                number=game.id or 0,
                game=GAMES[game.kind].title,
                when=when,
            )
        )
        name = say(said, language)
        if typed.strip().lower().lstrip("#") in name.lower():
            choices.append(app_commands.Choice(name=name[:100], value=game.id or 0))
    return choices[:CHOICES]
