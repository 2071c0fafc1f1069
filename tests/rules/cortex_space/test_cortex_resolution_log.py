"""Cortex / BSG attacks: the whole log a player reads for each path.

Every event line (as the text log renders it, `Event.describe`) and every die recorded
(who rolled, for what): missile locks (R003.38, T003.8), point defense (R003.43, R003.44,
A003.28), gun attacks with their step modifiers (Advantage R003.13, wings R003.32/R003.33,
batteries R003.36, fire-linked R003.45, called shots R003.59); the refusals by their whole
message; the facts and sections of the missile, point-defense and gun odds reports."""

from __future__ import annotations

import pytest
from cortex_builders import BATTLESTAR, RAIDER, VIPER, table, unit, with_stats

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.cortex_space import combat, manoeuvres, tracker


def resolved(state, attacker, weapon, target, dice, params=None):
    scripted = ScriptedDice(dice)
    attack = combat.declare(state, attacker, weapon, target, params or {})
    resolution = combat.resolve(state, attack, scripted)
    rolls = [(roll.who, roll.what, roll.die, roll.result) for roll in scripted.rolls]
    return [event.describe() for event in resolution.events], rolls, resolution


def rolled(who, what, die, result, spec="R003.3"):
    return [
        f"roll: who={who}, what={what}, die={die}, result={result} (R003.1)",
        f"total: who={who}, what={what}, total={result}, botch={result == 2} ({spec})",
    ]


def launch(distance: float = 20.0, **options):
    return table(
        unit("raider", 10, 10, "B", **RAIDER),
        unit("viper", 10 + distance, 10, "A", **VIPER),
        **options,
    )


# --------------------------------------------------------------------------- missile locks


@pytest.mark.parametrize(
    ("distance", "face", "band", "difficulty", "turns", "result"),
    [
        (20.0, 3, "capital", 3, 1, "success"),
        (20.0, 2, "capital", 3, 1, "botch"),
        (50.0, 6, "short DRADIS", 7, 2, "failure"),
    ],
)
def test_R003_38_T003_8_a_missile_lock_logs_range_difficulty_and_result(
    distance, face, band, difficulty, turns, result
):
    state = launch(distance)
    lines, rolls, resolution = resolved(state, "raider", "missiles", "viper", [face])
    locked = result == "success"
    assert lines == [
        "declare: attacker=raider, weapon=missiles, target=viper (R003.38)",
        f"range: distance={distance}, band={band}, difficulty={difficulty}, "
        f"flight_turns={turns} (T003.8)",
        "attack-pool: pool=d10 + d8, steps=0 (R003.2)",
        *rolled("raider", "missile lock", "d10+d8", face),
        f"outcome: target=viper, result={result}, locked={locked} (R003.38)",
    ]
    assert rolls == [("raider", "missile lock", "d10+d8", face)]
    assert resolution.summary == result
    locks = tracker.get(resolution.state, tracker.LOCKS, ())
    assert locks == ((("raider", "missiles", "viper"),) if locked else ())
    assert tracker.actions_taken(resolution.state, "raider") == 1


def test_R003_38_a_lock_again_replaces_the_old_one():
    state = launch(20.0)
    first = resolved(state, "raider", "missiles", "viper", [3])[2].state
    again = resolved(first, "raider", "missiles", "viper", [5])[2].state
    assert tracker.get(again, tracker.LOCKS) == (("raider", "missiles", "viper"),)


def test_R003_38_the_missile_odds_report():
    state = launch(50.0)
    attack = combat.declare(state, "raider", "missiles", "viper")
    report = combat.attack_odds(state, attack, "cortex-space").as_dict()
    assert report["facts"] == {
        "distance": 50.0, "band": "short DRADIS", "weapon_kind": "missile",
        "weapon_range": "short DRADIS", "attack_pool": "d10 + d8", "steps": 0,
        "modifiers": [], "difficulty": 7, "flight_turns": 2, "lock_probability": "13/16",
        "lock_percent": 81.25,
    }  # fmt: skip
    assert report["distributions"] == [
        {"name": "lock", "spec_id": "R003.38", "outcomes": [
            {"result": "botch", "probability": "1/80", "percent": 1.25},
            {"result": "failure", "probability": "7/40", "percent": 17.5},
            {"result": "success", "probability": "5/8", "percent": 62.5},
            {"result": "extraordinary", "probability": "3/16", "percent": 18.75},
        ]},
    ]  # fmt: skip


