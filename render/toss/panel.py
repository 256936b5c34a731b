"""Toss It in the Trash's panel beside the bin: the caption, one row per player (colour, mice,
the card laid down or whether they have chosen, counters, score, turn order), the reminder, the
supply and the counter stack, and the names and colours of the seats.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import (
    CARD_EDGE,
    DARK_INK,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    STONE_DARK,
    TORCH,
    Box,
    Colour,
    Size,
    card_back_image,
    disc,
    rounded_box,
    shade,
    text_in_box,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_draw_text as _draw_text
from render.common import cached_text_in_box as _text_in_box
from render.common.words import player_name
from render.toss.cards import mouse_sprite
from render.toss.layout import (
    CAPTION_BOX,
    COUNTER,
    COUNTERS_BOX,
    MINUS,
    PANEL_LEFT,
    PANEL_RIGHT,
    PIECE_EDGE,
    PLUS,
    ROW_GAP,
    ROW_H,
    ROWS_TOP,
    SEAT_COLOURS,
    SMALL_TEXT,
    SUPPLY_BOX,
    UNKNOWN_SEAT_COLOUR,
    WINNER_BAND,
)
from render.toss.pieces import look_of, piece_sprite
from rules.toss.bin import KINDS
from rules.toss.observation import ROUNDS, TossObservation
from rules.words import counted

# --- the panel ---------------------------------------------------------------------------


def title_note(obs: TossObservation) -> str:
    if obs["finished"]:
        return "Final scores"
    wobble = {"steady": "steady hands", "shaky": "shaky hands"}.get(obs["wobble"], "")
    note = f"Round {obs['round']}/{ROUNDS}"
    return f"{note} - {wobble}" if wobble else note


def winners(obs: TossObservation) -> list[int]:
    """The seats with the highest score (ties share the win)."""
    scores = obs["scores"]
    if not scores:
        return []
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def caption(obs: TossObservation, names: list[str]) -> str:
    """One line saying what is happening."""
    if obs["finished"]:
        best = winners(obs)
        points = obs["scores"][best[0]] if best else 0
        unit = "point" if abs(points) == 1 else "points"
        who = _join([player_name(names, seat) for seat in best])
        if len(best) == 1:
            return f"Game over: {who} wins with {points} {unit}!"
        return f"Game over: {who} share the win with {points} {unit}!"
    if obs["phase"] == "choose":
        waiting = [seat for seat in range(obs["seats"]) if not obs["chosen"][seat]]
        if not waiting:
            return "All cards are down."
        if len(waiting) == 1:
            return f"Waiting for {player_name(names, waiting[0])} to lay down a card"
        return f"Lay down a card face down: {len(waiting)} still choosing"  # rows say who
    turn = obs["turn"]
    if turn is None:
        return ""
    count = obs["to_place"]
    pieces = counted(count, "more piece")
    bound = obs["kind"]
    if bound and obs["supply"].get(bound, 0) > 0:
        what = look_of(bound).plural
    elif bound:
        what = "any kind left"
    else:
        what = "any kind"  # the first piece then binds the rest
    return f"{player_name(names, turn)} drops {pieces} ({what})"


def draw_caption(image: Image.Image, obs: TossObservation, names: list[str]) -> None:
    left, top, right, bottom = CAPTION_BOX
    text = caption(obs, names)
    colour = TORCH if obs["finished"] else INK
    text_in_box(image, (left + 16, top, right - 16, bottom), text, 21, colour, "left", SMALL_TEXT)


def row_box(seat: int) -> Box:
    """Where a player's row sits on the board."""
    top = ROWS_TOP + seat * (ROW_H + ROW_GAP)
    return (PANEL_LEFT, top, PANEL_RIGHT, top + ROW_H)


def chip_box(seat: int) -> Box:
    """The player's card on their row: the revealed number, a back, or an empty slot."""
    left, top, _, bottom = row_box(seat)
    return (left + 42, top + 6, left + 42 + 38, bottom - 6)


