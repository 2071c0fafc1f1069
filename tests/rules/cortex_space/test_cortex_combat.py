"""Attacks and damage: R003.7, battle damage R003.25-R003.29, batteries R003.35-R003.37,
missiles R003.38-R003.42, point defense R003.43-R003.44, fire-linked R003.45, mixing
scales R003.57-R003.59, and bad declarations (UserError with the SPEC id)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from cortex_builders import BATTLESTAR, RAIDER, VIPER, table, unit, with_stats

from tactical.dice import ScriptedDice, SeededDice, enumerate_outcomes
from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.rules.cortex_space import (
    combat,
    gunnery,
    missiles,
    odds,
    play,
    sequence,
    tracker,
    units,
)
from tactical.rules.cortex_space.damage import (
    Systems,
    WeaponState,
    absorb,
    battle_damage,
    receiver_of,
)
from tactical.rules.cortex_space.tables import called_shot_resist
from tactical.rules.cortex_space.units import vessel

BASESTAR = with_stats(BATTLESTAR, strength="d12+d8", agility="d4", pilot="d6")


def _systems(**changes) -> Systems:
    values = {
        "sensors_damaged": 0,
        "sublight_damaged": 0,
        "sublight_destroyed": False,
        "ftl": True,
        "ftl_destroyed": False,
        "speed": 8,
        "weapons": (WeaponState("guns", 4, 0, False), WeaponState("pd", 1, 0, False)),
    }
    values.update(changes)
    return Systems(**values)


# --------------------------------------------------------------------------- attacks


def test_R003_7_attack_against_a_defense_roll_and_the_damage_die():
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 15, 10, "B", **RAIDER))
    attack = combat.declare(state, "viper", "autocannons", "raider")
    hit = combat.resolve(state, attack, ScriptedDice([12, 7, 6]))
    # Basic 5 -> 3 Stun / 2 Wound; the d8 rolls 6 -> Wound 8
    assert (hit.summary.hits, hit.summary.stun, hit.summary.wound) == (1, 3, 8)
    assert hit.state.unit("raider").stats["wound"] == 8
    miss = combat.resolve(state, attack, ScriptedDice([6, 7]))
    assert miss.summary.hits == 0 and miss.state.unit("raider").stats.get("wound", 0) == 0
    tie = combat.resolve(state, attack, ScriptedDice([7, 7, 1]))
    assert (tie.summary.hits, tie.summary.stun, tie.summary.wound) == (1, 0, 1)  # A003.6


def test_R003_7_armor_reduces_damage_of_its_type_and_can_be_switched_off():
    armored = with_stats(RAIDER, armor_wound=3, armor_stun=1)
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 15, 10, "B", **armored))
    attack = combat.declare(state, "viper", "autocannons", "raider")
    hit = combat.resolve(state, attack, ScriptedDice([12, 7, 6]))
    assert (hit.summary.stun, hit.summary.wound) == (2, 5)
    bare = table(*state.units, armor_reduces_damage=False)
    hit = combat.resolve(
        bare, combat.declare(bare, "viper", "autocannons", "raider"), ScriptedDice([12, 7, 6])
    )
    assert (hit.summary.stun, hit.summary.wound) == (3, 8)


def test_R003_7_destroyed_and_disabled_vessels():
    state = table(
        unit("viper", 10, 10, "A", **VIPER),
        unit("raider", 15, 10, "B", **with_stats(RAIDER, wound=10)),
    )
    attack = combat.declare(state, "viper", "autocannons", "raider")
    result = combat.resolve(state, attack, ScriptedDice([18, 2, 8]))
    assert result.summary.destroyed
    with pytest.raises(UserError, match="already destroyed"):
        combat.declare(result.state, "viper", "autocannons", "raider")
    with pytest.raises(UserError, match="cannot attack"):
        combat.declare(result.state, "raider", "autocannons", "viper")


def test_R003_7_exact_odds_come_from_the_resolver():
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 15, 10, "B", **RAIDER))
    attack = combat.declare(state, "viper", "autocannons", "raider")
    report = combat.attack_odds(state, attack, "cortex-space")
    hits = report.section("hits").distribution
    brute = Fraction(0)
    for a in range(1, 11):
        for b in range(1, 9):
            for c in range(1, 11):
                for d in range(1, 9):
                    if not (a == 1 and b == 1) and a + b >= c + d:
                        brute += Fraction(1, 6400)
    assert hits.probability(1) == brute
    assert report.facts["any_hit_probability"] == f"{brute.numerator}/{brute.denominator}"
    assert report.section("wound").distribution.total == 1
    assert report.as_dict()["distributions"][0]["name"] == "hits"


def test_R003_7_the_odds_read_the_summary_the_resolver_reports():
    """A gun's odds enumerate its rolls and summary alone (`gunnery.gun_summary`): the very
    summary `resolve_gun` reports, roll for roll, battle damage included."""
    state = _hurt_basestar(28)
    attack = combat.declare(state, "galactica", "railguns", "basestar", {"battery": 3})
    effects = set()
    for seed in range(12):
        resolving, reading = SeededDice(seed), SeededDice(seed)
        resolved = gunnery.resolve_gun(state, attack, resolving)
        assert gunnery.gun_summary(state, attack, reading) == resolved.summary
        assert reading.rolls == resolving.rolls  # the same dice, in the same order
        effects.update(resolved.summary.effects)
    assert effects  # battle damage was rolled


# --------------------------------------------------------------------------- battle damage


def _hurt_basestar(wound: int, **stats):
    return table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("basestar", 40, 24, "B", diameter=4, **with_stats(BASESTAR, wound=wound, **stats)),
    )


def test_R003_25_battle_damage_only_after_half_the_life_points():
    crossing = _hurt_basestar(15)
    attack = combat.declare(crossing, "galactica", "railguns", "basestar")
    result = combat.resolve(crossing, attack, ScriptedDice([12, 2, 10]))
    assert result.summary.effects == ()  # A003.16: the crossing hit does not roll
    assert not any(e.kind == "battle-damage-trigger" for e in result.events)
    after = combat.resolve(result.state, attack, ScriptedDice([10, 2, 10, 5, 1]))
    assert any(e.spec_id == "R003.25" for e in after.events)
    assert after.summary.effects != ()
    fighters = table(
        unit("viper", 10, 10, "A", **VIPER),
        unit("raider", 15, 10, "B", **with_stats(RAIDER, wound=10)),
    )
    hit = combat.resolve(
        fighters,
        combat.declare(fighters, "viper", "autocannons", "raider"),
        ScriptedDice([12, 11, 1]),
    )
    assert hit.summary.effects == ()  # battle damage is for spacecraft


def test_R003_26_d10_plus_wound_on_the_table_and_A003_17_below_two():
    result = battle_damage(4, _systems(), ScriptedDice([1]))
    assert result.effects == ("sensors damaged",)
    assert result.systems.sensors_damaged == 1
    nothing = battle_damage(0, _systems(), ScriptedDice([1]))
    assert nothing.effects == () and nothing.systems == _systems()
    odds = enumerate_outcomes(lambda dice: battle_damage(9, _systems(), dice).effects)
    assert odds.probability(("weapon damaged",)) == Fraction(5, 10)  # totals 11-15 of 10..19


def test_R003_27_inapplicable_results_move_up_a_category():
    no_ftl = _systems(ftl=False)
    result = battle_damage(20, no_ftl, ScriptedDice([3]))  # 23: FTL -> sublight destroyed
    assert result.effects == ("sublight engines destroyed",)
    assert any(e.spec_id == "R003.27" for e in result.events)
    wrecked = _systems(ftl=False, sublight_destroyed=True)
    cascade = battle_damage(20, wrecked, ScriptedDice([3, 1, 1, 1, 1]))  # -> widespread
    assert cascade.effects[0] == "widespread damage"


def test_R003_28_widespread_rolls_twice_with_half_the_wound():
    result = battle_damage(25, _systems(), ScriptedDice([10, 1, 1, 2, 1]))  # 35: widespread
    halved = next(e for e in result.events if e.kind == "widespread")
    assert (halved.get("wound"), halved.get("halved")) == (25, 12)  # A003.18 rounds down
    # 12 + 1 = 13 and 12 + 2 = 14: a weapon damaged twice (a d5, then a d4, picks the
    # mount; the faces read the weapon entry: 1 = guns)
    assert result.effects == ("widespread damage", "weapon damaged", "weapon damaged")
    assert [w.disabled for w in result.systems.weapons] == [2, 0]
    assert len([e for e in result.events if e.kind == "battle-damage-total"]) == 3


def test_R003_29_effects_on_the_systems():
    slow = battle_damage(5, _systems(speed=9), ScriptedDice([2]))  # 7: sublight damaged
    assert slow.systems.speed == 4 and slow.systems.sublight_damaged == 1
    again = battle_damage(5, slow.systems, ScriptedDice([2]))  # A003.19: stacks
    assert again.systems.speed == 2 and again.systems.sublight_damaged == 2
    weapon = battle_damage(10, _systems(), ScriptedDice([3, 2]))  # 13: the d5 reads entry 2
    assert weapon.systems.weapons[1].disabled == 1
    odds = enumerate_outcomes(lambda dice: battle_damage(10, _systems(), dice).systems.weapons[1])
    assert odds.probability(WeaponState("pd", 1, 1, False)) == Fraction(1, 10)  # 1 mount in 5
    assert odds.probability(WeaponState("pd", 1, 0, True)) == Fraction(1, 4)  # 1 system in 2
    system = battle_damage(10, _systems(), ScriptedDice([8, 1]))  # 18: the d2 picks the guns
    assert system.systems.weapons[0].destroyed
    ftl = battle_damage(20, _systems(), ScriptedDice([2]))
    assert ftl.systems.ftl_destroyed
    engines = battle_damage(20, _systems(), ScriptedDice([7]))
    assert engines.systems.sublight_destroyed


def test_R003_29_damage_is_written_back_to_the_stats():
    state = _hurt_basestar(20, weapons=[{"name": "guns", "damage": "d12", "count": 2}])
    attack = combat.declare(state, "galactica", "railguns", "basestar")
    result = combat.resolve(state, attack, ScriptedDice([12, 2, 10, 1]))
    basestar = result.state.unit("basestar")
    wound = basestar.stats["wound"]
    assert wound > 20
    assert result.summary.effects
    from tactical.rules import registry

    rules = registry.get("cortex-space")
    assert rules.check_stats(dict(basestar.stats)) == []


def test_R003_29_sublight_destroyed_stops_movement():
    from tactical.rules import registry

    rules = registry.get("cortex-space")
    state = _hurt_basestar(0, sublight_destroyed=True)
    limits = rules.turning_rules(state.unit("basestar"), {})
    assert (limits.max_distance, limits.distance_rule) == (0.0, "R003.29")
    assert rules.turning_rules(state.unit("galactica"), {}).max_distance == 4.0


# --------------------------------------------------------------------------- batteries


def test_R003_35_and_A003_23_battery_of_up_to_six_identical_spacecraft_weapons():
    state = _hurt_basestar(0)
    with pytest.raises(UserError, match=r"R003\.35"):
        combat.declare(state, "galactica", "railguns", "basestar", {"battery": 7})
    viper = table(
        unit(
            "viper",
            10,
            10,
            "A",
            **with_stats(
                VIPER, weapons=[{"name": "guns", "damage": "d8", "count": 2, "range": "skirmish"}]
            ),
        ),
        unit("raider", 15, 10, "B", **RAIDER),
    )
    with pytest.raises(UserError, match=r"R003\.35"):
        combat.declare(viper, "viper", "guns", "raider", {"battery": 2})
    off = table(*state.units, weapon_batteries=False)
    with pytest.raises(UserError, match=r"R003\.35"):
        combat.declare(off, "galactica", "railguns", "basestar", {"battery": 2})


def test_R003_36_and_A003_4_battery_steps_and_damage_die():
    state = _hurt_basestar(0)
    plan = gunnery.plan_gun(
        state, combat.declare(state, "galactica", "railguns", "basestar", {"battery": 3})
    )
    assert plan.roll.pool.steps == 2 and plan.group
    hit = combat.resolve(
        state,
        combat.declare(state, "galactica", "railguns", "basestar", {"battery": 3}),
        ScriptedDice([12, 8, 5]),
    )
    die = next(e for e in hit.events if e.kind == "damage-die")
    assert die.get("die") == "d12+d4"  # d12+d2 +1 step on a hit
    great = combat.resolve(
        state,
        combat.declare(state, "galactica", "railguns", "basestar", {"battery": 3}),
        ScriptedDice([12, 4, 5]),
    )
    die = next(e for e in great.events if e.kind == "damage-die")
    assert die.get("die") == "d12+d6"  # A003.4: one die stepped twice, not an extra die


def test_R003_37_batteries_fire_separately_until_the_mounts_run_out():
    state = _hurt_basestar(0, agility="d2", pilot="d2")
    attack = combat.declare(state, "galactica", "railguns", "basestar", {"battery": 6})
    for _ in range(4):
        state = combat.resolve(state, attack, ScriptedDice([3, 4])).state  # misses
    assert tracker.fired(state, "galactica", "railguns") == 24
    with pytest.raises(UserError, match=r"R003\.37"):
        combat.declare(state, "galactica", "railguns", "basestar")


def test_R003_37_second_attack_by_the_same_character_is_a_second_action():
    state = _hurt_basestar(0)
    attack = combat.declare(state, "galactica", "railguns", "basestar", {"battery": 6})
    once = combat.resolve(state, attack, ScriptedDice([3, 4])).state
    plan = gunnery.plan_gun(once, attack)
    assert plan.roll.pool.steps == 4  # +5 battery, -1 second action (R003.8)


# --------------------------------------------------------------------------- missiles


def _launch(distance: float = 20.0):
    return table(
        unit("raider", 10, 10, "B", **RAIDER), unit("viper", 10 + distance, 10, "A", **VIPER)
    )


def test_R003_38_lock_difficulty_by_range_and_none_at_skirmish():
    close = _launch(8.0)
    with pytest.raises(UserError, match=r"R003\.38"):
        combat.declare(close, "raider", "missiles", "viper")
    state = _launch(20.0)
    lock = combat.declare(state, "raider", "missiles", "viper")
    result = combat.resolve(state, lock, ScriptedDice([3]))
    assert result.summary == "success"
    assert tracker.get(result.state, tracker.LOCKS) == (("raider", "missiles", "viper"),)
    fail = combat.resolve(state, lock, ScriptedDice([2]))  # botch
    assert fail.summary == "botch" and tracker.get(fail.state, tracker.LOCKS, ()) == ()
    short = _launch(50.0)
    result = combat.resolve(
        short, combat.declare(short, "raider", "missiles", "viper"), ScriptedDice([6])
    )
    assert result.summary == "failure"  # AVERAGE 7 at short DRADIS (A003.24: no defense)
    report = combat.attack_odds(
        short, combat.declare(short, "raider", "missiles", "viper"), "cortex-space"
    )
    assert report.facts["difficulty"] == 7 and report.facts["flight_turns"] == 2


def test_R003_39_flight_turns_and_impact():
    state = _launch(50.0).with_rule_state(**{tracker.LOCKS: (("raider", "missiles", "viper"),)})
    fired = missiles.resolve_fire(state, "raider", "missiles", "viper")
    assert fired.summary == "missile-1"
    entry = missiles.missiles_in_flight(fired.state)[0]
    assert (entry["turns_left"], entry["damage"]) == (2, "4d2")
    assert fired.state.unit("raider").stats["weapons"][1]["missiles"] == 1
    assert tracker.get(fired.state, tracker.LOCKS) == ()
    turn2 = play.start_turn(fired.state, 2, ScriptedDice([]))
    assert missiles.missiles_in_flight(turn2.state)[0]["turns_left"] == 1
    turn3 = play.start_turn(turn2.state, 3, ScriptedDice([8]))
    assert missiles.missiles_in_flight(turn3.state) == ()
    blast = next(e for e in turn3.events if e.kind == "blast")  # R003.61: light, 10 feet
    assert (blast.get("feet"), blast.get("inches"), blast.spec_id) == (10, 0.1, "R003.61")
    assert (turn3.state.unit("viper").stats["stun"], turn3.state.unit("viper").stats["wound"]) == (
        4,
        4,
    )  # R003.62: explosive -> Basic 8
    assert missiles.flight_turns("skirmish") == 1 and missiles.flight_turns("long DRADIS") == 5
    with pytest.raises(UserError, match=r"R003\.38"):
        missiles.resolve_fire(_launch(), "raider", "missiles", "viper")


def test_R003_40_shoot_down_at_formidable():
    state = _launch(50.0).with_rule_state(**{tracker.LOCKS: (("raider", "missiles", "viper"),)})
    flying = missiles.resolve_fire(state, "raider", "missiles", "viper").state
    hit = missiles.resolve_shoot_down(
        flying, "viper", "autocannons", "missile-1", ScriptedDice([15])
    )
    assert hit.summary == "success" and missiles.missiles_in_flight(hit.state) == ()
    miss = missiles.resolve_shoot_down(
        flying, "viper", "autocannons", "missile-1", ScriptedDice([14])
    )
    assert miss.summary == "failure" and len(missiles.missiles_in_flight(miss.state)) == 1
    with pytest.raises(UserError, match=r"R003\.40"):
        missiles.resolve_shoot_down(
            miss.state, "viper", "autocannons", "missile-1", ScriptedDice([15])
        )  # that gun has fired this turn


def test_R003_41_and_A003_25_out_fly_accumulates_one_roll_per_turn():
    state = _launch(50.0).with_rule_state(**{tracker.LOCKS: (("raider", "missiles", "viper"),)})
    flying = missiles.resolve_fire(state, "raider", "missiles", "viper").state
    first = missiles.resolve_out_fly(flying, "viper", "missile-1", ScriptedDice([9]))
    assert first.summary == missiles.OutFlySummary(9, False)
    with pytest.raises(UserError, match=r"R003\.41"):
        missiles.resolve_out_fly(first.state, "viper", "missile-1", ScriptedDice([9]))
    later = play.start_turn(first.state, 2, ScriptedDice([]))
    second = missiles.resolve_out_fly(later.state, "viper", "missile-1", ScriptedDice([6]))
    assert second.summary == missiles.OutFlySummary(15, True)  # 9 + 6 reaches 15
    assert missiles.missiles_in_flight(second.state) == ()
    with pytest.raises(UserError, match=r"R003\.41"):
        missiles.resolve_out_fly(later.state, "raider", "missile-1", ScriptedDice([9]))
    # A003.25: the last roll comes before the turn of impact begins; then it has struck
    struck = play.start_turn(later.state, 3, ScriptedDice([4]))
    assert missiles.missiles_in_flight(struck.state) == ()
    with pytest.raises(UserError, match=r"R003\.39"):
        missiles.resolve_out_fly(struck.state, "viper", "missile-1", ScriptedDice([9]))


def test_R003_42_distract_onto_an_unpiloted_obstacle_at_average():
    from tactical.model import Circle, SizeClass, Terrain

    rock = Terrain("rock", "dense", SizeClass.TINY, circle=Circle(31.5, 10, 1.0))
    state = table(
        unit("raider", 10, 10, "B", **RAIDER),
        unit("viper", 30, 10, "A", heading=0, **with_stats(VIPER, speed=2)),
        terrain=[rock],
    )
    state = state.with_rule_state(**{tracker.LOCKS: (("raider", "missiles", "viper"),)})
    flying = missiles.resolve_fire(state, "raider", "missiles", "viper").state
    # Small 3 - Slow 4 + perpendicular: below EASY, no collision roll; then AVERAGE 7
    result = missiles.resolve_distract(flying, "viper", "missile-1", "rock", ScriptedDice([7]))
    assert result.summary == missiles.DistractSummary("retargeted", "rock")
    assert missiles.missiles_in_flight(result.state) == ()
    kept = missiles.resolve_distract(flying, "viper", "missile-1", "rock", ScriptedDice([6]))
    assert kept.summary.result == "kept"


def test_A003_26_distraction_tie_keeps_the_target():
    kat = unit("kat", 10, 10, "A", heading=90, **VIPER)
    decoy = unit("decoy", 11.5, 10, "B", heading=90, **RAIDER)
    state = table(kat, unit("raider", 30, 10, "B", **RAIDER), decoy)
    state = state.with_rule_state(**{tracker.LOCKS: (("raider", "missiles", "kat"),)})
    flying = missiles.resolve_fire(state, "raider", "missiles", "kat").state
    tie = missiles.resolve_distract(flying, "kat", "missile-1", "decoy", ScriptedDice([16, 10, 10]))
    assert tie.summary.result == "kept"
    won = missiles.resolve_distract(flying, "kat", "missile-1", "decoy", ScriptedDice([16, 12, 10]))
    assert won.summary == missiles.DistractSummary("retargeted", "decoy")
    assert missiles.missiles_in_flight(won.state)[0]["target"] == "decoy"
    crashed = missiles.resolve_distract(flying, "kat", "missile-1", "decoy", ScriptedDice([4, 3]))
    assert crashed.summary.result == "collided"


# --------------------------------------------------------------------------- point defense


def test_R003_43_point_defense_in_skirmish_range_against_heroic():
    ace = with_stats(RAIDER, agility="d12", pilot="d12")
    state = table(unit("galactica", 10, 24, "A", **BATTLESTAR), unit("raider", 20, 24, "B", **ace))
    attack = combat.declare(state, "galactica", "point-defense", "raider")
    safe = combat.resolve(state, attack, ScriptedDice([19]))
    assert not safe.summary.failed and safe.summary.wound == 0
    assert ("galactica", "point-defense", "raider") in tracker.get(safe.state, tracker.PD_ENGAGED)
    with pytest.raises(UserError, match=r"R003\.43"):
        combat.declare(safe.state, "galactica", "point-defense", "raider")
    far = table(unit("galactica", 10, 24, "A", **BATTLESTAR), unit("raider", 30, 24, "B", **RAIDER))
    with pytest.raises(UserError, match=r"GEO003\.1"):
        combat.declare(far, "galactica", "point-defense", "raider")


def test_R003_44_and_A003_28_botch_steps_the_pd_die_twice():
    state = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("raider", 20, 24, "B", **with_stats(RAIDER, life_points=60)),
    )
    attack = combat.declare(state, "galactica", "point-defense", "raider")
    botched = combat.resolve(state, attack, ScriptedDice([2, 10]))
    die = next(e for e in botched.events if e.kind == "damage-die")
    assert (die.get("die"), die.get("steps")) == ("d12+d4", 2)
    assert botched.summary.botch
    assert (botched.summary.stun, botched.summary.wound) == (9, 18)  # Basic 17 -> 9/8, +10


def test_R003_43_point_defense_odds():
    state = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR), unit("raider", 20, 24, "B", **RAIDER)
    )
    report = combat.attack_odds(
        state, combat.declare(state, "galactica", "point-defense", "raider"), "cortex-space"
    )
    # the Raider's d10 + d8 reaches 19 only with 10+9 or 10+8... 18 max: always fails
    assert report.section("failed").distribution.probability(True) == 1
    assert report.facts["difficulty"] == 19


# --------------------------------------------------------------------------- fire-linked


def test_R003_45_fire_linked_steps_by_doublings():
    for linked, steps in ((1, 0), (2, 1), (3, 1), (4, 2), (8, 3)):
        armed = with_stats(
            VIPER, weapons=[{"name": "guns", "damage": "d8", "linked": linked, "range": "skirmish"}]
        )
        state = table(unit("a", 10, 10, "A", **armed), unit("b", 15, 10, "B", **RAIDER))
        plan = gunnery.plan_gun(state, combat.declare(state, "a", "guns", "b"))
        assert plan.roll.pool.steps == steps, linked
        assert not plan.group  # fire-linked: no damage step (only batteries and wings)
    state = table(*state.units, fire_linked=False)
    assert gunnery.plan_gun(state, combat.declare(state, "a", "guns", "b")).roll.pool.steps == 0


# --------------------------------------------------------------------------- scales


def test_R003_57_scale_chart_applies_to_the_attackers_skill():
    state = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR), unit("raider", 30, 24, "B", **RAIDER)
    )
    plan = gunnery.plan_gun(state, combat.declare(state, "galactica", "railguns", "raider"))
    assert plan.roll.pool.steps == -1  # spacecraft vs planetcraft
    off = table(*state.units, mixing_scales=False)
    assert (
        gunnery.plan_gun(
            off, combat.declare(off, "galactica", "railguns", "raider")
        ).roll.pool.steps
        == 0
    )


def test_A003_1_printed_chart_option():
    person = {"scale": "personal", "agility": "d6", "pilot": "d4"}
    state = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("marine", 20, 24, "B", **person),
        scale_chart="printed",
    )
    plan = gunnery.plan_gun(state, combat.declare(state, "galactica", "railguns", "marine"))
    assert plan.roll.pool.steps == 3
    restored = table(*state.units)
    plan = gunnery.plan_gun(restored, combat.declare(restored, "galactica", "railguns", "marine"))
    assert plan.roll.pool.steps == -3


def test_R003_58_damage_multiplies_and_life_points_scale():
    """Larger attacker: damage x k; smaller: the hit after k x Armor counts on LP x k (the
    earlier "damage-divided" reading divided it by k onto the target's own LP)."""
    options = units.settings(table())
    big = unit("basestar", 0, 0, "B", **with_stats(BASESTAR, armor_wound=2, armor_stun=1))
    receiver = receiver_of(big, options)
    assert absorb(6, 10, "planetcraft", receiver)[:2] == (4, 6)  # 6-2, 10-4 on 2 x LP
    small = unit("viper", 0, 0, "A", **with_stats(VIPER, armor_wound=1))
    assert absorb(3, 4, "spacecraft", receiver_of(small, options))[:2] == (6, 7)
    assert absorb(1, 1, "personal", receiver)[:2] == (0, 0)  # Armor x5: 5 and 10
    assert absorb(6, 11, "personal", receiver)[:2] == (1, 1)  # 6-5, 11-10 on 5 x LP
    old = units.settings(table(scale_reading="damage-divided"))
    assert absorb(6, 10, "planetcraft", receiver_of(big, old))[:2] == (2, 3)  # (6-2)/2, (10-4)/2
    assert absorb(3, 4, "spacecraft", receiver_of(small, old))[:2] == (6, 7)
    assert absorb(1, 1, "personal", receiver_of(big, old))[:2] == (0, 0)


def test_R003_59_called_shot_resistance_by_scale():
    assert called_shot_resist("personal", "spacecraft") is None  # no effect possible
    assert called_shot_resist("spacecraft", "personal") == 15
    pistol = {
        "scale": "personal",
        "agility": "d8",
        "gunnery": "d8",
        "weapons": [{"name": "pistol", "damage": "d6", "range": "skirmish"}],
    }
    state = table(
        unit("marine", 10, 24, "A", **pistol),
        unit("basestar", 14, 24, "B", diameter=4, **BASESTAR),
        called_shot_steps=-2,
    )
    attack = combat.declare(state, "marine", "pistol", "basestar", {"called_shot": True})
    plan = gunnery.plan_gun(state, attack)
    called = next(e for e in plan.events if e.kind == "called-shot")
    assert (called.get("resist_difficulty"), called.get("effect_possible")) == (None, False)
    assert [(m.source, m.steps) for m in plan.roll.modifiers] == [
        ("called shot", -2), ("personal vs spacecraft", 2)]  # fmt: skip
    duel = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 15, 10, "B", **RAIDER))
    shot = gunnery.plan_gun(
        duel, combat.declare(duel, "viper", "autocannons", "raider", {"called_shot": True})
    )
    assert next(e for e in shot.events if e.kind == "called-shot").get("resist_difficulty") == 7
    with pytest.raises(UserError, match=r"R003\.59"):
        combat.declare(duel, "viper", "autocannons", "raider", {"called_shot": "yes"})


