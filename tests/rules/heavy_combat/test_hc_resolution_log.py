"""Heavy Combat: the whole log a player reads for each path of one weapon's fire.

Each test resolves one shot with scripted dice and checks every event line (as the text
log renders it, `Event.describe`) and every die recorded (who rolled, for what, which die):
the to-hit procedures (R001.17, R001.30-R001.33), the damage pipeline (R001.22-R001.28),
internal hits with rerolls, catastrophic damage and wrecks (R001.25, R001.34, R001.35),
specific-system shots (R001.37, T001.3) and photon backlash (R001.17, A001.8). The
declaration refusals are checked by their whole message."""

from __future__ import annotations

import pytest
from hc_builders import HC, act, duel, with_ship

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.rules.heavy_combat.duel import Turning

FIRE = (
    "fire: firer=a, weapon={weapon}, target=b, range={range}, multiplier={m}, "
    "firer_facing=fore, in_arc=True, target_facing=fore, split_to=None, halved=False, "
    "procedure={procedure}, needed={needed}, bypass_shields={bypass}, mode={mode}, "
    "system={system}, power={power} ({spec})"
)


def fire_line(weapon="phasers", power=2, procedure="weapon", bypass=None, **given):
    facts = {"range": 2, "m": 2, "needed": None, "mode": "general", "system": None}
    facts |= given
    spec = {"phasers": "R001.15"}.get(weapon, "R001.17")
    return FIRE.format(
        weapon=weapon, power=power, procedure=procedure, bypass=bypass, spec=spec, **facts
    )


def chart(who, roll, system, destroyed, rule="R001.25", table="T001.5"):
    """The three lines of one internal hit rolled on the chart (R001.34)."""
    return [
        f"roll: who={who}, what=internal damage chart, die=d6, result={roll} (R001.34)",
        f"lookup: roll={roll}, system={system} ({table})",
        f"internal: ship={who}, system={system}, destroyed={destroyed} ({rule})",
    ]


def shoot(state, weapon, dice, **params):
    """One shot resolved at once: (its log lines, the dice record, the resolution)."""
    scripted = ScriptedDice(dice)
    attack = HC.declare_attack(state, "a", weapon, "b", params)
    resolution = HC.resolve_attack(state, attack, scripted)
    rolls = [(roll.who, roll.what, roll.die, roll.result) for roll in scripted.rolls]
    return [event.describe() for event in resolution.events], rolls, resolution


def resolve_turn(state, dice):
    """The Result step of the turn (every declared weapon), with scripted dice."""
    scripted = ScriptedDice(dice)
    from tactical.model import FrozenMap
    from tactical.rules.base import Action

    resolution = HC.apply(state, Action("resolve", "A", FrozenMap({})), scripted)
    rolls = [(roll.who, roll.what, roll.die, roll.result) for roll in scripted.rolls]
    return [event.describe() for event in resolution.events], rolls, resolution


def powered(state):
    state = act(state, "roll_power", "a", [6, 6]).state
    return act(state, "roll_power", "b", [6, 6]).state


# --------------------------------------------------------------------------- to-hit


def test_R001_30_a_cloaked_target_rolled_direction_hits_and_bypasses_the_shields():
    state = with_ship(duel(distance=18.0), "b", cloak="on")
    lines, rolls, resolution = shoot(state, "phasers", [1, 3, 5, 6, 3], power=2)
    assert lines == [
        fire_line(procedure="direction", bypass="cloaked"),
        "roll: who=a, what=phasers direction, die=d6, result=1 (R001.30)",
        "lookup: roll=1, direction=fore (T001.4)",
        "to-hit: procedure=direction, nominated=fore, actual=fore, in_arc=True, hit=True (R001.30)",
        "damage: points=2, multiplier=2, raw=4 (R001.15)",
        "bypass: facing=fore, internals=4, why=cloaked (R001.30)",
        *chart("b", 3, "weapons", 1),
        *chart("b", 5, "batteries", 1),
        *chart("b", 6, "warp", 1),
        *chart("b", 3, "weapons", 2),
    ]
    assert rolls == [("a", "phasers direction", "d6", 1)] + [
        ("b", "internal damage chart", "d6", face) for face in (3, 5, 6, 3)
    ]
    summary = resolution.summary
    assert (summary.hit, summary.shield_damage, summary.internals_total) == (True, 0, 4)
    # bridge, sensors, weapons, impulse, warp: with R001.38 the bridge and weapons rows
    # count as systems with an effect
    assert (summary.effects, summary.absorbed, summary.backlash) == ((0, 0, 2, 0, 1), 0, 0)


def test_R001_30_a_wrong_direction_misses_and_rolls_nothing_more():
    state = with_ship(duel(distance=18.0), "b", cloak="on")
    lines, rolls, resolution = shoot(state, "phasers", [2], power=2)
    assert lines[1:] == [
        "roll: who=a, what=phasers direction, die=d6, result=2 (R001.30)",
        "lookup: roll=2, direction=aft (T001.4)",
        "to-hit: procedure=direction, nominated=aft, actual=fore, in_arc=True, hit=False (R001.30)",
    ]
    assert rolls == [("a", "phasers direction", "d6", 2)]
    assert resolution.summary.hit is False


def test_R001_30_a_declared_direction_is_not_rolled():
    state = with_ship(duel(distance=18.0, cloaked_direction="declare"), "b", cloak="on")
    lines, rolls, _ = shoot(state, "phasers", [1, 2, 3, 4], power=2, direction="fore")
    assert lines[1:4] == [
        "to-hit: procedure=direction, nominated=fore, actual=fore, in_arc=True, hit=True (R001.30)",
        "damage: points=2, multiplier=2, raw=4 (R001.15)",
        "bypass: facing=fore, internals=4, why=cloaked (R001.30)",
    ]
    assert [roll[1] for roll in rolls] == ["internal damage chart"] * 4


