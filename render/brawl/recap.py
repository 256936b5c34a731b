"""Dumpster Brawl!'s recap, `draw_recap`: the winner's hand laid face up, grouped into its
sets (the rulebook's winning sets), or in Rummy every player's table of laid-down cards with
their points, best first."""

from __future__ import annotations

from PIL import Image

from render.brawl.hand import Group, group_title, hand_groups, hand_layout
from render.brawl.icons import SET_FILL, SET_GLOW, card_sprite
from render.brawl.words import character_name, said
from render.common import (
    BACKDROP,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    TORCH,
    Box,
    Size,
    least_size,
    rounded_box,
    text_in_box,
    title_bar,
    to_png,
)
from render.common.record import note
from render.common.words import player_name
from rules.brawl.observation import BrawlObservation, CardView
from rules.phrases import language_of, phrase, phrase_n

WIDTH = 1000
CARD: Size = (104, 146)
FAN_STEP = 22
TITLE_H = 48
LINE_H = 34  # a line of words under the title
SMALL: Size = (52, 73)  # a laid-down card in the Rummy tables
ROW_H = SMALL[1] + 44
# The least font size: the recap is shown 550 px wide like a board (issue 38). The cards'
# own lines ("2 make a set", "TRASH") would be 4 px there, so the cards are drawn without
# them and the words stand under each fan, this size or larger.
LEAST = least_size(WIDTH)


def _groups_of(obs: BrawlObservation, cards: list[CardView], seat: int) -> list[Group]:
    """Cards grouped by kind as a hand is (sets first), with `seat`'s affinity."""
    return hand_groups({**obs, "hand": cards, "seat": seat})


def _fan(
    image: Image.Image,
    group: Group,
    box: Box,
    size: Size,
    step: int,
    affinity: str,
    language: str,
) -> None:
    """A group of cards of one kind fanned out in `box`, each noted as drawn."""
    left, top, right, _ = box
    width = size[0] + (group.count - 1) * step
    x = (left + right - width) // 2
    sprite = card_sprite(
        CardView(id=0, type=group.type, key=group.key, name=group.name),
        size,
        affinity,
        LEAST,
        language,
    )
    for index, card in enumerate(group.cards):
        at = (x + index * step, top)
        image.paste(sprite, at, sprite)
        note("card", (*at, at[0] + size[0], at[1] + size[1]), str(card))


def _winning_hand(obs: BrawlObservation, names: list[str]) -> Image.Image:
    winner = obs["winners"][0]
    affinity = obs["characters"][winner]["affinity"] if obs["affinity"] else ""
    groups = _groups_of(obs, obs["winning_hand"], winner)
    placed = hand_layout(groups, language_of(names))
    shift = TITLE_H + LINE_H - min((box[1] for _, box in placed), default=0) + 8
    bottom = max((box[3] for _, box in placed), default=0) + shift + 16
    image = Image.new("RGB", (WIDTH, bottom), BACKDROP)
    title_bar(image, said(phrase("Dumpster Brawl! - the winning hand"), names), "", TITLE_H)
    who = f"{player_name(names, winner)} ({character_name(obs, winner, language_of(names))})"
    words = said(
        phrase_n(
            "{player} lays down {n} card",
            "{player} lays down {n} cards",
            len(obs["winning_hand"]),
            player=who,
        ),
        names,
    )
    line = (16, TITLE_H, WIDTH - 16, TITLE_H + LINE_H)
    text_in_box(image, line, words, LEAST, INK, "left", LEAST)
    for group, (left, top, right, bottom_) in placed:
        box = (left, top + shift, right, bottom_ + shift)
        rounded_box(
            image,
            box,
            14,
            SET_FILL if group.is_set else PANEL,
            SET_GLOW if group.is_set else PANEL_EDGE,
            3,
        )
        inner = (box[0], box[1] + 8, box[2], box[3])
        step = min(FAN_STEP, (box[2] - box[0] - 16 - CARD[0]) // max(1, group.count - 1))
        _fan(image, group, inner, CARD, step, affinity, language_of(names))
        label = (box[0] + 6, box[1] + 8 + CARD[1] + 6, box[2] - 6, box[1] + 8 + CARD[1] + 30)
        text_in_box(
            image,
            label,
            group_title(group, language_of(names)),
            LEAST,
            SET_GLOW if group.is_set else INK,
            min_size=LEAST,
            bold=True,
        )
    return image


def _laid_step(groups: list[Group]) -> int:
    """How far each further card of a kind peeks out: 14 pixels, less for a table so full
    that its cards would not fit the row (at least 3, the card's edge)."""
    room = WIDTH - 64 - sum(SMALL[0] + 12 for _ in groups)
    further = sum(group.count - 1 for group in groups)
    return max(3, min(14, room // further)) if further else 14


def _rummy_tables(obs: BrawlObservation, names: list[str]) -> Image.Image:
    points = obs["points"]
    order = sorted(range(obs["seats"]), key=lambda s: (-points[s], s))
    image = Image.new("RGB", (WIDTH, TITLE_H + 8 + len(order) * (ROW_H + 8)), BACKDROP)
    title_bar(image, said(phrase("Round Rummage Rummy - the tables"), names), "", TITLE_H)
    top = TITLE_H + 8
    for seat in order:
        box = (16, top, WIDTH - 16, top + ROW_H)
        won = seat in obs["winners"]
        rounded_box(image, box, 12, SET_FILL if won else PANEL, TORCH if won else PANEL_EDGE, 2)
        score = phrase_n("{player} · {n} point", "{player} · {n} points", points[seat],
                         player=player_name(names, seat))  # fmt: skip
        if seat == obs["went_out"]:
            score = phrase("{score} · went out first", score=score)
        head = said(score, names)
        text_in_box(image, (32, top + 4, WIDTH - 32, top + 32), head, LEAST, INK, "left", LEAST)
        laid = obs["laid"][seat]
        groups = _groups_of(obs, laid, seat)
        step = _laid_step(groups)
        left = 32
        for group in groups:
            width = SMALL[0] + (group.count - 1) * step
            _fan(
                image,
                group,
                (left, top + 36, left + width, top + ROW_H),
                SMALL,
                step,
                "",
                language_of(names),
            )
            left += width + 12
        if not laid:
            text_in_box(
                image,
                (32, top + 36, WIDTH - 32, top + ROW_H - 6),
                said(phrase("nothing laid down"), names),
                LEAST,
                MUTED,
                "left",
            )
        top += ROW_H + 8
    return image


def _draw(obs: BrawlObservation, names: list[str]) -> Image.Image:
    image = Image.new("RGB", (WIDTH, TITLE_H + LINE_H + 16), BACKDROP)
    title_bar(image, said(phrase("Dumpster Brawl! - a draw"), names), "", TITLE_H)
    words = said(
        phrase_n(
            "Nobody laid down a winning hand in {n} turn.",
            "Nobody laid down a winning hand in {n} turns.",
            obs["turns"],
        ),
        names,
    )
    line = (16, TITLE_H, WIDTH - 16, TITLE_H + LINE_H)
    text_in_box(image, line, words, LEAST, INK, "left", LEAST)
    return image


def draw_recap(obs: BrawlObservation, names: list[str]) -> bytes:
    """The recap of a finished game, from its public view: the Rummy tables, the winning
    hand, or the draw the turn limit called. PNG bytes."""
    if obs["mode"] == "rummy":
        return to_png(_rummy_tables(obs, names))
    if obs["winning_hand"]:
        return to_png(_winning_hand(obs, names))
    return to_png(_draw(obs, names))