# --------------------------------------------------------------------------- point defense


def pd_table(**raider):
    return table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("raider", 20, 24, "B", **with_stats(RAIDER, **raider)),
    )


def test_R003_43_a_vessel_that_reaches_heroic_evades_point_defense():
    state = pd_table(agility="d12", pilot="d12")
    lines, rolls, resolution = resolved(state, "galactica", "point-defense", "raider", [19])
    assert lines == [
        "declare: attacker=galactica, weapon=point-defense, target=raider (R003.43)",
        *rolled("raider", "evade point defense", "d12+d12", 19, spec="R003.43"),
        "point-defense: roll=19, difficulty=19, failed=False, botch=False (R003.43)",
        "outcome: target=raider, failed=False, botch=False, stun=0, wound=0, destroyed=False, "
        "battle_damage=[] (R003.44)",
    ]
    assert rolls == [("raider", "defense", "d12+d12", 19)]
    assert tracker.get(resolution.state, tracker.PD_ENGAGED) == (
        ("galactica", "point-defense", "raider"),
    )


def test_R003_44_a_failed_evasion_takes_basic_damage_and_the_pd_die_one_step_up():
    state = pd_table(life_points=60)
    lines, rolls, resolution = resolved(state, "galactica", "point-defense", "raider", [15, 7])
    assert lines[3:] == [
        "point-defense: roll=15, difficulty=19, failed=True, botch=False (R003.43)",
        "damage-die: die=d12+d2, steps=1 (R003.44)",
        *rolled("galactica", "point-defense damage", "d12+d2", 7),
        "basic-damage: basic=4, stun=2, wound=2, die=7 (R003.44)",
        "damage: target=raider, stun=2, wound=9, total_stun=2, total_wound=9, "
        "life_points=60 (R003.7)",
        "outcome: target=raider, failed=True, botch=False, stun=2, wound=9, destroyed=False, "
        "battle_damage=[] (R003.44)",
    ]
    assert rolls == [
        ("raider", "defense", "d10+d8", 15),
        ("galactica", "point-defense damage", "d12+d2", 7),
    ]
    summary = resolution.summary
    assert (summary.failed, summary.botch, summary.stun, summary.wound) == (True, False, 2, 9)


def test_A003_28_a_botched_evasion_steps_the_pd_die_twice():
    state = pd_table(life_points=60)
    lines, _, resolution = resolved(state, "galactica", "point-defense", "raider", [2, 10])
    assert lines[3:6] == [
        "point-defense: roll=2, difficulty=19, failed=True, botch=True (R003.43)",
        "damage-die: die=d12+d4, steps=2 (A003.28)",
        "roll: who=galactica, what=point-defense damage, die=d12+d4, result=10 (R003.1)",
    ]
    assert lines[-1] == (
        "outcome: target=raider, failed=True, botch=True, stun=9, wound=18, destroyed=False, "
        "battle_damage=[] (R003.44)"
    )
    assert resolution.summary.botch is True


def test_R003_43_the_point_defense_odds_report():
    state = pd_table(life_points=60)
    attack = combat.declare(state, "galactica", "point-defense", "raider")
    report = combat.attack_odds(state, attack, "cortex-space").as_dict()
    assert report["facts"] == {
        "distance": 10.0, "band": "skirmish", "weapon_kind": "point-defense",
        "weapon_range": "skirmish", "defense_pool": "d10 + d8", "difficulty": 19,
        "damage_die": "d12", "failure_probability": "1", "failure_percent": 100.0,
    }  # fmt: skip
    sections = report["distributions"]
    assert [(s["name"], s["spec_id"]) for s in sections] == [
        ("failed", "R003.43"), ("wound", "R003.7"), ("stun", "R003.7"), ("destroyed", "R003.7"),
    ]  # fmt: skip
    assert sections[0]["outcomes"] == [{"failed": True, "probability": "1", "percent": 100.0}]
    assert [row["stun"] for row in sections[2]["outcomes"]] == list(range(1, 10))
    assert sections[2]["outcomes"][4] == {"stun": 5, "probability": "1/5", "percent": 20.0}
    assert sections[3]["outcomes"] == [{"destroyed": False, "probability": "1", "percent": 100.0}]


