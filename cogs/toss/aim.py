"""Aiming a drop in Toss It in the Trash: choose the spot and the turn first, see the piece
there in a private preview, then let go with **Drop**.

The board of the player to drop carries one menu per kind of garbage they may take ("Aim a
tin can at…", the 21 spots). The spot picked opens a private reply: the bin with the piece
held over that spot, turned as aimed, where it is let go and a ruler of the spots along the
opening. Under it one click moves the piece a spot left or right or turns it 15 degrees
either way (the reply is edited), two menus jump to any spot or turn, and **Drop** lets go.
After a drop the same reply aims the next piece the same way, so the rest of a careful turn
takes one click a piece, two with a nudge.

Every control here is a `DynamicItem` whose custom id carries only public numbers and words:

    tt:toss:<game>:<step>:<kind>:<spot>:<angle>:<aim|drop>   a button: show that aim, or drop
    tt:toss:<game>:<step>:<kind>:<spot>:<angle>:<spot|turn>  a menu: the option replaces one

A control from another step is refused as out of date (`sessions.turn_view`, `act`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.requests import Update, UserError, seat_of
from cogs.shared.board import files_of
from cogs.shared.components import NUMBER, PICK_ONE, picked_value
from cogs.shared.interactions import (
    AnsweredOnce,
    client_of,
    defer_on_board,
    edit_pressed,
    in_private_reply,
    in_time,
    routed_by_custom_id,
    send_private,
)
from cogs.shared.presenter import Picture
from lang import ENGLISH, language_for, say
from render.toss import draw_preview
from rules.base import JSON
from rules.phrases import Phrase, phrase, phrase_n
from rules.toss.bin import ANGLE_STEP, ANGLES, KINDS, X_STEPS
from rules.toss.engine import open_spots
from rules.toss.words import a_piece, piece_label, pieces

MIDDLE = (X_STEPS - 1) // 2
KIND = "|".join(KINDS)
PREFIX = rf"tt:toss:(?P<game>{NUMBER}):(?P<step>{NUMBER}):(?P<kind>{KIND})"
AIM = rf"{PREFIX}:(?P<spot>{NUMBER}):(?P<angle>{NUMBER})"
OFF_THE_BIN = phrase("That aim is off the bin: use the newest game message.")
NOT_OPEN = phrase("That drop is not open to you now.")
TURN_OVER = phrase("Dropped. Your turn is over: the board shows how it went.")


def spot_words(x: int) -> Phrase:
    """Where a grid spot is, in words: 0 is against the left wall, 20 the right."""
    steps = abs(x - MIDDLE)
    if x == MIDDLE:
        return phrase("the middle")
    if x == 0:
        return phrase("against the left wall")
    if steps == MIDDLE:
        return phrase("against the right wall")
    if x < MIDDLE:
        return phrase_n("{n} step left of the middle", "{n} steps left of the middle", steps)
    return phrase_n("{n} step right of the middle", "{n} steps right of the middle", steps)


def private_language(interaction: discord.Interaction) -> str:
    """The presser's own language: what a private reply is said in."""
    return language_for(interaction.locale)


@dataclass(frozen=True)
class Aim:
    """A drop being aimed: the piece's kind, the spot across the opening and how far the
    piece is turned."""

    game_id: int
    step: int
    kind: str
    spot: int
    angle: int  # degrees counter-clockwise, as the engine counts them

    @classmethod
    def read(cls, match: re.Match[str]) -> Aim:
        """The aim a custom id names; a spot or angle the bin has not is refused on use."""
        return cls(
            int(match["game"]), int(match["step"]), match["kind"], int(match["spot"]),
            int(match["angle"]),
        )  # fmt: skip

    def custom_id(self, what: str) -> str:
        aim = f"{self.game_id}:{self.step}:{self.kind}:{self.spot}:{self.angle}"
        return f"tt:toss:{aim}:{what}"

    @property
    def action(self) -> str:
        return f"place {self.kind} {self.spot} {self.angle}"

    def check(self) -> None:
        if not (0 <= self.spot < X_STEPS and self.angle in ANGLES):
            raise UserError(OFF_THE_BIN)


# ---------------------------------------------------------------------- the board's menus


