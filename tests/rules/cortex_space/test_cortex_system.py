"""The cortex-space RuleSystem: conventions (GEO003.1, GEO003.7), schema, options, the map,
the command line, and the generic action protocol (turn sequence, choices, apply, odds)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cortex_builders import BATTLESTAR, RAIDER, VIPER, table, unit, with_stats

from tactical.cli import main
from tactical.dice import ScriptedDice, SeededDice
from tactical.errors import UserError
from tactical.geometry.arcs_spec import Omni
from tactical.io import load_map
from tactical.model import Circle, FrozenMap, SizeClass, Terrain
from tactical.rules import registry
from tactical.rules.base import Action, RuleSystem, TurnPosition
from tactical.rules.cortex_space import RULE_SYSTEM, sequence, tracker

ROOT = Path(__file__).resolve().parents[3]
MAP = ROOT / "maps" / "cortex-space.toml"


def test_rule_system_is_registered_with_its_conventions_GEO003_7():
    assert registry.get("cortex-space") is RULE_SYSTEM
    assert isinstance(RULE_SYSTEM, RuleSystem) and RULE_SYSTEM.has_combat
    conventions = RULE_SYSTEM.conventions
    assert (conventions.distance_from, conventions.distance_to) == ("centre", "centre")
    assert all(isinstance(arc, Omni) for arc in conventions.arcs)
    rock = Terrain("rock", "obstructing", SizeClass.MASSIVE, circle=Circle(1, 1, 1))
    assert RULE_SYSTEM.blocks_los(rock, None, None) is False
    assert RULE_SYSTEM.terrain_collides(None, rock)  # type: ignore[arg-type]
    city = Terrain("city", "large-city", SizeClass.MASSIVE, circle=Circle(1, 1, 1))
    assert not RULE_SYSTEM.terrain_collides(None, city)  # type: ignore[arg-type]
    assert "megalopolis" in RULE_SYSTEM.terrain_kinds


def test_GEO003_1_ordinal_range_bands_from_the_options():
    viper = unit("v", 0, 0, **VIPER)
    bands = [RULE_SYSTEM.range_band(viper, d, {}) for d in (0.5, 1.0, 11.9, 36, 72, 144, 145)]
    assert bands == ["personal", "personal", "skirmish", "capital", "short DRADIS",
                     "long DRADIS", None]  # fmt: skip
    assert RULE_SYSTEM.range_band(viper, 20, {"capital_inches": 18.0}) == "short DRADIS"


def test_options_defaults_are_the_adopted_readings():
    options = RULE_SYSTEM.options({})
    assert options["crew_variant"] == "B"
    assert options["scale_chart"] == "restored"  # A003.1
    assert options["wing_defense"] == "less-skilled"  # A003.21
    assert options["wing_damage"] == "random"  # R003.34
    for name in (
        "dogfighting",
        "collisions",
        "strafing_runs",
        "battle_damage",
        "fighter_wings",
        "weapon_batteries",
        "missile_locks",
        "point_defense",
        "fire_linked",
        "mixing_scales",
    ):
        assert options[name] is True, name
    assert RULE_SYSTEM.check_options({"crew_variant": "both"})  # R003.56: A or B, not both
    assert RULE_SYSTEM.check_options({"warp": 9})
    with pytest.raises(UserError, match="crew_variant"):
        table(crew_variant="both")


def test_R003_1_stats_schema_checks_die_texts_and_wings():
    assert RULE_SYSTEM.check_stats(VIPER) == []
    assert RULE_SYSTEM.check_stats(BATTLESTAR) == []
    problems = RULE_SYSTEM.check_stats({"agility": "d7"})
    assert [(p.key, p.spec_id) for p in problems] == [("agility", "R003.1")]
    bad_weapon = RULE_SYSTEM.check_stats({"weapons": [{"name": "x", "damage": "lots"}]})
    assert bad_weapon[0].key == "weapons[0].damage"
    seven = [{"id": str(i)} for i in range(7)]
    assert RULE_SYSTEM.check_stats({"members": seven})[0].spec_id == "R003.30"
    assert RULE_SYSTEM.check_stats({"crew": [{"station": "cook", "name": "x"}]})
    assert RULE_SYSTEM.check_stats(
        {"weapons": [{"name": "a", "damage": "d6"}, {"name": "a", "damage": "d6"}]}
    )


def test_map_loads_and_every_unit_reads():
    state = RULE_SYSTEM.setup(load_map(MAP))
    assert state.rules == "cortex-space" and len(state.units) == 7
    assert set(state.sides) == {"Colonials", "Cylons"}
    assert tracker.turn(state) == 1
    later = tracker.next_turn(state)
    assert RULE_SYSTEM.setup(later) is later  # a game under way is kept
    with pytest.raises(UserError, match=r"R003\.1"):
        table(unit("bad", 1, 1, agility="d7"))
    assert RULE_SYSTEM.weapons(state.unit("galactica"), state.options) == (
        "railguns", "point-defense", "missiles")  # fmt: skip


def test_cli_odds_for_the_scenario(capsys):
    assert main(["odds", str(MAP), "galactica", "railguns", "basestar", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["rules"] == "cortex-space"
    names = [section["name"] for section in document["distributions"]]
    assert names[:2] == ["hits", "extraordinary"] and "wound" in names
    total = sum(float(row["percent"]) for row in document["distributions"][0]["outcomes"])
    assert total == pytest.approx(100.0)
    assert main(["odds", str(MAP), "starbuck", "autocannons", "basestar"]) == 2
    assert "GEO003.1" in capsys.readouterr().err


# --------------------------------------------------------------------------- the protocol


def test_turn_sequence_phases_cite_their_rules():
    phases = RULE_SYSTEM.turn_sequence().phases
    assert [(p.name, p.spec_id, p.alternating) for p in phases] == [
        ("Advantage / initiative", "R003.10", True),
        ("Actions", "R003.11", True),
    ]
    assert RULE_SYSTEM.phases == ("Advantage / initiative", "Actions")


def test_R003_10_first_phase_offers_advantage_and_initiative():
    state = RULE_SYSTEM.setup(load_map(MAP))
    choices = RULE_SYSTEM.actions(state, TurnPosition(1, 0, 0, 0), "Colonials")
    kinds = {(c.kind, c.actor) for c in choices}
    assert ("advantage", "starbuck") in kinds and ("initiative", "galactica") in kinds
    advantage = next(c for c in choices if c.kind == "advantage" and c.actor == "starbuck")
    opponents = advantage.fields[0].choices
    assert opponents and all(state.unit(o).side == "Cylons" for o in opponents)
    assert ("advantage", "galactica") not in kinds  # no enemy within the dogfight distance


def test_a_map_not_yet_set_up_plays_turn_one():
    state = load_map(MAP)
    kinds = {c.kind for c in RULE_SYSTEM.actions(state, TurnPosition(1, 0, 0, 0), "Colonials")}
    assert "start-turn" not in kinds and "initiative" in kinds
    rolled = RULE_SYSTEM.apply(state, Action("initiative", "galactica"), ScriptedDice([3]))
    assert tracker.turn(rolled.state) == 1


def test_R003_39_stale_turn_offers_only_start_turn():
    state = RULE_SYSTEM.setup(load_map(MAP))
    choices = RULE_SYSTEM.actions(state, TurnPosition(2, 0, 1, 0), "Cylons")
    assert [c.kind for c in choices] == ["start-turn"]
    started = RULE_SYSTEM.apply(
        state, Action("start-turn", "Cylons", FrozenMap(turn=2)), ScriptedDice([])
    )
    assert tracker.turn(started.state) == 2
    with pytest.raises(UserError, match=r"R003\.39"):
        RULE_SYSTEM.apply(
            started.state, Action("start-turn", "Cylons", FrozenMap(turn=2)), ScriptedDice([])
        )
    assert (
        RULE_SYSTEM.actions(started.state, TurnPosition(2, 0, 1, 0), "Cylons")[0].kind
        != "start-turn"
    )


def test_R003_11_actions_follow_the_initiative_order():
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 18, 10, "B", **RAIDER))
    rolled = RULE_SYSTEM.apply(
        state, Action("advantage", "viper", FrozenMap(opponent="raider")), ScriptedDice([12, 9])
    ).state
    actions_b = RULE_SYSTEM.actions(rolled, TurnPosition(1, 1, 1, 0), "B")
    assert actions_b == ()  # the Raider waits for the Viper
    with pytest.raises(UserError, match=r"R003\.11"):
        RULE_SYSTEM.apply(rolled, Action("end", "raider"), ScriptedDice([]))
    actions_a = RULE_SYSTEM.actions(rolled, TurnPosition(1, 1, 0, 0), "A")
    assert {c.kind for c in actions_a} >= {"attack", "end"}
    ended = RULE_SYSTEM.apply(rolled, Action("end", "viper"), ScriptedDice([])).state
    assert sequence.current_group(ended) == ("raider",)
    with pytest.raises(UserError, match=r"R003\.11"):
        RULE_SYSTEM.apply(ended, Action("end", "viper"), ScriptedDice([]))


def test_apply_attack_matches_resolve_attack_and_odds_match():
    state = RULE_SYSTEM.setup(load_map(MAP))
    action = Action("attack", "starbuck", FrozenMap(weapon="autocannons", target="raider-1"))
    via = RULE_SYSTEM.apply(state, action, SeededDice(3))
    attack = RULE_SYSTEM.declare_attack(state, "starbuck", "autocannons", "raider-1")
    direct = RULE_SYSTEM.resolve_attack(state, attack, SeededDice(3))
    assert via.events == direct.events and via.summary == direct.summary
    odds = RULE_SYSTEM.action_odds(state, action)
    assert odds.as_dict() == RULE_SYSTEM.attack_odds(state, attack).as_dict()


def test_action_odds_for_other_rolls_and_none_without_a_roll():
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 18, 10, "B", **RAIDER))
    odds = RULE_SYSTEM.action_odds(
        state, Action("advantage", "viper", FrozenMap(opponent="raider"))
    )
    assert odds.sections[0].distribution.total == 1
    assert odds.sections[0].spec_id == "R003.10"
    assert RULE_SYSTEM.action_odds(state, Action("end", "viper")) is None
    with pytest.raises(UserError, match="unknown opposing unit 'x'"):
        RULE_SYSTEM.action_odds(state, Action("advantage", "viper", FrozenMap(opponent="x")))
    rolled = RULE_SYSTEM.apply(state, Action("initiative", "viper"), ScriptedDice([5])).state
    with pytest.raises(UserError, match=r"R003\.10"):
        RULE_SYSTEM.action_odds(rolled, Action("advantage", "viper", FrozenMap(opponent="raider")))


def test_unknown_actions_and_parameters_are_user_errors():
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 18, 10, "B", **RAIDER))
    with pytest.raises(UserError, match="no action 'dance'"):
        RULE_SYSTEM.apply(state, Action("dance", "viper"), ScriptedDice([]))
    with pytest.raises(UserError, match="takes no"):
        RULE_SYSTEM.apply(state, Action("end", "viper", FrozenMap(speed=3)), ScriptedDice([]))
    with pytest.raises(UserError, match="unknown unit"):
        RULE_SYSTEM.apply(state, Action("end", "ghost"), ScriptedDice([]))


def test_every_offered_choice_applies_without_error():
    """Each choice the panel would show, with its default parameters, is legal now and has
    its exact odds (or None when no die is rolled)."""
    state = RULE_SYSTEM.setup(load_map(MAP))
    for phase in (0, 1):
        for index, side in enumerate(state.sides):
            for choice in RULE_SYSTEM.actions(state, TurnPosition(1, phase, index, 0), side):
                params = {f.name: f.default for f in choice.fields if f.default is not None}
                action = Action(choice.kind, choice.actor, FrozenMap(params))
                result = RULE_SYSTEM.apply(state, action, SeededDice(11))
                assert result.events, choice
                odds = RULE_SYSTEM.action_odds(state, action)  # before the roll
                if odds is not None:
                    assert all(s.distribution.total == 1 for s in odds.sections), choice


def test_wrecks_are_unpiloted_decoys_and_structures_only_where_a_weapon_can_hit():
    wreck = with_stats(RAIDER, wound=20)
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("wreck", 11.5, 10, "B", **wreck))
    from tactical.rules.cortex_space import collisions

    assert collisions.obstacle_of(state, "wreck").piloted is False
    choices = RULE_SYSTEM.actions(state, TurnPosition(1, 1, 0, 0), "A")
    assert not any(c.kind == "ram" for c in choices)  # nothing alive to ram
    assert not any(c.kind == "bombard" for c in choices)