def test_R001_32_without_sensors_the_direction_is_rolled_and_the_shields_still_hold():
    state = with_ship(duel(distance=18.0), "a", destroyed=(0, 4, 0, 0, 0, 0))
    lines, rolls, _ = shoot(state, "phasers", [1], power=2)
    assert lines == [
        fire_line(procedure="direction"),
        "roll: who=a, what=phasers direction, die=d6, result=1 (R001.32)",
        "lookup: roll=1, direction=fore (T001.4)",
        "to-hit: procedure=direction, nominated=fore, actual=fore, in_arc=True, hit=True (R001.32)",
        "damage: points=2, multiplier=2, raw=4 (R001.15)",
        "shield: facing=fore, points=4, total=4, capacity=27, overflow=0 (R001.28)",
    ]
    assert rolls == [("a", "phasers direction", "d6", 1)]


@pytest.mark.parametrize(("roll", "hit"), [(3, True), (4, False)])
def test_R001_31_half_the_sensors_lost_hits_on_1_to_3(roll, hit):
    state = with_ship(duel(distance=18.0), "a", destroyed=(0, 2, 0, 0, 0, 0))
    lines, rolls, _ = shoot(state, "phasers", [roll], power=2)
    assert lines[:3] == [
        fire_line(procedure="sensors-half"),
        f"roll: who=a, what=phasers to-hit, die=d6, result={roll} (R001.31)",
        f"to-hit: roll={roll}, needed_at_most=3, hit={hit} (R001.31)",
    ]
    assert len(lines) == (5 if hit else 3)
    assert rolls == [("a", "phasers to-hit", "d6", roll)]


@pytest.mark.parametrize(("roll", "hit"), [(3, True), (2, False)])
def test_R001_17_X001_7_a_photon_at_range_3_rolls_to_hit(roll, hit):
    lines, rolls, _ = shoot(duel(distance=30.0), "photon-1", [roll, 5])
    assert lines[0] == fire_line("photon-1", power=1, range=3, m=1, needed=3)
    assert lines[1:3] == [
        f"roll: who=a, what=photon-1 to-hit, die=d6, result={roll} (R001.17)",
        f"to-hit: range=3, roll={roll}, needed=3, hit={hit} (R001.17)",
    ]
    if hit:
        assert lines[3:] == [
            "roll: who=a, what=photon-1 damage, die=d6, result=5 (A001.6)",
            "damage: roll=5, multiplier=1, raw=5 (R001.17)",
            "shield: facing=fore, points=5, total=5, capacity=27, overflow=0 (R001.28)",
        ]
        assert rolls == [("a", "photon-1 to-hit", "d6", 3), ("a", "photon-1 damage", "d6", 5)]
    else:
        assert len(lines) == 3 and rolls == [("a", "photon-1 to-hit", "d6", 2)]


def test_R001_33_a_right_flash_prediction_hits_straight_to_the_internals():
    state = with_ship(powered(duel(distance=18.0)), "b", cloak="on")
    state = act(state, "flash_detect", "a", predicted="close").state
    state = act(act(state, "close", "b").state, "fire", "a", weapon="phasers", power=1).state
    lines, rolls, _ = resolve_turn(state, [3, 4])
    assert lines[2:6] == [
        "to-hit: procedure=flash, predicted=close, prediction_right=True, in_arc=True, "
        "hit=True (R001.33)",
        "damage: points=1, multiplier=2, raw=2 (R001.15)",
        "bypass: facing=fore, internals=2, why=cloaked (R001.30)",
        "roll: who=b, what=internal damage chart, die=d6, result=3 (R001.34)",
    ]
    assert "procedure=flash" in lines[1]
    assert rolls == [("b", "internal damage chart", "d6", face) for face in (3, 4)]


def test_R001_33_a_wrong_flash_prediction_misses():
    state = with_ship(powered(duel(distance=18.0)), "b", cloak="on")
    state = act(state, "flash_detect", "a", predicted="rotate").state
    state = act(state, "fire", "a", weapon="phasers", power=1).state
    lines, rolls, _ = resolve_turn(state, [])
    assert lines[2] == (
        "to-hit: procedure=flash, predicted=rotate, prediction_right=False, in_arc=True, "
        "hit=False (R001.33)"
    )
    assert rolls == []


def test_R001_33_a_rotating_target_is_predicted_as_rotate():
    state = with_ship(powered(duel(distance=18.0)), "b", cloak="on")
    state = act(state, "flash_detect", "a", predicted="rotate").state
    state = act(state, "rotate", "b", to="port").state
    state = act(state, "fire", "a", weapon="phasers", power=1).state
    lines, _, _ = resolve_turn(state, [1, 2])
    assert "predicted=rotate, prediction_right=True" in lines[2]


# --------------------------------------------------------------------------- damage pipeline


def test_R001_24_X001_1_the_pipeline_logs_every_stage():
    """12 raw -> halved 6 (firer rotating) -> split 3/3 (target in its 2nd turn) -> fore:
    2 reinforcement, 1 countermeasure, 0 on the shield; dorsal 3 on the shield."""
    state = powered(duel(distance=6.0))
    state = act(state, "rotate", "a", to="port").state
    state = with_ship(state, "b", turning=Turning(("fore", "dorsal"), 0, 1))
    state = act(state, "reinforce", "b", facing="fore", power=4).state
    state = act(state, "countermeasures", "b", power=2).state
    state = act(state, "fire", "a", weapon="phasers", target="b", power=4).state
    lines, rolls, _ = resolve_turn(state, [])
    assert lines[2:10] == [
        "to-hit: range=1, automatic=True, hit=True (R001.15)",
        "damage: points=4, multiplier=3, raw=12 (R001.15)",
        "halved: raw=12, delivered=6 (R001.22)",
        "split: damage=6, first=fore, first_points=3, second=dorsal, second_points=3 (R001.23)",
        "reinforcement: facing=fore, absorbed=2, left=1 (R001.26)",
        "countermeasures: facing=fore, negated=1, left=0 (R001.27)",
        "shield: facing=fore, points=0, total=0, capacity=27, overflow=0 (R001.28)",
        "shield: facing=dorsal, points=3, total=3, capacity=27, overflow=0 (R001.28)",
    ]
    assert "halved=True" in lines[1] and "split_to=dorsal" in lines[1]
    assert rolls == []


