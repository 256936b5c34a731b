"""Trash War's words in the pictures: player names and colours, the caption saying what is
happening and who decides, and a knight's status line, each in the readers' language
(`names.language`, see `rules.phrases.Readers`).
"""

from __future__ import annotations

from collections.abc import Sequence

from lang import say
from render.common import MUTED, TORCH, Colour
from render.common.words import player_name
from rules.phrases import Filling, Phrase, language_of, listing, phrase, phrase_in, phrase_n, term
from rules.trashwar.cards import card_words
from rules.trashwar.observation import CardView, PlayerView, TrashWarObservation
from rules.trashwar.words import WALL_LABELS, WALL_NAMES, WALL_WORDS

# --- small helpers ----------------------------------------------------------------------

# Shorter names for the long ones, where a picture has little room.
SHORT_TRASH = {
    "muscle car": term("trash, short", "muscle car"),
    "mutant albino alligator": term("trash, short", "alligator"),
    "toxic waste drum": term("trash, short", "toxic drum"),
    "X-ray machine": term("trash, short", "X-ray"),
    "moldy sardines": term("trash, short", "sardines"),
    "exercise bike": term("trash, short", "exercise bike"),
}

# Places, by number: an ordinal's ending is each language's own (six knights at most).
PLACES = {
    1: term("place", "1st place"),
    2: term("place", "2nd place"),
    3: term("place", "3rd place"),
    4: term("place", "4th place"),
    5: term("place", "5th place"),
    6: term("place", "6th place"),
}
OUTS = {
    1: term("knocked out", "1st out"),
    2: term("knocked out", "2nd out"),
    3: term("knocked out", "3rd out"),
    4: term("knocked out", "4th out"),
    5: term("knocked out", "5th out"),
    6: term("knocked out", "6th out"),
}
ORDINALS = {
    1: term("ordinal", "1st"),
    2: term("ordinal", "2nd"),
    3: term("ordinal", "3rd"),
    4: term("ordinal", "4th"),
    5: term("ordinal", "5th"),
    6: term("ordinal", "6th"),
}


def said(words: Filling, names: Sequence[str]) -> str:
    """`words` in the readers' language, seats by their names."""
    return say(words, language_of(names), list(names))


def in_language(words: Filling, language: str) -> str:
    return say(words, language, [])


def card_said(card: CardView, mention: str = "") -> Phrase:
    """A card as the log names it ("toaster (2)", "Shield 3"); `mention` "a" or "the"."""
    return card_words(
        card["kind"], card["name"], card["value"], card["torches"], card["direction"], mention
    )


def short_trash(name: str) -> Phrase:
    """A Trash card's name, short where it is long ("alligator")."""
    if name in SHORT_TRASH:
        return phrase_in("trash, short", SHORT_TRASH[name])
    return phrase_in("trash", name)


def wall_label(position: str) -> Phrase:
    """ "left", "middle", "right", as a label names a wall."""
    return phrase_in("wall position", WALL_LABELS[WALL_NAMES.index(position)])


def wall_named(position: str) -> Phrase:
    """ "left wall", as a sentence names it."""
    return phrase_in("wall", WALL_WORDS[WALL_NAMES.index(position)])


def a_card(card: CardView) -> Phrase:
    """'a grand piano (4)', 'some false teeth (1)'."""
    return card_said(card, "a")


def ordinal(n: int) -> Filling:
    return phrase_in("ordinal", ORDINALS[n]) if n in ORDINALS else str(n)


def place(n: int) -> Filling:
    return phrase_in("place", PLACES[n]) if n in PLACES else str(n)


def _place(obs: TrashWarObservation, seat: int) -> int:
    """Final place of a knight who is out: the first out is last."""
    return obs["seats"] - obs["eliminated"].index(seat)


def _still_in(obs: TrashWarObservation) -> list[int]:
    return [p["seat"] for p in obs["players"] if p["in_game"]]


def _neighbour(obs: TrashWarObservation, seat: int, step: int) -> int | None:
    """The next knight still in the war to the left (`step` 1) or right (-1) of `seat`."""
    for offset in range(1, obs["seats"]):
        other = (seat + step * offset) % obs["seats"]
        if other < len(obs["players"]) and obs["players"][other]["in_game"]:
            return other
    return None


def actor_seat(obs: TrashWarObservation) -> int | None:
    """Whom the caption is about: the winner, else the seat deciding now."""
    if obs["finished"]:
        return obs["winner"]
    return obs["to_act"][0] if obs["to_act"] else obs["turn"]


def torching_words(phase: int) -> Phrase | None:
    """What the torching phase changes, in plain words, once it changes anything a player
    sees: nothing to say in the first phase, whose rule is the one every war starts with."""
    if phase <= 1:
        return None
    if phase == 2:
        return phrase("2-torch cards burn too")
    return phrase("torch cards now leave the game")


def recap_foot(obs: TrashWarObservation) -> Phrase:
    """The recap's last line: "30 turns; the draw pile ran out twice." (each run-out begins
    the next torching phase, so the phase counts them)."""
    runs = obs["torch_phase"] - 1
    if runs <= 0:
        ran_out = phrase("the draw pile never ran out")
    elif runs == 2:
        ran_out = phrase("the draw pile ran out twice")
    else:
        ran_out = phrase_n("the draw pile ran out once", "the draw pile ran out {n} times", runs)
    turns = phrase_n("{n} turn", "{n} turns", obs["turns"])
    return phrase("{turns}; {draw}.", turns=turns, draw=ran_out)


