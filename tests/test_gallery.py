"""The gallery command (`python -m bench.gallery DIR`) writes what it promises."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bench import gallery


def test_the_gallery_has_each_games_moves_its_end_its_recap_and_a_spill(tmp_path: Path) -> None:
    gallery.main([str(tmp_path)])
    written = {path.name for path in tmp_path.iterdir()}
    for kind in ("brawl", "rumble", "toss", "trashwar"):
        assert f"{kind}-end.png" in written
        assert f"{kind}-recap.png" in written  # issue 15: every game's recap
        assert len([n for n in written if n.startswith(f"{kind}-after-")]) >= 2, kind
    assert {"rumble-after-move.png", "rumble-after-fight.png", "toss-spill.png"} <= written
    assert "brawl-fight-dice.png" in written  # the dice picture with the verdict
    for name in written:
        with Image.open(tmp_path / name) as picture:
            assert picture.format == "PNG" and picture.width >= 200
