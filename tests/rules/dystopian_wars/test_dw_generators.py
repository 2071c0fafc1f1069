"""Generators (R002.45-R002.51, T002.7, T002.8, A002.9, A002.12, A002.13)."""

from __future__ import annotations

from fractions import Fraction

from dw_builders import ACK_ACK, DW, GUNS, TORPEDOES, refused, table, unit

from tactical.dice import ScriptedDice, enumerate_outcomes
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.dystopian_wars import (
    combat,
    generators,
    maneuver,
    play,
    sequence,
    tracking,
)
from tactical.rules.dystopian_wars.generators import ActivationFlags

MOVED = ActivationFlags(moved=True)
ACTIVATION = TurnPosition(1, 2, 0)


def _activated(*units, **options):
    """Side A's first squadron active, in its Movement segment."""
    state = play.setup(table(*units, **options))
    state = DW.apply(state, Action("initiative", "A"), ScriptedDice([6, 1])).state
    squadron = units[0].stats.get("squadron") or units[0].id
    state = DW.apply(
        state, Action("activate", "A", FrozenMap(squadron=squadron)), ScriptedDice([])
    ).state
    return DW.apply(state, Action("command", "A"), ScriptedDice([])).state


def test_R002_45_tesla_boost_1d3_before_moving_at_least_half():
    state = _activated(
        unit("m", 30, 10, generators="tesla", move=5.0, min_move=2.0), unit("b", 30, 40, "B")
    )
    boosted = DW.apply(
        state, Action("boost", "m", FrozenMap(generator="tesla")), ScriptedDice([3])
    )  # the D3 reads 3
    assert boosted.summary == 3
    assert dict(tracking.mapping(boosted.state, "boosts")["m"]) == {"tesla": 3}
    # what the movement code is given as the activation (session.movement.play_move)
    assert dict(generators.boost_of(boosted.state, "m")) == {"tesla": 3}
    rules = maneuver.turning_rules(boosted.state, boosted.state.unit("m"))
    assert (rules.max_distance, rules.min_total_distance) == (8.0, 4.0)
    with refused("R002.45"):
        DW.apply(boosted.state, Action("move", "m", FrozenMap(path="F3")), ScriptedDice([]))
    moved = DW.apply(boosted.state, Action("move", "m", FrozenMap(path="F8")), ScriptedDice([]))
    assert moved.state.unit("m").y == 18.0
    odds = DW.action_odds(state, Action("boost", "m", FrozenMap(generator="tesla")))
    assert odds.section("outcome").distribution.as_dict() == {
        1: Fraction(1, 3),
        2: Fraction(1, 3),
        3: Fraction(1, 3),
    }


def test_R002_45_each_model_rolls_independently_before_moving():
    a = unit("m1", 30, 10, generators="tesla", squadron="sq")
    b = unit("m2", 34, 10, generators="tesla", squadron="sq")
    state = _activated(a, b, unit("b", 30, 40, "B"))
    first = DW.apply(
        state, Action("boost", "m1", FrozenMap(generator="tesla")), ScriptedDice([1])
    ).state
    second = DW.apply(
        first, Action("boost", "m2", FrozenMap(generator="tesla")), ScriptedDice([3])
    ).state
    assert {k: dict(v) for k, v in tracking.mapping(second, "boosts").items()} == {
        "m1": {"tesla": 1},
        "m2": {"tesla": 3},
    }
    moved = DW.apply(state, Action("move", "m1", FrozenMap(path="F6")), ScriptedDice([])).state
    with refused("R002.45", "before moving"):
        DW.apply(moved, Action("boost", "m1", FrozenMap(generator="tesla")), ScriptedDice([3]))