def test_R001_26_R001_27_reinforcement_and_countermeasures_left_over_are_kept():
    """4 points: 2 reinforcement on the fore, then 2 of the 3 countermeasure points; the
    point not used stays on the ship."""
    state = powered(duel(distance=18.0))
    state = act(state, "reinforce", "b", facing="fore", power=4).state  # 2 points
    state = act(state, "countermeasures", "b", power=6).state  # 3 points
    attack = HC.declare_attack(state, "a", "phasers", "b", {"power": 2})  # 4 points
    from tactical.rules.heavy_combat.duel import from_rule_state

    resolution = HC.resolve_attack(state, attack, ScriptedDice([]))
    lines = [event.describe() for event in resolution.events]
    assert lines[3:] == [
        "reinforcement: facing=fore, absorbed=2, left=2 (R001.26)",
        "countermeasures: facing=fore, negated=2, left=0 (R001.27)",
        "shield: facing=fore, points=0, total=0, capacity=27, overflow=0 (R001.28)",
    ]
    b = from_rule_state(resolution.state).ship("b")
    assert b.reinforcement == ()
    assert [bucket.points for bucket in b.countermeasures] == [1]
    assert resolution.summary.absorbed == 4


def test_R001_25_overflow_beyond_the_shield_rolls_one_internal_per_point():
    state = duel({}, {"shields": {"fore": 5}}, distance=18.0)
    lines, rolls, resolution = shoot(state, "phasers", [3, 4, 5], power=4)
    assert lines[2:] == [
        "damage: points=4, multiplier=2, raw=8 (R001.15)",
        "shield: facing=fore, points=5, total=5, capacity=5, overflow=3 (R001.28)",
        *chart("b", 3, "weapons", 1),
        *chart("b", 4, "impulse", 1),
        *chart("b", 5, "batteries", 1),
    ]
    assert rolls == [("b", "internal damage chart", "d6", face) for face in (3, 4, 5)]
    assert resolution.summary.effects == (0, 0, 1, 1, 0)  # bridge, sensors, weapons, ...


def test_R001_29_a_target_whose_cloak_is_engaging_has_no_shields():
    klingon = {"race": "klingon", "cloak": True}
    state = with_ship(duel({}, klingon, distance=18.0), "b", cloak="engaging")
    lines, _, _ = shoot(state, "phasers", [2, 3], power=1)
    assert lines[0] == fire_line(power=1, bypass="shields-down")
    assert lines[3:] == [
        "bypass: facing=fore, internals=2, why=shields-down (R001.29)",
        *chart("b", 2, "sensors", 1, table="T001.6"),
        *chart("b", 3, "weapons", 1, table="T001.6"),
    ]


def test_R001_17_A001_8_photon_backlash_at_range_1_through_the_firers_reinforcement():
    state = powered(duel(distance=6.0))
    state = act(state, "reinforce", "a", facing="fore", power=4).state
    state = act(state, "fire", "a", weapon="photon-1", target="b").state
    lines, rolls, resolution = resolve_turn(state, [4])
    assert lines[3:10] == [
        "roll: who=a, what=photon-1 damage, die=d6, result=4 (A001.6)",
        "damage: roll=4, multiplier=3, raw=12 (R001.17)",
        "shield: facing=fore, points=12, total=12, capacity=27, overflow=0 (R001.28)",
        "backlash: raw=12, points=3, facing=fore (R001.17)",
        "reinforcement: facing=fore, absorbed=2, left=1 (R001.26)",
        "shield: facing=fore, points=1, total=1, capacity=27, overflow=0 (R001.28)",
        "turn: turn=2 (R001.3)",
    ]
    assert rolls == [("a", "photon-1 damage", "d6", 4)]
    assert resolution.summary.damage == (("a", 1, 0), ("b", 12, 0))


def test_R001_17_backlash_reports_its_points():
    state = duel(distance=6.0)
    _, _, resolution = shoot(state, "photon-1", [6])  # 18 -> 4.5 -> 5
    assert (resolution.summary.backlash, resolution.summary.shield_damage) == (5, 18)
    _, _, far = shoot(duel(distance=18.0), "photon-1", [6])
    assert far.summary.backlash == 0


def test_R001_29_a_ship_that_fired_cannot_cloak_so_backlash_always_meets_shields():
    """A firer never has its shields down at the Result (no fire while the cloak changes,
    and no cloak order after fire): its backlash always goes to its own shield."""
    state = powered(duel({"cloak": True}, distance=6.0))
    state = act(state, "fire", "a", weapon="photon-1", target="b").state
    with pytest.raises(UserError) as error:
        act(state, "cloak", "a")
    assert error.value.spec_id == "R001.29"


# --------------------------------------------------------------------------- internals


