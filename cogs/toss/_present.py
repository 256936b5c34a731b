"""How Toss It in the Trash looks in a channel.

Two kinds of decision, both made in the player's private reply. Choosing a card is secret
and simultaneous: every player picks from their own reply and the board shows only who has
chosen. When their turn to drop comes, the same reply becomes the turn's aiming message
(`aim.py`), where each piece is dropped with one press, or aimed finely first; the board of
the player whose turn it is also carries a menu of spots per kind of garbage, which opens a
new aiming message for a player without a reply to hand (after a restart, a token run out).
A turn's drops are shown on one board message, edited after each drop (one board a turn:
`bot/outbox.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from cogs.shared.presenter import (
    BoardControl,
    Buttons,
    Choice,
    HandReply,
    OwnItems,
    Picture,
    final_by_points,
)
from cogs.toss.aim import aiming_now, board_items, opening_aim, opening_items
from lang import ENGLISH, say
from render.toss import draw_bin, draw_cards
from render.toss.recap import draw_recap
from rules.phrases import language_of, listing, phrase, phrase_in, phrase_n, term
from rules.toss.engine import open_spots
from rules.toss.observation import ROUNDS, TossObservation
from rules.toss.words import colour_name, more_pieces


class TossPresenter:
    kind = "toss"
    private_controls = True  # a card laid down, then the turn aimed, in the private reply
    hand_label = term("hand button", "My hand")

    def summary(self, obs: TossObservation, names: list[str]) -> str:
        if obs["finished"]:
            return final_by_points(list(obs["scores"]), names)
        parts = [
            phrase("round {round}/{rounds}", round=obs["round"], rounds=ROUNDS),
            phrase_n("{n} piece in the bin", "{n} pieces in the bin", len(obs["bin"])),
        ]
        if obs["phase"] == "choose":
            chosen = sum(obs["chosen"])
            parts.append(
                phrase(
                    "choosing cards ({chosen} of {seats} chosen)", chosen=chosen, seats=obs["seats"]
                )
            )
        elif obs["turn"] is not None:
            to_drop = more_pieces(obs["kind"], obs["to_place"])
            parts.append(
                phrase("{player} drops {pieces}", player=names[obs["turn"]], pieces=to_drop)
            )
        parts.append(phrase_n("{n} counter left", "{n} counters left", len(obs["counters"])))
        return " · ".join(say(part, language_of(names)) for part in parts)

    def recap(self, obs: TossObservation, names: list[str]) -> Picture:
        return Picture("recap.png", draw_recap(obs, names))

    def board(self, obs: TossObservation, names: list[str], since: int) -> list[Picture]:
        return [Picture("bin.png", draw_bin(obs, names, since))]

    def controls(
        self,
        obs: TossObservation,
        legal: list[str],
        describe: Callable[[str], str],
        language: str = ENGLISH,
    ) -> list[BoardControl]:
        """The board's menus of spots, in the game's `language` (the board's readers')."""
        if obs["phase"] != "place":
            return []  # choosing a card is secret: it happens in the private reply
        return [OwnItems(partial(board_items, list(open_spots(legal)), language))]

    def hand_controls(
        self,
        obs: TossObservation,
        legal: list[str],
        describe: Callable[[str], str],
        language: str = ENGLISH,
    ) -> list[BoardControl]:
        if aiming_now(obs) and legal:  # the turn's aiming message
            return [OwnItems(opening_items(obs, legal, language))]
        if obs["phase"] != "choose":
            return []
        return [Buttons([Choice(action, describe(action)) for action in legal])]

    def hand(self, obs: TossObservation, names: list[str]) -> HandReply:
        language = language_of(names)
        seat = obs.get("seat")
        if seat is None:
            return HandReply(say(phrase("You are not playing in this game."), language))
        if aiming_now(obs):
            return opening_aim(obs, language)
        hand = [str(card) for card in obs.get("hand") or []]
        cards = listing(hand) if hand else phrase_in("no cards in hand", "none")
        lines = [
            phrase_n(
                "Your {colour} cards: {cards}. Each shows {n} mouse: on a tie, fewer mice go "
                "first.",
                "Your {colour} cards: {cards}. Each shows {n} mice: on a tie, fewer mice go first.",
                obs["mice"][seat],
                colour=colour_name(obs["colours"][seat]),
                cards=cards,
            )
        ]
        if obs.get("my_choice") is not None:
            lines.append(
                phrase("You laid down your {card} this round.", card=obs["my_choice"] or 0)
            )
        elif obs["phase"] == "choose" and seat in obs["to_act"]:
            lines.append(phrase("Lay down one card: nobody sees it until everyone has chosen."))
        lines.append(phrase("Only you can see this."))
        picture = Picture("cards.png", draw_cards(obs, names[seat], language))
        return HandReply("\n".join(say(line, language) for line in lines), [picture])

    def narrowed(self, obs: TossObservation, group: str, names: list[str]) -> HandReply | None:
        return None  # no menu of this game stands for a group: drops are aimed in `aim.py`