# --------------------------------------------------------------------------- declarations


def test_bad_declarations_are_user_errors_with_spec_ids():
    state = table(
        unit("viper", 10, 10, "A", **VIPER),
        unit("raider", 15, 10, "B", **RAIDER),
        unit("far", 60, 40, "B", **RAIDER),
    )
    with pytest.raises(UserError, match="unknown attacking unit"):
        combat.declare(state, "nobody", "autocannons", "raider")
    with pytest.raises(UserError, match=r"R003\.48"):
        combat.declare(state, "viper", "lasers", "raider")
    with pytest.raises(UserError, match=r"GEO003\.1"):
        combat.declare(state, "viper", "autocannons", "far")
    with pytest.raises(UserError, match="itself"):
        combat.declare(state, "viper", "autocannons", "viper")
    with pytest.raises(UserError, match="takes no"):
        combat.declare(state, "viper", "autocannons", "raider", {"missiles": 3})
    with pytest.raises(UserError, match=r"R003\.35"):
        combat.declare(state, "viper", "autocannons", "raider", {"battery": 0})
    with pytest.raises(UserError, match=r"R003\.32"):
        combat.declare(state, "viper", "autocannons", "raider", {"fighters": 2})
    with pytest.raises(UserError, match=r"R003\.48"):
        combat.declare(state, "viper", "autocannons", "raider", {"gunner": "Kelly"})