def test_R001_34_X001_10_a_destroyed_category_is_rerolled():
    state = with_ship(duel({}, {"shields": {"fore": 0}}), "b", destroyed=(4, 0, 0, 0, 0, 0))
    lines, rolls, _ = shoot(state, "phasers", [1, 2, 3], power=1)
    assert lines[4:] == [
        "roll: who=b, what=internal damage chart, die=d6, result=1 (R001.34)",
        "reroll: roll=1, system=bridge, destroyed=True (R001.34)",
        "roll: who=b, what=internal damage chart reroll, die=d6 reroll, result=2 (R001.34)",
        "lookup: roll=2, system=sensors (T001.5)",
        "internal: ship=b, system=sensors, destroyed=1 (R001.25)",
        *chart("b", 3, "weapons", 1),
    ]
    assert rolls == [
        ("b", "internal damage chart", "d6", 1),
        ("b", "internal damage chart reroll", "d6 reroll", 2),
        ("b", "internal damage chart", "d6", 3),
    ]


def test_R001_34_the_klingon_chart_is_T001_6():
    klingon = {"shields": {"fore": 0}, "race": "klingon"}
    state = with_ship(duel({}, klingon), "b", destroyed=(4, 0, 0, 0, 0, 0))
    lines, rolls, _ = shoot(state, "phasers", [1, 1, 2, 6], power=1)
    assert [line for line in lines if line.startswith("lookup")] == [
        "lookup: roll=2, system=sensors (T001.6)",
        "lookup: roll=6, system=warp (T001.6)",
    ]
    assert [roll[3] for roll in rolls] == [1, 1, 2, 6]  # the reroll showed bridge again


def test_R001_35_the_catastrophic_roll_adds_hits_resolved_next():
    """16 of 23 boxes gone: the 17th sets off the roll (6 -> 1 more hit, R001.35), resolved
    before the second queued point of overflow."""
    state = with_ship(duel({}, {"shields": {"fore": 0}}), "b", destroyed=(4, 4, 4, 4, 0, 0))
    lines, rolls, resolution = shoot(state, "phasers", [5, 6, 6, 5], power=1)
    assert lines[3:] == [
        "shield: facing=fore, points=0, total=0, capacity=0, overflow=2 (R001.28)",
        *chart("b", 5, "batteries", 1),
        "roll: who=b, what=catastrophic damage, die=d6, result=6 (R001.35)",
        "catastrophic: ship=b, destroyed=17, threshold=17, roll=6, additional=1 (T001.7)",
        *chart("b", 6, "warp", 1, rule="R001.35"),
        *chart("b", 5, "batteries", 2),
    ]
    assert [roll[1] for roll in rolls] == [
        "internal damage chart",
        "catastrophic damage",
        "internal damage chart",
        "internal damage chart",
    ]
    assert resolution.summary.catastrophic is True
    assert resolution.summary.internals_total == 3


def test_R001_35_a_ship_already_past_the_roll_does_not_roll_again():
    state = with_ship(duel({}, {"shields": {"fore": 0}}), "b", destroyed=(4, 4, 4, 4, 1, 0))
    state = with_ship(state, "b", catastrophic=True)
    lines, rolls, resolution = shoot(state, "phasers", [5, 5], power=1)
    assert [roll[1] for roll in rolls] == ["internal damage chart"] * 2
    assert resolution.summary.catastrophic is False
    assert lines[-1] == "internal: ship=b, system=batteries, destroyed=3 (R001.25)"


def test_R001_34_a_wreck_rolls_no_more_and_is_logged_twice():
    """The last box goes; the second point finds nothing left (no roll), the ship is out."""
    state = with_ship(duel({}, {"shields": {"fore": 0}}), "b", destroyed=(4, 4, 4, 4, 4, 2))
    state = with_ship(state, "b", catastrophic=True)
    lines, rolls, _ = shoot(state, "phasers", [6], power=1)
    assert lines[4:] == [
        *chart("b", 6, "warp", 3),
        "wreck: ship=b, rolled=False (R001.34)",
        "wreck: internals=23 (R001.34)",
    ]
    assert rolls == [("b", "internal damage chart", "d6", 6)]


# --------------------------------------------------------------------------- specific system


def test_R001_37_a_specific_hit_destroys_one_box_of_the_system():
    lines, rolls, resolution = shoot(
        duel(distance=18.0), "phasers", [1], power=3, mode="specific", system="warp"
    )
    assert lines == [
        fire_line(power=3, mode="specific", system="warp"),
        "to-hit: range=2, automatic=True, hit=True (R001.15)",
        "roll: who=a, what=phasers specific system, die=d10, result=1 (R001.37)",
        "specific: system=warp, roll=1, result=1, success=True (R001.37)",
        "internal: ship=b, system=warp, destroyed=1 (R001.37)",
    ]
    assert rolls == [("a", "phasers specific system", "d10", 1)]
    summary = resolution.summary
    assert (summary.hit, summary.specific, summary.internals_total) == (True, True, 1)


def test_R001_37_a_specific_miss_does_nothing():
    lines, _, resolution = shoot(
        duel(distance=18.0), "phasers", [2], power=3, mode="specific", system="warp"
    )
    assert lines[2:] == [
        "roll: who=a, what=phasers specific system, die=d10, result=2 (R001.37)",
        "specific: system=warp, roll=2, result=2, success=False (R001.37)",
    ]
    assert (resolution.summary.hit, resolution.summary.specific) == (True, False)


def test_R001_37_a_specific_hit_on_a_destroyed_system_has_no_effect():
    state = with_ship(duel(distance=18.0), "b", destroyed=(0, 0, 0, 0, 0, 3))
    lines, _, resolution = shoot(state, "phasers", [1], power=3, mode="specific", system="warp")
    assert lines[-1] == "no-effect: ship=b, system=warp, already_destroyed=True (R001.37)"
    assert resolution.summary.internals_total == 0