def title_note(obs: TrashWarObservation) -> Phrase:
    torch = torching_words(obs["torch_phase"])
    if obs["finished"]:
        note = phrase_n("War over after {n} turn", "War over after {n} turns", obs["turns"])
    else:
        note = phrase("Turn {n}", n=max(1, obs["turns"]))
    return phrase("{note} - {torch}", note=note, torch=torch) if torch else note


def caption(obs: TrashWarObservation, names: list[str]) -> str:
    """One line telling what is being decided now, in the readers' language."""
    return said(caption_words(obs, names), names)


def caption_words(obs: TrashWarObservation, names: list[str]) -> Filling:
    """The caption as a phrase, names filled in (a missing one: "Player N")."""

    def who(seat: int) -> str:
        return player_name(names, seat)

    if obs["finished"] or obs["phase"] == "over":
        winner, winners = obs["winner"], obs["winners"]
        if len(winners) > 1:
            return phrase(
                "The war is stuck: {players} share the win",
                players=listing([who(s) for s in winners]),
            )
        if winner is None:
            return phrase("The war is over.")
        if len(_still_in(obs)) > 1:
            return phrase(
                "The war is stuck: {player} wins with the most walls up", player=who(winner)
            )
        return phrase(
            "{player} is the last knight standing and wins the Trash War!", player=who(winner)
        )
    actor = obs["to_act"][0] if obs["to_act"] else obs["turn"]
    name, phase = who(actor), obs["phase"]
    head = obs["incoming"][0] if obs["incoming"] else None
    if phase == "defend" and head is not None:
        trash, sender, wall = card_said(head["card"]), who(head["sender"]), wall_named(head["wall"])
        walls = obs["players"][head["target"]]["walls"] if head["target"] < obs["seats"] else []
        standing = next((w["standing"] for w in walls if w["position"] == head["wall"]), True)
        more = len(obs["incoming"]) - 1
        if standing:
            text = phrase(
                "{player} is defending the {wall} against {sender}'s {trash}",
                player=name, wall=wall, sender=sender, trash=trash,
            )  # fmt: skip
        else:
            text = phrase(
                "{player} faces {sender}'s {trash}, falling on the rubble of the {wall}",
                player=name, wall=wall, sender=sender, trash=trash,
            )  # fmt: skip
        if not more:
            return text
        return phrase_n(
            "{caption}, {n} more to come", "{caption}, {n} more to come", more, caption=text
        )
    if phase == "bat" and head is not None:
        trash, sender = card_said(head["card"]), who(head["sender"])
        swing = obs["swing"] or "any"
        other = _neighbour(obs, actor, 1 if swing == "left" else -1)
        if swing == "back":
            where = phrase("back at {player}", player=sender)
        elif swing == "left":
            where = (
                phrase("left, at {player}", player=who(other))
                if other is not None
                else phrase_in("mace swing", "left")
            )
        elif swing == "right":
            where = (
                phrase("right, at {player}", player=who(other))
                if other is not None
                else phrase_in("mace swing", "right")
            )
        else:
            where = phrase("at any knight's wall")
        return phrase(
            "{player} swings a Mace at {sender}'s {trash}, batting it {where}",
            player=name, sender=sender, trash=trash, where=where,
        )  # fmt: skip
    says = {
        "burn": phrase(
            "{player} may burn trash off a wall, repair a fallen wall, or pass", player=name
        ),
        "drawn": phrase("{player} drew a Trash card and must throw it at once", player=name),
    }
    if phase == "attack":
        if obs["opening"]:
            return phrase("{player} opens the war: one Trash card at any wall", player=name)
        return phrase(
            "{player} attacks: trash or a Catapult volley at any standing wall", player=name
        )
    return says.get(phase, phrase("{player} to play", player=name))


def status_line(obs: TrashWarObservation, player: PlayerView) -> tuple[Filling, Colour | None]:
    """The second line of a fortress's name band; colour None means "the band's ink"."""
    seat = player["seat"]
    if seat in obs["winners"]:
        if len(_still_in(obs)) == 1:
            return phrase("WINNER - last knight standing"), TORCH
        return phrase("WINNER - most walls up"), TORCH
    if not player["in_game"]:
        if seat in obs["eliminated"]:
            return phrase("OUT - {place}", place=place(_place(obs, seat))), MUTED
        return phrase("OUT"), MUTED
    if obs["finished"]:
        return "", MUTED
    if seat in obs["to_act"]:
        verbs = {
            "defend": phrase("defending"),
            "bat": phrase("batting with a Mace"),
            "burn": phrase("burn, repair or pass"),
            "attack": phrase("opening the war") if obs["opening"] else phrase("attacking"),
            "drawn": phrase("throwing the drawn trash"),
        }
        return verbs.get(obs["phase"], phrase("to play")), None  # the band says whose move
    if seat == obs["turn"]:
        return phrase("holds the turn"), TORCH
    up = sum(1 for wall in player["walls"] if wall["standing"])
    # short: a band is 330 px on a six-player board
    return phrase_n("{n} of 3 walls up", "{n} of 3 walls up", up), MUTED


def out_stamp(obs: TrashWarObservation, seat: int) -> Phrase:
    """The stamp across the fortress of a knight who is out: "OUT - 2ND PLACE"."""
    if seat in obs["eliminated"]:
        return phrase("OUT - {place}", place=place(_place(obs, seat)))
    return phrase("OUT")