def board_items(
    kinds: list[str], language: str, game_id: int, step: int
) -> list[discord.ui.Item[Any]]:
    """The board's controls for the player to drop: a menu of spots per kind open to them,
    in the board's `language`."""
    items: list[discord.ui.Item[Any]] = []
    for kind in kinds:
        aim = Aim(game_id, step, kind, MIDDLE, 0)
        placeholder = say(phrase("Aim {piece} at…", piece=a_piece(kind)), language)
        items.append(AimSelect(aim, "spot", placeholder, language))
    return items


# ---------------------------------------------------------------------- the private reply


def aim_view(aim: Aim, again: bool, language: str = ENGLISH) -> discord.ui.View:
    """Nudges and turns (one click each), the Drop button, then menus to jump anywhere, in
    the presser's `language`."""
    view = routed_by_custom_id(discord.ui.View(timeout=None))
    left, right = max(0, aim.spot - 1), min(X_STEPS - 1, aim.spot + 1)
    counter = (aim.angle + ANGLE_STEP) % 180  # a piece turned 180 degrees is the same piece
    clockwise = (aim.angle - ANGLE_STEP) % 180
    buttons = [
        (phrase("◀ Spot {spot}", spot=left), replace(aim, spot=left), aim.spot == 0),
        (phrase("Spot {spot} ▶", spot=right), replace(aim, spot=right), aim.spot == X_STEPS - 1),
        # How far a press turns the piece; where it ends up is in the text and the menu.
        (phrase("↺ Turn {angle}°", angle=ANGLE_STEP), replace(aim, angle=counter), False),
        (phrase("↻ Turn {angle}°", angle=ANGLE_STEP), replace(aim, angle=clockwise), False),
    ]
    for label, target, disabled in buttons:
        view.add_item(AimButton(target, "aim", say(label, language), disabled))
    drop = phrase("Drop another the same way") if again else phrase("Drop")
    view.add_item(AimButton(aim, "drop", say(drop, language)))
    move = phrase("Move to spot… (now {spot})", spot=aim.spot)
    turn = phrase("Turn to… (now {angle}°)", angle=aim.angle)
    view.add_item(AimSelect(aim, "spot", say(move, language), language))
    view.add_item(AimSelect(aim, "turn", say(turn, language), language))
    return view


def aim_text(aim: Aim, again: bool, note: Phrase | None = None, language: str = ENGLISH) -> str:
    lines = [note] if note else []
    lines.append(
        phrase(
            "{piece} held over spot {spot} ({where}), turned {angle}°.",
            piece=piece_label(aim.kind),
            spot=aim.spot,
            where=spot_words(aim.spot),
            angle=aim.angle,
        )
    )
    if again:
        lines.append(
            phrase("Aimed as your last drop: drop another the same way, or nudge it first.")
        )
    else:
        lines.append(phrase("Move it or turn it, then **Drop** lets go. Only you can see this."))
    return "\n".join(say(line, language) for line in lines)


def switched(before: str, now: str) -> Phrase:
    """The note over the next aim when the turn's kind has run out and another is aimed."""
    return phrase(
        "No {pieces} left: now aiming {piece}.", pieces=pieces(before), piece=a_piece(now)
    )


async def aim_reply(
    interaction: discord.Interaction,
    aim: Aim,
    obs: JSON,
    again: bool = False,
    note: Phrase | None = None,
) -> tuple[str, list[discord.File], discord.ui.View]:
    """The reply's text, preview picture and controls for `aim`, in the presser's language.
    The preview takes a few milliseconds and its player waits for every nudge: it goes to
    the quick worker, not behind the AI's choices."""
    language = private_language(interaction)
    workers = client_of(interaction).workers
    data = await workers.run_quick(draw_preview, obs, aim.kind, aim.spot, aim.angle, language)
    files = files_of([Picture("preview.png", data)])
    return aim_text(aim, again, note, language), files, aim_view(aim, again, language)


async def show(interaction: discord.Interaction, aim: Aim) -> None:
    """Show `aim`: a new private reply from the board, the same reply edited from it."""
    aim.check()
    in_place = in_private_reply(interaction)
    sessions = client_of(interaction).sessions

    async def reply() -> tuple[str, list[discord.File], discord.ui.View]:
        _game, obs, legal = await sessions.turn_view(
            interaction.channel_id or 0, aim.game_id, interaction.user.id, aim.step, own=False
        )
        if aim.action not in legal:
            raise UserError(NOT_OPEN)
        return await aim_reply(interaction, aim, obs)

    if not in_place:
        await defer_on_board(interaction)
    text, files, view = await in_time(interaction, reply(), in_place=in_place)
    await send_private(interaction, in_place, text, files, view)


