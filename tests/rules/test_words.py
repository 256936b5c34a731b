"""English in log lines and labels comes from inflect (issue 14's text pass: "Discard a Egg
Carton", "1 crowbars", "1 mice each" were written by hand)."""

from __future__ import annotations

from rules.brawl.labels import describe_action
from rules.words import agreeing, counted, plural, with_article


def test_a_count_takes_the_number_its_noun_needs():
    assert counted(1, "crowbar") == "1 crowbar"
    assert counted(0, "lid") == "0 lids"
    assert counted(1, "mouse") == "1 mouse"
    assert counted(3, "mouse") == "3 mice"
    assert plural("die", 1) == "die" and plural("die", 2) == "dice"
    assert counted(-1, "point") == "-1 point" and counted(-7, "point") == "-7 points"


def test_a_name_already_plural_stays_so_after_any_number():
    """(issue 38: "Fish Boneses") A card named in the plural is counted as it is, the way
    `with_article` gives it no "a"; other names take their plural."""
    assert counted(2, "Fish Bones") == "2 Fish Bones" and counted(1, "Fish Bones") == "1 Fish Bones"
    assert plural("Fish Bones", 2) == "Fish Bones"
    assert counted(3, "Milk Jug") == "3 Milk Jugs" and counted(3, "Pizza Box") == "3 Pizza Boxes"
    assert counted(1, "torching phase") == "1 torching phase"
    assert str(describe_action("lay pizza 3")) == "Lay down 3 Pizza Boxes"
    assert str(describe_action("lay milk 1")) == "Lay down 1 Milk Jug"


def test_a_card_name_gets_the_article_it_is_said_with():
    assert with_article("Egg Carton") == "an Egg Carton"
    assert with_article("Pizza Box") == "a Pizza Box"
    assert str(describe_action("discard egg")) == "Discard an Egg Carton"
    assert str(describe_action("give apple")) == "Give an Apple Core"
    assert str(describe_action("discard pizza")) == "Discard a Pizza Box"


def test_a_verb_agrees_with_its_count():
    """(issue 38: "1 lid hold off 1 crowbar", "2 take or gives left")"""
    assert agreeing("holds", 1) == "holds" and agreeing("holds", 3) == "hold"
    assert agreeing("leaves", 0) == "leave" and agreeing("beats", -1) == "beats"
