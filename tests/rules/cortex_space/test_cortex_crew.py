"""Characters as crew: 1st draft (variant A, R003.46-R003.50), 2nd draft (variant B,
R003.51-R003.55), and the choice between them (R003.56)."""

from __future__ import annotations

import pytest
from cortex_builders import BATTLESTAR, RAIDER, table, unit, with_stats

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.cortex_space import (
    attack_pools,
    combat,
    gunnery,
    pilot_rolls,
    play,
    stations,
    tracker,
    units,
)
from tactical.rules.cortex_space.choices import actions

CREW_A = [
    {"station": "co", "name": "Adama", "attribute": "d10", "skill": "d8", "trait": "d6"},
    {"station": "pilot", "name": "Hoshi", "skill": "d8"},
    {"station": "tactical", "name": "Gaeta", "skill": "d10"},
    {"station": "dradis", "name": "Dualla", "skill": "d12"},
    {"station": "comms", "name": "Kelly", "attribute": "d6", "skill": "d6"},
]
CREW_B = [
    {"station": "co", "name": "Adama", "attribute": "d10", "skill": "d8"},
    {"station": "tactical", "name": "Gaeta", "skill": "d8"},
    {"station": "helm", "name": "Hoshi", "skill": "d12"},
    {"station": "officer", "name": "Dualla"},
    {"station": "officer", "name": "Kelly"},
]


def _ship(crew, variant, **stats):
    ship = with_stats(BATTLESTAR, agility="d6", crew=crew, **stats)
    return table(
        unit("galactica", 10, 24, "A", **ship),
        unit("raider", 30, 24, "B", **with_stats(RAIDER, agility="d6", pilot="d6")),
        crew_variant=variant,
    )


def _act(state, kind, dice, **params):
    return play.apply(state, Action(kind, "galactica", FrozenMap(params)), ScriptedDice(dice))


def _attack_steps(state, gunner=""):
    params = {"gunner": gunner} if gunner else {}
    attack = combat.declare(state, "galactica", "railguns", "raider", params)
    return {m.source: m.steps for m in gunnery.plan_gun(state, attack).roll.modifiers}


# --------------------------------------------------------------------------- variant A


def test_R003_46_commander_assists_a_station_next_turn():
    state = _ship(CREW_A, "A")
    result = _act(state, "assist", [12], crew="Adama", station="Gaeta")
    assert result.summary == "success"
    pool = next(e for e in result.events if e.kind == "total")
    assert pool is not None
    assert _attack_steps(result.state) == {"spacecraft vs planetcraft": -1}  # not this turn
    following = tracker.next_turn(result.state)
    assert _attack_steps(following, "Gaeta") == {
        "spacecraft vs planetcraft": -1,
        "Adama assist (success)": 1,
    }
    extraordinary = _act(state, "assist", [18], crew="Adama", station="Gaeta")
    entry = tracker.table(extraordinary.state, tracker.NEXT_MODIFIERS)["galactica"][0]
    assert entry["steps"] == 2
    botch = _act(state, "assist", [3], crew="Adama", station="Hoshi")  # 3 dice all ones
    entry = tracker.table(botch.state, tracker.NEXT_MODIFIERS)["galactica"][0]
    assert (entry["steps"], entry["station"]) == (-1, "Hoshi")


def test_R003_46_so_say_we_all_die_is_added_in_variant_a_only():
    state = _ship(CREW_A, "A")
    person = state.unit("galactica")
    pool = stations.crew.station_pool(
        units.vessel(person), units.vessel(person).crew[0], units.settings(state), 0
    )
    assert pool.text == "d10 + d8 + d6"
    b = _ship(CREW_A, "B")
    pool = stations.crew.station_pool(
        units.vessel(person), units.vessel(person).crew[0], units.settings(b), 0
    )
    assert pool.text == "d10 + d8"


def test_R003_47_pilot_defense_and_free_agility_roll():
    state = _ship(CREW_A, "A")
    free = _act(state, "agility-defense", [5], crew="Hoshi")
    assert tracker.fixed_defense(free.state, "galactica")["value"] == 5
    assert tracker.actions_taken(free.state, "galactica/Hoshi") == 0  # a free action
    action = _act(state, "pilot-defense", [9], crew="Hoshi")
    assert tracker.fixed_defense(action.state, "galactica")["value"] == 9
    assert tracker.actions_taken(action.state, "galactica/Hoshi") == 1
    defense = attack_pools.defense_of(
        action.state, action.state.unit("galactica"), units.settings(action.state)
    )
    assert (defense.fixed, defense.spec_id) == (9, "R003.47")