# --------------------------------------------------------------------------- guns


HIT = [
    "attack: number=1, attack=12, botch=False, defense=3, hit=True, extraordinary=True, "
    "basic=9 (R003.7)",
]


def advantage_won():
    duel = table(
        unit("viper", 10, 10, "A", **VIPER),
        unit("raider", 15, 10, "B", **with_stats(RAIDER, wound=3, stun=2)),
    )
    return manoeuvres.resolve_advantage(duel, "viper", "raider", ScriptedDice([12, 9])).state


def test_R003_13_the_advantage_holder_steps_up_and_the_damage_is_the_difference():
    lines, rolls, resolution = resolved(
        advantage_won(), "viper", "autocannons", "raider", [12, 3, 5]
    )
    assert lines == [
        "declare: attacker=viper, weapon=autocannons, target=raider, battery=1, fighters=1, "
        "gunner=None (R003.7)",
        "range: distance=5.0, band=skirmish, weapon_range=skirmish (GEO003.1)",
        "modifier: roll=attack, source=holds the Advantage, steps=1 (R003.13)",
        "attack-pool: pool=d10 + d10, steps=1 (R003.2)",
        "defense: source=defense roll, value=d10 + d8 (R003.7)",
        *rolled("viper", "attack 1", "d10+d10", 12),
        *rolled("raider", "defense", "d10+d8", 3),
        *HIT,
        "damage-die: die=d8, steps=0 (R003.7)",
        *rolled("viper", "damage 1", "d8", 5),
        "basic-damage: basic=9, stun=5, wound=4, die=5 (R003.7)",
        "damage: target=raider, stun=5, wound=9, total_stun=7, total_wound=12, "
        "life_points=14 (R003.7)",
        "outcome: target=raider, hits=1, extraordinary=1, stun=5, wound=9, destroyed=False, "
        "battle_damage=[] (R003.7)",
    ]
    assert rolls == [
        ("viper", "attack 1", "d10+d10", 12),
        ("raider", "defense", "d10+d8", 3),
        ("viper", "damage 1", "d8", 5),
    ]
    summary = resolution.summary
    assert (summary.hits, summary.extraordinary, summary.stun, summary.wound) == (1, 1, 5, 9)


def test_R003_13_attacking_the_advantage_holder_steps_down():
    lines, _, resolution = resolved(advantage_won(), "raider", "autocannons", "viper", [3, 12])
    assert lines[2:4] == [
        "modifier: roll=attack, source=Advantage against it, steps=-1 (R003.13)",
        "attack-pool: pool=d10 + d6, steps=-1 (R003.2)",
    ]
    assert lines[-2:] == [
        "attack: number=1, attack=3, botch=False, defense=12, hit=False, extraordinary=False, "
        "basic=0 (R003.7)",
        "outcome: target=viper, hits=0, extraordinary=0, stun=0, wound=0, destroyed=False, "
        "battle_damage=[] (R003.7)",
    ]
    assert resolution.summary.hits == 0


def test_R003_13_A003_7_advantage_counts_only_between_its_two_vessels():
    state = table(
        unit("viper", 10, 10, "A", **VIPER),
        unit("raider", 15, 10, "B", **RAIDER),
        unit("other", 15, 14, "B", **RAIDER),
    ).with_rule_state(
        **{tracker.ADVANTAGE: (FrozenMap(holder="viper", against="raider", steps=2),)}
    )
    lines, _, _ = resolved(state, "other", "autocannons", "viper", [3, 12])
    assert not any(line.startswith("modifier:") for line in lines)
    lines, _, _ = resolved(state, "raider", "autocannons", "viper", [3, 12])
    assert lines[2] == "modifier: roll=attack, source=Advantage against it, steps=-2 (R003.14)"


def test_R003_59_a_called_shot_logs_the_resistance_difficulty():
    duel = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 15, 10, "B", **RAIDER))
    lines, _, _ = resolved(
        duel, "viper", "autocannons", "raider", [12, 3, 5], {"called_shot": True}
    )
    assert lines[4] == (
        "called-shot: attacker_scale=planetcraft, target_scale=planetcraft, "
        "resist_difficulty=7, effect_possible=True (R003.59)"
    )


