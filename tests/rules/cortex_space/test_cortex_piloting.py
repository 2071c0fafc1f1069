"""Dogfighting R003.10-R003.14, collisions R003.15-R003.20, strafing R003.21-R003.24,
fighter wings R003.30-R003.34, and the table geometry of GEO003.2/GEO003.3/GEO003.7."""

from __future__ import annotations

from fractions import Fraction

import pytest
from cortex_builders import BATTLESTAR, RAIDER, VIPER, table, unit, with_stats
from hypothesis import given
from hypothesis import strategies as st

from tactical.dice import ScriptedDice, enumerate_outcomes
from tactical.errors import UserError
from tactical.model import Circle, Pose, SizeClass, Terrain
from tactical.rules.cortex_space import (
    attack_pools,
    collisions,
    combat,
    gunnery,
    manoeuvres,
    pilot_rolls,
    sequence,
    tables,
    tracker,
    units,
)
from tactical.rules.cortex_space.positions import collision_direction, heading_difference
from tactical.rules.cortex_space.rolls import parse_step_die
from tactical.rules.cortex_space.tables import SIZE_BY_NAME

# --------------------------------------------------------------------------- dogfighting


def _duel(**options):
    return table(
        unit("viper", 10, 10, "A", **with_stats(VIPER, dogfighting="d6")),
        unit("raider", 18, 10, "B", **RAIDER),
        **options,
    )


def test_R003_10_advantage_pool_is_agility_pilot_and_dogfighting_die():
    state = _duel()
    roll = manoeuvres.advantage_roll(
        state, state.unit("viper"), state.unit("raider"), units.settings(state)
    )
    assert roll.pool.text == "d10 + d10 + d6"
    assert roll.modifiers == ()  # not an action: no multiple-action penalty


def test_R003_10_advantage_needs_the_option_and_two_sides():
    state = _duel(dogfighting=False)
    with pytest.raises(UserError, match=r"R003\.10"):
        manoeuvres.resolve_advantage(state, "viper", "raider", ScriptedDice([10, 9]))
    friendly = table(unit("a", 0, 0, "A", **VIPER), unit("b", 2, 0, "A", **VIPER))
    with pytest.raises(UserError, match="same side"):
        manoeuvres.resolve_advantage(friendly, "a", "b", ScriptedDice([10, 9]))


def test_R003_11_winner_has_advantage_and_initiative_tie_is_simultaneous():
    won = manoeuvres.resolve_advantage(_duel(), "viper", "raider", ScriptedDice([12, 9]))
    assert (won.summary.holder, won.summary.steps) == ("viper", 1)
    assert sequence.current_group(won.state) == ("viper",)
    tie = manoeuvres.resolve_advantage(_duel(), "viper", "raider", ScriptedDice([9, 9]))
    assert tie.summary.holder is None
    assert tracker.get(tie.state, tracker.ADVANTAGE, ()) == ()
    assert set(sequence.current_group(tie.state)) == {"viper", "raider"}  # A003.6


def test_R003_11_simultaneous_vessels_still_act_when_put_out_of_action():
    state = manoeuvres.resolve_advantage(_duel(), "viper", "raider", ScriptedDice([9, 9])).state
    weak = state.replace_unit(state.unit("raider").with_stats(wound=13))
    attack = combat.declare(weak, "viper", "autocannons", "raider")
    shot = combat.resolve(weak, attack, ScriptedDice([18, 2, 8]))
    assert shot.summary.destroyed
    assert "raider" in sequence.current_group(shot.state)  # destroyed by a simultaneous vessel
    assert sequence.can_act(shot.state, shot.state.unit("raider"))


def test_R003_12_previous_holder_gets_a_step_against_the_same_opponent():
    state = manoeuvres.resolve_advantage(_duel(), "viper", "raider", ScriptedDice([12, 9])).state
    following = tracker.next_turn(state)
    assert tracker.get(following, tracker.PREVIOUS_ADVANTAGE) == (("viper", "raider"),)
    options = units.settings(following)
    own = manoeuvres.advantage_roll(
        following, following.unit("viper"), following.unit("raider"), options
    )
    assert own.pool.steps == 1 and own.pool.text == "d10 + d12 + d6"
    other = table(*following.units, unit("raider-2", 18, 14, "B", **RAIDER))
    other = other.with_rule_state(**{tracker.PREVIOUS_ADVANTAGE: (("viper", "raider"),)})
    against_new = manoeuvres.advantage_roll(
        other, other.unit("viper"), other.unit("raider-2"), options
    )
    assert against_new.pool.steps == 0  # A003.8: only against the same opponent