def test_R002_48_kinetic_boost_adds_to_move_and_minimum_move_A002_9():
    state = _activated(
        unit("k", 30, 10, generators="kinetic, tesla", move=6.0, min_move=2.0),
        unit("b", 30, 40, "B"),
    )
    boosted = DW.apply(
        state, Action("boost", "k", FrozenMap(generator="kinetic")), ScriptedDice([3])
    )
    rules = maneuver.turning_rules(boosted.state, boosted.state.unit("k"))
    assert (rules.max_distance, rules.min_straight_before_turn, rules.min_total_distance) == (
        9.0,
        5.0,
        5.0,
    )
    with refused("R002.48", "at most one Kinetic Generator"):
        DW.apply(
            boosted.state, Action("boost", "k", FrozenMap(generator="kinetic")), ScriptedDice([3])
        )
    with refused("R002.30"):
        DW.apply(boosted.state, Action("move", "k", FrozenMap(path="F4 P45")), ScriptedDice([]))
    with refused("R002.45", "tesla or kinetic"):
        DW.apply(state, Action("boost", "k", FrozenMap(generator="ultrasonic")), ScriptedDice([3]))


def test_A002_9_R002_48_at_least_half_is_exact_not_rounded_up():
    """A002.9 as revised: Mv 8 + Tesla 3 = 11, so 5.5" is enough; `half_rounding = "up"`
    (games recorded before the revision) still wants 6"."""
    for rounding, least, short_of_it in (("exact", 5.5, "F5.4"), ("up", 6.0, "F5.5")):
        options = {} if rounding == "exact" else {"half_rounding": rounding}
        state = _activated(
            unit("m", 30, 10, generators="tesla", move=8.0, min_move=2.0),
            unit("b", 30, 40, "B"),
            **options,
        )
        boosted = DW.apply(
            state, Action("boost", "m", FrozenMap(generator="tesla")), ScriptedDice([3])
        ).state
        rules = maneuver.turning_rules(boosted, boosted.unit("m"))
        assert (rules.max_distance, rules.min_total_distance) == (11.0, least)
        with refused("R002.45", f'at least {least:g}" in all'):
            DW.apply(boosted, Action("move", "m", FrozenMap(path=short_of_it)), ScriptedDice([]))
        moved = DW.apply(
            boosted, Action("move", "m", FrozenMap(path=f"F{least:g}")), ScriptedDice([])
        )
        assert moved.state.unit("m").y == 10.0 + least
    # the Kinetic Generator: Mv 8, MinMove 2, roll 3 -> max(5, 11 / 2) = 5.5" (was 6")
    kinetic = unit("k", 30, 10, generators="kinetic", move=8.0, min_move=2.0)
    exact = DW.turning_rules(kinetic, {"activation": {"kinetic": 3}})
    before = DW.turning_rules(kinetic, {"activation": {"kinetic": 3}, "half_rounding": "up"})
    assert (exact.min_total_distance, before.min_total_distance) == (5.5, 6.0)
    field = next(f for f in DW.option_fields if f.name == "half_rounding")
    assert (field.default, field.before) == ("exact", "up")


def test_R002_48_a_tesla_boost_may_join_a_kinetic_boost():
    """R002.48 forbids only a second Kinetic Generator: Mv 6, MinMove 2, Kinetic 3 then
    Tesla 2: Mv 11, MinMove 5, at least max(5, 11/2) = 5.5" in all (A002.9, exact half)."""
    state = _activated(
        unit("k", 30, 10, generators="kinetic, tesla", move=6.0, min_move=2.0),
        unit("b", 30, 40, "B"),
    )
    odds = DW.action_odds(state, Action("boost", "k", FrozenMap(generator="kinetic")))
    assert odds.section("outcome").spec_id == "R002.48"
    assert odds.section("outcome").distribution.as_dict() == {
        r: Fraction(1, 6) for r in range(1, 7)
    }
    kinetic = DW.apply(
        state, Action("boost", "k", FrozenMap(generator="kinetic")), ScriptedDice([3])
    ).state
    tesla = DW.action_odds(kinetic, Action("boost", "k", FrozenMap(generator="tesla")))
    assert tesla.section("outcome").spec_id == "R002.45"
    assert tesla.section("outcome").distribution.as_dict() == {r: Fraction(1, 3) for r in (1, 2, 3)}
    offered = [c for c in DW.actions(kinetic, ACTIVATION, "A") if c.kind == "boost"]
    assert [c.fields[0].choices for c in offered] == [("tesla",)]
    both = DW.apply(kinetic, Action("boost", "k", FrozenMap(generator="tesla")), ScriptedDice([2]))
    assert dict(generators.boost_of(both.state, "k")) == {"kinetic": 3, "tesla": 2}
    boost = next(e for e in both.events if e.kind == "boost")
    assert (boost.get("generator"), boost.get("inches"), boost.get("movement")) == (
        "tesla",
        2,
        11.0,
    )
    rules = maneuver.turning_rules(both.state, both.state.unit("k"))
    assert (rules.max_distance, rules.min_straight_before_turn, rules.min_total_distance) == (
        11.0,
        5.0,
        5.5,
    )
    assert rules.min_total_rule == "R002.48"
    assert not [c for c in DW.actions(both.state, ACTIVATION, "A") if c.kind == "boost"]
    with refused("R002.45", "boosts once"):
        DW.apply(both.state, Action("boost", "k", FrozenMap(generator="tesla")), ScriptedDice([1]))
    with refused("R002.48", "at most one Kinetic Generator"):
        DW.apply(
            both.state, Action("boost", "k", FrozenMap(generator="kinetic")), ScriptedDice([1])
        )
    moved = DW.apply(both.state, Action("move", "k", FrozenMap(path="F11")), ScriptedDice([]))
    assert moved.state.unit("k").y == 21.0
    # the Tesla Generator used for movement has no alternative use this activation (R002.46)
    flags = sequence.generator_flags(both.state, tracking.get(both.state, "activation"))
    assert flags(both.state.unit("k")).boosted == ("kinetic", "tesla")


