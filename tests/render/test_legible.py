"""Legible where it is seen (issue 14): every text a picture draws is at least 11 px high
when the picture is shown the width Discord shows it.

The height of a text is its font size in pixels (the em, what CSS and Discord call a font's
size), scaled as the picture is; Discord's own smallest text (a message's time) is about
12 px. The font size, not the ink, because it is what a renderer chooses and the same for
"mice" and "MICE"; in Noto Sans the capitals are 0.71 of it and the lower case 0.54.

Shown widths (the issue's measure): a picture is shown at most `CHAT_WIDTH` px wide, a
narrower one at its own width. Private pictures (hands, the secret, the dice, the preview)
are replies in the same column, so the same rule holds. Discord may show a picture smaller
still (a phone's narrower column, a cap on height): 550 px is the promise, not the worst
case.

Texts are checked from what the renderer noted it drew (`render.common.record`), for each
game's boards from the start to the end of seeded games of random legal moves, at every
player count that changes the layout, and for the hand-made boards the render tests use
(crowded rooms, long names, six pieces in the air).
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image

from render import brawl, rumble, toss, trashwar
from render.brawl.recap import draw_recap as brawl_recap
from render.common import draw_text
from render.common.record import Drawn, recording
from render.rumble.recap import draw_recap as rumble_recap
from render.toss.recap import draw_recap as toss_recap
from render.trashwar.recap import draw_recap as trashwar_recap
from rules.base import AnyGame
from rules.brawl import BRAWL
from rules.brawl.state import KING, ROUND, RUMMY
from rules.rumble import RUMBLE
from rules.toss import TOSS
from rules.toss.engine import Place, parse_action
from rules.trashwar import TRASH_WAR
from tests.render.test_caches import clear_render_caches
from tests.render.test_rumble_render import PHASES as RUMBLE_SAMPLES
from tests.render.test_trashwar_render import PHASES as TRASH_WAR_SAMPLES
from tests.rules.test_brawl import ISCRATCHU, MOOSETACHE, SETS, build, play

CHAT_WIDTH = 550  # px: how wide Discord shows a picture in a channel or a reply
SMALLEST = 11  # px: the least font size a player must be able to read, once shown
# Names in five scripts, the long nickname (issue 38) among them.
NAMES = ["Zoë 王小明 🦝✨", "Ёжик Толстой", "Σοφία", "名無しさん", "🦝 Rocky", "Łukasz Ångström"]
BOARDS_PER_GAME = 6  # pictures of each game besides its start and end: enough states, quick

Shown = tuple[str, bytes, list[Drawn]]  # which picture, its PNG, the texts it drew


def width_of(png: bytes) -> int:
    """A PNG's width, read from its header (IHDR: after the 8-byte signature and the chunk's
    length and type)."""
    return int(struct.unpack(">I", png[16:20])[0])


def drawn(label: str, draw: Callable[..., bytes | None], *args: Any) -> Iterator[Shown]:
    """`draw(*args)`, and the texts it noted."""
    with recording() as notes:
        png = draw(*args)
    if png is not None:
        yield label, png, [n for n in notes if n.kind == "text"]


def played(engine: AnyGame, seats: int, options: dict[str, str], seed: int) -> Iterator[Any]:
    """States of a seeded game of random legal moves: the start, `BOARDS_PER_GAME` spread
    over the middle, and the end."""
    rng, state = random.Random(seed), engine.new_game(seats, options, seed)
    states = [state]
    while engine.outcome(state) is None and len(states) < 3000:
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat))).state
        states.append(state)
    every = max(1, len(states) // (BOARDS_PER_GAME + 1))
    yield from states[every:-1:every][:BOARDS_PER_GAME]
    yield states[0]
    yield states[-1]


def rumble_pictures() -> Iterator[Shown]:
    for label, (obs, names) in RUMBLE_SAMPLES.items():
        yield from drawn(f"board '{label}'", rumble.draw_dungeon, obs, names)
    for seats in (2, 6):
        for state in played(RUMBLE, seats, {}, seats):
            obs, since = RUMBLE.observe(state, None), max(0, state.step - 2)
            yield from drawn(f"board, {seats} players", rumble.draw_dungeon, obs, NAMES, since)
            if obs["history"]:
                result = obs["history"][-1]
                yield from drawn("reveal", rumble.draw_reveal, result, NAMES)
            own = RUMBLE.observe(state, 0)
            yield from drawn("secret", rumble.draw_secret, own, NAMES[0])
            if obs["finished"]:
                yield from drawn(f"recap, {seats} players", rumble_recap, obs, NAMES)


def trashwar_pictures() -> Iterator[Shown]:
    for label, (obs, names) in TRASH_WAR_SAMPLES.items():
        yield from drawn(f"board '{label}'", trashwar.draw_battlefield, obs, names)
    for seats in (2, 3, 4, 5, 6):
        for state in played(TRASH_WAR, seats, {}, seats):
            obs, since = TRASH_WAR.observe(state, None), max(0, state.step - 2)
            yield from drawn(
                f"board, {seats} players", trashwar.draw_battlefield, obs, NAMES, since
            )
            own = TRASH_WAR.observe(state, 0)
            yield from drawn("hand", trashwar.draw_hand, own, NAMES[0])
            if obs["finished"]:
                yield from drawn(f"recap, {seats} players", trashwar_recap, obs, NAMES)


def brawl_pictures() -> Iterator[Shown]:
    for seats, mode in ((3, ROUND), (4, KING), (6, RUMMY), (5, ROUND)):
        for state in played(BRAWL, seats, {"mode": mode}, seats):
            obs, since = BRAWL.observe(state, None), max(0, state.step - 6)
            yield from drawn(f"table, {seats} players, {mode}", brawl.draw_table, obs, NAMES)
            yield from drawn("dice", brawl.draw_rolls, obs, NAMES, since)
            own = BRAWL.observe(state, 0)
            yield from drawn("hand", brawl.draw_hand, own, NAMES[0])
    for label, obs in brawl_endings().items():
        yield from drawn(f"recap, {label}", brawl_recap, obs, NAMES)


def brawl_endings() -> dict[str, Any]:
    """Finished games whose recap shows cards: a winning hand of three sets, and Rummy's
    tables (random games mostly end in a draw)."""
    won = build(
        {0: [*SETS, "takeout"], 1: ["pizza"]},
        characters=(ISCRATCHU, MOOSETACHE, 2),
        trash_top=["takeout"],
        phase="rummage",
        actor=0,
        draws=1,
        defender=1,
    )
    rummy = build(
        {0: ["pizza"] * 3, 1: ["fish"], 2: ["milk"]},
        mode=RUMMY,
        laid={1: ["soda"] * 3, 2: ["apple"] * 4},
        phase="pre",
        draws=2,
    )
    return {
        "winning hand": BRAWL.observe(play(won, "draw trash"), None),
        "Rummy tables": BRAWL.observe(play(rummy, "go out"), None),
    }


def toss_pictures() -> Iterator[Shown]:
    for seats in (2, 5):
        for state in played(TOSS, seats, {}, seats):
            obs, since = TOSS.observe(state, None), max(0, state.step - 2)
            yield from drawn(f"bin, {seats} players", toss.draw_bin, obs, NAMES, since)
            own = TOSS.observe(state, 0)
            yield from drawn("cards", toss.draw_cards, own, NAMES[0])
            seat = min(TOSS.to_act(state), default=None)
            drops = [] if seat is None else TOSS.legal_actions(state, seat)
            if drops and drops[0].startswith("place"):
                drop = parse_action(drops[0])
                assert isinstance(drop, Place)
                yield from drawn("preview", toss.draw_preview, obs, drop.kind, drop.x, 0)
            if obs["finished"]:
                yield from drawn(f"recap, {seats} players", toss_recap, obs, NAMES)


GAMES: dict[str, Callable[[], Iterator[Shown]]] = {
    "Rumble in the Dungeon": rumble_pictures,
    "Trash War": trashwar_pictures,
    "Dumpster Brawl!": brawl_pictures,
    "Toss It in the Trash": toss_pictures,
}


def too_small(pictures: Iterator[Shown]) -> list[str]:
    """The texts drawn smaller than `SMALLEST` once shown: one line per picture and font
    size, with its scaled size and the texts (a few: names recur in every state)."""
    found: dict[tuple[str, int], tuple[float, set[str]]] = {}
    for label, png, texts in pictures:
        width = width_of(png)
        scale = min(1.0, CHAT_WIDTH / width)
        for text in texts:
            seen = text.size * scale
            if seen < SMALLEST:
                key = (f"{label} ({width} px wide)", text.size)
                found.setdefault(key, (seen, set()))[1].add(text.text)
    return [
        f"{where}: {size} px text is {seen:.1f} px high shown, "
        + ", ".join(repr(t) for t in sorted(texts)[:4])
        + (f" and {len(texts) - 4} more" if len(texts) > 4 else "")
        for (where, size), (seen, texts) in sorted(found.items())
    ]


@pytest.mark.parametrize("game", GAMES)
def test_every_text_is_at_least_11_px_high_as_discord_shows_it(game: str) -> None:
    clear_render_caches()  # text inside cached layers and sprites is noted when drawn
    small = too_small(GAMES[game]())
    assert not small, f"{game}: {len(small)} texts too small:\n" + "\n".join(small)


@pytest.mark.parametrize(
    ("xy", "cache"),
    [((10.5, 20.0), False), ((10.0, 20.0), True), ((-3.0, 20.0), False)],
    ids=["pasted stamp", "cached mask", "off the left edge"],
)
def test_every_draw_of_a_text_is_noted_with_its_size_and_box(
    xy: tuple[float, float], cache: bool
) -> None:
    """The check above relies on this: each draw of a text is noted (the second from the
    text caches too), with its font size and a box that holds its ink; nothing is noted
    outside `recording`."""
    for words in ("Mice 3", "Zoë 🦝"):  # one face, and several
        drawn_twice = []
        for _ in range(2):
            image = Image.new("RGB", (200, 60))
            with recording() as notes:
                draw_text(image, xy, words, 18, (255, 255, 255), "la", cache=cache)
            drawn_twice += notes
            assert [(n.kind, n.text, n.size) for n in notes] == [("text", words, 18)]
            ink, box = image.convert("L").getbbox(), notes[0].box
            assert ink is not None
            assert box[0] <= ink[0] and box[1] <= ink[1] and ink[2] <= box[2] + 1
            assert ink[3] <= box[3] + 1
        assert drawn_twice[0] == drawn_twice[1]
    with recording() as outside:
        pass
    draw_text(Image.new("RGB", (200, 60)), xy, "unrecorded", 18, (255, 255, 255), cache=cache)
    assert outside == []