def test_R003_13_advantage_modifies_attacks_between_the_two_only():
    state = manoeuvres.resolve_advantage(_duel(), "viper", "raider", ScriptedDice([12, 9])).state
    third = unit("raider-2", 16, 12, "B", **RAIDER)
    state = table(*state.units, third).with_rule_state(**dict(state.rule_state))
    assert attack_pools.dogfight_modifier(state, "viper", "raider").steps == 1
    assert attack_pools.dogfight_modifier(state, "raider", "viper").steps == -1
    assert attack_pools.dogfight_modifier(state, "viper", "raider-2") is None  # A003.7


def test_R003_14_botch_or_extraordinary_doubles_the_modifiers():
    assert manoeuvres.advantage_steps(False, False) == 1
    assert manoeuvres.advantage_steps(True, False) == 2
    assert manoeuvres.advantage_steps(False, True) == 2
    botched = manoeuvres.resolve_advantage(_duel(), "viper", "raider", ScriptedDice([6, 3]))
    assert botched.summary == manoeuvres.AdvantageSummary("viper", 2)  # 3 on 3 dice: botch


def test_R003_10_advantage_odds_by_enumerating_the_resolver():
    state = _duel()
    odds = enumerate_outcomes(
        lambda dice: manoeuvres.resolve_advantage(state, "viper", "raider", dice).summary
    )
    assert odds.total == 1
    assert odds.where(lambda s: s.holder == "viper") > Fraction(1, 2)  # better dice
    assert odds.probability(manoeuvres.AdvantageSummary(None, 0)) > 0


def test_GEO003_4_the_dogfighting_position_is_abstract():
    """Advantage is a roll between the two pilots, not a place on the table: moving and
    turning either vessel leaves its exact odds unchanged."""
    state = _duel()

    def odds(on):
        return enumerate_outcomes(
            lambda dice: manoeuvres.resolve_advantage(on, "viper", "raider", dice).summary
        )

    raider = state.unit("raider")
    far = state.replace_unit(raider.moved_to(Pose(raider.x + 20, raider.y - 7, 135.0)))
    assert far.unit("raider").pose != raider.pose
    assert odds(far).as_dict() == odds(state).as_dict()


# --------------------------------------------------------------------------- collisions


def test_R003_15_and_R003_16_difficulty_from_the_smaller_object_and_the_higher_speed():
    medium, huge = SIZE_BY_NAME["Medium"], SIZE_BY_NAME["Huge"]
    difficulty = collisions.collision_difficulty(huge, medium, 6, "perpendicular")
    assert (difficulty.size.name, difficulty.speed.name, difficulty.value) == ("Medium", "High", 11)
    assert collisions.collision_difficulty(medium, huge, 0, "away").value == -5


def test_R003_16_terrain_obstacle_is_stationary_and_sized_by_height():
    rock = Terrain("rock", "dense", SizeClass.LARGE, circle=Circle(10, 12, 1.5))
    state = table(unit("v", 10, 10, "A", heading=0, **with_stats(VIPER, speed=4)), terrain=[rock])
    obstacle = collisions.obstacle_of(state, "rock")
    assert obstacle.size.name == "Huge" and obstacle.speed == 0
    difficulty = collisions.table_difficulty(state.unit("v"), obstacle)
    # the smaller object (the Viper, Medium 7) + Medium speed 4 (+0) + the rock ahead (toward)
    assert (difficulty.size.name, difficulty.speed.name, difficulty.direction.name) == (
        "Medium", "Medium", "toward")  # fmt: skip
    assert difficulty.value == 11


