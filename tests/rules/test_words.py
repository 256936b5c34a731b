"""English in log lines and labels comes from inflect (issue 14's text pass: "Discard a Egg
Carton", "1 crowbars", "1 mice each" were written by hand)."""

from __future__ import annotations

from rules.brawl.labels import describe_action
from rules.words import counted, plural, with_article


def test_a_count_takes_the_number_its_noun_needs():
    assert counted(1, "crowbar") == "1 crowbar"
    assert counted(0, "lid") == "0 lids"
    assert counted(1, "mouse") == "1 mouse"
    assert counted(3, "mouse") == "3 mice"
    assert plural("die", 1) == "die" and plural("die", 2) == "dice"


def test_a_card_name_gets_the_article_it_is_said_with():
    assert with_article("Egg Carton") == "an Egg Carton"
    assert with_article("Pizza Box") == "a Pizza Box"
    assert describe_action("discard egg") == "Discard an Egg Carton"
    assert describe_action("give apple") == "Give an Apple Core"
    assert describe_action("discard pizza") == "Discard a Pizza Box"