def test_R002_48_before_the_fix_one_boost_per_activation():
    """`tesla_with_kinetic = false` (games recorded before the fix) refuses the second boost
    as before, and offers no second boost."""
    state = _activated(
        unit("k", 30, 10, generators="kinetic, tesla", move=6.0, min_move=2.0),
        unit("b", 30, 40, "B"),
        tesla_with_kinetic=False,
    )
    kinetic = DW.apply(
        state, Action("boost", "k", FrozenMap(generator="kinetic")), ScriptedDice([3])
    ).state
    assert not [c for c in DW.actions(kinetic, ACTIVATION, "A") if c.kind == "boost"]
    with refused("R002.48", "one generator boost per activation"):
        DW.apply(kinetic, Action("boost", "k", FrozenMap(generator="tesla")), ScriptedDice([2]))
    assert next(f for f in DW.option_fields if f.name == "tesla_with_kinetic").before is False


def _tesla(dice, mode="once", **flags):
    state = table(
        unit("m", 20, 10, generators="tesla"), unit("t", 26, 10, "B"), tesla_critical_reroll=mode
    )
    return generators.tesla_alternative(
        state,
        state.unit("m"),
        state.unit("t"),
        ScriptedDice(dice),
        ActivationFlags(**{"moved": True, **flags}),
    )


def test_R002_46_tesla_alternative_use_critical_effect_not_damage():
    hit = _tesla([5, 3, 4])
    assert hit.summary == "critical-7"
    assert tracking.effects(hit.state, "t") == ("critical-7",)
    assert tracking.hull_lost(hit.state, "t") == 0
    assert _tesla([4]).summary == "none"
    with refused("R002.46", "movement"):
        _tesla([5], boosted=("tesla",))
    with refused("R002.46", "finished moving"):
        _tesla([5], moved=False)


def test_R002_46_reroll_double_1_and_double_6_T002_8():
    assert _tesla([5, 1, 1, 3, 4]).summary == "critical-7"
    assert _tesla([6, 6, 6, 2, 2]).summary == "critical-4"
    assert _tesla([5, 1, 1, 6, 6]).summary == "critical-12"  # a re-rolled result stands
    assert _tesla([5, 1, 1, 6, 6, 2, 3], mode="until-clear").summary == "critical-5"