def test_R003_47_evasive_manoeuvre_full_turn():
    state = _ship(CREW_A, "A")
    evasive = _act(state, "evasive-manoeuvre", [], crew="Hoshi")
    assert _attack_steps(evasive.state)["evasive manoeuvre"] == -1
    pools, modifiers = attack_pools.defense_pools(
        evasive.state, evasive.state.unit("galactica"), units.settings(evasive.state)
    )
    assert [m.steps for m in modifiers] == [2] and pools[0].text == "d6 + d12"
    with pytest.raises(UserError, match=r"R003\.47"):
        _act(evasive.state, "pilot-defense", [9], crew="Hoshi")
    busy = _act(state, "pilot-defense", [9], crew="Hoshi").state
    with pytest.raises(UserError, match=r"R003\.47"):
        _act(busy, "evasive-manoeuvre", [], crew="Hoshi")


def test_R003_47_offensive_manoeuvre_easy_target_and_next_turn_bonus():
    state = _ship(CREW_A, "A")
    result = _act(state, "offensive-manoeuvre", [], crew="Hoshi", gunner="Gaeta")
    assert tracker.fixed_defense(result.state, "galactica")["value"] == 3
    with pytest.raises(UserError, match=r"R003\.47"):
        _act(result.state, "agility-defense", [5], crew="Hoshi")
    following = tracker.next_turn(result.state)
    assert _attack_steps(following, "Gaeta")["offensive manoeuvre"] == 1


def test_R003_48_tactical_officer_fires_one_weapon_with_own_skill():
    state = _ship(CREW_A, "A")
    attack = combat.declare(state, "galactica", "railguns", "raider")
    assert attack.params["gunner"] == "Gaeta"
    plan = gunnery.plan_gun(state, attack)
    assert plan.roll.pool.text == "d6 + d8"  # d10 skill, -1 step scale chart
    again = combat.resolve(state, attack, ScriptedDice([3, 12])).state
    assert tracker.actions_taken(again, "galactica/Gaeta") == 1
    with pytest.raises(UserError, match=r"R003\.48"):
        combat.declare(state, "galactica", "railguns", "raider", {"gunner": "Hoshi"})


def test_R003_49_dradis_defense_and_gunner_support():
    state = _ship(CREW_A, "A")
    defense = _act(state, "dradis-defense", [18], crew="Dualla")
    _, modifiers = attack_pools.defense_pools(
        defense.state, defense.state.unit("galactica"), units.settings(defense.state)
    )
    assert [m.steps for m in modifiers] == [2]
    botch = _act(state, "dradis-defense", [2], crew="Dualla")
    pilot = pilot_rolls.pilot_roll(
        botch.state, botch.state.unit("galactica"), units.settings(botch.state)
    )
    assert [m.steps for m in pilot.modifiers if m.spec_id == "R003.49"] == [-1]
    gunner = _act(state, "dradis-gunner", [18], crew="Dualla", gunner="Gaeta")
    assert _attack_steps(gunner.state)["DRADIS targeting"] == 1  # A003.30: +1 even at 18
    damaged = _ship(CREW_A, "A", sensors_damaged=1)
    roll = _act(damaged, "dradis-gunner", [11], crew="Dualla", gunner="Gaeta")
    sensors = [e for e in roll.events if e.kind == "modifier" and e.spec_id == "R003.29"]
    assert [e.get("steps") for e in sensors] == [-2]


def test_R003_50_communications_forwards_complex_commands():
    state = _ship(CREW_A, "A")
    sent = _act(state, "assist", [12], crew="Adama", station="Gaeta", via_comms=True).state
    assert tracker.table(sent, tracker.NEXT_MODIFIERS) == {}
    assert len(stations.pending_commands(sent, "galactica")) == 1
    kept = _act(sent, "forward-command", [7], crew="Kelly")
    assert tracker.table(kept.state, tracker.NEXT_MODIFIERS)["galactica"][0]["steps"] == 1
    lost = _act(sent, "forward-command", [6], crew="Kelly")
    assert tracker.table(lost.state, tracker.NEXT_MODIFIERS) == {}
    with pytest.raises(UserError, match=r"R003\.50"):
        _act(state, "forward-command", [7], crew="Kelly")


