"""How Rumble in the Dungeon looks in a channel.

Every Rumble move is public (only the secret characters are hidden), so the controls sit on
the board message itself: a menu of characters to move (the direction is picked privately
after; a character with one way out is listed as that move, made by the pick), a menu of
fights, and a button per character that may leave with the chest.
"""

from __future__ import annotations

from collections.abc import Callable

from cogs.shared.presenter import (
    Buttons,
    Choice,
    Control,
    HandReply,
    Menu,
    Picture,
    final_by_points,
)
from lang import ENGLISH, say
from render.rumble import draw_dungeon, draw_reveal, draw_secret
from render.rumble.recap import draw_recap
from rules.phrases import Filling, Readers, language_of, phrase, phrase_n, term
from rules.rumble import CHARACTERS
from rules.rumble.actions import Exit, Fight, Move, parse_action
from rules.rumble.characters import named, the
from rules.rumble.engine import mover_group
from rules.rumble.observation import RumbleObservation


def just_started(obs: RumbleObservation) -> bool:
    """The first board of a new rumble: the right moment to show the last one's reveal."""
    return (
        len(obs["positions"]) == len(CHARACTERS)
        and not obs["exit_line"]
        and (obs["chest"] == obs["treasure_room"] and len(obs["history"]) == obs["rumble"] - 1)
        and obs["step"] > 0
        and obs["chest_exited_with"] is None
    )


def _said(said: Filling, names: list[str]) -> str:
    """`said` in the readers' language (`names` are `Readers`; a plain list reads English)."""
    return say(said, language_of(names), names)


class RumblePresenter:
    kind = "rumble"
    private_controls = False
    hand_label = term("button", "My secret")

    def summary(self, obs: RumbleObservation, names: list[str]) -> str:
        if obs["finished"]:
            return final_by_points(list(obs["totals"]), names)
        carrier = obs["chest_exited_with"]
        if obs["chest"] or carrier is None:
            chest = phrase("chest in {room}", room=str(obs["chest"]))
        else:
            chest = phrase("{character} got away with the chest", character=the(carrier))
        parts = [
            phrase("rumble {rumble}/3", rumble=obs["rumble"]),
            phrase_n("{n} character left", "{n} characters left", len(obs["positions"])),
            chest,
        ]
        return " · ".join(_said(part, names) for part in parts)

    def recap(self, obs: RumbleObservation, names: list[str]) -> Picture:
        return Picture("recap.png", draw_recap(obs, names))

    def board(self, obs: RumbleObservation, names: list[str], since: int) -> list[Picture]:
        pictures = [Picture("dungeon.png", draw_dungeon(obs, names, since))]
        if obs["history"] and (obs["finished"] or just_started(obs)):
            reveal = draw_reveal(obs["history"][-1], names)
            pictures.append(Picture("reveal.png", reveal))
        return pictures

    def controls(
        self,
        obs: RumbleObservation,
        legal: list[str],
        describe: Callable[[str], str],
        language: str = ENGLISH,
    ) -> list[Control]:
        """The board's menus and buttons in `language` (`describe` says an action in it)."""
        readers = Readers(language=language)
        parsed = [(action, parse_action(action)) for action in legal]
        ways: dict[str, list[str]] = {}
        for action, p in parsed:
            if isinstance(p, Move):
                ways.setdefault(p.character, []).append(action)
        movers = sorted(ways)
        fights = [action for action, p in parsed if isinstance(p, Fight)]
        exits = [action for action, p in parsed if isinstance(p, Exit)]
        controls: list[Control] = []
        if movers:
            note = _said(phrase("shares the chest's room"), readers)
            choices = []
            for character in movers:
                room = obs["positions"][character]
                label = phrase("{character} (in {room})", character=named(character), room=room)
                shown = note if room == obs["chest"] else ""
                if len(ways[character]) == 1:  # one way out: the pick is the move itself
                    (only,) = ways[character]
                    choices.append(Choice(only, describe(only), shown))
                    continue
                choices.append(Choice(mover_group(character), _said(label, readers), shown))
            controls.append(Menu(_said(phrase("Move a character…"), readers), choices))
        if fights:
            fight_menu = [Choice(a, describe(a)) for a in fights]
            controls.append(Menu(_said(phrase("Start a fight…"), readers), fight_menu))
        if exits:
            controls.append(Buttons([Choice(a, describe(a)) for a in exits]))
        return controls

    def hand_controls(
        self,
        obs: RumbleObservation,
        legal: list[str],
        describe: Callable[[str], str],
        language: str = ENGLISH,
    ) -> list[Control]:
        return []  # every Rumble control is public: they sit on the board

    def hand(self, obs: RumbleObservation, names: list[str]) -> HandReply:
        secret = obs.get("secret")
        if not secret:
            return HandReply(_said(phrase("You have no secret characters in this game."), names))
        first, second = (named(c) for c in secret)
        text = phrase(
            "Your secret characters for rumble {rumble}: **{first}** and **{second}**. "
            "Only you can see this.",
            rumble=obs["rumble"],
            first=first,
            second=second,
        )
        seat = obs["seat"]
        name = names[seat] if seat is not None else ""
        language = language_of(names)
        picture = Picture("secret.png", draw_secret(obs, name, language))
        return HandReply(_said(text, names), [picture])

    def narrowed(self, obs: RumbleObservation, group: str, names: list[str]) -> HandReply | None:
        # A character chosen in the menu: the buttons under the question are its ways out.
        character = group.removeprefix("move ")
        if not group.startswith("move ") or character not in CHARACTERS:
            return None
        room = obs["positions"].get(character)
        if room:
            question = phrase(
                "Which way does {character} go from {room}?", character=the(character), room=room
            )
        else:
            question = phrase("Which way does {character} go?", character=the(character))
        return HandReply(_said(question, names))