WING = with_stats(VIPER, members=[{"id": "apollo"}, {"id": "starbuck"}])


def test_R003_32_R003_36_a_wing_steps_up_its_attack_and_its_damage_die():
    state = table(unit("wing", 10, 10, "A", **WING), unit("raider", 14, 10, "B", **RAIDER))
    lines, rolls, _ = resolved(state, "wing", "autocannons", "raider", [12, 3, 5])
    assert lines[0] == (
        "declare: attacker=wing, weapon=autocannons, target=raider, battery=1, fighters=2, "
        "gunner=None (R003.7)"
    )
    assert lines[2:4] == [
        "modifier: roll=attack, source=wing of 2, steps=1 (R003.32)",
        "attack-pool: pool=d10 + d8, steps=1 (R003.2)",
    ]
    assert lines[10] == "damage-die: die=d12, steps=2 (R003.36)"
    assert rolls[2] == ("wing", "damage 1", "d12", 5)


@pytest.mark.parametrize(
    ("option", "value", "dice", "rolls"),
    [
        ("wing_defense", "less-skilled", [12, 3, 5, 1], [("wing", "defense", "d10+d6", 3)]),
        ("wing_defense", "worst-roll", [12, 9, 3, 5, 1],
         [("wing", "defense 1", "d10+d6", 9), ("wing", "defense 2", "d10+d6", 3)]),
    ],
)  # fmt: skip
def test_R003_33_A003_21_a_wing_target_steps_the_attack_up_and_defends(option, value, dice, rolls):
    state = table(
        unit("wing", 10, 10, "A", **WING),
        unit("raider", 14, 10, "B", **RAIDER),
        **{option: value},
    )
    lines, recorded, _ = resolved(state, "raider", "autocannons", "wing", dice)
    assert lines[2] == "modifier: roll=attack, source=target wing of 2, steps=1 (R003.33)"
    worst = "worst of d10 + d6 / d10 + d6" if value == "worst-roll" else "d10 + d6"
    assert lines[4] == f"defense: source=defense roll, value={worst} (R003.7)"
    assert recorded[1 : 1 + len(rolls)] == rolls
    assert HIT[0] in lines
    assert "fighter-hit: fighter=0, how=random (R003.34)" in lines


def test_R003_36_a_battery_steps_up_attack_and_damage():
    state = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("bs", 40, 24, "B", diameter=4, **BATTLESTAR),
    )
    lines, _, resolution = resolved(
        state, "galactica", "railguns", "bs", [12, 2, 10], {"battery": 2}
    )
    assert lines[:3] == [
        "declare: attacker=galactica, weapon=railguns, target=bs, battery=2, fighters=1, "
        "gunner=None (R003.7)",
        "range: distance=30.0, band=capital, weapon_range=capital (GEO003.1)",
        "modifier: roll=attack, source=battery of 2, steps=1 (R003.36)",
    ]
    assert "damage-die: die=d12+d6, steps=2 (R003.36)" in lines
    assert resolution.summary.wound == 15
    assert tracker.fired(resolution.state, "galactica", "railguns") == 2


def test_R003_45_fire_linked_guns_step_up_the_attack():
    linked = with_stats(
        VIPER, weapons=[{"name": "autocannons", "damage": "d8", "range": "skirmish", "linked": 2}]
    )
    state = table(unit("viper", 10, 10, "A", **linked), unit("raider", 15, 10, "B", **RAIDER))
    lines, _, _ = resolved(state, "viper", "autocannons", "raider", [12, 3, 5])
    assert lines[2] == "modifier: roll=attack, source=2 fire-linked, steps=1 (R003.45)"
    assert lines[10] == "damage-die: die=d8, steps=0 (R003.7)"


def test_R003_7_the_gun_odds_report():
    state = advantage_won()
    attack = combat.declare(state, "viper", "autocannons", "raider")
    report = combat.attack_odds(state, attack, "cortex-space").as_dict()
    assert report["facts"] == {
        "distance": 5.0, "band": "skirmish", "weapon_kind": "gun", "weapon_range": "skirmish",
        "attack_pool": "d10 + d10", "steps": 1,
        "modifiers": [["holds the Advantage", 1, "R003.13"]], "defense": "d10 + d8",
        "damage_die": "d8", "battery": 1, "any_hit_probability": "4831/8000",
        "any_hit_percent": 60.3875,
    }  # fmt: skip
    sections = report["distributions"]
    assert [(s["name"], s["spec_id"], len(s["outcomes"])) for s in sections] == [
        ("hits", "R003.7", 2), ("extraordinary", "R003.5", 2), ("wound", "R003.7", 18),
        ("stun", "R003.7", 10), ("destroyed", "R003.7", 2),
    ]  # fmt: skip
    assert sections[1]["outcomes"] == [
        {"extraordinary": 0, "probability": "1337/1600", "percent": 83.5625},
        {"extraordinary": 1, "probability": "263/1600", "percent": 16.4375},
    ]


