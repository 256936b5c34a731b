"""A new game is a copy of the template: tests/plugin_game copied under another name, with
its key and title changed as docs/adding-a-game.md says, is offered by the bot, sits in the
registry the benchmark and the bot read (`bot.games.GAMES`), and plays to a result with
its own engine and presenter.

It fails if the template leans on its own name: an absolute import of tests.plugin_game
(the copy would then run the template's code, or register its engine twice), a key spelt
in a second place, a file looked up under tests/.
"""

from __future__ import annotations

import importlib
import random
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from bot.extensions import walk_extensions
from bot.games import GAMES
from cogs.shared.plugin import PLUGINS, GamePlugin
from cogs.shared.presenter import PRESENTERS, Buttons
from lang import ENGLISH, say
from rules.base import LEVELS

TEMPLATE = Path(__file__).with_name("plugin_game")
NAME, KEY, TITLE = "template_copy", "templatecopy", "Template Copy"  # no real game's names
# The two lines a newcomer changes in the copy's engine (docs/adding-a-game.md, step 1).
RENAMES = (('key = "lastlid"', f'key = "{KEY}"'), ('title = "Last Lid"', f'title = "{TITLE}"'))


@pytest.fixture
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The template copied to `tmp_path/template_copy`, renamed, imported (which registers it,
    as a plug-in's import does); forgotten again afterwards so no other test sees it."""
    shutil.copytree(TEMPLATE, tmp_path / NAME, ignore=shutil.ignore_patterns("__pycache__"))
    engine = tmp_path / NAME / "rules" / "engine.py"
    text = engine.read_text(encoding="utf-8")
    for old, new in RENAMES:
        assert text.count(old) == 1, f"the template's engine should say {old} once"
        text = text.replace(old, new)
    engine.write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        yield importlib.import_module(NAME)
    finally:
        for registry in (GAMES, PLUGINS, PRESENTERS):
            registry.pop(KEY, None)
        for name in [m for m in sys.modules if m == NAME or m.startswith(f"{NAME}.")]:
            del sys.modules[name]


def test_a_copy_of_the_template_is_a_game_of_its_own(copy: ModuleType) -> None:
    plugin = copy.PLUGIN
    assert isinstance(plugin, GamePlugin)
    # Registered where the bot, the workers and the benchmark look games up by key.
    assert GAMES[KEY] is plugin.engine and PRESENTERS[KEY] is plugin.presenter
    assert plugin.engine.title == TITLE and plugin.guide.parent.name == NAME
    # Every module the copy is made of is its own, none the template's.
    copied = [m for name, m in sys.modules.items() if name.startswith(f"{NAME}.")]
    for module in copied:
        for value in vars(module).values():
            home = getattr(value, "__module__", None) or getattr(value, "__name__", "")
            assert not str(home).startswith("tests.plugin_game"), f"{module.__name__}: {home}"
    assert type(plugin.engine).__module__ == f"{NAME}.rules.engine"
    assert getattr(plugin.engine.ai, "__name__", None) == f"{NAME}.rules.ai"
    # The bot loads it as it loads tests.plugin_game: an extension named in EXTRA_EXTENSIONS.
    assert walk_extensions("cogs", [NAME])[-1] == NAME


@pytest.mark.parametrize("seed", range(4))
def test_the_copy_plays_to_a_result_with_its_engine_and_presenter(
    copy: ModuleType, seed: int
) -> None:
    engine, presenter = GAMES[KEY], PRESENTERS[KEY]
    names = ["Ann", "Bo", "Cy"]
    rng = random.Random(seed)
    options = {option.name: option.default for option in engine.options}
    state = engine.new_game(len(names), engine.settle_options(options), seed)
    while engine.outcome(state) is None:
        (seat,) = engine.to_act(state)
        public, own = engine.observe(state, None), engine.observe(state, seat)
        legal = engine.legal_actions(state, seat)
        (picture,) = presenter.board(public, names, since=0)
        assert picture.data.startswith(b"\x89PNG")
        assert presenter.summary(public, names) and presenter.hand(own, names).text

        def describe(action: str, state: object = state) -> str:
            return say(engine.describe(state, action), ENGLISH)

        (buttons,) = presenter.controls(public, legal, describe)
        assert isinstance(buttons, Buttons) and [c.value for c in buttons.actions] == legal
        action = engine.choose(own, legal, rng, LEVELS[seat])
        state = engine.apply(state, seat, action).state
        assert engine.from_json(engine.to_json(state)) == state  # the saved game is whole
    outcome = engine.outcome(state)
    assert outcome is not None and len(outcome.winners) == 1
    (winner,) = outcome.winners
    assert names[winner] in presenter.summary(engine.observe(state, None), names)


def test_the_benchmark_measures_the_copy(copy: ModuleType) -> None:
    """The benchmark takes its games from the plug-ins the bot registers, so it finds the
    copy and measures its engine and board pictures with no edit in bench/."""
    from bench.__main__ import bench_engine, bench_render
    from bench.games import board_file, keys, plugins

    plugins.cache_clear()
    try:
        assert KEY in keys()
        engine = bench_engine(GAMES[KEY], games=2, options={})
        assert engine["games"] >= 1 and engine["median_actions"] > 0
        render = bench_render(plugins()[KEY], samples=3)
        assert render["renders"] == 3 and render["median_ms"] > 0
        assert board_file(KEY).endswith(".png")
    finally:
        plugins.cache_clear()
