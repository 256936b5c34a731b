"""The twelve characters (house rules: no special powers). Keys are what actions and
observations use; names are what players read."""

from __future__ import annotations

CHARACTERS: dict[str, str] = {
    "knight": "Knight",
    "thief": "Thief",
    "wizard": "Wizard",
    "cleric": "Cleric",
    "barbarian": "Barbarian",
    "ranger": "Ranger",
    "bard": "Bard",
    "goblin": "Goblin",
    "zombie": "Zombie",
    "skeleton": "Skeleton",
    "cube": "Gelatinous Cube",
    "troll": "Troll",
}