async def drop(interaction: discord.Interaction, aim: Aim) -> None:
    """Let go: the drop is saved and shown on the board; this reply then aims the next
    piece the same way while the turn lasts, and the AI seats play after."""
    aim.check()
    sessions = client_of(interaction).sessions

    async def until_reply() -> tuple[Update, dict[str, Any]]:
        update = await sessions.act(
            interaction.channel_id or 0, aim.game_id, interaction.user.id, aim.step, aim.action
        )
        return update, await next_aim(interaction, aim, update)

    update, shown = await in_time(interaction, until_reply(), in_place=True)
    await edit_pressed(interaction, **shown)
    await sessions.play_ai(update)


async def next_aim(interaction: discord.Interaction, aim: Aim, update: Update) -> dict[str, Any]:
    """What the reply shows after a drop: the next piece aimed the same way while the
    player's turn lasts, else that the turn is over."""
    sessions = client_of(interaction).sessions
    game = update.game
    seat = seat_of(game, interaction.user.id)
    # Still this player's turn to drop (not a new round's card to lay down)?
    kinds = list(open_spots(sessions.legal_for(game, seat))) if seat is not None else []
    if seat in sessions.humans_to_act(game) and kinds:
        # Same kind while any is left to place, else the first kind open now.
        kind = aim.kind if aim.kind in kinds else kinds[0]
        note = None if kind == aim.kind else switched(aim.kind, kind)
        next_aim = replace(aim, step=game.step, kind=kind)
        text, files, view = await aim_reply(
            interaction, next_aim, sessions.public_view(game), again=True, note=note
        )
        return {"content": text, "attachments": files, "view": view}
    return {
        "content": say(TURN_OVER, private_language(interaction)),
        "attachments": [],
        "view": None,
    }


# ---------------------------------------------------------------------- the items


class AimButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{AIM}:(?P<op>aim|drop)",
):
    """Shows an aim (a nudge or a turn: the aim it leads to is in its id) or drops."""

    def __init__(self, aim: Aim, op: str, label: str, disabled: bool = False) -> None:
        style = discord.ButtonStyle.success if op == "drop" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=style, custom_id=aim.custom_id(op), disabled=disabled
            )
        )
        self.aim, self.op = aim, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AimButton:
        return cls(Aim.read(match), match["op"], getattr(item, "label", None) or "?")

    async def pressed(self, interaction: discord.Interaction) -> None:
        if self.op == "drop":
            await drop(interaction, self.aim)
        else:
            await show(interaction, self.aim)


class AimSelect(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"{AIM}:(?P<what>spot|turn)",
):
    """A menu of spots (or of turns): the option picked replaces the aim's spot (turn)."""

    COMPONENT = discord.ComponentType.string_select

    def __init__(
        self, aim: Aim, what: str, placeholder: str = "Choose…", language: str = ENGLISH
    ) -> None:
        if what == "spot":
            options = [
                discord.SelectOption(
                    label=say(phrase("Spot {spot}", spot=x), language),
                    value=str(x),
                    description=say(spot_words(x), language),
                )
                for x in range(X_STEPS)
            ]
        else:
            options = [
                discord.SelectOption(
                    label=say(phrase("Turned {angle}°", angle=angle), language), value=str(angle)
                )
                for angle in ANGLES
            ]
        super().__init__(
            discord.ui.Select(
                custom_id=aim.custom_id(what), placeholder=placeholder[:150], options=options
            )
        )
        self.aim, self.what = aim, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AimSelect:
        # Rebuilt only to read the option picked; the menu on show is not redrawn.
        placeholder = getattr(item, "placeholder", None) or "Choose…"
        return cls(Aim.read(match), match["what"], placeholder, private_language(interaction))

    async def pressed(self, interaction: discord.Interaction) -> None:
        picked = picked_value(interaction, self.item)
        if picked is None:
            raise UserError(PICK_ONE)
        if self.what == "spot":
            await show(interaction, replace(self.aim, spot=picked))
        else:
            await show(interaction, replace(self.aim, angle=picked))


ITEMS = (AimButton, AimSelect)
