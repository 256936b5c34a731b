"""The gallery: every game's pictures as players see them, to look at after a change.

    python -m bench.gallery DIR [--seed N]

For each game it plays seeded games of random legal moves, with players named in five
scripts (Latin with accents, Cyrillic, Greek, CJK, emoji), and writes into DIR:

- `<game>-after-<kind>.png`: the channel's board after the first move of each kind (the
  action's first word: Rumble's "move" and "fight", Trash War's "throw", "defend",
  "burn"...), with any other picture the board carries (Dumpster Brawl!'s dice) beside it;
- moments named by what the log says: `toss-spill.png`, the board after a drop that knocked
  garbage out, and `brawl-fight.png` (with `-dice`), the first fight decided;
- `<game>-end.png`: the board of the finished game, and `<game>-recap.png`, its recap
  (the presenter's `recap`: the story of the game on its last board), if it has one;
- `<game>-hand.png`: the first seat's own picture ("My hand", "My secret"), if it has one.

The pictures are the presenters' own (`cogs/<game>`), from the public view and, for the
hand, the owner's: the same bytes the bot uploads.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

from bench.games import plugins
from cogs.shared.presenter import Picture, Recaps
from rules.base import AnyGame
from rules.phrases import english

NAMES = ["Zoë Ångström", "Ёжик Толстой", "Σοφία", "名無しさん", "🦝 Rocky", "Łukasz"]
LONGEST = 3000  # actions: a random game of Dumpster Brawl! can wander; stop there
# Moments worth a picture of their own, by words in the log: (file name, words).
MOMENTS = (("spill", "falls out"), ("fight", "wins the fight"))


def seats_for(engine: AnyGame) -> int:
    return max(engine.min_seats, min(4, engine.max_seats))


def write(folder: Path, stem: str, pictures: list[Picture]) -> list[Path]:
    paths = []
    for index, picture in enumerate(pictures):
        suffix = "" if index == 0 else f"-{Path(picture.filename).stem}"
        path = folder / f"{stem}{suffix}.png"
        path.write_bytes(picture.data)
        paths.append(path)
    return paths


def play(kind: str, folder: Path, seed: int) -> list[Path]:
    """One game of `kind` from `seed`, its pictures written as it goes."""
    engine, presenter = plugins()[kind].engine, plugins()[kind].presenter
    seats = seats_for(engine)
    names = NAMES[:seats]
    rng = random.Random(seed)
    state: Any = engine.new_game(seats, {}, seed)
    written: list[Path] = []
    hand = presenter.hand(engine.observe(state, 0), names)
    written += write(folder, f"{kind}-hand", hand.pictures)
    seen: set[str] = set()
    for _ in range(LONGEST):
        if engine.outcome(state) is not None:
            break
        since = state.step
        seat = sorted(engine.to_act(state))[0]
        action = rng.choice(engine.legal_actions(state, seat))
        applied = engine.apply(state, seat, action)
        state = applied.state
        said = " ".join(english(event.text) for event in applied.events)
        stems = [f"after-{action.split()[0]}"]
        stems += [moment for moment, words in MOMENTS if words in said]
        fresh = [stem for stem in stems if stem not in seen]
        if fresh:
            pictures = presenter.board(engine.observe(state, None), names, since)
            for stem in fresh:
                seen.add(stem)
                written += write(folder, f"{kind}-{stem}", pictures)
    public = engine.observe(state, None)
    written += write(folder, f"{kind}-end", presenter.board(public, names, 0))
    if isinstance(presenter, Recaps):
        written += write(folder, f"{kind}-recap", [presenter.recap(public, names)])
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    for kind in plugins():
        paths = play(kind, args.folder, args.seed)
        print(f"{kind}: {len(paths)} pictures")
    print(f"in {args.folder}")


if __name__ == "__main__":
    main()
