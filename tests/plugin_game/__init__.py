"""Last Lid, the template game: a whole game in one package, kept in tests/.

Its parts are laid out as a real game's three packages: `rules/` becomes `rules/<game>/`
(the engine), `render/` becomes `render/<game>/` (the pictures), and `present.py`,
`guide.md` and this file become `cogs/<game>/` (`_present.py`, `guide.md`,
`__init__.py`). docs/adding-a-game.md walks through the copy.

It imports its own modules relatively, so a copy under any name is a game of its own
(tests/test_adding_a_game.py copies it). Kept outside `cogs/`, it is loaded with
EXTRA_EXTENSIONS=tests.plugin_game (tests/e2e/test_plugin_game.py plays it through the
fake Discord); a game in `cogs/` is found without any setting.
"""

from __future__ import annotations

from pathlib import Path

from cogs.shared.plugin import GamePlugin

from .present import LastLidPresenter
from .rules import LAST_LID

PLUGIN = GamePlugin(LAST_LID, LastLidPresenter(), Path(__file__).with_name("guide.md"))
setup, teardown = PLUGIN.setup, PLUGIN.teardown