def test_R003_17_below_easy_no_roll_is_needed():
    state = table(
        unit("v", 10, 10, "A", heading=0, **with_stats(VIPER, speed=0)),
        unit("w", 11.2, 10, "B", heading=0, **with_stats(RAIDER, speed=0)),
    )
    result = collisions.resolve_avoid(state, "v", "w", ScriptedDice([]))
    assert result.summary.avoided and result.summary.difficulty == -1
    assert any(e.spec_id == "R003.17" for e in result.events)
    assert tracker.actions_taken(result.state, "v") == 0
    at_three = collisions.CollisionDifficulty(
        SIZE_BY_NAME["Small"],
        tables.obstacle_speed(3),
        tables.direction_row("perpendicular"),
    )
    assert at_three.value == 3 and at_three.needs_roll  # A003.11


def _contact(pilot_speed=6, other_speed=6):
    return table(
        unit("v", 10, 10, "A", heading=0, **with_stats(VIPER, speed=pilot_speed)),
        unit("w", 10, 11.3, "B", heading=90, **with_stats(RAIDER, speed=other_speed)),
    )


def test_R003_18_failed_roll_is_basic_damage_difficulty_minus_roll():
    result = collisions.resolve_avoid(_contact(), "v", "w", ScriptedDice([4]), other_rolls=False)
    # Medium 7 + High 4 + perpendicular 0 = 11; Basic 11 - 4 = 7 -> 4 Stun / 3 Wound
    assert result.summary.difficulty == 11
    assert (result.summary.pilot_stun, result.summary.pilot_wound) == (4, 3)
    assert (result.summary.other_stun, result.summary.other_wound) == (6, 5)  # A003.12/A003.13


def test_R003_19_ships_collide_only_if_both_pilots_fail():
    saved = collisions.resolve_avoid(_contact(), "v", "w", ScriptedDice([4, 12]))
    assert saved.summary.avoided
    assert saved.state.unit("v").stats.get("wound", 0) == 0
    both = collisions.resolve_avoid(_contact(), "v", "w", ScriptedDice([4, 8]))
    assert not both.summary.avoided
    assert (both.summary.other_stun, both.summary.other_wound) == (2, 1)  # 11 - 8 = 3
    success = collisions.resolve_avoid(_contact(), "v", "w", ScriptedDice([15]))
    assert success.summary.avoided and tracker.actions_taken(success.state, "v") == 1


def test_R003_20_ramming_the_rammer_does_not_roll():
    result = collisions.resolve_ram(_contact(), "v", "w", ScriptedDice([5]))
    assert not result.summary.avoided
    assert (result.summary.pilot_stun, result.summary.pilot_wound) == (6, 5)  # 11 - 0
    assert (result.summary.other_stun, result.summary.other_wound) == (3, 3)  # 11 - 5
    dodged = collisions.resolve_ram(_contact(), "v", "w", ScriptedDice([11]))
    assert dodged.summary.avoided
    with pytest.raises(UserError, match=r"R003\.20"):
        collisions.resolve_ram(_contact(), "v", "v", ScriptedDice([]))


def test_A003_9_random_obstacle_rolls_d10_d8_d6():
    state = table(unit("v", 10, 10, "A", **with_stats(VIPER, speed=2)))
    result = collisions.resolve_avoid(state, "v", "random", ScriptedDice([1, 1, 1, 20]))
    difficulty = next(e for e in result.events if e.kind == "collision-difficulty")
    # Gigantic rolled, but the Viper is the smaller object (Medium 7); Very High +8; toward +4
    assert difficulty.get("difficulty") == 19
    assert result.summary.avoided


def test_GEO003_7_collision_needs_contact():
    far = table(unit("v", 10, 10, "A", **VIPER), unit("w", 20, 10, "B", **RAIDER))
    with pytest.raises(UserError, match=r"GEO003\.7"):
        collisions.resolve_avoid(far, "v", "w", ScriptedDice([]))
    with pytest.raises(UserError, match=r"R003\.15"):
        collisions.resolve_avoid(table(*far.units, collisions=False), "v", "w", ScriptedDice([]))