def test_X001_9_T001_3_a_12_on_the_2d6_specific_chart_is_rerolled():
    state = duel(distance=18.0, specific_system_die="2d6")
    lines, rolls, _ = shoot(state, "phasers", [12, 7], power=3, mode="specific", system="sensors")
    assert lines[2:] == [
        "roll: who=a, what=phasers specific system, die=2d6, result=12 (R001.37)",
        "reroll: roll=12 (T001.3)",
        "roll: who=a, what=phasers specific system reroll, die=2d6 reroll, result=7 (T001.3)",
        "specific: system=sensors, roll=7, result=6, success=False (R001.37)",
    ]
    assert rolls == [
        ("a", "phasers specific system", "2d6", 12),
        ("a", "phasers specific system reroll", "2d6 reroll", 7),
    ]


# --------------------------------------------------------------------------- declaring


def refusal(state, weapon="phasers", **params):
    with pytest.raises(UserError) as error:
        HC.declare_attack(state, "a", weapon, "b", params)
    return str(error.value), error.value.spec_id


@pytest.mark.parametrize(
    ("stats", "weapon", "params", "message", "spec_id"),
    [
        ({}, "lasers", {}, "'a' has no weapon 'lasers': its weapons are phasers, photon-1, "
         "photon-2", "R001.14"),
        ({"photon_launchers": 0, "phasers": False}, "photon-1", {},
         "'a' has no weapon 'photon-1': its weapons are none", "R001.14"),
        ({}, "phasers", {"power": 1, "range": 2, "arc": "x"},
         "a fire declaration takes no arc, range (its parameters: power, mode, system, "
         "direction)", None),
        ({}, "photon-2", {}, "'b' is off 'a''s fore facing: photon-2 fires through aft, "
         "dorsal, ventral", "R001.18"),
        ({}, "phasers", {"power": 1, "mode": "sniper"},
         "target selection is 'general' or 'specific', not 'sniper'", "R001.37"),
        ({}, "phasers", {"power": 1, "mode": "specific", "system": "hull"},
         "a specific-system shot names one of bridge, sensors, weapons, impulse, batteries, "
         "warp, not 'hull'", "R001.37"),
        ({}, "phasers", {"power": 1, "system": "warp"},
         "a system is named only for a specific-system shot (mode = 'specific')", "R001.37"),
        ({}, "phasers", {"power": 1, "direction": "fore"},
         "a direction is nominated only against a cloaked ship when the option "
         "cloaked_direction is 'declare'", "R001.30"),
        ({}, "phasers", {"power": 0},
         "phasers fire needs a whole number of power points >= 1, not 0", "R001.15"),
        ({}, "phasers", {"power": True},
         "phasers fire needs a whole number of power points >= 1, not True", "R001.15"),
        ({}, "phasers", {"power": 2.0},
         "phasers fire needs a whole number of power points >= 1, not 2.0", "R001.15"),
        ({}, "photon-1", {"power": 2}, "photon-1 costs 1 point; it takes no power", "R001.5"),
    ],
)  # fmt: skip
def test_R001_14_R001_37_a_refused_declaration_says_what_and_why(
    stats, weapon, params, message, spec_id
):
    text, cited = refusal(duel(stats, distance=18.0), weapon, **params)
    assert cited == spec_id
    assert text == (f"{message} ({spec_id})" if spec_id else message)


def test_R001_30_a_cloaked_target_needs_a_nominated_direction():
    state = with_ship(duel(distance=18.0, cloaked_direction="declare"), "b", cloak="on")
    assert refusal(state, power=1) == (
        "firing at the cloaked 'b': nominate a direction, one of fore, aft, port, starboard, "
        "dorsal, ventral (not None) (R001.30)",
        "R001.30",
    )
    attack = HC.declare_attack(state, "a", "phasers", "b", {"power": 1, "direction": "aft"})
    assert dict(attack.params) == {"power": 1, "mode": "general", "direction": "aft"}


def test_R001_13_a_ship_without_warp_cannot_fire():
    state = with_ship(duel(distance=18.0), "a", destroyed=(0, 0, 0, 0, 0, 3))
    assert refusal(state, power=1) == (
        "'a' has lost warp: only repair is possible until warp is repaired (R001.13)",
        "R001.13",
    )


def test_R001_17_the_launchers_share_the_torpedo_stock_and_fire_every_other_turn():
    both = powered(duel({"elevation": "dorsal"}, distance=18.0))
    one = with_ship(both, "a", torpedoes=1)
    one = act(one, "fire", "a", weapon="photon-1", target="b").state
    with pytest.raises(UserError) as error:
        act(one, "fire", "a", weapon="photon-2", target="b")
    assert str(error.value) == "'a' has no photon torpedoes left (R001.17)"
    two = act(with_ship(both, "a", torpedoes=2), "fire", "a", weapon="photon-1").state
    assert act(two, "fire", "a", weapon="photon-2", target="b").summary == ("fire", "photon-2")
    late = with_ship(powered(duel(distance=18.0)), "a", launchers=(1, None))
    with pytest.raises(UserError) as error:
        act(late, "fire", "a", weapon="photon-1", target="b")
    assert str(error.value) == (
        "photon-1 fired in turn 1: it can fire again in turn 3 (every other turn) (R001.17)"
    )


def test_R001_19_X001_8_klingon_disruptors_at_range_3_hit_on_2_up():
    klingon = {"race": "klingon", "disruptors": True}
    lines, rolls, _ = shoot(duel(klingon, distance=30.0), "disruptors", [2, 4])
    assert lines == [
        "fire: firer=a, weapon=disruptors, target=b, range=3, multiplier=1, firer_facing=fore, "
        "in_arc=True, target_facing=fore, split_to=None, halved=False, procedure=weapon, "
        "needed=2, bypass_shields=None, mode=general, system=None, power=1 (R001.19)",
        "roll: who=a, what=disruptors to-hit, die=d6, result=2 (R001.19)",
        "to-hit: range=3, roll=2, needed=2, hit=True (R001.19)",
        "roll: who=a, what=disruptors damage, die=d6, result=4 (A001.6)",
        "damage: roll=4, multiplier=1, raw=4 (R001.19)",
        "shield: facing=fore, points=4, total=4, capacity=27, overflow=0 (R001.28)",
    ]
    assert rolls == [("a", "disruptors to-hit", "d6", 2), ("a", "disruptors damage", "d6", 4)]


