"""Last Lid as a plug-in living only in tests/: loaded with EXTRA_EXTENSIONS=tests.plugin_game.

No shared module names it; if the bot played it through the fake Discord, the plug-in
contract (engine, presenter, rules text, declared options) is all a game needs.
"""

from __future__ import annotations

from pathlib import Path

from cogs.shared.plugin import GamePlugin
from tests.plugin_game.engine import LAST_LID
from tests.plugin_game.present import LastLidPresenter

PLUGIN = GamePlugin(LAST_LID, LastLidPresenter(), Path(__file__).with_name("guide.md"))
setup, teardown = PLUGIN.setup, PLUGIN.teardown