def test_GEO003_3_collision_direction_classification():
    assert collision_direction((0, 0), (0, 0), (0, 5), (0, -3)) == "toward"
    assert collision_direction((0, 0), (0, 0), (0, 5), (0, 3)) == "away"
    assert collision_direction((0, 0), (0, 0), (0, 5), (3, 0)) == "perpendicular"
    assert collision_direction((0, 0), (0, 4), (0, 5), (0, 4)) == "perpendicular"  # no relative
    assert collision_direction((0, 0), (0, 6), (0, 5), (0, 0)) == "toward"  # pilot closing in


@given(
    st.tuples(st.floats(-50, 50), st.floats(-50, 50)),
    st.tuples(st.floats(-9, 9), st.floats(-9, 9)),
    st.tuples(st.floats(-50, 50), st.floats(-50, 50)),
    st.tuples(st.floats(-9, 9), st.floats(-9, 9)),
    st.tuples(st.floats(-9, 9), st.floats(-9, 9)),
)
def test_GEO003_3_property_direction_depends_on_relative_motion_only(a, va, b, vb, shift):
    """Adding the same velocity to both objects never changes the classification, and a
    reversed relative velocity swaps toward and away."""
    base = collision_direction(a, va, b, vb)
    moved = collision_direction(
        a, (va[0] + shift[0], va[1] + shift[1]), b, (vb[0] + shift[0], vb[1] + shift[1])
    )
    assert base == moved or _near_boundary(a, va, b, vb)
    flipped = collision_direction(a, vb, b, va)
    swap = {"toward": "away", "away": "toward", "perpendicular": "perpendicular"}
    assert flipped == swap[base] or _near_boundary(a, va, b, vb)


def _near_boundary(a, va, b, vb) -> bool:
    import math

    rvx, rvy = vb[0] - va[0], vb[1] - va[1]
    lx, ly = a[0] - b[0], a[1] - b[1]
    speed, length = math.hypot(rvx, rvy), math.hypot(lx, ly)
    if speed < 1e-6 or length < 1e-6:
        return True
    cosine = (rvx * lx + rvy * ly) / (speed * length)
    theta = math.degrees(math.acos(max(-1.0, min(1.0, cosine))))
    return min(abs(theta - 45), abs(theta - 135)) < 1e-6


@given(st.floats(0, 720), st.floats(0, 720))
def test_GEO003_2_property_heading_difference_is_symmetric_and_bounded(a, b):
    assert heading_difference(a, b) == pytest.approx(heading_difference(b, a))
    assert 0 <= heading_difference(a, b) <= 180


# --------------------------------------------------------------------------- strafing


def _strafe(**viper):
    return table(
        unit("viper", 10, 10, "A", heading=0, **with_stats(VIPER, **viper)),
        unit(
            "basestar",
            10,
            13.2,
            "B",
            diameter=5,
            **with_stats(BATTLESTAR, strength="d12+d8", speed=0),
        ),
    )


def test_R003_21_only_planetcraft_strafe_spacecraft():
    with pytest.raises(UserError, match=r"R003\.21"):
        manoeuvres.resolve_strafe(
            _strafe(scale="spacecraft"), "viper", "basestar", ScriptedDice([])
        )
    with pytest.raises(UserError, match=r"R003\.21"):
        manoeuvres.resolve_strafe(
            table(*_strafe().units, strafing_runs=False), "viper", "basestar", ScriptedDice([])
        )


def test_R003_22_within_30_feet_and_a_collision_aborts_the_run():
    state = _strafe()
    far = state.replace_unit(state.unit("viper").moved_to(Pose(10, 5, 0)))
    with pytest.raises(UserError, match=r"R003\.22"):
        manoeuvres.resolve_strafe(far, "viper", "basestar", ScriptedDice([]))
    # Medium 7 + Very High +8 (the Viper's 9) + toward +4 = 19; both pilots fail
    crashed = manoeuvres.resolve_strafe(state, "viper", "basestar", ScriptedDice([5, 4]))
    assert crashed.summary.result == "collided"
    assert (crashed.summary.stun, crashed.summary.wound) == (7, 7)
    assert tracker.table(crashed.state, tracker.STRAFING) == {}


