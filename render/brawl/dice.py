"""Dumpster Brawl!'s dice: a die's sprite (blue or green, crowbar or lid, plus or minus), the
King's crown, and the dice picture `draw_rolls`, one row a roll with the counts that matter.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from lang import ENGLISH, say
from render.brawl.icons import CROWN_GOLD, DIE_COLOURS, DIE_INK, OUTLINE, frac_box, pts
from render.brawl.words import said, who
from render.common import (
    BACKDROP,
    CARD_EDGE,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    SUPERSAMPLE,
    TORCH,
    disc,
    least_size,
    rounded_box,
    see_through,
    shade,
    title_bar,
    to_png,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_text_in_box as _text
from render.common.record import note
from render.common.words import player_colour, player_name
from rules.brawl.observation import BrawlObservation, RollView, VerdictView
from rules.phrases import language_of, phrase, phrase_in, phrase_n

# --- dice ---------------------------------------------------------------------------------


def is_crowbar(die: int) -> bool:
    """Bit 1 of a die's number: a crowbar, else a trash-can lid."""
    return bool(die & 1)


def is_plus(die: int) -> bool:
    """Bit 2 of a die's number: a plus, else a minus."""
    return bool(die & 2)


@lru_cache(maxsize=32)
def die_sprite(colour: str, die: int, size: int) -> Image.Image:
    """One die (RGBA): a blue or green rounded square with a crowbar or a lid and its sign."""
    k = SUPERSAMPLE
    s = size * k
    body = DIE_COLOURS.get(colour, (120, 120, 120))
    sprite = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s * 0.2, fill=shade(body, 0.5))
    d.rounded_rectangle((k, k, s - 1 - k, s - 1 - 3 * k), radius=s * 0.18, fill=body)
    d.rounded_rectangle((s * 0.1, s * 0.08, s * 0.9, s * 0.4), radius=s * 0.14,
                        fill=shade(body, 1.12))  # fmt: skip
    d.rounded_rectangle((s * 0.08, s * 0.2, s * 0.92, s * 0.9), radius=s * 0.15, fill=body)
    w = max(2, round(s * 0.09))
    if is_crowbar(die):  # a bar on the slant, hooked at the top, split claw at the foot
        w = max(2, round(s * 0.11))
        d.line(pts(s, [(0.24, 0.84), (0.42, 0.36)]), fill=DIE_INK, width=w)
        d.arc(frac_box(s, 0.34, 0.2, 0.66, 0.52), 180, 50, fill=DIE_INK, width=w)
        d.line(pts(s, [(0.25, 0.84), (0.1, 0.78)]), fill=DIE_INK, width=w)
    else:  # a dustbin lid: a dome with a rim and a handle
        d.chord(frac_box(s, 0.16, 0.36, 0.84, 0.84), 180, 360, fill=DIE_INK)
        d.rounded_rectangle(frac_box(s, 0.1, 0.58, 0.9, 0.68), radius=s * 0.04, fill=DIE_INK)
        d.rounded_rectangle(frac_box(s, 0.4, 0.26, 0.6, 0.36), radius=s * 0.04, fill=DIE_INK)
    # the sign in the top-right corner, drawn as bars (the font's minus is thin)
    cx, cy, arm, bar = s * 0.79, s * 0.22, s * 0.09, s * 0.035
    d.rectangle((cx - arm, cy - bar, cx + arm, cy + bar), fill=TORCH)
    if is_plus(die):
        d.rectangle((cx - bar, cy - arm, cx + bar, cy + arm), fill=TORCH)
    return sprite.reduce(k)