# --------------------------------------------------------------------------- refusals


def refusal(state, attacker, weapon, target, params=None):
    with pytest.raises(UserError) as error:
        combat.declare(state, attacker, weapon, target, params or {})
    return str(error.value)


DUEL = dict(
    viper=("viper", 10, 10, "A", VIPER),
    raider=("raider", 15, 10, "B", RAIDER),
    far=("far", 60, 40, "B", RAIDER),
)


def duel_table(**changes):
    units = []
    for key, (uid, x, y, side, stats) in DUEL.items():
        units.append(unit(uid, x, y, side, **with_stats(stats, **changes.get(key, {}))))
    return table(*units)


@pytest.mark.parametrize(
    ("attacker", "weapon", "target", "params", "message"),
    [
        ("nobody", "autocannons", "raider", {},
         "unknown attacking unit 'nobody': units on this map are viper, raider, far"),
        ("viper", "autocannons", "nobody", {},
         "unknown target unit 'nobody': units on this map are viper, raider, far"),
        ("viper", "autocannons", "viper", {}, "unit 'viper' cannot attack itself (R003.7)"),
        ("viper", "lasers", "raider", {},
         "unknown weapon 'lasers' for unit 'viper': it carries autocannons (R003.48)"),
        ("viper", "autocannons", "far", {},
         "'far' is 58.31\" away (short DRADIS range): beyond the skirmish range of 'viper''s "
         "autocannons (GEO003.1)"),
        ("viper", "autocannons", "raider", {"missiles": 3, "arc": 1},
         "a gun attack takes no arc, missiles (parameters: battery, fighters, gunner, "
         "called_shot)"),
        ("viper", "autocannons", "raider", {"battery": 0},
         "battery must be a whole number >= 1, not 0 (R003.35)"),
        ("viper", "autocannons", "raider", {"battery": 2},
         "only spacecraft group weapons in batteries; 'viper' is planetcraft scale (R003.35)"),
        ("viper", "autocannons", "raider", {"fighters": 2},
         "'viper' is not a wing: it declares no fighters (R003.32)"),
        ("viper", "autocannons", "raider", {"gunner": "Kelly"},
         "'viper' has no gunner station to name (crew variant B) (R003.48)"),
        ("viper", "autocannons", "raider", {"gunner": 3}, "gunner must be a name, not 3"),
        ("viper", "autocannons", "raider", {"called_shot": "yes"},
         "called_shot must be true or false, not 'yes' (R003.59)"),
    ],
)  # fmt: skip
def test_R003_7_a_refused_gun_attack_says_what_and_why(attacker, weapon, target, params, message):
    assert refusal(duel_table(), attacker, weapon, target, params) == message


def test_R003_7_R003_48_refusals_about_the_vessels_themselves():
    assert refusal(duel_table(viper={"wound": 30}), "viper", "autocannons", "raider") == (
        "'viper' is destroyed and cannot attack (R003.7)"
    )
    assert refusal(duel_table(raider={"wound": 30}), "viper", "autocannons", "raider") == (
        "'raider' is already destroyed (R003.7)"
    )
    unarmed = duel_table(viper={"weapons": []})
    assert refusal(unarmed, "viper", "lasers", "raider") == (
        "unknown weapon 'lasers' for unit 'viper': it carries none (R003.48)"
    )
    strafed = duel_table().with_rule_state(**{tracker.STRAFING: FrozenMap(viper="raider")})
    assert refusal(strafed, "raider", "autocannons", "viper") == (
        "'viper' is strafing 'raider': only its point-defense weapons can attack it this turn "
        "(R003.24)"
    )


