"""A game as a plug-in: one object ties its engine, its presenter and its rules text
together, and the shared machinery builds the rest from it.

A game's cog package makes its `GamePlugin` when it is imported and hands the plug-in's
`setup` and `teardown` to discord.py as the extension's own. The bot finds the extensions by
walking `cogs/` (`bot/client.py`), so offering a new game edits nothing outside its own
packages. `/<game> new` is built from the options the engine declares (their choices,
labels, ranges and defaults) with the shared turn timer, handover level and seed beside
them.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.games import GAMES, register_game
from bot.requests import UserError
from cogs.shared import lobby_controls
from cogs.shared.interactions import client_of, held_for_permissions, player_of
from cogs.shared.options import SEED, TIMER, WholeNumber
from cogs.shared.presenter import Presenter, register
from lang import language_for
from rules.base import LEVELS, AnyGame, Option
from rules.phrases import phrase

if TYPE_CHECKING:
    from bot.client import TrashTableBot

PLUGINS: dict[str, GamePlugin] = {}
MAX_DESCRIPTION = 100  # Discord's limit for a command's or an option's description
SHARED = ("timer", "handover", "seed")  # the options every game's `/<game> new` has


@dataclass(frozen=True)
class GamePlugin:
    """Everything the bot needs to offer one game."""

    engine: AnyGame
    presenter: Presenter[Any]
    guide: Path  # the rules in our own words; each `## ` heading starts a page of /rules
    # The game's own persistent controls (`OwnItems`), registered while its extension is
    # loaded so that presses on messages posted before a restart still reach them.
    items: tuple[type[discord.ui.DynamicItem[Any]], ...] = ()
    # The `guide` pages `/help game:` walks a newcomer through for a first turn, by heading
    # (none: the page after the first, which says what the game is about).
    first_turn: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.presenter.kind != self.engine.key:
            raise ValueError(f"{self.presenter!r} presents {self.presenter.kind!r}")
        register_game(self.engine)
        register(self.presenter)
        PLUGINS[self.engine.key] = self

    async def setup(self, bot: TrashTableBot) -> None:
        """The extension's `setup`: add `/<game> new`."""
        bot.tree.add_command(new_game_group(self.engine))
        if self.items:
            bot.add_dynamic_items(*self.items)

    async def teardown(self, bot: TrashTableBot) -> None:
        bot.tree.remove_command(self.engine.key)
        if self.items:
            bot.remove_dynamic_items(*self.items)


def game_choices() -> list[app_commands.Choice[str]]:
    """Every game offered, by title, for a command's `game` option. Call it when an
    extension loads: by then the bot has imported every plug-in (bot/extensions.py)."""
    games = sorted(GAMES.values(), key=lambda game: game.title)
    return [app_commands.Choice(name=game.title, value=game.key) for game in games][:25]


def new_game_group(engine: AnyGame) -> app_commands.Group:
    """`/<key> new`, with one option per engine option, then `timer`, `handover` (the AI's
    level in a seat a person leaves) and `seed`."""
    group = app_commands.Group(name=engine.key, description=engine.title, guild_only=True)
    declared = list(engine.options)
    names = [option.name for option in declared]
    if len(names) != len(set(names)) or set(SHARED) & set(names):
        raise ValueError(f"{engine.key}: option names must be unique and none of {SHARED}")

    async def new(interaction: discord.Interaction, **chosen: Any) -> None:
        timer, seed = chosen.pop("timer", None), chosen.pop("seed", None)
        handover = chosen.pop("handover", None)
        options = {name: str(value) for name, value in chosen.items() if value is not None}
        await open_lobby(
            interaction, engine.key, options, seed=seed, timer=timer, handover=handover
        )

    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        *(_parameter(option) for option in declared),
        _optional("timer", app_commands.Transform[int, TIMER]),
        _optional("handover", str),
        _optional("seed", app_commands.Transform[int, SEED]),
    ]
    # The options are the engine's, known only now: the callback's signature says them (as
    # `inspect.signature` reads it), and discord.py's decorators describe them, called
    # here as functions with the names as keywords.
    new.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    app_commands.describe(
        **{option.name: _described(option) for option in declared},
        timer="Minutes per decision before the AI plays it (0 = off)",
        handover="How well the AI plays a seat a player leaves (default: normal)",
        seed="Makes the game reproducible, for bug reports",
    )(new)
    app_commands.choices(
        **{
            option.name: [
                app_commands.Choice(name=option.label(value)[:100], value=value)
                for value in option.choices
            ]
            for option in declared
            if option.choices
        },
        handover=[app_commands.Choice(name=level, value=level) for level in LEVELS],
    )(new)
    group.add_command(
        app_commands.Command(
            name="new",
            description=f"Open a {engine.title} lobby in this channel"[:MAX_DESCRIPTION],
            callback=new,
        )
    )
    return group


def _parameter(option: Option) -> inspect.Parameter:
    if option.low is not None and option.high is not None:
        whole = WholeNumber(option.name, option.low, option.high)
        return _optional(option.name, app_commands.Transform[int, whole])
    return _optional(option.name, str)


def _optional(name: str, annotation: Any) -> inspect.Parameter:
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation | None
    )


def _described(option: Option) -> str:
    """The option's description with its default, as the command list shows it."""
    text = option.description.rstrip(".")
    if option.default:
        text += f" (default: {option.label(option.default)})"
    return text[:MAX_DESCRIPTION]


async def open_lobby(
    interaction: discord.Interaction,
    kind: str,
    options: dict[str, str],
    seed: int | None,
    timer: int | None,
    handover: str | None = None,
) -> None:
    """`/<game> new`: open a lobby in this channel, answering with the lobby message."""
    client = client_of(interaction)
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError(phrase("Games are played in a server channel, not in direct messages."))
    if await held_for_permissions(interaction, opening=True):
        return  # no lobby opens where no board could be posted
    game = await client.sessions.open_lobby(
        interaction.guild_id,
        interaction.channel_id,
        kind,
        player_of(interaction),
        options,
        seed=seed,
        timer=timer,
        default_timer=client.settings.turn_timer_minutes,
        handover=handover,
        language=language_for(interaction.guild_locale),
    )
    await lobby_controls.post_lobby(interaction, game)