def draw_player(image: Image.Image, obs: TossObservation, names: list[str], seat: int) -> None:
    box = row_box(seat)
    left, top, right, bottom = box
    finished = obs["finished"]
    won = finished and seat in winners(obs)
    acting = not finished and seat in obs["to_act"]
    frame = TORCH if won else HIGHLIGHT if acting else PANEL_EDGE
    rounded_box(image, box, 12, WINNER_BAND if won else PANEL, frame, 3 if won or acting else 2)
    colour = seat_colour(obs, seat)
    # place in the turn order
    order = obs["order"]
    mid = (top + bottom) // 2
    if seat in order:
        place = order.index(seat) + 1
        done = obs["turn"] is not None and order.index(obs["turn"]) > order.index(seat)
        fill = HIGHLIGHT if seat == obs["turn"] and not finished else STONE_DARK
        disc(image, (left + 21, mid), 28, fill, MUTED if done else PANEL_EDGE, 2)
        _text_in_box(
            image,
            (left + 7, mid - 14, left + 35, mid + 14),
            str(place),
            SMALL_TEXT,
            DARK_INK if fill == HIGHLIGHT else INK,
            bold=True,
        )
    _draw_chip(image, obs, seat, colour)
    # name, mice and what they are doing
    chip_right = chip_box(seat)[2]
    taken = obs["taken"][seat] if seat < len(obs["taken"]) else []
    taken_w = len(taken) * 32
    score_left = right - 80  # room for WINNER under the score
    name_right = max(chip_right + 120, score_left - taken_w - 10)
    name = player_name(names, seat)
    name_box = (chip_right + 12, top + 6, name_right, top + 34)
    _text_in_box(image, name_box, name, 22, INK, "left", SMALL_TEXT)
    mice = obs["mice"][seat] if seat < len(obs["mice"]) else 0
    x = chip_right + 12
    mouse = mouse_sprite(22, shade(MUTED, 1.25))
    for _ in range(mice):
        image.paste(mouse, (x, top + 37), mouse)
        x += 21
    _text_in_box(
        image,
        (x + 6, top + 36, name_right, top + 58),
        _status(obs, seat),
        SMALL_TEXT,
        HIGHLIGHT if acting else MUTED,
        "left",
    )
    # counters taken, then the score
    x = score_left - taken_w
    for value in taken:
        _counter_disc(image, (x + 15, mid), 30, value)
        x += 32
    _text_in_box(
        image,
        (score_left, top + 2, right - 10, bottom - 22),
        str(obs["scores"][seat]),
        28,
        TORCH if won else INK,
        "right",
        bold=True,
    )
    _text_in_box(
        image,
        (score_left - 8, bottom - 24, right - 10, bottom - 3),
        "WINNER" if won else "points",
        SMALL_TEXT,
        TORCH if won else MUTED,
        "right",
    )


REMINDER = (  # short lines: each must fit the panel at the smallest legible size
    "Lowest card drops first (ties: fewer mice).",
    "Drop as many pieces as your card says.",
    "Anything falls out: top counter, minus.",
    "The very last piece: top counter, plus.",
)
REMINDER_LINE = 26


def draw_reminder(image: Image.Image, seats: int) -> None:
    """The rules in four lines, where fewer players leave room under their rows."""
    top = row_box(seats - 1)[3] + 10 if seats else ROWS_TOP
    bottom = SUPPLY_BOX[1] - 10
    if bottom - top < REMINDER_LINE * len(REMINDER) + 8:
        return
    top = bottom - REMINDER_LINE * len(REMINDER) - 8
    for index, line in enumerate(REMINDER):
        y = top + 4 + index * REMINDER_LINE
        box = (PANEL_LEFT + 16, y, PANEL_RIGHT - 8, y + REMINDER_LINE)
        _text_in_box(image, box, line, SMALL_TEXT, MUTED, "left")