def test_R001_33_a_target_making_no_move_is_predicted_as_none():
    state = with_ship(powered(duel(distance=18.0)), "b", cloak="on")
    state = act(state, "flash_detect", "a", predicted="none").state
    state = act(state, "fire", "a", weapon="phasers", power=1).state
    lines, _, _ = resolve_turn(state, [3, 4])
    assert lines[2] == (
        "to-hit: procedure=flash, predicted=none, prediction_right=True, in_arc=True, "
        "hit=True (R001.33)"
    )


def test_R001_30_R001_23_a_cloaked_rotating_target_takes_both_portions_inside():
    state = with_ship(duel(distance=18.0), "b", cloak="on", turning=Turning(("fore", "port")))
    lines, rolls, resolution = shoot(state, "photon-1", [1, 4, 1, 2, 3, 4, 5, 6, 1, 2])
    assert lines[5:9] == [
        "damage: roll=4, multiplier=2, raw=8 (R001.17)",
        "split: damage=8, first=fore, first_points=4, second=port, second_points=4 (R001.23)",
        "bypass: facing=fore, internals=4, why=cloaked (R001.30)",
        "bypass: facing=port, internals=4, why=cloaked (R001.30)",
    ]
    assert len(rolls) == 10 and resolution.summary.internals_total == 8
    assert resolution.summary.effects == (2, 2, 1, 1, 1)  # bridge, sensors, weapons, ...


def test_R001_23_R001_26_a_split_shot_meets_each_facings_reinforcement():
    state = powered(duel(distance=18.0))
    state = act(state, "reinforce", "b", facing="fore", power=2).state
    state = act(state, "reinforce", "b", facing="port", power=2).state
    state = with_ship(state, "b", turning=Turning(("fore", "port")))
    lines, _, resolution = shoot(state, "photon-1", [6])
    assert lines[4:] == [
        "split: damage=12, first=fore, first_points=6, second=port, second_points=6 (R001.23)",
        "reinforcement: facing=fore, absorbed=1, left=5 (R001.26)",
        "shield: facing=fore, points=5, total=5, capacity=27, overflow=0 (R001.28)",
        "reinforcement: facing=port, absorbed=1, left=5 (R001.26)",
        "shield: facing=port, points=5, total=5, capacity=27, overflow=0 (R001.28)",
    ]
    assert (resolution.summary.shield_damage, resolution.summary.absorbed) == (10, 2)


def test_R001_26_two_reinforcements_of_one_facing_are_spent_in_order():
    """1 point then 2 points on the fore; 2 damage uses the first and half the second."""
    from tactical.rules.heavy_combat.duel import from_rule_state

    state = powered(duel(distance=18.0))
    state = act(state, "reinforce", "b", facing="fore", power=2).state
    state = act(state, "reinforce", "b", facing="fore", power=4).state
    lines, _, resolution = shoot(state, "phasers", [], power=1)
    assert lines[3] == "reinforcement: facing=fore, absorbed=2, left=0 (R001.26)"
    left = from_rule_state(resolution.state).ship("b").reinforcement
    assert [(bucket.points, bucket.facing) for bucket in left] == [(1, "fore")]
    assert resolution.summary.absorbed == 2


def test_R001_12_a_target_without_impulse_does_not_rotate_so_nothing_is_split():
    turning = Turning(("fore", "port"), 0, 1)
    state = with_ship(duel(distance=18.0), "b", turning=turning, destroyed=(0, 0, 0, 4, 0, 0))
    lines, _, _ = shoot(state, "phasers", [], power=1)
    assert "split_to=None" in lines[0]
    assert lines[-1] == "shield: facing=fore, points=2, total=2, capacity=27, overflow=0 (R001.28)"


def test_R001_31_one_of_three_sensor_boxes_lost_is_less_than_half():
    boxes = {"bridge": 4, "sensors": 3, "weapons": 4, "impulse": 4, "batteries": 4, "warp": 4}
    state = with_ship(duel({"boxes": boxes, "internals": 23}), "a", destroyed=(0, 1, 0, 0, 0, 0))
    lines, rolls, _ = shoot(state, "phasers", [], power=1)
    assert "procedure=weapon" in lines[0] and rolls == []


def test_R001_25_two_weapons_overflow_into_one_queue_resolved_after_both_shots():
    state = powered(duel({}, {"shields": {"fore": 0}}, distance=18.0))
    state = act(state, "fire", "a", weapon="phasers", target="b", power=1).state
    state = act(state, "fire", "a", weapon="photon-1", target="b").state
    lines, rolls, resolution = resolve_turn(state, [1, 2, 3, 4, 5])
    assert [line.split(":")[0] for line in lines[10:]] == ["roll", "lookup", "internal"] * 4 + [
        "turn"
    ]
    assert lines[9] == "shield: facing=fore, points=0, total=0, capacity=0, overflow=2 (R001.28)"
    assert [roll[3] for roll in rolls] == [1, 2, 3, 4, 5]
    assert resolution.summary.damage == (("a", 0, 0), ("b", 0, 4))


