"""Aiming and dropping in Toss It in the Trash: one private aiming message a turn, and one
press a piece.

When a player's turn to drop comes, the bot turns their open private reply (the one they
laid their card down in: `cogs/shared/replies.py`) into the turn's aiming message: the bin
with the piece held over a spot, turned as aimed, where it is let go and a ruler of the
spots along the opening (`opening_aim`). A player without a reply to hand (a restart, a
token run out) picks a spot from one of the board's menus ("Aim a tin can at…"), which
posts the aiming message. That one message serves the whole turn, edited in place (its
picture too) after every press:

- **Drop** lets go as aimed: after a drop the message aims the next piece the same way, so
  "the same again" is one press;
- "Drop a tin can at…" lets go at the spot picked, at the aim's turn: a piece at another
  spot is one press too, and the next piece is aimed there;
- **Drop the rest like this** drops every piece left in the turn at the aim, in one press
  (a plan, `SessionService.act` given a list: played in order while the turn lasts; a
  spill ends it as it would any drop), shown on the board in one edit;
- for those who aim finely, one click moves the piece a spot left or right or turns it 15
  degrees either way, two menus jump to any spot or turn, and while the turn's first piece
  has not bound its kind a button aims another kind instead; each redraws the preview.

A turn of N pieces thus takes N presses, or N+1 from the board's menu. A new aiming message
posted from the board replaces the player's open reply (`replace_reply` deletes the one
before), so the player never holds two.

Every control here is a `DynamicItem` whose custom id carries only public numbers and words:

    tt:toss:<game>:<step>:<kind>:<spot>:<angle>:<aim|drop|rest>  a button: show that aim,
                                                  drop as aimed, or drop the rest so
    tt:toss:<game>:<step>:<kind>:<spot>:<angle>:<spot|turn|at>   a menu: the option replaces
                                                  the spot or the turn (`at`: and drops)

A control from another step is refused as out of date (`sessions.turn_view`, `act`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.requests import Update, UserError, seat_of
from cogs.shared.board import files_of
from cogs.shared.components import NUMBER, PICK_ONE, picked_value, show_turn
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
from cogs.shared.limits import MAX_CONTENT, clip
from cogs.shared.presenter import HandReply, Picture
from cogs.shared.replies import keep_reply, replace_reply, writing
from lang import ENGLISH, language_for, say
from render.toss import draw_preview
from rules.base import JSON
from rules.phrases import Phrase, phrase, phrase_n
from rules.toss.bin import ANGLE_STEP, ANGLES, KINDS, X_STEPS
from rules.toss.engine import open_spots
from rules.toss.observation import TossObservation
from rules.toss.phases import kinds_open
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


@dataclass(frozen=True)
class Turn:
    """What the aiming message offers besides the aim: the kinds open to the player now and
    the pieces left in their turn (from the public view and their legal drops)."""

    kinds: list[str]
    to_place: int

    @classmethod
    def of(cls, obs: Mapping[str, Any], legal: list[str]) -> Turn:
        return cls(list(open_spots(legal)), int(obs["to_place"]))

    @classmethod
    def seen(cls, obs: TossObservation) -> Turn:
        """The same from the view alone (a worker drawing the reply has no legal drops)."""
        return cls(kinds_open(obs["kind"], obs["supply"]), int(obs["to_place"]))


def rest_of_turn(aim: Aim, obs: JSON) -> list[str]:
    """The drops "Drop the rest like this" plays: every piece left in the turn at the aim's
    spot and turn, its kind first and, once the supply has none of it left, the other kinds
    in the engine's order (the turn may switch only then). The session service stops the
    plan where the turn ends (a spill, the supply's last piece)."""
    supply: dict[str, int] = obs["supply"]
    left = int(obs["to_place"])
    plan: list[str] = []
    for kind in [aim.kind, *(k for k in KINDS if k != aim.kind)]:
        count = min(left, supply.get(kind, 0))
        plan += [replace(aim, kind=kind).action] * count
        left -= count
    return plan


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


def aiming_now(obs: TossObservation) -> bool:
    """Whether this own view is of the player dropping now: their private reply (the open
    one, or "My hand") is then the turn's aiming message, so the turn needs no press on the
    board's menus."""
    return obs["phase"] == "place" and obs.get("seat") is not None and obs["seat"] == obs["turn"]


def opening_aim(obs: TossObservation, language: str) -> HandReply:
    """The aiming message a turn opens with, from the dropping player's own view: the first
    kind open to them held over the middle, not turned. Runs in a worker (the preview)."""
    turn = Turn.seen(obs)
    aim = Aim(0, int(obs["step"]), turn.kinds[0], MIDDLE, 0)  # the id comes with the items
    preview = draw_preview(obs, aim.kind, aim.spot, aim.angle, language)
    return HandReply(aim_text(aim, turn, False, None, language), [Picture("preview.png", preview)])


def opening_items(
    obs: TossObservation, legal: list[str], language: str
) -> Callable[[int, int], list[discord.ui.Item[Any]]]:
    """The controls under `opening_aim`, made for the game's id and step when sent."""
    turn = Turn.of(obs, legal)

    def make(game_id: int, step: int) -> list[discord.ui.Item[Any]]:
        aim = Aim(game_id, step, turn.kinds[0], MIDDLE, 0)
        return list(aim_view(aim, turn, False, language).children)

    return make


def aim_view(aim: Aim, turn: Turn, again: bool, language: str = ENGLISH) -> discord.ui.View:
    """The aiming message's controls, in the presser's `language`: nudges and Drop, the
    menu that drops at any spot in one press, the menus that jump the preview to a spot or
    a turn, then Drop the rest and the other kinds open."""
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
        view.add_item(AimButton(target, "aim", say(label, language), disabled, row=0))
    drop = phrase("Drop another the same way") if again else phrase("Drop")
    view.add_item(AimButton(aim, "drop", say(drop, language), row=0))
    at = phrase("Drop {piece} at… (turned {angle}°)", piece=a_piece(aim.kind), angle=aim.angle)
    move = phrase("Move to spot… (now {spot})", spot=aim.spot)
    turn_to = phrase("Turn to… (now {angle}°)", angle=aim.angle)
    for row, (what, placeholder) in enumerate([("at", at), ("spot", move), ("turn", turn_to)]):
        view.add_item(AimSelect(aim, what, say(placeholder, language), language, row=row + 1))
    if turn.to_place > 1:  # one piece left: Drop does the same
        rest = phrase_n(
            "Drop the rest like this ({n} piece)",
            "Drop the rest like this ({n} pieces)",
            turn.to_place,
        )
        view.add_item(AimButton(aim, "rest", say(rest, language), row=4))
    for kind in turn.kinds:
        if kind != aim.kind:  # the turn's first piece has not bound its kind yet
            instead = phrase("Aim {piece} instead", piece=a_piece(kind))
            view.add_item(AimButton(replace(aim, kind=kind), "aim", say(instead, language), row=4))
    return view


def aim_text(
    aim: Aim, turn: Turn, again: bool, note: Phrase | None = None, language: str = ENGLISH
) -> str:
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
    lines.append(
        phrase_n("{n} piece to drop this turn.", "{n} pieces to drop this turn.", turn.to_place)
    )
    if again:
        lines.append(
            phrase(
                "Aimed as your last drop: **Drop another the same way**, or pick a spot to "
                "drop at in the menu below."
            )
        )
    else:
        lines.append(
            phrase(
                "**Drop** lets go here, or pick a spot to drop at in the menu below. Only you "
                "can see this."
            )
        )
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
    turn: Turn,
    again: bool = False,
    note: Phrase | None = None,
) -> dict[str, Any]:
    """The aiming message for `aim` (its content, preview picture and controls), in the
    presser's language. The preview takes a few milliseconds and its player waits for
    every press: it goes to the quick worker, not behind the AI's choices."""
    language = private_language(interaction)
    workers = client_of(interaction).workers
    data = await workers.run_quick(draw_preview, obs, aim.kind, aim.spot, aim.angle, language)
    return {
        "content": clip(aim_text(aim, turn, again, note, language), MAX_CONTENT),
        "attachments": files_of([Picture("preview.png", data)]),
        "view": aim_view(aim, turn, again, language),
    }