def test_R003_38_R003_43_refused_locks_and_point_defense():
    assert refusal(launch(20.0, missile_locks=False), "raider", "missiles", "viper") == (
        "missile locks are not in play (option missile_locks) (R003.38)"
    )
    assert refusal(launch(8.0), "raider", "missiles", "viper") == (
        "no missile lock at skirmish range: locks need capital range or more (R003.38)"
    )
    empty = [RAIDER["weapons"][0], dict(RAIDER["weapons"][1], missiles=0)]
    dry = table(
        unit("raider", 10, 10, "B", **with_stats(RAIDER, weapons=empty)),
        unit("viper", 30, 10, "A", **VIPER),
    )
    assert refusal(dry, "raider", "missiles", "viper") == (
        "'raider''s missiles has no missiles left (R003.38)"
    )
    fleet = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("raider", 20, 24, "B", **RAIDER),
        unit("viper", 12, 24, "A", **VIPER),
    )
    assert refusal(fleet, "galactica", "point-defense", "viper") == (
        "'viper' is on 'galactica''s side (R003.43)"
    )
    assert refusal(fleet, "galactica", "point-defense", "raider", {"battery": 2}) == (
        "a point-defense attack takes no battery (parameters: none)"
    )
    off = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("raider", 20, 24, "B", **RAIDER),
        point_defense=False,
    )
    assert refusal(off, "galactica", "point-defense", "raider") == (
        "point-defense weapons are not in play (option point_defense) (R003.43)"
    )
    assert combat.declare(fleet, "galactica", "point-defense", "raider").params == FrozenMap()
    assert combat.declare(launch(20.0), "raider", "missiles", "viper").params == FrozenMap()


def test_R003_35_battery_refusals():
    fleet = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("bs", 40, 24, "B", diameter=4, **BATTLESTAR),
    )
    assert refusal(fleet, "galactica", "railguns", "bs", {"battery": 7}) == (
        "a battery is at most 6 identical weapons, not 7 (R003.35)"
    )
    off = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("bs", 40, 24, "B", diameter=4, **BATTLESTAR),
        weapon_batteries=False,
    )
    assert refusal(off, "galactica", "railguns", "bs", {"battery": 2}) == (
        "weapon batteries are not in play (option weapon_batteries) (R003.35)"
    )
    assert combat.declare(off, "galactica", "railguns", "bs").params == FrozenMap(battery=1)


# --------------------------------------------------------------------------- crews, battle damage

CREW_A = [
    {"station": "co", "name": "Adama", "attribute": "d10", "skill": "d8", "trait": "d6"},
    {"station": "pilot", "name": "Hoshi", "skill": "d8"},
    {"station": "tactical", "name": "Gaeta", "skill": "d10"},
    {"station": "dradis", "name": "Dualla", "skill": "d12"},
    {"station": "comms", "name": "Kelly", "attribute": "d6", "skill": "d6"},
]


def crewed():
    ship = with_stats(BATTLESTAR, agility="d6", crew=CREW_A)
    raider = with_stats(RAIDER, agility="d6", pilot="d6")
    return table(
        unit("galactica", 10, 24, "A", **ship),
        unit("raider", 30, 24, "B", **raider),
        crew_variant="A",
    )


def test_R003_48_R003_57_a_crewed_ships_gunner_fires_and_the_scale_steps_down():
    state = crewed()
    attack = combat.declare(state, "galactica", "railguns", "raider")
    assert attack.params == FrozenMap(battery=1, gunner="Gaeta")
    lines, rolls, resolution = resolved(state, "galactica", "railguns", "raider", [10, 3, 5])
    assert lines[:5] == [
        "declare: attacker=galactica, weapon=railguns, target=raider, battery=1, fighters=1, "
        "gunner=Gaeta (R003.7)",
        "range: distance=20.0, band=capital, weapon_range=capital (GEO003.1)",
        "modifier: roll=attack, source=spacecraft vs planetcraft, steps=-1 (R003.57)",
        "attack-pool: pool=d6 + d8, steps=-1 (R003.2)",
        "defense: source=defense roll, value=d6 + d6 (R003.7)",
    ]
    assert "scale: attacker_scale=spacecraft, target_scale=planetcraft, multiplies=damage, " in (
        " ".join(lines)
    )
    assert rolls[0] == ("galactica", "attack 1", "d6+d8", 10)
    assert resolution.summary.destroyed is True
    assert tracker.actions_taken(resolution.state, "galactica/Gaeta") == 1


