"""`/rules <game>`: the rules in the project's own words, one page per section, in the
reader's language (`_pages.py` reads them; the catalogues of lang/ hold each page)."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.requests import UserError
from cogs.guide._pages import LIST_ITEM, PAGE, TITLE, pages, reflow
from cogs.shared.interactions import (
    AnsweredOnce,
    answer_command,
    edit_pressed,
    routed_by_custom_id,
)
from cogs.shared.limits import fit_embed
from cogs.shared.plugin import PLUGINS, game_choices
from lang import ENGLISH, language_for, say
from rules.phrases import phrase, phrase_in

__all__ = ["LIST_ITEM", "RulesPageButton", "page_embed", "pages", "reflow", "rules_command"]


def page_embed(kind: str, page: int, language: str = ENGLISH) -> discord.Embed:
    """A page of the rules in `language` (the reader's)."""
    all_pages = pages(kind)
    title, body = all_pages[page]
    title, body = say(phrase_in(TITLE, title), language), say(phrase_in(PAGE, body), language)
    embed = discord.Embed(title=f"{PLUGINS[kind].engine.title} · {title}", description=body)
    footer = phrase("Page {page} of {count}", page=page + 1, count=len(all_pages))
    embed.set_footer(text=say(footer, language))
    return fit_embed(embed)


BACK, NEXT = phrase_in("button", "◀ Back"), phrase_in("button", "Next ▶")


def page_view(kind: str, page: int, language: str = ENGLISH) -> discord.ui.View:
    view = routed_by_custom_id(discord.ui.View(timeout=None))
    count = len(pages(kind))
    back, ahead = say(BACK, language), say(NEXT, language)
    view.add_item(RulesPageButton(kind, max(page - 1, 0), back, disabled=page == 0))
    view.add_item(
        RulesPageButton(kind, min(page + 1, count - 1), ahead, disabled=page >= count - 1)
    )
    return view


class RulesPageButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:rules:(?P<kind>[a-z]+):(?P<page>[0-9]{1,4}):(?P<dir>back|next)",
):
    def __init__(self, kind: str, page: int, label: str, disabled: bool = False) -> None:
        direction = "back" if label.startswith("◀") else "next"  # as every language says it
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"tt:rules:{kind}:{page}:{direction}",
            )
        )
        self.kind, self.page = kind, page

    def leads_to_boards(self) -> bool:
        return False

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RulesPageButton:
        label = "◀ Back" if match["dir"] == "back" else "Next ▶"
        return cls(match["kind"], int(match["page"]), label)

    async def pressed(self, interaction: discord.Interaction) -> None:
        if self.kind not in PLUGINS or not 0 <= self.page < len(pages(self.kind)):
            raise UserError(phrase("That page no longer exists."))
        language = language_for(interaction.locale)
        page = page_embed(self.kind, self.page, language)
        await edit_pressed(interaction, embed=page, view=page_view(self.kind, self.page, language))


async def show_rules(interaction: discord.Interaction, game: str) -> None:
    if game not in PLUGINS:  # a choice only a forged request could send
        raise UserError(
            phrase("There is no game `{game}` here; pick one from the list.", game=game[:40])
        )
    language = language_for(interaction.locale)
    await answer_command(
        interaction,
        public=False,
        embed=page_embed(game, 0, language),
        view=page_view(game, 0, language),
    )


def rules_command() -> app_commands.Command[Any, ..., None]:
    """`/rules`, its choices the games offered: built when the extension loads, after the
    bot has imported every game's plug-in (bot/extensions.py)."""

    @app_commands.describe(game="Which game")
    @app_commands.choices(game=[c for c in game_choices() if c.value in PLUGINS])
    async def rules(interaction: discord.Interaction, game: str) -> None:
        await show_rules(interaction, game)

    return app_commands.Command(
        name="rules", description="How to play, in short pages", callback=rules
    )
