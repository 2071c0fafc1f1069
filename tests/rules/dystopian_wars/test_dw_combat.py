"""Combat (R002.29, R002.36-R002.43, R002.49, R002.50, R002.56, GEO002.7, external AD)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from dw_builders import (
    ACK_ACK,
    BOMBS,
    DEPTH_CHARGES,
    DW,
    GUNS,
    ROCKETS,
    TESLA_COILS,
    TORPEDOES,
    duel,
    flyer,
    refused,
    rock,
    table,
    unit,
)

from tactical.dice import ScriptedDice, enumerate_outcomes
from tactical.geometry.shapes import RectBase
from tactical.io import builtin_map, load_map
from tactical.model import Pose
from tactical.rules.dystopian_wars import combat, odds_report, resolving, tracking
from tactical.rules.dystopian_wars.dicework import PoolRules, attack_pool


def one(weapon: dict, dice: int = 1) -> dict:
    return dict(weapon, attack_dice=f"{dice}-{dice}-{dice}-{dice}")


# --------------------------------------------------------------------------- attack dice (G.5)


def test_attack_dice_hit_on_4_six_is_two_hits_and_explodes():
    pool = attack_pool(3, PoolRules(), 20, ScriptedDice([4, 5, 6, 6, 2]))
    assert pool.faces == (4, 5, 6, 6, 2)
    assert pool.hits == 1 + 1 + 2 + 2 + 0


def test_attack_dice_stop_exploding_once_the_outcome_is_decided():
    dice = ScriptedDice([6, 6, 6])
    pool = attack_pool(3, PoolRules(), 2, dice)
    assert pool.hits == 6 and len(dice.rolls) == 3  # the first throw is always rolled in full
    assert dice.remaining == ()


def test_attack_dice_options_change_the_scoring():
    assert attack_pool(2, PoolRules(5, 1, False), 9, ScriptedDice([4, 6])).hits == 1


def test_exact_odds_of_one_die_against_dr1_cr3():
    """P(no effect) = 1/2; a 6 (2 hits) explodes: critical needs the extra die to hit."""
    state = duel(
        {"weapons": [one(GUNS)]}, {"damage_rating": 1, "critical_rating": 3, "hull_points": 9}
    )
    report = DW.attack_odds(state, DW.declare_attack(state, "a", "Guns", "t"))
    result = report.section("result").distribution.as_dict()
    assert result == {
        "no effect": Fraction(1, 2),
        "damage": Fraction(5, 12),
        "critical": Fraction(1, 12),
    }
    hull = report.section("hull_points_lost").distribution.as_dict()
    assert hull == {0: Fraction(1, 2), 1: Fraction(5, 12), 2: Fraction(1, 12)}
    assert report.facts["hits_counted_up_to"] == 3  # no outcome depends on more than CR hits
    assert report.facts["save_on"] == 4


def test_odds_are_the_resolver_enumerated():
    state = duel({"weapons": [one(GUNS, 4)]}, {"hull_points": 2})
    attack = combat.declare(state, "a", "Guns", "t")
    direct = enumerate_outcomes(
        lambda dice: resolving.resolve_declared(state, attack, dice).summary
    )
    report = odds_report.attack_odds(state, attack, "dystopian-wars")
    assert (
        report.section("destroyed").distribution.as_dict()
        == direct.map(lambda s: s.destroyed).as_dict()
    )
    assert sum(p for _, p in direct) == 1


def test_damage_and_critical_are_applied_to_the_state():
    state = duel(
        {"weapons": [one(GUNS, 2)]}, {"damage_rating": 1, "critical_rating": 2, "hull_points": 3}
    )
    attack = combat.declare(state, "a", "Guns", "t")
    result = resolving.resolve_declared(state, attack, ScriptedDice([6, 6, 2, 3]))
    summary = result.summary
    assert (summary.result, summary.hull_lost, summary.critical, summary.destroyed) == (
        "critical",
        2,
        "critical-5",
        False,
    )
    assert tracking.hull_lost(result.state, "t") == 2
    assert tracking.effects(result.state, "t") == ("critical-5",)
    again = resolving.resolve_declared(result.state, attack, ScriptedDice([5, 1]))
    assert again.summary.destroyed and not again.state.has_unit("t")
    assert tracking.losses(again.state)[0]["how"] == "destroyed"


# --------------------------------------------------------------------------- declarations


def test_GEO002_7_range_bands_and_arcs():
    state = duel({"weapons": [dict(GUNS, attack_dice="6-4-0-0")]}, distance=20.0)
    with refused("GEO002.7", "out of range"):
        combat.declare(state, "a", "Guns", "t")
    fore_only = duel({"weapons": [dict(GUNS, arc="aft")]})
    with refused("GEO002.7", "arc"):
        combat.declare(fore_only, "a", "Guns", "t")
    ok = combat.declare(duel(distance=8.0), "a", "Guns", "t")
    assert ok.params["band"] == "RB1"
    assert combat.declare(duel(distance=8.01), "a", "Guns", "t").params["band"] == "RB2"


def test_R002_14_batteries_measure_from_the_centre_R002_12_armoured_broadsides_from_the_edge():
    broadside = {
        "name": "Broadside",
        "kind": "gunnery",
        "arc": "starboard broadside",
        "attack_dice": "4-4-0-0",
    }
    target = unit("t", 29.5, 10, "B")  # 9" to starboard of the centre, nearest point at 9"
    naval = table(unit("a", 20, 10, base=RectBase(4, 4), weapons=[broadside]), target)
    assert (
        combat.reach(
            naval, naval.unit("a"), combat.card(naval.unit("a")).weapons[0], naval.unit("t")
        ).band
        == "RB2"
    )
    armoured = table(
        unit("a", 20, 10, movement="armoured", base=RectBase(4, 4), weapons=[broadside]), target
    )
    found = combat.reach(
        armoured, armoured.unit("a"), combat.card(armoured.unit("a")).weapons[0], armoured.unit("t")
    )
    assert found.band == "RB1" and found.distance == pytest.approx(7.0)


def test_R002_15_rocket_battery_is_a_turret():
    battery = dict(ROCKETS, arc="fore", rocket_battery=True)
    state = table(unit("a", 20, 10, weapons=[battery]), unit("t", 26, 10, "B"))  # abeam, not fore
    assert combat.declare(state, "a", "Rockets", "t").params["band"] == "RB1"
    assert "turret" in {a.name for a in DW.unit_arcs(state.unit("a"))}


def test_R002_29_counterattacks_only_with_auxiliary_weapons():
    state = duel(
        {"weapons": [GUNS, ACK_ACK]}, {"height_level": "flying", "movement": "aerial"}, distance=4.0
    )
    with refused("R002.29"):
        combat.declare(state, "a", "Guns", "t", {"counter": True})
    assert combat.declare(state, "a", "Ack Ack", "t", {"counter": True}).params["counter"]


@pytest.mark.parametrize("level", ["diving", "flying", "obscured"])
def test_R002_37_special_weapons_reach_diving_flying_obscured_in_rb1_only(level):
    movement = "aerial" if level != "diving" else "naval"
    for weapon in (TESLA_COILS, ROCKETS, ACK_ACK):
        near = duel(
            {"weapons": [weapon]}, {"height_level": level, "movement": movement}, distance=6.0
        )
        assert combat.declare(near, "a", weapon["name"], "t").params["allowed_by"] == "R002.37"
        far = duel(
            {"weapons": [dict(weapon, attack_dice="4-4-4-4")]},
            {"height_level": level, "movement": movement},
            distance=12.0,
        )
        with refused("R002.37", "Range Band 1"):
            combat.declare(far, "a", weapon["name"], "t")
    plain_guns = duel(
        {"weapons": [GUNS]}, {"height_level": level, "movement": movement}, distance=6.0
    )
    with refused("T002.6"):
        combat.declare(plain_guns, "a", "Guns", "t")


def test_R002_38_torpedoes_only_naval_models_A002_8():
    assert combat.declare(duel({"weapons": [TORPEDOES]}, distance=12.0), "a", "Torpedoes", "t")
    with refused("R002.38", "Naval"):
        combat.declare(
            duel({"weapons": [TORPEDOES]}, {"movement": "armoured"}), "a", "Torpedoes", "t"
        )
    with refused("R002.38"):
        combat.declare(
            duel({"weapons": [TORPEDOES]}, {"movement": "aerial", "height_level": "flying"}),
            "a",
            "Torpedoes",
            "t",
        )
    diving = {"height_level": "diving"}
    assert (
        combat.declare(duel({"weapons": [TORPEDOES]}, diving), "a", "Torpedoes", "t").params[
            "allowed_by"
        ]
        == "R002.38"
    )
    with refused("R002.38", "Range Band 1"):
        combat.declare(duel({"weapons": [TORPEDOES]}, diving, distance=12.0), "a", "Torpedoes", "t")


def test_R002_39_A002_18_small_obscured_flyers_use_the_base_rules():
    state = duel(
        {"weapons": [one(ROCKETS)]},
        {"size": "small", "movement": "aerial", "height_level": "obscured"},
    )
    attack = combat.declare(state, "a", "Rockets", "t")
    assert resolving.resolve_declared(state, attack, ScriptedDice([4])).summary.hits == 1
    medium = duel({"weapons": [one(ROCKETS)]}, {"movement": "aerial", "height_level": "obscured"})
    attack = combat.declare(medium, "a", "Rockets", "t")
    assert resolving.resolve_declared(medium, attack, ScriptedDice([4])).summary.hits == 0
    assert DW.attack_odds(medium, attack).facts["hit_on"] == 5


def test_R002_40_air_to_surface_blocked_only_by_large_obstructing_terrain():
    def shoot(piece, target_level="flying"):
        state = table(
            unit("a", 20, 10, weapons=[ACK_ACK]),
            unit("t", 20, 16, "B", movement="aerial", height_level=target_level),
            terrain=(piece,),
        )
        return combat.declare(state, "a", "Ack Ack", "t")

    assert shoot(rock("low", 18, 12, 22, 13, "obstructing", "medium"))
    assert shoot(rock("dense", 18, 12, 22, 13, "dense", "massive"))
    with refused("R002.41"):  # Auxiliary weapons: blocked by Obstructing Terrain (R002.40 size)
        shoot(rock("cliff", 18, 12, 22, 13, "obstructing", "large"))
    surface = table(
        unit("a", 20, 10),
        unit("t", 20, 16, "B"),
        terrain=(rock("island", 18, 12, 22, 13, "dense", "small"),),
    )
    with refused("GEO002.10"):
        combat.declare(surface, "a", "Guns", "t")


def test_R002_41_auxiliary_weapons_ignore_models():
    state = table(
        unit("a", 20, 10, weapons=[ACK_ACK]),
        unit("screen", 20, 12.5, "B", heading=90.0),
        unit("t", 20, 15, "B", movement="aerial", height_level="flying"),
    )
    attack = combat.declare(state, "a", "Ack Ack", "t")
    events = resolving.resolve_declared(state, attack, ScriptedDice([1, 1, 1, 1])).events
    assert any(e.spec_id == "R002.41" for e in events)


def test_R002_42_combined_fire_escorts_with_parent_auxiliary_no_halving():
    flying = unit("t", 20, 15, "B", movement="aerial", height_level="flying")
    parent = unit("p", 20, 10, weapons=[ACK_ACK, GUNS], squadron="p")
    escort = unit("e", 23, 10, weapons=[ACK_ACK, GUNS], escort_of="p", squadron="escorts")
    stranger = unit("s", 17, 10, weapons=[ACK_ACK], squadron="other")
    state = table(parent, escort, stranger, flying)
    attack = combat.declare(state, "p", "Ack Ack", "t", {"combined": ["e"]})
    assert [(e[0], e[2], e[3]) for e in attack.params["pool"]] == [
        ("p", 4, "full"),
        ("e", 4, "combined"),
    ]
    with refused("R002.42"):
        combat.declare(state, "p", "Ack Ack", "t", {"combined": ["s"]})
    surface = table(parent, escort, unit("t", 20, 15, "B"))
    with refused("R002.42"):
        combat.declare(surface, "p", "Guns", "t", {"combined": ["e"]})


def test_R002_42_a_wings_tiny_flyers_combine_automatically():
    wing = [flyer(f"f{i}", 20 + i, 10, squadron="w") for i in range(3)]
    state = table(*wing, unit("t", 21, 14, "B", movement="aerial", height_level="flying"))
    attack = combat.declare(state, "f0", "Ack Ack", "t")
    assert [e[0] for e in attack.params["pool"]] == ["f0", "f1", "f2"]
    assert {e[3] for e in attack.params["pool"][1:]} == {"combined"}


def test_linked_fire_halves_the_linked_models_A002_17():
    squadron = [
        unit(f"s{i}", 20 + 3 * i, 10, squadron="sq", weapons=[dict(GUNS, attack_dice="5-5-5-5")])
        for i in range(3)
    ]
    state = table(*squadron, unit("t", 23, 16, "B"))
    attack = combat.declare(state, "s0", "Guns", "t", {"linked": "s1, s2"})
    assert [e[2] for e in attack.params["pool"]] == [5, 2, 2]
    up = table(*squadron, unit("t", 23, 16, "B"), linked_fire_rounding="up")
    assert [
        e[2] for e in combat.declare(up, "s0", "Guns", "t", {"linked": ["s1"]}).params["pool"]
    ] == [5, 3]
    other = table(*squadron, unit("x", 30, 10, squadron="x"), unit("t", 23, 16, "B"))
    with refused("A002.17"):
        combat.declare(other, "s0", "Guns", "t", {"linked": ["x"]})


def test_R002_43_indirect_fire_needs_rb3_or_4_and_a_spotter_within_32():
    gun = dict(GUNS, attack_dice="4-4-4-4")
    wall = rock("wall", 10, 14, 40, 15, "obstructing", "massive")
    base = [unit("a", 20, 10, weapons=[gun]), unit("t", 20, 35, "B", heading=90.0)]
    no_spotter = table(*base, terrain=(wall,))
    with refused("R002.43", "Spotter"):
        combat.declare(no_spotter, "a", "Guns", "t", {"indirect": True})
    spotted = table(*base, unit("spot", 30, 30, mars="spotter", squadron="spot"), terrain=(wall,))
    attack = combat.declare(spotted, "a", "Guns", "t", {"indirect": True})
    assert attack.params["spotter"] == "spot" and attack.params["band"] == "RB4"
    with refused("GEO002.10"):
        combat.declare(spotted, "a", "Guns", "t")
    recon = table(*base, flyer("r", 20, 30, wing_type="recon", squadron="r"), terrain=(wall,))
    assert combat.declare(recon, "a", "Guns", "t", {"indirect": True}).params["spotter"] == "r"
    near = table(
        unit("a", 20, 10, weapons=[gun]),
        unit("t", 20, 20, "B", heading=90.0),
        unit("spot", 30, 18, mars="spotter", squadron="spot"),
    )
    with refused("R002.43", "Range Band 3 or 4"):
        combat.declare(near, "a", "Guns", "t", {"indirect": True})


def test_R002_49_a_guardian_generator_is_a_shield_generator():
    state = duel(
        {"weapons": [one(GUNS)]},
        {"generators": "guardian", "damage_rating": 1, "critical_rating": 5},
    )
    attack = combat.declare(state, "a", "Guns", "t")
    result = resolving.resolve_declared(
        state, attack, ScriptedDice([5, 4])
    )  # one hit, shield saves
    assert (result.summary.hits, result.summary.saved) == (0, 1)
    assert [e.spec_id for e in result.events if e.kind == "shield"] == ["R002.49"]
    shielded = duel({"weapons": [one(GUNS)]}, {"generators": "guardian", "shield_generator": True})
    assert combat.card(shielded.unit("t")).shield_generators == 2


def test_R002_50_guardian_aura_one_die_models_without_shields():
    def guarded(*others, **target_stats):
        state = table(
            unit("a", 20, 10, weapons=[one(GUNS)]), unit("t", 20, 14, "B", **target_stats), *others
        )
        return resolving.defence_for(
            state, combat.declare(state, "a", "Guns", "t"), combat.card(state.unit("a")).weapons[0]
        )

    defence, guardian = guarded(unit("gg", 27.9, 14, "B", generators="guardian"))
    assert (guardian, defence.guardian_dice) == ("gg", 1)  # within 8" of the GG's centre
    _, far = guarded(unit("gg", 29, 14, "B", generators="guardian"))
    assert far is None
    two, _ = guarded(
        unit("g1", 26, 14, "B", generators="guardian"),
        unit("g2", 14, 14, "B", generators="guardian"),
    )
    assert two.guardian_dice == 1  # at most one Guardian Generator at a time
    shielded, none = guarded(unit("gg", 26, 14, "B", generators="guardian"), shield_generator=True)
    assert none is None and shielded.shield_dice == 1
    _, enemy = guarded(unit("gg", 26, 14, "A", generators="guardian"))
    assert enemy is None


def test_R002_50_guardian_measured_to_the_nearest_point_A002_11():
    options = {"guardian_measure": "centre"}
    target = unit("t", 20, 14, "B", heading=90.0)  # 3" long across: nearest point 1.5" nearer
    gg = unit("gg", 29, 14, "B", generators="guardian")
    nearest = table(unit("a", 20, 10, weapons=[one(GUNS)]), target, gg)
    centre = table(unit("a", 20, 10, weapons=[one(GUNS)]), target, gg, **options)
    weapon = combat.card(nearest.unit("a")).weapons[0]
    assert (
        resolving.defence_for(nearest, combat.declare(nearest, "a", "Guns", "t"), weapon)[1] == "gg"
    )
    assert (
        resolving.defence_for(centre, combat.declare(centre, "a", "Guns", "t"), weapon)[1] is None
    )


def test_R002_50_no_save_against_bombs():
    state = table(
        unit("a", 20, 10, movement="aerial", height_level="flying", weapons=[one(BOMBS)]),
        unit("t", 20, 14, "B"),
        unit("gg", 24, 14, "B", generators="guardian"),
    )
    attack = combat.declare(state, "a", "Bombs", "t")
    result = resolving.resolve_declared(state, attack, ScriptedDice([5]))
    assert result.summary.saved == 0
    assert not any(e.kind == "guardian-save" for e in result.events)


def test_R002_56_abort_needs_spare_hits_at_least_the_flyers_left_A002_16():
    wing = [flyer(f"f{i}", 20 + i, 14, "B", squadron="w") for i in range(3)]
    state = table(unit("a", 20, 10, weapons=[one(ACK_ACK, 3)]), *wing)
    attack = combat.declare(state, "a", "Ack Ack", "f1")
    five = resolving.resolve_declared(
        state, attack, ScriptedDice([6, 6, 4, 1, 1])
    )  # 5 hits (two 6s explode)
    assert (five.summary.flyers_destroyed, five.summary.aborted) == (2, True)
    assert not any(five.state.has_unit(f"f{i}") for i in range(3))
    four = resolving.resolve_declared(state, attack, ScriptedDice([6, 6, 1, 1, 1]))  # 4 hits
    assert (four.summary.flyers_destroyed, four.summary.aborted) == (2, False)
    left = [u.id for u in four.state.units if u.id.startswith("f")]
    assert len(left) == 1
    report = DW.attack_odds(state, attack)
    assert set(report.section("aborted").distribution.as_dict()) == {False, True}


def test_concussion_charges_and_depth():
    state = duel({"weapons": [DEPTH_CHARGES]}, {"height_level": "diving"}, distance=4.0)
    assert combat.declare(state, "a", "Depth charges", "t").params["allowed_by"] == "R002.37"


def test_bad_declarations_are_user_errors():
    state = duel()
    with refused(None, "unknown target"):
        combat.declare(state, "a", "Guns", "nobody")
    with refused("R002.36", "no weapon"):
        combat.declare(state, "a", "Lasers", "t")
    with refused(None, "same side"):
        combat.declare(table(unit("a", 10, 10), unit("b", 10, 14)), "a", "Guns", "b")
    with refused(None, "takes no"):
        combat.declare(state, "a", "Guns", "t", {"volley": 3})


def test_odds_on_the_scenario_map():
    state = load_map(builtin_map("dystopian-wars"))
    report = DW.attack_odds(state, DW.declare_attack(state, "ruler", "Main turrets", "markgraf"))
    document = report.as_dict()
    assert document["facts"]["range_band"] == "RB4" and document["facts"]["attack_dice"] == 6
    for section in report.sections:
        assert section.distribution.total == 1


def test_R002_36_resolving_declares_once_per_state_with_the_same_odds_and_results(monkeypatch):
    """`resolve` re-declares the attack on the state it resolves on (reach, line of sight,
    arcs, pool): once per state and attack, however often the enumerator replays it; the
    outcomes, their odds and the states they leave are those of declaring on every replay."""
    state = duel({"weapons": [one(GUNS, 3)]}, {"damage_rating": 1, "hull_points": 2})
    attack = combat.declare(state, "a", "Guns", "t")

    def every_outcome():
        found = enumerate_outcomes(lambda dice: resolving.resolve(state, attack, dice).state)
        return {repr(s.rule_state): p for s, p in found}, len(found)

    plain = combat.declare
    calls = []
    monkeypatch.setattr(resolving, "declare", lambda *a, **k: calls.append(a) or plain(*a, **k))
    memoised, outcomes = every_outcome()
    assert len(calls) == 1 and outcomes > 3
    # on another state (the target out of reach) it is declared, and refused, again
    far = state.replace_unit(state.unit("t").moved_to(Pose(20, 70, 90)))
    with refused("GEO002.7", "out of range"):
        resolving.resolve(far, attack, ScriptedDice([6, 6, 6]))
    assert len(calls) == 2

    def every_time(s, a):
        return resolving.declare(s, a.attacker, a.weapon, a.target, combat.declared_params(a))

    monkeypatch.setattr(resolving, "redeclared", every_time)
    assert every_outcome() == (memoised, outcomes)
    assert len(calls) > 2 + outcomes