def test_R003_23_second_roll_by_target_strength_A003_14():
    result = manoeuvres.resolve_strafe(_strafe(), "viper", "basestar", ScriptedDice([19, 7]))
    run = next(e for e in result.events if e.kind == "strafing-run")
    assert (run.get("difficulty"), run.get("result")) == (7, "success")
    failed = manoeuvres.resolve_strafe(_strafe(), "viper", "basestar", ScriptedDice([19, 6]))
    assert failed.summary.result == "failed"


def test_R003_24_while_strafing_only_point_defense_may_attack():
    result = manoeuvres.resolve_strafe(_strafe(), "viper", "basestar", ScriptedDice([19, 7]))
    state = result.state
    assert tracker.table(state, tracker.STRAFING) == {"viper": "basestar"}
    with pytest.raises(UserError, match=r"R003\.24"):
        combat.declare(state, "basestar", "railguns", "viper")
    assert combat.declare(state, "basestar", "point-defense", "viper")
    assert tracker.table(tracker.next_turn(state), tracker.STRAFING) == {}  # A003.15


# --------------------------------------------------------------------------- wings


def _pair(**options):
    return table(
        unit("lead", 10, 10, "A", heading=90, **VIPER),
        unit("wingman", 10, 12, "A", heading=95, **with_stats(VIPER, pilot="d6")),
        **options,
    )


def test_R003_30_joining_a_wing_average_or_hard():
    result = manoeuvres.resolve_join(_pair(), "wingman", "lead", ScriptedDice([7]))
    assert result.summary == "success"
    wing = result.state.unit("lead")
    assert [m["id"] for m in wing.stats["members"]] == ["lead", "wingman"]
    assert not result.state.has_unit("wingman")
    assert tracker.is_done(result.state, "wingman")
    failed = manoeuvres.resolve_join(_pair(), "wingman", "lead", ScriptedDice([6]))
    assert failed.summary == "failure" and failed.state.has_unit("wingman")
    assert manoeuvres.join_difficulty([parse_step_die("d6")] * 2) == 7
    assert manoeuvres.join_difficulty([parse_step_die("d6"), parse_step_die("d8")]) == 11
    mixed = table(
        unit("lead", 10, 10, "A", heading=90, **VIPER),
        unit("heavy", 10, 12, "A", heading=90, **with_stats(VIPER, strength="d8")),
    )
    hard = manoeuvres.resolve_join(mixed, "heavy", "lead", ScriptedDice([10]))
    assert next(e for e in hard.events if e.kind == "join-wing").get("difficulty") == 11
    assert hard.summary == "failure"


def test_R003_30_formation_and_six_fighters_at_most():
    with pytest.raises(UserError, match=r"GEO003\.2"):
        manoeuvres.resolve_join(
            _pair(wing_heading_tolerance=2.0), "wingman", "lead", ScriptedDice([])
        )
    six = [{"id": f"m{i}", "pilot": "d8"} for i in range(6)]
    state = table(
        unit("wing", 10, 10, "A", heading=90, **with_stats(VIPER, members=six)),
        unit("extra", 10, 12, "A", heading=90, **VIPER),
    )
    with pytest.raises(UserError, match=r"R003\.30"):
        manoeuvres.resolve_join(state, "extra", "wing", ScriptedDice([]))


def test_R003_31_and_A003_20_the_less_skilled_pilot_rolls_for_the_wing():
    members = [{"id": "ace", "pilot": "d12"}, {"id": "nugget", "pilot": "d4"}]
    state = table(unit("wing", 10, 10, "A", **with_stats(VIPER, members=members)))
    assert units.vessel(state.unit("wing")).less_skilled.id == "nugget"
    roll = pilot_rolls.pilot_roll(state, state.unit("wing"), units.settings(state))
    assert roll.pool.text == "d10 + d4"