def _status(obs: TossObservation, seat: int) -> str:
    if obs["finished"]:
        return ""
    if obs["phase"] == "choose":
        return "chosen" if obs["chosen"][seat] else "choosing..."
    if seat == obs["turn"]:
        count = obs["to_place"]
        return f"dropping, {count} more"
    order = obs["order"]
    if seat in order and obs["turn"] in order:
        return "done" if order.index(seat) < order.index(obs["turn"]) else "waiting"
    return ""


def _draw_chip(image: Image.Image, obs: TossObservation, seat: int, colour: Colour) -> None:
    """The card a player laid down: face up once revealed, a back with a tick once chosen,
    an empty dashed slot while they are still choosing. Never a hidden number."""
    left, top, right, bottom = chip_box(seat)
    size = (right - left, bottom - top)
    revealed = obs["revealed"][seat] if seat < len(obs["revealed"]) else None
    if revealed is not None:
        sprite = _chip_sprite(revealed, colour, size)
        image.paste(sprite, (left, top), sprite)
    elif obs["chosen"][seat] and not obs["finished"]:
        back = card_back_image(*size)
        image.paste(back, (left, top), back)
        _tick(image, ((left + right) / 2, (top + bottom) / 2), 12, PLUS)
    else:
        draw = ImageDraw.Draw(image)
        for y in range(top, bottom, 6):
            draw.line((left, y, left, min(y + 3, bottom)), fill=MUTED)
            draw.line((right - 1, y, right - 1, min(y + 3, bottom)), fill=MUTED)
        for x in range(left, right, 6):
            draw.line((x, top, min(x + 3, right), top), fill=MUTED)
            draw.line((x, bottom - 1, min(x + 3, right), bottom - 1), fill=MUTED)
        # the seat's colour as a stripe, so the row still says which cards are theirs
        draw.rectangle((left + 5, bottom - 10, right - 6, bottom - 6), fill=colour)


@lru_cache(maxsize=128)
def _chip_sprite(value: int, colour: Colour, size: Size) -> Image.Image:
    """A small face-up card: the seat's colour with the number."""
    sprite = Image.new("RGBA", size, (0, 0, 0, 0))
    rounded_box(sprite, (0, 0, *size), 5, colour, CARD_EDGE, 2)
    ink = DARK_INK if sum(colour) > 420 else INK
    text_in_box(sprite, (0, 0, *size), str(value), 24, ink, bold=True)
    return sprite


def _tick(image: Image.Image, centre: tuple[float, float], size: int, colour: Colour) -> None:
    """A check mark (the font has none)."""
    x, y = centre
    points = [
        (x - size * 0.5, y),
        (x - size * 0.1, y + size * 0.4),
        (x + size * 0.55, y - size * 0.45),
    ]
    draw = ImageDraw.Draw(image)
    draw.line(points, fill=PIECE_EDGE, width=6, joint="curve")
    draw.line(points, fill=colour, width=3, joint="curve")


def _counter_disc(image: Image.Image, centre: tuple[int, int], diameter: int, value: int) -> None:
    """A taken counter: red minus side or green plus side up, with its signed number."""
    fill = PLUS if value > 0 else MINUS
    disc(image, centre, diameter, fill, PIECE_EDGE, 2)
    text = f"+{value}" if value > 0 else f"-{abs(value)}"
    x, y = centre
    half = diameter // 2
    _text_in_box(image, (x - half, y - half, x + half, y + half), text, SMALL_TEXT, INK, bold=True)