def test_R001_37_R001_25_a_specific_hit_and_an_overflow_resolve_in_the_order_caused():
    state = powered(duel({}, {"shields": {"fore": 0}}, distance=18.0))
    specific = {"weapon": "phasers", "power": 1, "mode": "specific", "system": "warp"}
    state = act(state, "fire", "a", target="b", **specific).state
    state = act(state, "fire", "a", weapon="photon-1", target="b").state
    lines, _, resolution = resolve_turn(state, [1, 1, 2, 3])
    assert lines[10:17] == [
        "internal: ship=b, system=warp, destroyed=1 (R001.37)",
        *chart("b", 2, "sensors", 1),
        *chart("b", 3, "weapons", 1),
    ]
    assert resolution.summary.damage == (("a", 0, 0), ("b", 0, 3))


def test_R001_35_a_specific_hit_can_set_off_the_catastrophic_roll():
    state = with_ship(duel(distance=18.0), "b", destroyed=(4, 4, 4, 4, 0, 0))
    lines, rolls, resolution = shoot(
        state, "phasers", [1, 6, 5], power=1, mode="specific", system="warp"
    )
    assert lines[4:] == [
        "internal: ship=b, system=warp, destroyed=1 (R001.37)",
        "roll: who=b, what=catastrophic damage, die=d6, result=6 (R001.35)",
        "catastrophic: ship=b, destroyed=17, threshold=17, roll=6, additional=1 (T001.7)",
        *chart("b", 5, "batteries", 1, rule="R001.35"),
    ]
    assert [roll[1] for roll in rolls] == [
        "phasers specific system", "catastrophic damage", "internal damage chart",
    ]  # fmt: skip
    assert resolution.summary.catastrophic and resolution.summary.internals_total == 2


def test_R001_34_every_point_after_the_last_box_finds_nothing_to_roll():
    state = with_ship(duel({}, {"shields": {"fore": 0}}), "b", destroyed=(4, 4, 4, 4, 4, 2))
    state = with_ship(state, "b", catastrophic=True)
    lines, rolls, _ = shoot(state, "phasers", [6], power=2)  # 4 points
    assert lines[4:] == [
        *chart("b", 6, "warp", 3),
        *["wreck: ship=b, rolled=False (R001.34)"] * 3,
        "wreck: internals=23 (R001.34)",
    ]
    assert len(rolls) == 1


def test_R001_25_nothing_through_the_shield_rolls_nothing_even_at_the_threshold():
    state = with_ship(duel(distance=18.0), "b", destroyed=(4, 4, 4, 4, 1, 0))
    lines, rolls, resolution = shoot(state, "phasers", [], power=1)
    assert lines[-1] == "shield: facing=fore, points=2, total=2, capacity=27, overflow=0 (R001.28)"
    assert rolls == [] and resolution.summary.catastrophic is False


def test_R001_15_phaser_points_default_to_the_power_left_or_the_expected_roll():
    """Before the power roll: 3.5 a die (2 dice: 7); after it, what is left (at least 1)."""
    state = duel(distance=18.0)
    assert HC.declare_attack(state, "a", "phasers", "b", {}).params["power"] == 7
    rolled = powered(state)
    assert HC.declare_attack(rolled, "a", "phasers", "b", {}).params["power"] == 12
    spent = act(rolled, "reinforce", "a", facing="fore", power=12).state
    assert HC.declare_attack(spent, "a", "phasers", "b", {}).params["power"] == 1


def test_R001_21_beyond_range_3_the_refusal_gives_the_distance():
    assert refusal(duel(distance=40.0), power=1) == (
        "'b' is beyond weapons range of 'a': band 4 (40.00\"), the maximum is 3 (R001.21)",
        "R001.21",
    )


# --------------------------------------------------------------------------- more edges


def test_R001_26_carried_reinforcement_is_spent_before_this_turns():
    """Last turn's point carried over (R001.26) goes first, then this turn's."""
    from tactical.rules.heavy_combat.duel import Bucket, from_rule_state

    buckets = (Bucket(2, 1, "fore"), Bucket(1, 0, "fore"))  # this turn's first, by order
    state = with_ship(duel(distance=18.0), "b", reinforcement=buckets)
    lines, _, resolution = shoot(state, "phasers", [], power=1)  # 2 points
    assert lines[3:] == [
        "reinforcement: facing=fore, absorbed=2, left=0 (R001.26)",
        "shield: facing=fore, points=0, total=0, capacity=27, overflow=0 (R001.28)",
    ]
    left = from_rule_state(resolution.state).ship("b").reinforcement
    assert [(bucket.points, bucket.turn) for bucket in left] == [(1, 1)]


def test_R001_26_a_single_point_meets_the_reinforcement():
    state = powered(duel(distance=30.0))  # range 3: 1 x 1 = 1 point
    state = act(state, "reinforce", "b", facing="fore", power=2).state
    lines, _, _ = shoot(state, "phasers", [], power=1)
    assert lines[3] == "reinforcement: facing=fore, absorbed=1, left=0 (R001.26)"


def test_R001_30_reinforcement_does_not_stop_damage_that_bypasses_the_shields():
    from tactical.rules.heavy_combat.duel import Bucket

    state = with_ship(duel(distance=18.0), "b", cloak="on", reinforcement=(Bucket(3, 1, "fore"),))
    lines, _, _ = shoot(state, "phasers", [1, 3, 5, 6, 3], power=2)
    assert lines[5] == "bypass: facing=fore, internals=4, why=cloaked (R001.30)"
    assert not any(line.startswith("reinforcement") for line in lines)


def test_R001_28_a_damaged_shield_holds_only_what_is_left():
    state = with_ship(duel(distance=18.0), "b", shield_damage=(25, 0, 0, 0, 0, 0))
    lines, _, _ = shoot(state, "phasers", [2, 3], power=2)  # 4 points, 2 boxes left
    assert lines[3] == "shield: facing=fore, points=2, total=27, capacity=27, overflow=2 (R001.28)"


