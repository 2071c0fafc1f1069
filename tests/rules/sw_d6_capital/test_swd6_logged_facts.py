"""SW D6 capital combat: what a player reads, checked whole.

Every event a shot logs, every roll's label, the facts and sections of its odds report,
damaged controls on the Gunnery code, the shield tie-break on an arc line and the
choice of a weapon unit by name among same-named mounts.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from swd6_builders import ISD, NOWHERE, SYSTEM, TURBOLASER, duel, with_condition

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.model import Pose
from tactical.rules.sw_d6_capital import combat
from tactical.rules.sw_d6_capital.condition import Effect

HIT = [3] * 8  # 8D of Gunnery (4D Fire Control + 4D battery): 24 against 15


def _isd_at_nowhere(distance=20, **target):
    return duel(ISD, {**NOWHERE, **target}, distance)


def test_R004_26_to_R004_38_a_shot_logs_every_step():
    """ISD turbolasers at 20" (medium, Difficulty 15): 8D rolls 24 and hits; Damage 5D (15)
    against hull 5D + front shields 3 pips = 6D (13): margin 2, shields drained (R004.35)."""
    state = _isd_at_nowhere()
    dice = ScriptedDice([*HIT, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 3])
    attack = SYSTEM.declare_attack(state, "a", "turbolasers", "t", {})
    resolution = SYSTEM.resolve_attack(state, attack, dice)
    assert [event.as_dict() for event in resolution.events] == [
        {"kind": "declare", "spec_id": "R004.26", "attacker": "a",
         "weapon": "front-turbolasers", "target": "t", "arc": "front", "batch": 1},
        {"kind": "range", "spec_id": "GEO004.2", "distance": 20.0, "space_units": 20.0,
         "band": "medium"},
        {"kind": "battery", "spec_id": "R004.31", "battery": "4D", "to_damage": "0D",
         "to_gunnery": "4D", "cap": "2D"},
        {"kind": "difficulty", "spec_id": "R004.30", "range_difficulty": 15,
         "target_order": "steady", "ship_defence": 14, "location": None, "difficulty": 15},
        {"kind": "gunnery-code", "spec_id": "R004.28", "code": "8D", "fire_control": 12,
         "battery": 12, "batch_map": 0, "order_map": 0, "damage_control_map": 0,
         "shields_map": 0, "disrupted": 0, "crew": 0, "controls_damaged": 0,
         "fire_control_loss": 0, "command": 0},
        {"kind": "roll", "spec_id": "R004.28", "who": "a", "what": "front-turbolasers gunnery",
         "code": "8D", "faces": [3] * 8, "total": 24},
        {"kind": "to-hit", "spec_id": "R004.5", "roll": 24, "difficulty": 15, "hit": True},
        {"kind": "damage-code", "spec_id": "R004.33", "code": "5D", "resistance": "6D",
         "struck_arc": "front", "damage_damage": 15, "damage_battery": 0, "damage_scale": 0,
         "resistance_hull": 15, "resistance_hull_penalty": 0, "resistance_shields": 3},
        {"kind": "roll", "spec_id": "R004.34", "who": "a", "what": "damage vs t", "code": "5D",
         "faces": [3] * 5, "total": 15},
        {"kind": "roll", "spec_id": "R004.34", "who": "t", "what": "hull and shields",
         "code": "6D", "faces": [2, 2, 2, 2, 2, 3], "total": 13},
        {"kind": "margin", "spec_id": "R004.34", "damage": 15, "resistance": 13, "margin": 2},
        {"kind": "lookup", "spec_id": "T004.6", "margin": 2, "result": "shields-drained"},
        {"kind": "shields-drained", "spec_id": "R004.38",
         "until": "the next Damage Control phase"},
        {"kind": "outcome", "spec_id": "R004.35", "target": "t", "result": "shields-drained",
         "level": "none", "effect": None, "destroyed": False},
    ]  # fmt: skip
    labels = [(roll.who, roll.what) for roll in dice.rolls]
    assert (
        labels
        == [("a", "front-turbolasers gunnery")] * 8
        + [("a", "damage vs t")] * 5
        + [("t", "hull and shields")] * 6
    )


def test_R004_5_a_miss_logs_the_roll_and_the_outcome_only():
    state = _isd_at_nowhere()
    resolution = SYSTEM.resolve_attack(
        state, SYSTEM.declare_attack(state, "a", "turbolasers", "t", {}), ScriptedDice([1] * 8)
    )
    assert [event.as_dict() for event in resolution.events[-2:]] == [
        {"kind": "to-hit", "spec_id": "R004.5", "roll": 8, "difficulty": 15, "hit": False},
        {"kind": "outcome", "spec_id": "R004.35", "target": "t", "result": "miss",
         "level": "none", "effect": None, "destroyed": False},
    ]  # fmt: skip
    assert resolution.summary.result == "miss"


def test_R004_35_to_R004_37_odds_report_facts_and_sections():
    """8D against 15 misses on 15 or less (R004.5: a tie misses): 6363 of the 6^8 rolls —
    2995 at most 14 (3003 ways for the dice over 1 to total at most 6, less the 8 with one
    die at 7) and 3368 exactly 15 (3432 ways to share 7 over 8 dice, less the 64 with one die
    over 5)."""
    state = _isd_at_nowhere()
    attack = SYSTEM.declare_attack(state, "a", "turbolasers", "t", {})
    report = SYSTEM.attack_odds(state, attack).as_dict()
    assert (report["rules"], report["attacker"], report["weapon"], report["target"]) == (
        "sw-d6-capital", "a", "front-turbolasers", "t",
    )  # fmt: skip
    assert report["params"] == {"arc": "front", "battery_damage": 0, "location": "none", "batch": 1}
    hit = 1 - Fraction(2995 + 3368, 6**8)
    assert report["facts"] == {
        "distance": 20.0, "space_units": 20.0, "band": "medium", "arc": "front",
        "range_difficulty": 15, "target_order": "steady", "ship_defence": 14, "location": None,
        "difficulty": 15, "gunnery": "8D", "battery": "4D", "battery_damage": "0D",
        "battery_cap": "2D", "batch": 1, "damage": "5D", "resistance": "6D",
        "struck_arc": "front", "ion": False, "hit_probability": "185917/186624",
        "hit_percent": 99.6212,
    }  # fmt: skip
    assert Fraction(report["facts"]["hit_probability"]) == hit
    sections = {s["name"]: s for s in report["distributions"]}
    assert [(s["name"], s["spec_id"]) for s in report["distributions"]] == [
        ("result", "R004.35"),
        ("damage_level", "R004.36"),
        ("effect", "R004.37"),
        ("destroyed", "R004.35"),
    ]
    results = {
        row["result"]: Fraction(row["probability"]) for row in sections["result"]["outcomes"]
    }
    assert results["miss"] == 1 - hit
    assert list(results) == [
        "miss", "no-effect", "shields-drained", "light", "heavy", "severe", "destroyed",
    ]  # fmt: skip
    levels = {
        row["level"]: Fraction(row["probability"]) for row in sections["damage_level"]["outcomes"]
    }
    assert levels["none"] == results["miss"] + results["no-effect"] + results["shields-drained"]
    assert levels["destroyed"] == results["destroyed"]
    effects = {
        row["effect"]: Fraction(row["probability"]) for row in sections["effect"]["outcomes"]
    }
    assert effects["none"] == levels["none"] + levels["destroyed"]
    assert sum(effects.values()) == 1
    assert sections["destroyed"]["outcomes"] == [
        {"destroyed": False, **_row(1 - results["destroyed"])},
        {"destroyed": True, **_row(results["destroyed"])},
    ]


def _row(probability: Fraction) -> dict:
    return {
        "probability": f"{probability.numerator}/{probability.denominator}",
        "percent": round(float(probability * 100), 4),
    }


def test_T004_9_damaged_controls_cost_the_gunnery_code_3D():
    state = _isd_at_nowhere()
    state = with_condition(state, "a", effects=(Effect("controls-damaged", "severe", pips=9),))
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert dict(facts.gfc_terms)["controls_damaged"] == -9
    assert facts.gfc_pips == 24 - 9
    report = SYSTEM.attack_odds(state, SYSTEM.declare_attack(state, "a", "turbolasers", "t", {}))
    assert report.facts["gunnery"] == "5D"


@pytest.mark.parametrize(
    ("shields", "struck"),
    [((2, 0, 0, 2), "front"), ((0, 0, 0, 0), "front"), ((1, 0, 0, 5), "left"),
     ((4, 0, 0, 3), "front")],
)  # fmt: skip
def test_GEO004_4_on_an_arc_line_the_better_shielded_arc_faces_the_shot(shields, struck):
    """The ISD lies on the Nowhere's front/left line: the better-shielded of the two resists;
    with equal shields, the first of front, right, rear, left."""
    state = duel(ISD, NOWHERE, 20, target_heading=225.0)
    state = with_condition(state, "t", shield_arcs=shields)
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert facts.struck_arc == struck
    assert dict(facts.resistance_terms)["shields"] == max(shields[0], shields[3])


TWIN = {
    **ISD,
    "weapons": [{**TURBOLASER, "arc": "front"}, {**TURBOLASER, "arc": "rear"}],
}


def _moved(state, x, y):
    return state.replace_unit(state.unit("a").moved_to(Pose(x, y, 0.0)))


def test_R004_26_a_weapon_named_plainly_is_the_mount_whose_arc_holds_the_target():
    """Two Turbolasers mounts (front, rear): the name alone picks the one that can fire;
    with neither in arc, the first, and the arc refusal says where the target lies."""
    ahead = duel(TWIN, NOWHERE, 20)
    assert SYSTEM.declare_attack(ahead, "a", "turbolasers", "t", {}).weapon == "front-turbolasers"
    behind = _moved(ahead, 30, 60)
    assert SYSTEM.declare_attack(behind, "a", "turbolasers", "t", {}).weapon == "rear-turbolasers"
    aside = _moved(ahead, 10, 30)
    with pytest.raises(UserError) as refused:
        SYSTEM.declare_attack(aside, "a", "turbolasers", "t", {})
    assert refused.value.message == ("'t' is not in 'a''s front arc (it lies in right)")
    assert refused.value.spec_id == "R004.29"
    with pytest.raises(UserError) as unknown:
        SYSTEM.declare_attack(ahead, "a", "blasters", "t", {})
    assert unknown.value.message == (
        "'a' has no weapon 'blasters': its weapon units are front-turbolasers, rear-turbolasers"
    )


def test_GEO004_2_R004_31_R004_32_logged_range_battery_and_location():
    """At (31, 30) from (30, 10): 20.024984", 6.674995 Space units of 3" (short, 10);
    1D of the 4D battery to Damage leaves 3D to Gunnery; sensors targeted: +6 (A004.18)."""
    state = duel(ISD, NOWHERE, 20, inches_per_space=3)
    state = state.replace_unit(state.unit("t").moved_to(Pose(31, 30, 180)))
    params = {"battery_damage": "1D", "location": "sensors"}
    attack = SYSTEM.declare_attack(state, "a", "turbolasers", "t", params)
    resolution = SYSTEM.resolve_attack(state, attack, ScriptedDice([1] * 7))
    assert [event.as_dict() for event in resolution.events[1:4]] == [
        {"kind": "range", "spec_id": "GEO004.2", "distance": 20.024984,
         "space_units": 6.674995, "band": "short"},
        {"kind": "battery", "spec_id": "R004.31", "battery": "4D", "to_damage": "1D",
         "to_gunnery": "3D", "cap": "3D"},
        {"kind": "difficulty", "spec_id": "R004.30", "range_difficulty": 10,
         "target_order": "steady", "ship_defence": 14, "location": "sensors",
         "difficulty": 16},
    ]  # fmt: skip
    facts = SYSTEM.attack_odds(state, attack).facts
    assert (facts["distance"], facts["space_units"]) == (20.024984, 6.674995)
    assert (facts["location"], facts["difficulty"], facts["gunnery"]) == ("sensors", 16, "7D")
    assert (facts["battery_damage"], facts["damage"]) == ("1D", "6D")


def test_R004_38_one_pip_of_shields_is_drained_not_ionized():
    state = duel(ISD, {**NOWHERE, "shields": "0D+1"}, 20)
    attack = SYSTEM.declare_attack(state, "a", "turbolasers", "t", {})
    # Damage 5D: 15; hull 5D + 1 pip: 12 + 1 = 13, margin 2
    shot = SYSTEM.resolve_attack(state, attack, ScriptedDice([*HIT, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2]))
    assert shot.summary.result == "shields-drained"


# --------------------------------------------------------------------------- masterstroke

GUNS = {**ISD, "weapons": [{**TURBOLASER, "name": n} for n in ("A", "B", "C")]}


def _initiative(state, winner="a", masterstroke=True):
    return state.with_rule_state(
        turn=1, initiative={"order": ("a", "t"), "winner": winner, "masterstroke": masterstroke}
    )


def _batch_refusal(state, batch, weapon="front-a"):
    with pytest.raises(UserError) as refused:
        combat.fire_facts(state, "a", weapon, "t", {"batch": batch})
    assert refused.value.spec_id == "R004.27"
    return refused.value.message


@pytest.mark.parametrize(
    ("winner", "masterstroke", "changes", "most"),
    [
        ("a", True, {}, 4),  # three weapon units and the Masterstroke move
        ("t", True, {}, 3),  # the other captain's Masterstroke
        ("a", False, {}, 3),  # won the initiative without a Masterstroke
        ("a", True, {"moved": True}, 3),  # the move already made
        ("a", True, {"fired": ("front-b",)}, 3),  # one weapon unit already fired
    ],
)
def test_R004_27_R004_40_a_batch_counts_the_open_weapons_and_the_masterstroke_move(
    winner, masterstroke, changes, most
):
    state = _initiative(duel(GUNS, NOWHERE, 20), winner, masterstroke)
    state = with_condition(state, "a", **changes)
    assert combat.fire_facts(state, "a", "front-a", "t", {"batch": most}).slot.size == most
    assert _batch_refusal(state, most + 1) == (
        f"batch must be a whole number of actions from 1 to {most} (what 'a' can still do "
        f"this phase), not {most + 1}"
    )


def _arc_refusal(state):
    with pytest.raises(UserError) as refused:
        combat.fire_facts(state, "a", "front-a", "t", {})
    return refused.value.message, refused.value.spec_id


def test_R004_29_R004_40_one_arc_at_an_enemy_a_second_only_after_the_masterstroke_move():
    """The target lies in the front arc; the condition says which arcs already fired at it."""
    state = _initiative(duel(GUNS, NOWHERE, 20))
    used_left = with_condition(state, "a", arcs_at=(("t", "left"),))
    assert _arc_refusal(used_left) == (
        "'a' has fired at 't' from its left arc this turn: an enemy may be fired on from only "
        "one arc (a second only after a Tactical Masterstroke move, never from an arc already "
        "used)",
        "R004.29",
    )
    front_again = with_condition(state, "a", arcs_at=(("t", "front"),))
    assert combat.fire_facts(front_again, "a", "front-a", "t", {}).arc == "front"
    other_target = with_condition(state, "a", arcs_at=(("x", "left"),))
    assert combat.fire_facts(other_target, "a", "front-a", "t", {}).arc == "front"
    after_move = with_condition(used_left, "a", masterstroke_moved=True, moved=True)
    assert combat.fire_facts(after_move, "a", "front-a", "t", {}).arc == "front"
    two_used = with_condition(after_move, "a", arcs_at=(("t", "left"), ("t", "right")))
    message, rule = _arc_refusal(two_used)
    assert rule == "R004.40"
    assert message.startswith("'a' has fired at 't' from its left and right arc this turn")


def test_R004_27_R004_31_refusals_of_a_batch_and_a_battery_split():
    state = _isd_at_nowhere()  # one weapon unit, no Masterstroke: an action of 1
    assert _batch_refusal(state, 2, "front-turbolasers") == (
        "batch must be a whole number of actions from 1 to 1 (what 'a' can still do this "
        "phase), not 2"
    )
    assert _batch_refusal(state, True, "front-turbolasers").endswith("not True")
    with pytest.raises(UserError) as refused:
        combat.fire_facts(state, "a", "front-turbolasers", "t", {"battery_damage": True})
    assert (refused.value.message, refused.value.spec_id) == (
        "battery_damage True: expected pips or a die code",
        "R004.31",
    )


def test_R004_35_R004_37_the_outcome_names_the_level_and_the_effect():
    """Damage 5D (15) against hull 5D + 1 pip of shields rolled as 11: margin 4, Lightly
    Damaged, and the effect roll 1: maneuverability (T004.7)."""
    state = duel(ISD, {**NOWHERE, "shields": "0D+1"}, 20)
    attack = SYSTEM.declare_attack(state, "a", "turbolasers", "t", {})
    shot = SYSTEM.resolve_attack(
        state, attack, ScriptedDice([*HIT, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1])
    )
    assert shot.events[-1].as_dict() == {
        "kind": "outcome", "spec_id": "R004.35", "target": "t", "result": "light",
        "level": "light", "effect": "maneuverability", "destroyed": False,
    }  # fmt: skip


def test_R004_55_a_fighter_unit_target_cites_the_unit_rule():
    squadron = {
        "scale": "starfighter",
        "unit_size": "squadron",
        "cso": "3D",
        "hull": "4D",
        "shields": "2D",
        "weapons": [
            {"name": "Lasers", "fire_control": "3D", "damage": "5D", "ranges": "1-3/12/25"}
        ],
    }
    state = duel(ISD, squadron, 20)
    attack = SYSTEM.declare_attack(state, "a", "turbolasers", "t", {})
    shot = SYSTEM.resolve_attack(state, attack, ScriptedDice([1] * 8))
    assert shot.events[-1].as_dict() == {
        "kind": "outcome", "spec_id": "R004.55", "target": "t", "result": "miss",
        "level": "none", "effect": None, "destroyed": False,
    }  # fmt: skip


def _refusal(state, weapon="front-turbolasers", **params):
    with pytest.raises(UserError) as refused:
        combat.fire_facts(state, "a", weapon, "t", params)
    return refused.value.message, refused.value.spec_id


def test_T004_8_T004_9_a_lost_weapon_cites_its_chart():
    state = _isd_at_nowhere()
    one = with_condition(
        state, "a", effects=(Effect("weapons-destroyed", "heavy", weapon="front-turbolasers"),)
    )
    assert _refusal(one) == ("front-turbolasers cannot fire: weapons-destroyed", "T004.8")
    every = with_condition(state, "a", effects=(Effect("all-weapons-destroyed", "severe"),))
    assert _refusal(every) == ("front-turbolasers cannot fire: all-weapons-destroyed", "T004.9")


def test_R004_41_one_pip_of_fire_control_left_still_fires():
    """Turbolasers' Fire Control 4D (12 pips) less 11 pips of damage leaves 1: it fires."""
    state = _isd_at_nowhere()
    worn = with_condition(state, "a", effects=(Effect("fire-control", "light", pips=11),))
    assert combat.fire_facts(worn, "a", "front-turbolasers", "t", {}).gfc_pips == 13
    gone = with_condition(state, "a", effects=(Effect("fire-control", "light", pips=12),))
    assert _refusal(gone) == (
        "front-turbolasers cannot fire: its Fire Control is at 0D (4D of Ionization and damage)",
        "R004.41",
    )


def test_declaration_refusals_name_the_parameter():
    state = _isd_at_nowhere()
    assert _refusal(state, speed=1) == (
        "a fire declaration takes no speed (declaration parameters: arc, batch, "
        "battery_damage, location)",
        None,
    )
    assert _refusal(state, battery_damage="lots") == (
        "battery_damage: cannot read die code 'lots': expected ND or ND+P such as 5D+2",
        "R004.1",
    )
    unarmed = duel({**ISD, "weapons": []}, NOWHERE, 20)
    assert _refusal(unarmed, "lasers") == (
        "'a' has no weapon 'lasers': its weapon units are none",
        "R004.26",
    )
