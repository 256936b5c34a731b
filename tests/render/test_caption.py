"""The caption strip under each board (issue 38): it names who made the last move and says
what it was in the log's own public words, never a line meant for one seat (a card drawn,
a card given), and wraps between words, cutting a name only when a line cannot hold it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from lang import PSEUDO
from render.brawl import draw_rolls, draw_table, table_image
from render.common.caption import caption_height, caption_words, captioned, wrap
from render.common.record import recording
from render.common.text import fit_text, text_width
from render.rumble import draw_dungeon, dungeon_image
from render.toss import draw_bin
from render.trashwar import battlefield_image, draw_battlefield
from rules.base import AnyGame
from rules.brawl import BRAWL
from rules.observation import LastMoveView
from rules.phrases import Readers, english, from_json, to_json
from rules.rumble import RUMBLE
from rules.toss import TOSS
from rules.trashwar import TRASH_WAR

NAMES = ["Zoë 王小明 🦝✨", "Bob", "Σοφία", "Di"]
Draw = Callable[[Any, list[str]], bytes]
BOARDS: dict[str, tuple[AnyGame, Draw]] = {
    "brawl": (BRAWL, draw_table),
    "rumble": (RUMBLE, draw_dungeon),
    "toss": (TOSS, draw_bin),
    "trashwar": (TRASH_WAR, draw_battlefield),
}
MOVES = 25  # actions per game: several kinds of move, and quick


def caption_of(draw: Draw, obs: Any) -> str:
    with recording() as notes:
        draw(obs, NAMES)
    (caption,) = [n.text for n in notes if n.kind == "caption"]
    return caption


@pytest.mark.parametrize("key", sorted(BOARDS))
def test_the_caption_names_the_last_mover_and_no_private_line(key: str) -> None:
    game, draw = BOARDS[key]
    rng, state = random.Random(5), game.new_game(len(NAMES), {}, 5)
    assert caption_of(draw, game.observe(state, None)) == "No moves yet."
    for _ in range(MOVES):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        applied = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        state = applied.state
        obs = game.observe(state, None)
        move = obs["last_move"]
        assert move["seat"] == seat and move["step"] == state.step
        assert move["lines"] == [to_json(e.text) for e in applied.events if e.to is None]
        caption = caption_of(draw, obs)
        lines = [english(from_json(line)) for line in move["lines"]]
        assert f"{{p{seat}}}" in lines[0]  # the first line tells the mover's move
        assert NAMES[seat] in caption, caption
        for private in (english(e.text) for e in applied.events if e.to is not None):
            assert private not in caption and private not in lines


def test_a_name_is_cut_only_when_a_line_cannot_hold_it() -> None:
    move = LastMoveView(seat=0, step=1, lines=["{p0} moves the Knight east from B2 to C2."])
    words = caption_words(move, NAMES)
    assert words[0] == NAMES[0]  # one word, spaces and all
    wide = round(text_width(" ".join(words), 20)) + 1
    assert wrap(words, wide, 20) == [" ".join(words)]
    narrow = round(text_width(NAMES[0], 20)) + 2  # the name alone fills a line: not cut
    assert wrap(words, narrow, 20)[0] == NAMES[0]
    tiny = wrap(words, 60, 20)
    assert tiny[0].endswith("…") and tiny[-1].endswith("…") and len(tiny) == 2


def test_a_long_mixed_script_name_is_whole_where_there_is_room() -> None:
    """Issue 38: "Zoë 王小明 🦝…" was cut in Rumble's side panel and under a start-roll die
    with room to spare; both now hold it whole."""
    names = [NAMES[0], "Bob", "Cy"]
    with recording() as notes:
        draw_dungeon(RUMBLE.observe(RUMBLE.new_game(3, {}, 1), None), names)
        obs = BRAWL.observe(BRAWL.new_game(3, {}, 1), None)
        draw_rolls(obs, names, 0)
    drawn = [n.text for n in notes if n.kind == "text"]
    assert drawn.count(NAMES[0]) >= 2, [t for t in drawn if t.startswith("Zoë")]


def wrap_measuring_each_line(words: list[str], width: int, size: int, lines: int) -> list[str]:
    """How wrap laid words out before it added their advances up: each longer line
    measured whole (the same lines, measured more often)."""
    out: list[str] = []
    current = ""
    for index, word in enumerate(words):
        if text_width(word, size) > width:
            word = fit_text(word, width, size)[0]
        joined = f"{current} {word}" if current else word
        if text_width(joined, size) <= width:
            current = joined
            continue
        out.append(current)
        if len(out) == lines:
            rest = " ".join([out.pop(), *words[index:]])
            out.append(fit_text(rest, width, size)[0])
            return out
        current = word
    return [*out, current] if current else out


@pytest.mark.parametrize("lines", [1, 2, 3])
def test_words_wrap_where_measuring_each_line_would_wrap_them(lines: int) -> None:
    rng = random.Random(lines)
    pool = [*NAMES, "threw", "the", "Toaster", "(2)", "at", "left", "wall.", "Überraschung!",
            "a" * 60, "🦝🦝🦝", "Σοφία's", "王小明", "x"]  # fmt: skip
    for _ in range(300):
        words = [rng.choice(pool) for _ in range(rng.randrange(1, 25))]
        width, size = rng.choice([40, 120, 300, 700]), rng.choice([11, 14, 17])
        expected = wrap_measuring_each_line(words, width, size, lines)
        assert wrap(words, width, size, lines) == expected, (words, width, size)


IMAGES: dict[str, tuple[AnyGame, Callable[..., Image.Image]]] = {
    "brawl": (BRAWL, table_image),
    "rumble": (RUMBLE, dungeon_image),
    "trashwar": (TRASH_WAR, battlefield_image),
}


@pytest.mark.parametrize("key", sorted(IMAGES))
def test_a_board_drawn_over_its_caption_room_is_the_board_captioned(key: str) -> None:
    """Boards are drawn on a background that has the caption strip's room below it, and the
    caption is drawn in place: the very picture of drawing the board alone and adding the
    strip (`captioned`), so nothing a board draws reaches into the strip. In every
    language, with 2 to 5 seats (and Dumpster Brawl!'s rummy table too)."""
    game, image_of = IMAGES[key]
    for seed, language in enumerate(["en", "fr", "de", PSEUDO] * 2):
        seats = max(game.min_seats, min(game.max_seats, 2 + seed % 4))
        names = Readers([*NAMES, "Erin Longname-Whatever"][:seats], language)
        options = {"mode": "rummy"} if key == "brawl" and seed % 2 else {}
        rng, state = random.Random(seed), game.new_game(seats, options, seed)
        for step in range(40):
            if game.outcome(state) is None:
                seat = min(game.to_act(state))
                state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
            if step % 8 and game.outcome(state) is None:
                continue
            obs = game.observe(state, None)
            board = image_of(obs, names)
            above = board.crop((0, 0, board.width, board.height - caption_height(board.width)))
            expected = captioned(above, obs.get("last_move"), names)
            assert board.tobytes() == expected.tobytes(), (key, seed, language, step)