def test_R003_32_wing_combined_fire_and_A003_22_a_single_fighter_gets_nothing():
    members = [{"id": f"v{i}", "pilot": "d8", "gunnery": "d8"} for i in range(3)]
    state = table(
        unit("wing", 10, 10, "A", **with_stats(VIPER, members=members)),
        unit("raider", 15, 10, "B", **RAIDER),
    )
    plan = gunnery.plan_gun(state, combat.declare(state, "wing", "autocannons", "raider"))
    assert plan.roll.pool.steps == 2 and plan.group
    alone = gunnery.plan_gun(
        state, combat.declare(state, "wing", "autocannons", "raider", {"fighters": 1})
    )
    assert alone.roll.pool.steps == 0 and not alone.group
    with pytest.raises(UserError, match=r"R003\.32"):
        combat.declare(state, "wing", "autocannons", "raider", {"fighters": 4})


def test_R003_33_one_defense_roll_or_A003_21_the_worst_of_all():
    members = [{"id": "ace", "pilot": "d12"}, {"id": "nugget", "pilot": "d4"}]
    wing = with_stats(VIPER, members=members)
    state = table(unit("raider", 10, 10, "B", **RAIDER), unit("wing", 15, 10, "A", **wing))
    defense = attack_pools.defense_of(state, state.unit("wing"), units.settings(state))
    assert [p.text for p in defense.pools] == ["d10 + d4"]
    worst = table(*state.units, wing_defense="worst-roll")
    defense = attack_pools.defense_of(worst, worst.unit("wing"), units.settings(worst))
    assert [p.text for p in defense.pools] == ["d10 + d12", "d10 + d4"]
    result = combat.resolve(
        worst,
        combat.declare(worst, "raider", "autocannons", "wing"),
        ScriptedDice([10, 14, 9, 3, 1]),
    )
    verdict = next(e for e in result.events if e.kind == "attack")
    assert verdict.get("defense") == 9  # the worse of 14 and 9


def test_R003_34_damage_to_a_random_or_chosen_fighter():
    members = [{"id": "a", "pilot": "d8"}, {"id": "b", "pilot": "d8"}, {"id": "c", "pilot": "d8"}]
    wing = with_stats(VIPER, members=members)
    state = table(unit("raider", 10, 10, "B", **RAIDER), unit("wing", 15, 10, "A", **wing))
    attack = combat.declare(state, "raider", "autocannons", "wing")
    hit = combat.resolve(state, attack, ScriptedDice([16, 4, 3, 2]))  # the d3 picks fighter 2
    wounds = [m["wound"] for m in hit.state.unit("wing").stats["members"]]
    assert wounds == [0, wounds[1], 0] and wounds[1] > 0
    chosen = table(*state.units, wing_damage="chosen")
    hit = combat.resolve(
        chosen, combat.declare(chosen, "raider", "autocannons", "wing"), ScriptedDice([16, 4, 3])
    )
    wounds = [m["wound"] for m in hit.state.unit("wing").stats["members"]]
    assert wounds[0] > 0 and wounds[1:] == [0, 0]


def test_R003_34_wing_loses_destroyed_fighters_and_odds_cover_the_random_pick():
    members = [{"id": "a", "pilot": "d8", "wound": 13}, {"id": "b", "pilot": "d8"}]
    wing = with_stats(VIPER, members=members)
    state = table(unit("raider", 10, 10, "B", **RAIDER), unit("wing", 15, 10, "A", **wing))
    attack = combat.declare(state, "raider", "autocannons", "wing")
    odds = combat.attack_odds(state, attack, "cortex-space")
    assert odds.section("destroyed").distribution.probability(True) == 0  # one fighter left
    hit = combat.resolve(state, attack, ScriptedDice([16, 4, 3, 1]))
    after = hit.state.unit("wing")
    assert units.vessel(after).fighters[0].id == "b"


def test_A003_9_random_obstacle_odds_and_its_roll_as_a_value():
    state = table(unit("v", 10, 10, "A", **with_stats(VIPER, speed=2)))
    viper = state.unit("v")
    assert collisions.RandomObstacle.of(viper) == collisions.RandomObstacle.of(viper)
    odds = enumerate_outcomes(
        lambda dice: collisions.resolve_avoid(state, "v", "random", dice).summary.avoided,
        max_nodes=10**6,
    )
    # the d10 x d8 x d6 obstacle, then the pilot's roll against its Difficulty
    assert odds.probability(True) == Fraction(17683, 24000)
