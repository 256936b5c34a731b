"""Trash War's words in the pictures: player names and colours, the caption saying what is
happening and who decides, and a knight's status line.
"""

from __future__ import annotations

from render.common import MUTED, TORCH, Colour, ordinal
from render.common.words import player_name
from rules.trashwar.cards import TRASH_NAMES
from rules.trashwar.observation import CardView, PlayerView, TrashWarObservation
from rules.words import and_list, counted

# --- small helpers ----------------------------------------------------------------------


_ARTICLES = {name: article for _, name, article in TRASH_NAMES}
SHORT_TRASH = {
    "mutant albino alligator": "alligator",
    "toxic waste drum": "toxic drum",
    "X-ray machine": "X-ray",
    "moldy sardines": "sardines",
    "exercise bike": "exercise bike",
}


def a_card(card: CardView) -> str:
    """'a grand piano (4)', 'some false teeth (1)'."""
    title = card["title"] or f"{card['name']} ({card['value']})"
    if card["kind"] == "trash":
        return f"{_ARTICLES.get(card['name'], 'a')} {title}"
    return f"{'an' if title[:1] in 'AEIOU' else 'a'} {title}"


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


def torching_words(phase: int) -> str:
    """What the torching phase changes, in plain words, once it changes anything a player
    sees: nothing to say in the first phase, whose rule is the one every war starts with."""
    if phase <= 1:
        return ""
    if phase == 2:
        return "2-torch cards burn too"
    return "torch cards now leave the game"


def recap_foot(obs: TrashWarObservation) -> str:
    """The recap's last line: "30 turns; the draw pile ran out twice." (each run-out begins
    the next torching phase, so the phase counts them)."""
    runs = obs["torch_phase"] - 1
    ran_out = {0: "never ran out", 1: "ran out once", 2: "ran out twice"}.get(runs)
    return f"{counted(obs['turns'], 'turn')}; the draw pile {ran_out or f'ran out {runs} times'}."


def title_note(obs: TrashWarObservation) -> str:
    torch = torching_words(obs["torch_phase"])
    if obs["finished"]:
        note = f"war over after {counted(obs['turns'], 'turn')}"
    else:
        note = f"turn {max(1, obs['turns'])}"
    return f"{note.capitalize()} - {torch}" if torch else note.capitalize()


def caption(obs: TrashWarObservation, names: list[str]) -> str:
    """One line telling what is being decided now."""

    def who(seat: int) -> str:
        return player_name(names, seat)

    if obs["finished"] or obs["phase"] == "over":
        winner, winners = obs["winner"], obs["winners"]
        if len(winners) > 1:
            return f"The war is stuck: {and_list([who(s) for s in winners])} share the win"
        if winner is None:
            return "The war is over."
        if len(_still_in(obs)) > 1:
            return f"The war is stuck: {who(winner)} wins with the most walls up"
        return f"{who(winner)} is the last knight standing and wins the Trash War!"
    actor = obs["to_act"][0] if obs["to_act"] else obs["turn"]
    name, phase = who(actor), obs["phase"]
    head = obs["incoming"][0] if obs["incoming"] else None
    if phase == "defend" and head is not None:
        trash = f"{who(head['sender'])}'s {head['card']['title'] or head['card']['name']}"
        walls = obs["players"][head["target"]]["walls"] if head["target"] < obs["seats"] else []
        standing = next((w["standing"] for w in walls if w["position"] == head["wall"]), True)
        if standing:
            text = f"{name} is defending the {head['wall']} wall against {trash}"
        else:
            text = f"{name} faces {trash}, falling on the rubble of the {head['wall']} wall"
        more = len(obs["incoming"]) - 1
        return text + (f", {more} more to come" if more else "")
    if phase == "bat" and head is not None:
        trash = f"{who(head['sender'])}'s {head['card']['title'] or head['card']['name']}"
        swing = obs["swing"] or "any"
        if swing == "back":
            where = f"back at {who(head['sender'])}"
        elif swing in ("left", "right"):
            other = _neighbour(obs, actor, 1 if swing == "left" else -1)
            where = f"{swing}, at {who(other)}" if other is not None else swing
        else:
            where = "at any knight's wall"
        return f"{name} swings a Mace at {trash}, batting it {where}"
    if phase == "burn":
        return f"{name} may burn trash off a wall, repair a fallen wall, or pass"
    if phase == "attack":
        if obs["opening"]:
            return f"{name} opens the war: one Trash card at any wall"
        return f"{name} attacks: trash or a Catapult volley at any standing wall"
    if phase == "drawn":
        return f"{name} drew a Trash card and must throw it at once"
    return f"{name} to play"


def status_line(obs: TrashWarObservation, player: PlayerView) -> tuple[str, Colour | None]:
    """The second line of a fortress's name band; colour None means "the band's ink"."""
    seat = player["seat"]
    if seat in obs["winners"]:
        alone = len(_still_in(obs)) == 1
        return "WINNER - " + ("last knight standing" if alone else "most walls up"), TORCH
    if not player["in_game"]:
        if seat in obs["eliminated"]:
            return f"OUT - {ordinal(_place(obs, seat))} place", MUTED
        return "OUT", MUTED
    if obs["finished"]:
        return "", MUTED
    if seat in obs["to_act"]:
        verb = {
            "defend": "defending",
            "bat": "batting with a Mace",
            "burn": "burn, repair or pass",
            "attack": "opening the war" if obs["opening"] else "attacking",
            "drawn": "throwing the drawn trash",
        }.get(obs["phase"], "to play")
        return verb, None  # the highlighted band says whose move it is
    if seat == obs["turn"]:
        return "holds the turn", TORCH
    up = sum(1 for wall in player["walls"] if wall["standing"])
    return f"{up} of 3 walls up", MUTED  # short: a band is 330 px on a six-player board
