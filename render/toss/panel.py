"""Toss It in the Trash's panel beside the bin: the caption, one row per player (colour, mice,
the card laid down or whether they have chosen, counters, score, turn order), the reminder, the
supply and the counter stack, and the names and colours of the seats.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from lang import ENGLISH, say
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
from render.toss.pieces import piece_sprite
from rules.phrases import Phrase, language_of, listing, phrase, phrase_in, phrase_n
from rules.toss.bin import KINDS
from rules.toss.observation import ROUNDS, TossObservation
from rules.toss.words import more_pieces, pieces, supply_label

# --- the panel ---------------------------------------------------------------------------


# The title's note for a game played with other hands than the house's.
ROUND_WITH_HANDS = {
    "steady": lambda n: phrase("Round {round}/{rounds} - steady hands", round=n, rounds=ROUNDS),
    "shaky": lambda n: phrase("Round {round}/{rounds} - shaky hands", round=n, rounds=ROUNDS),
}


def title_note(obs: TossObservation, language: str = ENGLISH) -> str:
    if obs["finished"]:
        return say(phrase("Final scores"), language)
    hands = ROUND_WITH_HANDS.get(obs["wobble"])
    if hands is not None:
        return say(hands(obs["round"]), language)
    return say(phrase("Round {round}/{rounds}", round=obs["round"], rounds=ROUNDS), language)


def winners(obs: TossObservation) -> list[int]:
    """The seats with the highest score (ties share the win)."""
    scores = obs["scores"]
    if not scores:
        return []
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def caption(obs: TossObservation, names: list[str]) -> str:
    """One line saying what is happening, in the language of `names`."""
    said = _caption(obs, names)
    return "" if said is None else say(said, language_of(names))


def _caption(obs: TossObservation, names: list[str]) -> Phrase | None:
    if obs["finished"]:
        best = winners(obs)
        points = obs["scores"][best[0]] if best else 0
        who = [player_name(names, seat) for seat in best]
        if len(best) == 1:
            return phrase_n(
                "Game over: {winner} wins with {n} point!",
                "Game over: {winner} wins with {n} points!",
                points,
                winner=who[0],
            )
        return phrase_n(
            "Game over: {winners} share the win with {n} point!",
            "Game over: {winners} share the win with {n} points!",
            points,
            winners=listing(who),
        )
    if obs["phase"] == "choose":
        waiting = [seat for seat in range(obs["seats"]) if not obs["chosen"][seat]]
        if not waiting:
            return phrase("All cards are down.")
        if len(waiting) == 1:
            return phrase(
                "Waiting for {player} to lay down a card", player=player_name(names, waiting[0])
            )
        return phrase_n(  # the rows say who
            "Lay down a card face down: {n} still choosing",
            "Lay down a card face down: {n} still choosing",
            len(waiting),
        )
    turn = obs["turn"]
    if turn is None:
        return None
    bound = obs["kind"]
    what: Phrase
    if bound and obs["supply"].get(bound, 0) > 0:
        what = pieces(bound)
    elif bound:
        what = phrase("any kind left")
    else:
        what = phrase("any kind")  # the first piece then binds the rest
    return phrase(
        "{player} drops {pieces} ({kind})",
        player=player_name(names, turn),
        pieces=more_pieces(None, obs["to_place"]),
        kind=what,
    )


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
    language = language_of(names)
    mice = obs["mice"][seat] if seat < len(obs["mice"]) else 0
    x = chip_right + 12
    mouse = mouse_sprite(22, shade(MUTED, 1.25))
    for _ in range(mice):
        image.paste(mouse, (x, top + 37), mouse)
        x += 21
    _text_in_box(
        image,
        (x + 6, top + 36, name_right, top + 58),
        say(_status(obs, seat), language),
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
        say(phrase("WINNER") if won else phrase_in("score", "points"), language),
        SMALL_TEXT,
        TORCH if won else MUTED,
        "right",
    )


REMINDER = (  # short lines: each must fit the panel at the smallest legible size
    phrase("Lowest card drops first (ties: fewer mice)."),
    phrase("Drop as many pieces as your card says."),
    phrase("Anything falls out: top counter, minus."),
    phrase("The very last piece: top counter, plus."),
)
REMINDER_LINE = 26


def draw_reminder(image: Image.Image, seats: int, language: str = ENGLISH) -> None:
    """The rules in four lines, where fewer players leave room under their rows."""
    top = row_box(seats - 1)[3] + 10 if seats else ROWS_TOP
    bottom = SUPPLY_BOX[1] - 10
    if bottom - top < REMINDER_LINE * len(REMINDER) + 8:
        return
    top = bottom - REMINDER_LINE * len(REMINDER) - 8
    for index, line in enumerate(REMINDER):
        y = top + 4 + index * REMINDER_LINE
        box = (PANEL_LEFT + 16, y, PANEL_RIGHT - 8, y + REMINDER_LINE)
        _text_in_box(image, box, say(line, language), SMALL_TEXT, MUTED, "left")


def _status(obs: TossObservation, seat: int) -> Phrase | str:
    """What a player is doing, under their name (nothing once the game is over)."""
    if obs["finished"]:
        return ""
    if obs["phase"] == "choose":
        if obs["chosen"][seat]:
            return phrase_in("player status", "chosen")
        return phrase_in("player status", "choosing...")
    if seat == obs["turn"]:
        count = obs["to_place"]
        return phrase_n("dropping, {n} more", "dropping, {n} more", count)
    order = obs["order"]
    if seat in order and obs["turn"] in order:
        if order.index(seat) < order.index(obs["turn"]):
            return phrase_in("player status", "done")
        return phrase_in("player status", "waiting")
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


def draw_supply(image: Image.Image, obs: TossObservation, language: str = ENGLISH) -> None:
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
            f"×{count}",  # a count, in no language
            22,
            INK if count else MUTED,
            bold=True,
        )
        label = say(supply_label(key), language)
        for line, word in enumerate(label.splitlines()):  # "milk", "carton"
            y = top + 134 + line * 21
            _text_in_box(image, (x0, y, x0 + column, y + 22), word, SMALL_TEXT, MUTED)
    _text_in_box(
        image,
        (left + 140, top + 2, right - 12, top + 32),
        say(phrase_n("{n} left", "{n} left", sum(obs["supply"].values())), language),
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


def draw_counters(image: Image.Image, obs: TossObservation, language: str = ENGLISH) -> None:
    """The stack of counters: how many are left, the top one big, the rest beneath it."""
    left, top, right, bottom = COUNTERS_BOX
    counters = obs["counters"]
    left_now = phrase_n("{n} left", "{n} left", len(counters))
    note = say(left_now if counters else phrase("none left"), language)
    note_box = (left + 100, top + 2, right - 12, top + 32)
    _text_in_box(image, note_box, note, SMALL_TEXT, MUTED, "right")
    if not counters:
        all_taken = say(phrase("All taken"), language)
        _text_in_box(image, (left, top + 40, right, bottom - 10), all_taken, 20, MUTED)
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
    on_top = say(phrase("on top"), language)
    _draw_text(image, (cx, cy + 44 + len(counters) * layer), on_top, SMALL_TEXT, MUTED, "mm")
    # the ones underneath, in order
    x = left + 116
    _draw_text(image, (x, top + 44), say(phrase("then"), language), SMALL_TEXT, MUTED, "la")
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