@lru_cache(maxsize=8)
def crown(size: int) -> Image.Image:
    """The King of the Heap's crown (RGBA, `size` wide)."""
    k = SUPERSAMPLE
    w, h = size * k, round(size * 0.7) * k
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    points = [(0.04, 0.92), (0.04, 0.3), (0.28, 0.58), (0.5, 0.12), (0.72, 0.58), (0.96, 0.3),
              (0.96, 0.92)]  # fmt: skip
    d.polygon([(x * w, y * h) for x, y in points], fill=CROWN_GOLD, outline=OUTLINE,
              width=k * 2)  # fmt: skip
    for x, y in ((0.04, 0.3), (0.5, 0.12), (0.96, 0.3)):
        r = w * 0.07
        d.ellipse((x * w - r, y * h - r, x * w + r, y * h + r), fill=(222, 70, 58),
                  outline=OUTLINE, width=k)  # fmt: skip
    d.rectangle((0.1 * w, 0.74 * h, 0.9 * w, 0.82 * h), fill=shade(CROWN_GOLD, 0.7))
    return sprite.reduce(k)


# --- the dice picture ------------------------------------------------------------------------

ROLLS_W = 800
ROLL_ROW_H = 62
VERDICT_H = 46
START_ROW_H = 84
DIE = 44
DIE_STEP = 50
DICE_LEFT = 300
DICE_TEXT = least_size(ROLLS_W)  # the least font size on the dice picture (16 px)
MAX_ROLLS = 8

PURPOSE_WORDS = {
    "attack": phrase_in("roll", "attacks"),
    "defence": phrase_in("roll", "defends"),
    "reroll": phrase_in("roll", "rerolls (Second Wind)"),
    "rummage": phrase_in("roll", "rummages"),
    "roll-off": phrase_in("roll", "roll-off"),
}


def new_rolls(obs: BrawlObservation, since_step: int) -> list[RollView]:
    """The rolls made after `since_step`, oldest first, at most the latest MAX_ROLLS."""
    fresh = [roll for roll in obs["rolls"] if roll["step"] > since_step]
    return fresh[-MAX_ROLLS:]


def roll_counts(obs: BrawlObservation, roll: RollView, language: str = ENGLISH) -> list[str]:
    """What matters of a roll, in words: crowbars attack, lids defend, signs rummage."""
    dice = roll["dice"]
    crowbars = sum(1 for die in dice if is_crowbar(die))
    pluses = sum(1 for die in dice if is_plus(die))
    purpose = roll["purpose"]
    if purpose == "rummage":
        minuses = len(dice) - pluses
        parts = [phrase("+{n} to draw", n=pluses) if pluses else phrase("nothing to draw")]
        if obs["mode"] != "rummy":  # Rummy has no discarding: minuses do nothing
            minus = phrase("-{n} to discard", n=minuses)
            parts.append(minus if minuses else phrase("nothing to discard"))
        return [say(part, language) for part in parts]
    if purpose == "defence" or (purpose == "reroll" and roll["colour"] == "green"):
        return [say(phrase_n("{n} lid", "{n} lids", len(dice) - crowbars), language)]
    return [say(phrase_n("{n} crowbar", "{n} crowbars", crowbars), language)]


def draw_rolls(obs: BrawlObservation, names: list[str], since_step: int) -> bytes | None:
    """The dice rolled after `since_step` as PNG bytes (None when there is nothing new)."""
    image = rolls_image(obs, names, since_step)
    return None if image is None else to_png(image)