# --------------------------------------------------------------------------- variant B


def test_R003_51_station_roll_once_per_turn():
    state = _ship(CREW_B, "B")
    first = _act(state, "station-roll", [11], crew="Adama", apply_to="attack")
    with pytest.raises(UserError, match=r"R003\.51"):
        _act(first.state, "station-roll", [11], crew="Adama", apply_to="attack")
    choices = actions(first.state, TurnPosition(1, 1, 0, 0), "A")
    crew_field = next(c for c in choices if c.kind == "station-roll").fields[0]
    assert crew_field.choices == ("Gaeta",)


def test_R003_52_commander_bonus_to_helm_or_attack_once():
    state = _ship(CREW_B, "B")
    to_attack = _act(state, "station-roll", [12], crew="Adama", apply_to="attack").state
    assert _attack_steps(to_attack, "Dualla")["Adama (success)"] == 1
    used = combat.resolve(
        to_attack,
        combat.declare(to_attack, "galactica", "railguns", "raider"),
        ScriptedDice([3, 12]),
    ).state
    assert "Adama (success)" not in _attack_steps(used, "Kelly")  # consumed by that attack
    to_helm = _act(state, "station-roll", [18], crew="Adama", apply_to="helm").state
    helm = _act(to_helm, "attack-manoeuvre", [11], crew="Hoshi")
    assert any(e.get("source") == "Adama (extraordinary)" for e in helm.events)
    with pytest.raises(UserError, match=r"R003\.52"):
        _act(state, "station-roll", [12], crew="Adama", apply_to="engines")


def test_R003_53_tactical_officer_bonus_goes_to_helm_and_attack():
    state = _ship(CREW_B, "B")
    result = _act(state, "station-roll", [12], crew="Gaeta")
    scopes = sorted(e["scope"] for e in tracker.table(result.state, tracker.MODIFIERS)["galactica"])
    assert scopes == ["attack", "helm"]


def test_R003_54_helm_attack_and_evasive_manoeuvres():
    state = _ship(CREW_B, "B")
    attack = _act(state, "attack-manoeuvre", [18], crew="Hoshi")
    assert tracker.fixed_defense(attack.state, "galactica")["value"] == 3
    assert _attack_steps(attack.state)["attack-manoeuvre (extraordinary)"] == 2
    raised = _act(attack.state, "agility-defense", [5], crew="Hoshi")
    assert tracker.fixed_defense(raised.state, "galactica")["value"] == 5
    evasive = _act(state, "evasive-manoeuvre", [14], crew="Hoshi")
    assert tracker.fixed_defense(evasive.state, "galactica")["value"] == 14
    assert _attack_steps(evasive.state)["evasive-manoeuvre (success)"] == -1
    botched = _act(state, "evasive-manoeuvre", [2], crew="Hoshi")
    assert _attack_steps(botched.state)["evasive-manoeuvre (botch)"] == -4
    second = _act(evasive.state, "attack-manoeuvre", [11], crew="Hoshi")
    assert any(e.get("source") == "action 2 this turn" for e in second.events)


def test_R003_55_other_officers_roll_agility_and_the_ships_heavy_weapons():
    state = _ship(CREW_B, "B")
    attack = combat.declare(state, "galactica", "railguns", "raider")
    assert attack.params["gunner"] == "Dualla"
    plan = gunnery.plan_gun(state, attack)
    assert plan.roll.pool.text == "d6 + d6"  # agility d6 + the ship's d8 at -1 (scale)
    after = combat.resolve(state, attack, ScriptedDice([3, 12])).state
    assert combat.declare(after, "galactica", "railguns", "raider").params["gunner"] == "Kelly"


def test_R003_56_and_A003_29_variants_are_alternatives():
    a_state = _ship(CREW_A, "A")
    with pytest.raises(UserError, match=r"R003\.56"):
        _act(a_state, "station-roll", [12], crew="Adama")
    b_state = _ship(CREW_B, "B")
    with pytest.raises(UserError, match=r"R003\.56"):
        _act(b_state, "assist", [12], crew="Adama", station="Gaeta")
    none = _ship(CREW_B, "none")
    kinds = {c.kind for c in actions(none, TurnPosition(1, 1, 0, 0), "A")}
    assert not kinds & set(stations.STATION_ACTIONS)
    assert combat.declare(none, "galactica", "railguns", "raider").params.get("gunner") is None
