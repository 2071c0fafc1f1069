"""Dice of seed 002 (R002.1, A002.6) and the stat-card amendments (R002.44)."""

from __future__ import annotations

from fractions import Fraction

from dw_builders import GUNS, TESLA_COILS, table, unit

from tactical.dice import ScriptedDice, enumerate_outcomes
from tactical.rules.dystopian_wars import dicework
from tactical.rules.dystopian_wars.cards import card, parse_attack_dice


def test_R002_1_d6_2d6_doubles_and_d3():
    assert enumerate_outcomes(lambda d: dicework.d6(d, "A", "x")[0]).as_dict() == {
        v: Fraction(1, 6) for v in range(1, 7)
    }
    assert enumerate_outcomes(lambda d: dicework.d3(d, "A", "x")[0]).as_dict() == {
        v: Fraction(1, 3) for v in (1, 2, 3)
    }
    totals = enumerate_outcomes(lambda d: dicework.two_d6(d, "A", "x")[0].total).as_dict()
    assert totals == {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
    roll, event = dicework.two_d6(ScriptedDice([6, 6]), "A", "crit")
    assert (roll.total, roll.double, event.get("dice")) == (12, 6, (6, 6))
    assert dicework.two_d6(ScriptedDice([1, 2]), "A", "x")[0].double is None


def test_A002_6_roll_off_ties_are_rerolled():
    dice = ScriptedDice([3, 3, 2, 5])
    off = dicework.roll_off(dice, "A", "B", "deployment", "R002.16")
    assert (off.winner, off.rolls) == ("B", ((3, 3), (2, 5)))
    assert [e.kind for e in off.events if e.kind in ("tie", "roll-off")] == ["tie", "roll-off"]
    odds = enumerate_outcomes(lambda d: dicework.roll_off(d, "A", "B", "x", "G.5").winner).as_dict()
    assert odds == {"A": Fraction(1, 2), "B": Fraction(1, 2)}
    two = enumerate_outcomes(
        lambda d: dicework.roll_off(d, "A", "B", "x", "R002.16", die_name="2D6").winner
    )
    assert two.as_dict() == {"A": Fraction(1, 2), "B": Fraction(1, 2)}
    endless = dicework.roll_off(
        ScriptedDice([4, 4] * dicework.ROLL_OFF_LIMIT + [5]), "A", "B", "x", "G.5"
    )
    assert endless.winner == "B" and len(endless.rolls) == dicework.ROLL_OFF_LIMIT


def test_attack_dice_profiles_parse_by_range_band():
    assert parse_attack_dice("8-10-8-6") == (8, 10, 8, 6)
    assert parse_attack_dice("5-5") == (5, 5, 0, 0)
    assert parse_attack_dice("4-/-2-") == (4, 0, 2, 0)
    assert parse_attack_dice("") == (0, 0, 0, 0)


def test_R002_44_stat_card_amendments():
    prussian = card(unit("p", 10, 10, faction="Prussian Empire", weapons=[TESLA_COILS]))
    assert "redoubtable (tesla coils)" in prussian.mars
    assert prussian.weapons[0].tesla_coils
    plain = card(unit("p", 10, 10, faction="Prussian Empire", weapons=[GUNS]))
    assert "redoubtable (tesla coils)" not in plain.mars
    sun = card(unit("s", 10, 10, faction="Empire of the Blazing Sun"))
    assert "sharp turn" in sun.mars
    sun_air = card(
        unit(
            "s",
            10,
            10,
            faction="Empire of the Blazing Sun",
            movement="aerial",
            height_level="flying",
        )
    )
    assert "sharp turn" not in sun_air.mars
    for name in ("Ruler Class Battleship", "Sovereign Class Land Ship", "Eagle Class War Rotor"):
        britannia = card(unit("b", 10, 10, name=name, faction="Kingdom of Britannia", points=100))
        assert "guardian" in britannia.generators and britannia.shield_generators == 1
        assert britannia.points == 100  # no points difference
    other = card(unit("o", 10, 10, name="Ruler Class Battleship", faction="Prussian Empire"))
    assert "guardian" not in other.generators
    unnamed = card(unit("u", 10, 10, model_class="Ruler Class Battleship"))
    assert "guardian" in unnamed.generators


def test_squadrons_are_namespaced_by_side():
    state = table(
        unit("a", 10, 10, squadron="line"),
        unit("b", 10, 40, "B", squadron="line"),
        unit("c", 20, 10),
    )
    assert card(state.unit("a")).squadron == "A:line"
    assert card(state.unit("b")).squadron == "B:line"
    assert card(state.unit("c")).squadron == "A:c"