async def show(interaction: discord.Interaction, aim: Aim) -> None:
    """Show `aim`: the aiming message edited when pressed in it; pressed on the board, a
    new aiming message, in place of the player's open reply (`replace_reply`)."""
    aim.check()
    in_place = in_private_reply(interaction)
    sessions = client_of(interaction).sessions

    async def reply() -> dict[str, Any]:
        _game, obs, legal = await sessions.turn_view(
            interaction.channel_id or 0, aim.game_id, interaction.user.id, aim.step, own=False
        )
        if aim.action not in legal:
            raise UserError(NOT_OPEN)
        return await aim_reply(interaction, aim, obs, Turn.of(obs, legal))

    language = private_language(interaction)
    if in_place:
        shown = await in_time(interaction, reply(), in_place=True)
        async with writing(interaction):
            await edit_pressed(interaction, **shown)
            keep_reply(interaction, None, language, aim.step)
        return
    await defer_on_board(interaction)  # its token can then edit the board (carriers.py)
    shown = await in_time(interaction, reply(), in_place=False)
    content, files, view = shown["content"], shown["attachments"], shown["view"]
    async with writing(interaction):
        message_id = await send_private(interaction, False, content, files, view)
        if message_id is not None:  # a followup, the board press being answered already
            await replace_reply(interaction, message_id, language, aim.step)


