"""`/game replay` off Discord: a replay of a game of any length fits the upload limit it is
given, keeps the first and the last board, and each turn's result before the boards inside
a turn (a Toss It turn's drops)."""

from __future__ import annotations

import io

from PIL import Image

from bot.extensions import walk_extensions
from bot.games import GAMES
from bot.replays import Frame, turn_ends
from cogs.shared.replay import SUMMARY_BOARDS, replay_animation, replay_budget
from tests.random_logs import NAMES, game_log

MIB = 1024 * 1024


def test_a_replay_of_a_long_game_fits_a_small_upload_limit() -> None:
    """A seeded Trash War game of 477 boards, every seat a person (a board a move): at
    2.3 MB whole, under an upload limit of 1 MiB it keeps fewer boards, the first and the
    last among them."""
    walk_extensions("cogs")  # the presenters register as their plug-ins load
    engine = GAMES["trashwar"]
    log = game_log(engine, 78)
    budget = replay_budget(1 * MIB)
    animation = replay_animation(log, NAMES[: engine.max_seats], budget, "Trash War #78")
    assert len(animation.data) <= budget < 10 * MIB
    assert animation.boards == len(log.actions) + 1 == 477
    assert animation.shown[0] == 0 and animation.shown[-1] == 476
    assert animation.shown == sorted(set(animation.shown))
    assert 2 <= animation.frames <= SUMMARY_BOARDS  # a summary: the stepper has them all
    assert Image.open(io.BytesIO(animation.data)).n_frames == animation.frames


def test_the_budget_keeps_a_margin_under_the_upload_limit() -> None:
    for limit in (10 * MIB, 50 * MIB, 100 * MIB):
        assert 0.85 * limit < replay_budget(limit) < 0.9 * limit
    assert replay_budget(50 * MIB) > replay_budget(10 * MIB)


def test_a_turn_ends_where_the_next_board_is_a_new_message() -> None:
    """Toss It: a turn's drops are edited onto one message; its last board is the result."""
    continues = [False, False, True, True, False, True, False, False]
    frames = [Frame({}, step, max(step - 1, 0), flag) for step, flag in enumerate(continues)]
    assert turn_ends(frames) == {0, 3, 5, 6, 7}
