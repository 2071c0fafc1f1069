"""The battlefleet-mars RuleSystem: conventions (GEO000.1), schema, options, sequence, map."""

from __future__ import annotations

from pathlib import Path

import pytest
from bfm_builders import table, unit

from tactical.dice import SeededDice
from tactical.errors import UserError
from tactical.geometry.arcs_spec import Omni
from tactical.model import SizeClass, Terrain
from tactical.rules import registry
from tactical.rules.base import RuleSystem, TurnPosition
from tactical.rules.battlefleet_mars import RULE_SYSTEM
from tactical.rules.battlefleet_mars.combat import all_pair_odds

ROOT = Path(__file__).resolve().parents[3]
MAP = ROOT / "maps" / "battlefleet-mars.toml"


def test_rule_system_is_registered_and_declares_its_conventions_GEO000_1():
    assert registry.get("battlefleet-mars") is RULE_SYSTEM
    assert isinstance(RULE_SYSTEM, RuleSystem)
    conventions = RULE_SYSTEM.conventions
    assert (conventions.distance_from, conventions.distance_to, conventions.arc_test) == (
        "centre",
        "centre",
        "centre",
    )
    assert conventions.range_unit == 1.0
    assert all(isinstance(arc, Omni) for arc in conventions.arcs)


def test_GEO000_1_no_line_of_sight():
    rock = Terrain("rock", "obstructing", SizeClass.MASSIVE, polygon=((0, 0), (1, 0), (1, 1)))
    assert RULE_SYSTEM.blocks_los(rock, None, None) is False


def test_options_defaults_are_the_adopted_readings():
    options = RULE_SYSTEM.options({})
    assert options == {
        "turn_limit": 6,  # docs/game-end.md
        "range_unit_inches": 1.0,
        "range_rounding": "floor",
        "missile_to_hit": "auto",
        "missile_to_hit_score": 0,
        "lp_granularity": "whole",
        "ciws_default": True,
        "lp_limit": 4,
        "laser_damage": True,  # A000.11 (revised)
    }
    assert RULE_SYSTEM.check_options({"range_unit_inches": 0})
    assert RULE_SYSTEM.check_options({"ciws": True})


def test_range_unit_option_changes_the_range_GEO000_1():
    base, ship = unit("a", 10, 10, type="base"), unit("t", 20, 10, "B", type="miner")
    state = table(base, ship, range_unit_inches=2.0)
    attack = RULE_SYSTEM.declare_attack(state, "a", "laser", "t")
    report = RULE_SYSTEM.attack_odds(state, attack)
    assert (report.facts["range"], report.facts["range_unit_inches"]) == (5, 2.0)
    far = unit("t", 22.5, 10, "B", type="miner")  # 12.5": R 12 at 1", R 6 at 2"
    with pytest.raises(UserError, match=r"R000\.6"):
        RULE_SYSTEM.declare_attack(table(base, far), "a", "laser", "t")
    assert RULE_SYSTEM.declare_attack(table(base, far, range_unit_inches=2.0), "a", "laser", "t")


def test_range_band_reports_the_integer_range():
    base = unit("a", 0, 0, type="base")
    assert RULE_SYSTEM.range_band(base, 7.5, {}) == "R7"
    assert RULE_SYSTEM.range_band(base, 12.0, {}) is None
    assert RULE_SYSTEM.range_band(unit("m", 0, 0, type="missile"), 30, {}) == "R30"
    assert RULE_SYSTEM.range_band(base, 7.5, {"range_unit_inches": 2.5}) == "R3"


def test_stats_schema_ties_fields_to_types():
    assert RULE_SYSTEM.check_stats({"type": "missile", "laser_strength": 1})
    assert RULE_SYSTEM.check_stats({"type": "fighter", "missiles": 3})
    assert RULE_SYSTEM.check_stats({"type": "base", "count": 2})
    assert RULE_SYSTEM.check_stats({"type": "dreadnought"})
    assert RULE_SYSTEM.check_stats({"type": "base", "launch_capacity": 1, "launched": 3})
    assert RULE_SYSTEM.check_stats({"type": "base", "shields": 3})
    assert not RULE_SYSTEM.check_stats({"type": "missile", "count": 9})


def test_turn_sequence_ends_in_the_alternating_tactical_combat_R000_18():
    sequence = RULE_SYSTEM.turn_sequence()
    assert [p.name for p in sequence.phases] == ["Logistics", "Launch", "Tactical combat"]
    combat = sequence.phases[-1]
    assert combat.alternating and combat.spec_id == "R000.18"
    position = TurnPosition(1, 2, 0, 0)
    position = sequence.advance(position, 2)
    assert (position.phase, position.side) == (2, 1)
    assert RULE_SYSTEM.phases == ("Logistics", "Launch", "Tactical combat")


def test_weapons_by_type():
    assert RULE_SYSTEM.weapons(unit("b", 0, 0, type="base", launch_capacity=1), {}) == (
        "laser",
        "missiles",
    )
    assert RULE_SYSTEM.weapons(unit("f", 0, 0, type="fighter"), {}) == ("laser",)
    assert RULE_SYSTEM.weapons(unit("m", 0, 0, type="missile"), {}) == ("missiles",)


def test_scenario_map_loads_with_every_unit_type():
    from tactical.io.maps import load_map

    state = load_map(MAP)
    assert state.rules == "battlefleet-mars"
    types = {u.stats.get("type") for u in state.units}
    assert {"base", "catapult", "transport", "miner", "fighter", "missile", "ship"} <= types
    odds = all_pair_odds(state)
    assert ("ares-missiles", "missiles", "deimos-base") in odds
    attack = RULE_SYSTEM.declare_attack(state, "deimos-base", "laser", "ares-fighters")
    resolution = RULE_SYSTEM.resolve_attack(state, attack, SeededDice(1))
    assert resolution.events[0].spec_id == "R000.3"


def test_stat_out_of_bounds_in_a_map_is_one_clear_error(tmp_path):
    from tactical.io.maps import load_map

    text = MAP.read_text().replace("laser_strength = 5", "laser_strength = 8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(UserError, match="laser_strength") as caught:
        load_map(bad)
    assert "R000.2" in caught.value.describe()