async def drop(interaction: discord.Interaction, aim: Aim, rest: bool = False) -> None:
    """Let go as aimed, or (`rest`) drop every piece left in the turn so: the drops are
    saved and shown on the board; this message then aims the next piece the same way while
    the turn lasts, and the AI seats play after."""
    aim.check()
    sessions = client_of(interaction).sessions
    channel_id, user_id = interaction.channel_id or 0, interaction.user.id

    async def until_reply() -> tuple[Update, dict[str, Any]]:
        actions = [aim.action]
        if rest:
            _game, obs, legal = await sessions.turn_view(
                channel_id, aim.game_id, user_id, aim.step, own=False
            )
            if aim.action not in legal:
                raise UserError(NOT_OPEN)
            actions = rest_of_turn(aim, obs)
        update = await sessions.act(channel_id, aim.game_id, user_id, aim.step, actions)
        return update, await next_aim(interaction, aim, update)

    update, shown = await in_time(interaction, until_reply(), in_place=True)
    async with writing(interaction):
        await edit_pressed(interaction, **shown)
        keep_reply(interaction, None, private_language(interaction), update.game.step)
    # What comes after the AI's turns (a new round's card to lay down, this player's next
    # turn) shows in each player's open reply, this one's too: it shows `update`'s step.
    await show_turn(client_of(interaction), (await sessions.play_ai(update)).game)


async def next_aim(interaction: discord.Interaction, aim: Aim, update: Update) -> dict[str, Any]:
    """What the aiming message shows after a drop: the next piece aimed the same way while
    the player's turn lasts, else that the turn is over."""
    sessions = client_of(interaction).sessions
    game = update.game
    seat = seat_of(game, interaction.user.id)
    # Still this player's turn to drop (not a new round's card to lay down)?
    legal = sessions.legal_for(game, seat) if seat is not None else []
    kinds = list(open_spots(legal))
    if seat in sessions.humans_to_act(game) and kinds:
        # Same kind while any is left to place, else the first kind open now.
        kind = aim.kind if aim.kind in kinds else kinds[0]
        note = None if kind == aim.kind else switched(aim.kind, kind)
        next_aim = replace(aim, step=game.step, kind=kind)
        obs = sessions.public_view(game)
        return await aim_reply(interaction, next_aim, obs, Turn.of(obs, legal), True, note)
    return {
        "content": say(TURN_OVER, private_language(interaction)),
        "attachments": [],
        "view": None,
    }


# ---------------------------------------------------------------------- the items


class AimButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{AIM}:(?P<op>aim|drop|rest)",
):
    """Shows an aim (a nudge, a turn or another kind: the aim it leads to is in its id),
    drops as aimed, or drops the rest of the turn so."""

    def __init__(
        self, aim: Aim, op: str, label: str, disabled: bool = False, row: int | None = None
    ) -> None:
        style = discord.ButtonStyle.secondary
        if op == "drop":
            style = discord.ButtonStyle.success
        elif op == "rest":
            style = discord.ButtonStyle.primary
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style,
                custom_id=aim.custom_id(op),
                disabled=disabled,
                row=row,
            )
        )
        self.aim, self.op = aim, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AimButton:
        return cls(Aim.read(match), match["op"], getattr(item, "label", None) or "?")

    async def pressed(self, interaction: discord.Interaction) -> None:
        if self.op == "aim":
            await show(interaction, self.aim)
        else:
            await drop(interaction, self.aim, rest=self.op == "rest")


class AimSelect(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"{AIM}:(?P<what>spot|turn|at)",
):
    """A menu of spots (or of turns): the option picked replaces the aim's spot (turn) and
    shows it; a menu of spots to drop `at` lets go there at once."""

    COMPONENT = discord.ComponentType.string_select

    def __init__(
        self,
        aim: Aim,
        what: str,
        placeholder: str = "Choose…",
        language: str = ENGLISH,
        row: int | None = None,
    ) -> None:
        if what == "turn":
            options = [
                discord.SelectOption(
                    label=say(phrase("Turned {angle}°", angle=angle), language), value=str(angle)
                )
                for angle in ANGLES
            ]
        else:
            options = [
                discord.SelectOption(
                    label=say(phrase("Spot {spot}", spot=x), language),
                    value=str(x),
                    description=say(spot_words(x), language),
                )
                for x in range(X_STEPS)
            ]
        super().__init__(
            discord.ui.Select(
                custom_id=aim.custom_id(what),
                placeholder=placeholder[:150],
                options=options,
                row=row,
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
        if self.what == "at":
            await drop(interaction, replace(self.aim, spot=picked))
        elif self.what == "spot":
            await show(interaction, replace(self.aim, spot=picked))
        else:
            await show(interaction, replace(self.aim, angle=picked))


ITEMS = (AimButton, AimSelect)
