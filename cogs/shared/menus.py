"""Discord's limits on controls, and menus cut to fit them. A leaf: the board messages and
the controls both read it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from cogs.shared.presenter import BoardControl, Buttons, Choice, Control, Menu

MAX_OPTIONS = 25  # Discord's limit for a select menu
MAX_ROWS = 5  # Discord's limit of component rows on a message
BOARD, HAND, ACTIONS = "b", "h", "a"  # where a menu's choices come from


def menu_chunks(controls: Sequence[BoardControl]) -> list[Menu]:
    """Every menu of the controls cut to Discord's 25 options, numbered as `controls_view`
    numbers its selects (their slots)."""
    chunks = []
    for control in controls:
        if not isinstance(control, Menu):
            continue
        parts = [
            control.choices[i : i + MAX_OPTIONS]
            for i in range(0, len(control.choices), MAX_OPTIONS)
        ]
        for number, part in enumerate(parts, start=1):
            suffix = f" ({number}/{len(parts)})" if len(parts) > 1 else ""
            most = min(control.most, len(part))
            chunks.append(
                replace(control, placeholder=control.placeholder + suffix, choices=part, most=most)
            )
    return chunks


def buttons_of(controls: Sequence[BoardControl]) -> list[Choice]:
    """Every button of the controls, in the order `controls_view` numbers them."""
    return [choice for c in controls if isinstance(c, Buttons) for choice in c.actions]


def rows(controls: Sequence[Control]) -> int:
    """The component rows `controls` take: each menu a row per 25 options, buttons five to
    a row."""
    count = 0
    for control in controls:
        if isinstance(control, Menu):
            count += -(-len(control.choices) // MAX_OPTIONS)
        else:
            count += -(-len(control.actions) // 5)
    return count
