"""Finding a pressed control on its message (`claimed`, which decides whether a press gets the
stale-control reason) reads every component, however deeply it is nested."""

from __future__ import annotations

from typing import Any

from discord.components import _component_factory

from cogs.shared.interactions import walk_components

BUTTON, SELECT, ROW, SECTION, TEXT, CONTAINER = 2, 3, 1, 9, 10, 17


def button(custom_id: str) -> dict[str, Any]:
    return {"type": BUTTON, "style": 1, "label": custom_id, "custom_id": custom_id}


# A board as the bot posts it with layout components: text and buttons in a container,
# a button beside text in a section, and a row of its own under the container.
BOARD: list[dict[str, Any]] = [
    {
        "type": CONTAINER,
        "components": [
            {"type": TEXT, "content": "Turn 3"},
            {"type": ROW, "components": [button("tt:act:1:0"), button("tt:act:1:1")]},
            {
                "type": SECTION,
                "components": [{"type": TEXT, "content": "Your move"}],
                "accessory": button("tt:hand:1"),
            },
        ],
    },
    {
        "type": ROW,
        "components": [
            {"type": SELECT, "custom_id": "tt:pick:1", "options": [{"label": "x", "value": "0"}]}
        ],
    },
]


def test_every_nested_control_is_found() -> None:
    components = [_component_factory(data) for data in BOARD]
    found = {getattr(c, "custom_id", None) for c in walk_components(c for c in components if c)}
    assert {"tt:act:1:0", "tt:act:1:1", "tt:hand:1", "tt:pick:1"} <= found