def rolls_image(obs: BrawlObservation, names: list[str], since_step: int) -> Image.Image | None:
    """The dice picture as an image (for tests and previews)."""
    rolls = new_rolls(obs, since_step)
    start = obs["start_rolls"] if since_step == 0 else []
    # A fight decided without a new roll (both kept their Second Wind dice) still shows.
    verdicts = [v for v in obs.get("verdicts") or [] if v["step"] > since_step]
    if not rolls and not start and not verdicts:
        return None
    if verdicts and not rolls:  # show the dice the fighters kept, over the verdict
        rolls = _fighters_dice(obs, verdicts[-1])
    height = 48 + 8 + len(start) * START_ROW_H + (28 if start else 0) + len(rolls) * ROLL_ROW_H
    height += len(verdicts) * VERDICT_H
    image = Image.new("RGB", (ROLLS_W, height + 8), BACKDROP)
    title = phrase("Start roll") if start and not rolls else phrase("The dice")
    hidden = len([r for r in obs["rolls"] if r["step"] > since_step]) - len(rolls)
    note = said(phrase("{n} earlier not shown", n=hidden), names) if hidden > 0 else ""
    title_bar(image, said(title, names), note, 44, 22)
    y = 52
    for round_index, faces in enumerate(start):
        _start_row(image, obs, names, round_index, faces, y)
        y += START_ROW_H
    if start:
        starter = obs["starter"]
        starts = phrase("{player} starts!", player=who(obs, names, starter))
        text = said(starts, names) if 0 <= starter < obs["seats"] else ""
        _text(image, (24, y, ROLLS_W - 24, y + 26), text, 17, TORCH, "left", DICE_TEXT, bold=True)
        y += 28
    striped, last_step = True, rolls[0]["step"] if rolls else 0
    waiting = list(verdicts)
    for roll in rolls:
        while waiting and _after(waiting[0], roll):  # each verdict by its own dice
            _verdict_row(image, obs, names, waiting.pop(0), y)
            y += VERDICT_H
        if roll["step"] != last_step:  # a fight's attack and defence share one band
            striped, last_step = not striped, roll["step"]
        _roll_row(image, obs, names, roll, y, striped)
        y += ROLL_ROW_H
    for verdict in waiting:
        _verdict_row(image, obs, names, verdict, y)
        y += VERDICT_H
    return image


def _after(verdict: VerdictView, roll: RollView) -> bool:
    """Whether `roll` came after `verdict`: a later action's, or a rummage in the same action
    (a fight's own dice may be rolled in the action that decides it)."""
    fight = roll["purpose"] in ("attack", "defence", "reroll")
    return verdict["step"] < roll["step"] or (verdict["step"] == roll["step"] and not fight)


def _fighters_dice(obs: BrawlObservation, verdict: VerdictView) -> list[RollView]:
    """The attacker's and the defender's latest fight roll: the dice a verdict went by."""
    kept = []
    for seat in (verdict["attacker"], verdict["defender"]):
        fight_rolls = [
            roll
            for roll in obs["rolls"]
            if roll["seat"] == seat and roll["purpose"] in ("attack", "defence", "reroll")
        ]
        kept += fight_rolls[-1:]
    return kept


def verdict_words(obs: BrawlObservation, names: list[str], verdict: VerdictView) -> str:
    """ "3 crowbars beat 2 lids: Bandit (Ann) wins the fight" """
    bars, lids = verdict["crowbars"], verdict["lids"]
    winner = who(obs, names, verdict["winner"])
    if verdict["winner"] == verdict["attacker"]:
        words = phrase_n(
            "{n} crowbar beats {lids}: {player} wins the fight",
            "{n} crowbars beat {lids}: {player} wins the fight",
            bars,
            lids=phrase_n("{n} lid", "{n} lids", lids),
            player=winner,
        )
    else:
        words = phrase_n(
            "{n} lid holds off {crowbars}: {player} wins the fight",
            "{n} lids hold off {crowbars}: {player} wins the fight",
            lids,
            crowbars=phrase_n("{n} crowbar", "{n} crowbars", bars),
            player=winner,
        )
    return said(words, names)


def _verdict_row(
    image: Image.Image, obs: BrawlObservation, names: list[str], verdict: VerdictView, top: int
) -> None:
    """The fight's end under its dice, in the winner's colour."""
    colour = player_colour(verdict["winner"])
    band = (8, top + 4, ROLLS_W - 8, top + VERDICT_H - 4)
    rounded_box(image, band, 10, shade(colour, 0.35), colour, 2)
    words = verdict_words(obs, names, verdict)
    _text(image, (24, band[1], ROLLS_W - 24, band[3]), words, 19, INK, "left", DICE_TEXT,
          bold=True)  # fmt: skip
    note("verdict", band, words)


