"""Measure again how much likelier each kind of card is to be in a knight's hand than
elsewhere among the cards a seat cannot see: `python -m bench.trashwar_hand_fit`.

The hard AI deals the cards it cannot see into the other hands and the piles
(`rules/trashwar/sample.py`). Knights do not hold a fair share of every card: they spend
some soon (big Shields, Maces, heavy Trash) and keep others (small Burns, Deflects). This
plays `--games` three-seat games of normal AIs and, in one position in five, compares the
cards in the other knights' hands with every card the seat to act cannot see. It prints,
for each kind and value, how many times likelier such a card is to be held than the
average unseen card: copy the table into `sample.HAND_ODDS` by hand.
"""

from __future__ import annotations

import argparse
from collections import Counter

from rules.base import rng_for
from rules.trashwar import TRASH_WAR
from rules.trashwar.cards import CARDS
from rules.trashwar.sample import Knowledge

SEATS = 3
EVERY = 5  # one position in this many: far enough apart to differ


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=100_000, help="the first game's seed")
    args = parser.parse_args(argv)
    unseen: Counter[tuple[str, int]] = Counter()
    held: Counter[tuple[str, int]] = Counter()
    places = cards = 0  # hand places and unseen cards, over every position counted
    for seed in range(args.seed, args.seed + args.games):
        state = TRASH_WAR.new_game(SEATS, {}, seed)
        while TRASH_WAR.outcome(state) is None:
            seat = min(TRASH_WAR.to_act(state))
            observation = TRASH_WAR.observe(state, seat)
            if state.step % EVERY == 0:
                knowledge = Knowledge.read(observation)
                unseen.update((CARDS[c].kind, CARDS[c].value) for c in knowledge.unseen)
                for other in range(SEATS):
                    if other != seat and other not in state.eliminated:
                        held.update((CARDS[c].kind, CARDS[c].value) for c in state.hands[other])
                places += sum(knowledge.hands)
                cards += len(knowledge.unseen)
            legal = TRASH_WAR.legal_actions(state, seat)
            rng = rng_for(seed, "ai", TRASH_WAR.step(state), seat)
            action = TRASH_WAR.choose(observation, legal, rng, "normal")
            state = TRASH_WAR.apply(state, seat, action).state
    fair = places / cards
    print(f"{args.games} games (seeds {args.seed}-), {cards} unseen cards counted")
    for face in sorted(unseen):
        print(f"    {face!r}: {held[face] / unseen[face] / fair:.2f},")


if __name__ == "__main__":
    main()