def test_R001_23_R001_25_both_portions_of_a_split_shot_can_overflow():
    bare = {"shields": {"fore": 0, "port": 0}}
    state = with_ship(duel({}, bare, distance=18.0), "b", turning=Turning(("fore", "port")))
    lines, rolls, resolution = shoot(state, "photon-1", [4, 1, 2, 3, 4, 5, 6, 1, 2])
    assert lines[5:7] == [
        "shield: facing=fore, points=0, total=0, capacity=0, overflow=4 (R001.28)",
        "shield: facing=port, points=0, total=0, capacity=0, overflow=4 (R001.28)",
    ]
    assert len(rolls) == 9 and resolution.summary.internals_total == 8


def test_A001_8_countermeasures_do_not_reduce_the_firers_backlash():
    state = powered(duel(distance=6.0))
    state = act(state, "countermeasures", "a", power=4).state
    state = act(state, "fire", "a", weapon="photon-1", target="b").state
    lines, _, _ = resolve_turn(state, [4])
    assert lines[6:8] == [
        "backlash: raw=12, points=3, facing=fore (R001.17)",
        "shield: facing=fore, points=3, total=3, capacity=27, overflow=0 (R001.28)",
    ]


def test_R001_17_backlash_through_a_bare_shield_destroys_the_firers_boxes():
    state = duel({"shields": {"fore": 0}}, distance=6.0)
    lines, rolls, resolution = shoot(state, "photon-1", [4, 1, 2, 3])
    assert lines[5:7] == [
        "backlash: raw=12, points=3, facing=fore (R001.17)",
        "shield: facing=fore, points=0, total=0, capacity=0, overflow=3 (R001.28)",
    ]
    assert lines[7:] == [
        *chart("a", 1, "bridge", 1),
        *chart("a", 2, "sensors", 1),
        *chart("a", 3, "weapons", 1),
    ]
    assert [roll[0] for roll in rolls] == ["a", "a", "a", "a"]
    assert resolution.summary.backlash == 3


def test_R001_35_T001_6_a_klingon_catastrophe_rolls_on_its_own_chart():
    klingon = {"shields": {"fore": 0}, "race": "klingon"}
    state = with_ship(duel({}, klingon), "b", destroyed=(4, 4, 4, 4, 0, 0))
    lines, rolls, _ = shoot(state, "phasers", [5, 6, 6, 5], power=1)
    assert [line for line in lines if line.startswith("lookup")] == [
        "lookup: roll=5, system=batteries (T001.6)",
        "lookup: roll=6, system=warp (T001.6)",
        "lookup: roll=5, system=batteries (T001.6)",
    ]
    assert rolls[1] == ("b", "catastrophic damage", "d6", 6)


def test_R001_37_R001_25_a_specific_hit_then_two_overflows_keep_their_order():
    state = powered(duel({"disruptors": True}, {"shields": {"fore": 0}}, distance=18.0))
    specific = {"weapon": "phasers", "power": 1, "mode": "specific", "system": "warp"}
    state = act(state, "fire", "a", target="b", **specific).state
    state = act(state, "fire", "a", weapon="photon-1", target="b").state
    state = act(state, "fire", "a", weapon="disruptors", target="b").state
    lines, _, resolution = resolve_turn(state, [1, 1, 1, 1, 2, 3, 4])
    internal = [line for line in lines if line.startswith("internal")]
    assert internal == [
        "internal: ship=b, system=warp, destroyed=1 (R001.37)",
        "internal: ship=b, system=bridge, destroyed=1 (R001.25)",
        "internal: ship=b, system=sensors, destroyed=1 (R001.25)",
        "internal: ship=b, system=weapons, destroyed=1 (R001.25)",
        "internal: ship=b, system=impulse, destroyed=1 (R001.25)",
    ]
    assert resolution.summary.damage == (("a", 0, 0), ("b", 0, 5))


def test_R001_25_the_result_odds_count_the_boxes_lost():
    from tactical.model import FrozenMap
    from tactical.rules.base import Action

    state = powered(duel({}, {"shields": {"fore": 0}}, distance=18.0))
    state = act(state, "fire", "a", weapon="phasers", target="b", power=1).state
    report = HC.action_odds(state, Action("resolve", "A", FrozenMap({})))
    assert report.section("b internals").distribution.as_dict() == {2: 1}
    assert report.section("b shield damage").distribution.as_dict() == {0: 1}


def test_R001_25_R001_34_the_result_step_enumerates_the_systems_hit():
    """Two points through a bare shield: each chart roll finds sensors, impulse or warp
    1/6 each and one of the three other categories 1/2 (merged, they have no effect)."""
    from fractions import Fraction

    from tactical.dice import enumerate_outcomes
    from tactical.rules.heavy_combat import duel_state, result
    from tactical.rules.heavy_combat.internals import effect_losses

    state = powered(duel({}, {"shields": {"fore": 0}}, distance=18.0))
    state = act(state, "fire", "a", weapon="phasers", target="b", power=1).state
    state, current = duel_state.current(state)
    table = duel_state.Table(state, current)
    contexts = result.fire_contexts(table)
    odds = enumerate_outcomes(
        lambda dice: effect_losses(
            result.fire_phase(current, contexts, table.cards, dice).duel.ship("b").destroyed
        )
    )
    sixth, ninth = Fraction(1, 6), Fraction(1, 18)
    assert odds.as_dict() == {
        (0, 0, 0): Fraction(1, 4),
        (1, 0, 0): sixth, (0, 1, 0): sixth, (0, 0, 1): sixth,
        (2, 0, 0): Fraction(1, 36), (0, 2, 0): Fraction(1, 36), (0, 0, 2): Fraction(1, 36),
        (1, 1, 0): ninth, (1, 0, 1): ninth, (0, 1, 1): ninth,
    }  # fmt: skip