def _roll_row(
    image: Image.Image,
    obs: BrawlObservation,
    names: list[str],
    roll: RollView,
    top: int,
    striped: bool,
) -> None:
    seat = roll["seat"]
    row = (8, top + 2, ROLLS_W - 8, top + ROLL_ROW_H - 2)
    if striped:
        rounded_box(image, row, 10, PANEL)
    note("roll", row, str(roll["step"]))
    disc(image, (26, top + ROLL_ROW_H // 2), 16, player_colour(seat), CARD_EDGE, 2)
    _text(image, (42, top + 6, DICE_LEFT - 10, top + 32), who(obs, names, seat), 18, INK, "left",
          DICE_TEXT, bold=True)  # fmt: skip
    word = said(PURPOSE_WORDS.get(roll["purpose"], PURPOSE_WORDS["roll-off"]), names)
    _text(image, (42, top + 32, DICE_LEFT - 10, top + 56), word, DICE_TEXT, MUTED, "left")
    y = top + (ROLL_ROW_H - DIE) // 2
    dice = roll["dice"][:8]
    step = DIE_STEP if len(dice) <= 7 else DIE + 2
    counting = _counts(roll)
    for index, die in enumerate(dice):
        if counting is not None and is_crowbar(die) != counting:
            sprite = _faded_die(roll["colour"], die, DIE)  # it does not count in this fight
        else:
            sprite = die_sprite(roll["colour"], die, DIE)
        image.paste(sprite, (DICE_LEFT + index * step, y), sprite)
    counts = roll_counts(obs, roll, language_of(names))
    x = DICE_LEFT + 7 * DIE_STEP + 6
    if len(counts) == 1:
        _text(image, (x, top, ROLLS_W - 16, top + ROLL_ROW_H), counts[0], 20, TORCH, "left",
              DICE_TEXT, bold=True)  # fmt: skip
    else:
        for index, text in enumerate(counts):
            y = top + 6 + index * 26
            _text(image, (x, y, ROLLS_W - 16, y + 24), text, 17, TORCH, "left", DICE_TEXT,
                  bold=True)  # fmt: skip


def _counts(roll: RollView) -> bool | None:
    """In a fight, which dice count: crowbars (True) for the attack, lids (False) for the
    defence; None for a roll where every die counts (a rummage)."""
    if roll["purpose"] == "defence" or (roll["purpose"] == "reroll" and roll["colour"] == "green"):
        return False
    if roll["purpose"] in ("attack", "reroll"):
        return True
    return None


@lru_cache(maxsize=32)
def _faded_die(colour: str, die: int, size: int) -> Image.Image:
    """A die's sprite at a third of its opacity."""
    return see_through(die_sprite(colour, die, size), 1 / 3)


def _start_row(
    image: Image.Image,
    obs: BrawlObservation,
    names: list[str],
    round_index: int,
    faces: list[int],
    top: int,
) -> None:
    """One round of the start-player roll: each seat's die, or a dash for those already out."""
    rounded_box(image, (8, top + 2, ROLLS_W - 8, top + START_ROW_H - 2), 10, PANEL)
    heading = said(phrase("Start roll, round {n}", n=round_index + 1), names)
    _text(image, (24, top + 8, DICE_LEFT - 10, top + 34), heading, 17, INK, "left", DICE_TEXT,
          bold=True)  # fmt: skip
    how = said(phrase("crowbar rolls on, lid drops out"), names)
    _text(image, (24, top + 36, DICE_LEFT - 10, top + 58), how, DICE_TEXT, MUTED, "left")
    cell = min(160, (ROLLS_W - 16 - DICE_LEFT) // max(1, len(faces)))  # room for the names
    size = 40
    for seat, face in enumerate(faces):
        cx = DICE_LEFT + seat * cell + cell // 2
        if face < 0:
            box = (cx - size // 2, top + 8, cx + size // 2, top + 8 + size)
            rounded_box(image, box, 8, shade(PANEL, 0.8), PANEL_EDGE, 1)
            _text(image, box, said(phrase("out"), names), DICE_TEXT, MUTED)
        else:
            # the house faces: 1 is a crowbar-minus, 2 a lid-plus
            sprite = die_sprite("blue", 1 if face == 1 else 2, size)
            image.paste(sprite, (cx - size // 2, top + 8), sprite)
        _text(image, (cx - cell // 2 + 2, top + 52, cx + cell // 2 - 2, top + 74),
              player_name(names, seat), DICE_TEXT, INK if face >= 0 else MUTED)  # fmt: skip