def _due(number: int, owner: str, target: str, damage: str) -> FrozenMap:
    return FrozenMap(
        id=f"missile-{number}", owner=owner, weapon="missiles", target=target, turns_left=1,
        progress=0, damage=damage, warhead="explosive", scale="spacecraft", blast_feet=10,
    )  # fmt: skip


def test_R003_39_turn_start_odds_are_each_targets_damage_from_the_same_resolver():
    """The missiles due strike in the turn-start resolver; its odds give one section a
    target, each that target's exact marginal (the joint, summed over the other target)."""
    state = sequence.setup(_launch(50.0))
    due = (
        _due(1, "raider", "viper", "2d2"),
        _due(2, "raider", "viper", "1d2"),
        _due(3, "viper", "raider", "2d2"),
    )
    state = state.with_rule_state(**{tracker.MISSILES: due})
    action = Action("start-turn", "B", FrozenMap(turn=2))
    report = odds.action_odds(state, action, "cortex-space")
    assert [s.name for s in report.sections] == ["viper", "raider"]
    assert report.facts["missiles"] == 3

    def damage(result_state, unit_id):
        before, after = vessel(state.unit(unit_id)), vessel(result_state.unit(unit_id))
        return after.wound - before.wound, after.stun - before.stun

    joint = enumerate_outcomes(
        lambda dice: tuple(
            damage(play.apply(state, action, dice).state, u) for u in ("viper", "raider")
        )
    )
    for index, section in enumerate(report.sections):
        assert section.distribution.total == 1
        marginal = joint.map(lambda both, index=index: both[index])
        shown = {text: p for text, p in section.distribution}
        assert {f"+{w} wound +{s} stun": p for (w, s), p in marginal} == {
            text.removesuffix(", destroyed"): p for text, p in shown.items()
        }