def test_R003_48_only_a_gunner_station_can_be_named():
    assert refusal(crewed(), "galactica", "railguns", "raider", {"gunner": "Adama"}) == (
        "'Adama' is not a gunner of 'galactica': expected one of Gaeta (R003.48)"
    )


def test_R003_26_a_hurt_spacecraft_report_has_its_battle_damage_section():
    basestar = with_stats(BATTLESTAR, strength="d12+d8", agility="d4", pilot="d6", wound=25)
    state = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("basestar", 40, 24, "B", diameter=4, **basestar),
    )
    attack = combat.declare(state, "galactica", "railguns", "basestar")
    report = combat.attack_odds(state, attack, "cortex-space").as_dict()
    sections = report["distributions"]
    assert [(s["name"], s["spec_id"]) for s in sections][-2:] == [
        ("destroyed", "R003.7"),
        ("battle_damage", "R003.26"),
    ]
    assert sections[-1]["outcomes"][:2] == [
        {"effects": (), "probability": "1/3", "percent": 33.3333},
        {"effects": ("FTL engine destroyed",), "probability": "6941/92160", "percent": 7.5315},
    ]


def test_R003_43_A003_21_point_defense_against_a_wing_rolls_every_fighter_and_hits_one():
    state = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("wing", 19.5, 24, "B", **WING),
        wing_defense="worst-roll",
    )
    report = combat.attack_odds(
        state, combat.declare(state, "galactica", "point-defense", "wing"), "cortex-space"
    ).as_dict()
    assert report["rules"] == "cortex-space"
    assert (report["facts"]["distance"], report["facts"]["defense_pool"]) == (
        9.5,
        "d10 + d6 / d10 + d6",
    )
    lines, rolls, resolution = resolved(state, "galactica", "point-defense", "wing", [5, 9, 7, 2])
    assert rolls == [
        ("wing", "defense 1", "d10+d6", 5),
        ("wing", "defense 2", "d10+d6", 9),
        ("galactica", "point-defense damage", "d12+d2", 7),
        ("wing", "fighter hit", "d2", 2),
    ]
    assert lines[2] == "total: who=wing, what=evade point defense, total=5, botch=False (R003.43)"
    assert lines[8:11] == [
        "roll: who=wing, what=fighter hit, die=d2, result=2 (R003.34)",
        "fighter-hit: fighter=1, how=random (R003.34)",
        "damage: target=wing, stun=7, wound=14, total_stun=7, total_wound=14, "
        "life_points=14 (R003.7)",
    ]
    assert resolution.summary.failed is True


def test_A003_21_the_worst_of_the_fighters_rolls_defends_whichever_comes_first():
    state = table(
        unit("wing", 10, 10, "A", **WING),
        unit("raider", 14, 10, "B", **RAIDER),
        wing_defense="worst-roll",
    )
    lines, _, _ = resolved(state, "raider", "autocannons", "wing", [12, 3, 9, 5, 1])
    assert (
        "attack: number=1, attack=12, botch=False, defense=3, hit=True, extraordinary=True, "
        "basic=9 (R003.7)"
    ) in lines


def test_R003_36_the_battery_odds_report():
    state = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("bs", 40.5, 24, "B", diameter=4, **BATTLESTAR),
    )
    attack = combat.declare(state, "galactica", "railguns", "bs", {"battery": 2})
    report = combat.attack_odds(state, attack, "cortex-space").as_dict()
    assert report["rules"] == "cortex-space"
    assert report["facts"] == {
        "distance": 30.5, "band": "capital", "weapon_kind": "gun", "weapon_range": "capital",
        "attack_pool": "d4 + d10", "steps": 1, "modifiers": [["battery of 2", 1, "R003.36"]],
        "defense": "d4 + d6", "damage_die": "d12+d2", "battery": 2,
        "any_hit_probability": "11/15", "any_hit_percent": 73.3333,
    }  # fmt: skip
    assert report["distributions"][0] == {
        "name": "hits", "spec_id": "R003.7", "outcomes": [
            {"hits": 0, "probability": "4/15", "percent": 26.6667},
            {"hits": 1, "probability": "11/15", "percent": 73.3333},
        ],
    }  # fmt: skip