def draw_supply(image: Image.Image, obs: TossObservation) -> None:
    """Each kind's pieces left beside the bin: the piece, true to scale, and "x7"."""
    left, top, right, bottom = SUPPLY_BOX
    keys = list(KINDS)
    column = (right - left - 16) // max(1, len(keys))
    scale = _icon_scale()
    bound = obs["kind"] if obs["phase"] == "place" and not obs["finished"] else None
    for index, key in enumerate(keys):
        x0 = left + 8 + index * column
        cx = x0 + column // 2
        count = obs["supply"].get(key, 0)
        if key == bound:
            rounded_box(
                image, (x0 + 2, top + 30, x0 + column - 2, bottom - 8), 10, STONE_DARK, HIGHLIGHT, 2
            )
        sprite = piece_sprite(key, KINDS[key], scale, 0, "solid" if count else "faded")
        image.paste(sprite, (cx - sprite.width // 2, top + 104 - sprite.height), sprite)
        _text_in_box(
            image,
            (x0, top + 108, x0 + column, top + 136),
            f"x{count}",
            22,
            INK if count else MUTED,
            bold=True,
        )
        for line, word in enumerate(KINDS[key].name.split()):  # a word a line: "milk", "carton"
            y = top + 134 + line * 21
            _text_in_box(image, (x0, y, x0 + column, y + 22), word, SMALL_TEXT, MUTED)
    _text_in_box(
        image,
        (left + 140, top + 2, right - 12, top + 32),
        f"{sum(obs['supply'].values())} left",
        SMALL_TEXT,
        MUTED,
        "right",
    )


@lru_cache(maxsize=1)
def _icon_scale() -> float:
    """One scale for every supply icon (true relative sizes), so the tallest fits 68 px."""
    tallest = max(
        2 * kind.radius if kind.shape == "round" else max(kind.height, kind.width)
        for kind in KINDS.values()
    )
    return round(68 / max(tallest, 1.0), 3)


def draw_counters(image: Image.Image, obs: TossObservation) -> None:
    """The stack of counters: how many are left, the top one big, the rest beneath it."""
    left, top, right, bottom = COUNTERS_BOX
    counters = obs["counters"]
    note = f"{len(counters)} left" if counters else "none left"
    note_box = (left + 100, top + 2, right - 12, top + 32)
    _text_in_box(image, note_box, note, SMALL_TEXT, MUTED, "right")
    if not counters:
        _text_in_box(image, (left, top + 40, right, bottom - 10), "All taken", 20, MUTED)
        return
    cx = left + 58
    cy = top + 88
    # the stack seen from the side: one slim layer per counter under the top one
    draw = ImageDraw.Draw(image)
    layer = 6
    for index in range(len(counters) - 1, 0, -1):
        y = cy + 12 + index * layer
        draw.ellipse(
            (cx - 36, y - 14, cx + 36, y + 14), fill=shade(COUNTER, 0.6), outline=PIECE_EDGE
        )
    disc(image, (cx, cy), 74, COUNTER, PIECE_EDGE, 3)
    _text_in_box(
        image, (cx - 37, cy - 37, cx + 37, cy + 37), str(counters[0]), 38, DARK_INK, bold=True
    )
    _draw_text(image, (cx, cy + 44 + len(counters) * layer), "on top", SMALL_TEXT, MUTED, "mm")
    # the ones underneath, in order
    x = left + 116
    _draw_text(image, (x, top + 44), "then", SMALL_TEXT, MUTED, "la")
    for index, value in enumerate(counters[1:]):
        row, col = divmod(index, 3)
        centre = (x + 15 + col * 31, top + 84 + row * 33)
        disc(image, centre, 30, shade(COUNTER, 0.85), PIECE_EDGE, 2)
        _text_in_box(
            image,
            (centre[0] - 15, centre[1] - 15, centre[0] + 15, centre[1] + 15),
            str(value),
            SMALL_TEXT,
            DARK_INK,
            bold=True,
        )


# --- small helpers ----------------------------------------------------------------------


def seat_colour(obs: TossObservation, seat: int) -> Colour:
    """The RGB of a seat's card colour word ("red" -> the shared red)."""
    words = obs["colours"]
    word = words[seat] if 0 <= seat < len(words) else ""
    return SEAT_COLOURS.get(word, UNKNOWN_SEAT_COLOUR)


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