def test_R002_46_exact_odds():
    state = table(unit("m", 20, 10, generators="tesla"), unit("t", 26, 10, "B"))
    odds = enumerate_outcomes(
        lambda dice: (
            generators.tesla_alternative(
                state, state.unit("m"), state.unit("t"), dice, MOVED
            ).summary
        )
    ).as_dict()
    assert odds["none"] == Fraction(2, 3)
    # 7 on the first pair, or a double 1 / double 6 then 7
    assert odds["critical-7"] == Fraction(1, 3) * (
        Fraction(6, 36) + Fraction(2, 36) * Fraction(6, 36)
    )
    assert odds["critical-2"] == Fraction(1, 3) * Fraction(2, 36) * Fraction(1, 36)
    assert sum(odds.values()) == 1


def test_A002_13_tesla_range_from_the_centre_any_height():
    far = table(unit("m", 20, 10, generators="tesla"), unit("t", 28.6, 10, "B"))
    with refused("A002.13"):
        generators.tesla_alternative(far, far.unit("m"), far.unit("t"), ScriptedDice([5]), MOVED)
    high = table(
        unit("m", 20, 10, generators="tesla"),
        unit("t", 26, 10, "B", movement="aerial", height_level="obscured"),
    )
    assert (
        generators.tesla_alternative(
            high, high.unit("m"), high.unit("t"), ScriptedDice([1]), MOVED
        ).summary
        == "none"
    )


def test_R002_47_ultrasonic_arc_range_and_table():
    def upg(x, y, dice, **stats):
        state = table(
            unit("u", 20, 10, generators="ultrasonic"), unit("t", x, y, "B", hull_points=1, **stats)
        )
        return generators.ultrasonic(
            state, state.unit("u"), state.unit("t"), ScriptedDice(dice), MOVED
        )

    with refused("R002.47", "270"):
        upg(20, 4, [3])  # dead astern, outside the 270° arc
    with refused("R002.47", "within 8"):
        upg(20, 20, [3])
    four = upg(20, 14, [4])
    assert tracking.until_end(four.state, "t") == ("chaos-and-disarray", "shredded-defences")
    six = upg(20, 14, [6])
    assert six.summary == (6, True)  # Hard Pounding in full: its Damage destroys a 1-HP model
    assert not six.state.has_unit("t")
    assert any(e.kind == "critical-hit" and e.spec_id == "A002.12" for e in six.events)


def test_A002_12_hard_pounding_effect_and_damage():
    state = table(unit("u", 20, 10, generators="ultrasonic"), unit("t", 20, 14, "B", hull_points=4))
    six = generators.ultrasonic(state, state.unit("u"), state.unit("t"), ScriptedDice([6]), MOVED)
    assert tracking.effects(six.state, "t") == ("hard-pounding",)
    assert tracking.hull_lost(six.state, "t") == 1


def test_R002_47_effects_end_in_the_end_phase():
    state = play.setup(table(unit("u", 20, 10, generators="ultrasonic"), unit("t", 20, 14, "B")))
    state = generators.ultrasonic(
        state, state.unit("u"), state.unit("t"), ScriptedDice([2]), MOVED
    ).state
    state = DW.apply(state, Action("end-phase", "A"), ScriptedDice([])).state
    ended = DW.apply(state, Action("end-turn", "A"), ScriptedDice([]))
    assert tracking.until_end(ended.state, "t") == ()
    assert any(e.kind == "markers-rationalised" for e in ended.events)


def test_R002_51_a_launching_carrier_uses_no_generator_nor_guns_rockets_ack_ack():
    carrier = unit(
        "cv",
        30,
        10,
        size="large",
        carrier_capacity=6,
        tiny_flyers_aboard=3,
        generators="tesla",
        weapons=[GUNS, ACK_ACK, TORPEDOES],
    )
    target = unit("t", 30, 15, "B")
    state = table(
        carrier, target, unit("air", 36, 12, "B", movement="aerial", height_level="flying")
    )
    with refused("R002.51"):
        generators.tesla_alternative(
            state,
            state.unit("cv"),
            state.unit("t"),
            ScriptedDice([5]),
            ActivationFlags(moved=True, launched=True),
        )
    with refused("R002.51", "gunnery"):
        combat.declare(state, "cv", "Guns", "t", launched=True)
    with refused("R002.51", "ack-ack"):
        combat.declare(state, "cv", "Ack Ack", "air", launched=True)
    assert combat.declare(state, "cv", "Torpedoes", "t", launched=True)
