"""The heavy-combat RuleSystem: conventions (GEO001.7), schema, options, hooks, map, CLI."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hc_builders import HC, act, duel, ship_state, the_duel, with_ship

from tactical.cli import main
from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.geometry.arcs_spec import QUADRANTS
from tactical.io import load_map, loads_map
from tactical.model import FrozenMap, SizeClass, Terrain, freeze, thaw
from tactical.rules import registry
from tactical.rules.base import Action, RuleSystem, TurnPosition
from tactical.rules.heavy_combat import RULE_SYSTEM
from tactical.rules.heavy_combat.duel import from_rule_state, to_rule_state
from tactical.rules.heavy_combat.ships import even_boxes, profile

ROOT = Path(__file__).resolve().parents[3]
MAP = ROOT / "maps" / "heavy-combat.toml"


def test_registered_with_the_table_conventions_GEO001_7():
    assert registry.get("heavy-combat") is RULE_SYSTEM
    assert isinstance(RULE_SYSTEM, RuleSystem) and RULE_SYSTEM.has_combat
    conventions = RULE_SYSTEM.conventions
    assert (conventions.distance_from, conventions.distance_to, conventions.arc_test) == (
        "centre",
        "centre",
        "centre",
    )
    assert conventions.arcs == QUADRANTS
    unit = duel().unit("a")
    assert [RULE_SYSTEM.range_band(unit, d, {}) for d in (0, 12, 12.01, 24, 36, 36.5)] == [
        "1",
        "1",
        "2",
        "2",
        "3",
        None,
    ]
    step = {"inches_per_range_step": 6.0}
    assert [RULE_SYSTEM.range_band(unit, d, step) for d in (6, 7, 18, 19)] == ["1", "2", "3", None]


def test_GEO001_6_nothing_blocks_line_of_sight():
    rock = Terrain("rock", "obstructing", SizeClass.MASSIVE, polygon=((0, 0), (1, 0), (1, 1)))
    assert RULE_SYSTEM.blocks_los(rock, None, None) is False


def test_options_default_to_the_adopted_readings():
    assert RULE_SYSTEM.options({}) == {
        "turn_limit": 6,  # docs/game-end.md
        "inches_per_range_step": 12.0,
        "geometry": "table",
        "specific_system_die": "d10",
        "countermeasures": "negate",
        "tracking_damage_die": "1d6",
        "cloaked_direction": "roll",
        "allow_disengage": False,
        "system_failure": "last-box",  # A001.27 / R001.38
    }
    assert RULE_SYSTEM.check_options({"specific_system_die": "d12"})
    assert RULE_SYSTEM.check_options({"start_range": 4})
    assert RULE_SYSTEM.check_options({"range_step": 3})
    with pytest.raises(UserError) as error:
        HC.declare_attack(duel(countermeasures="some"), "a", "phasers", "b", {"power": 1})
    assert error.value.spec_id == "A001.12"


def test_stats_schema_and_defaults():
    assert RULE_SYSTEM.check_stats({}) == []
    assert even_boxes(23) == (4, 4, 4, 4, 4, 3)
    card = profile(duel().unit("a"))
    assert (card.race, card.chart, card.power_dice, card.internals) == (
        "federation",
        "federation",
        2,
        23,
    )
    assert card.shields == (27,) * 6 and card.photon_launchers == 2 and card.torpedoes == 20
    klingon = profile(duel({"race": "klingon", "internals": 22}).unit("a"))
    assert klingon.chart == "klingon" and klingon.boxes == (4, 4, 4, 4, 3, 3)
    problems = RULE_SYSTEM.check_stats(
        {
            "internals": 20,
            "boxes": dict(
                zip(
                    ("bridge", "sensors", "weapons", "impulse", "batteries", "warp"),
                    (4, 4, 4, 4, 4, 3),
                    strict=True,
                )
            ),
        }
    )
    assert problems[0].key == "boxes" and problems[0].spec_id == "R001.35"
    assert RULE_SYSTEM.check_stats({"boxes": {"bridge": 3}})  # all six categories
    assert RULE_SYSTEM.check_stats({"shields": {"fore": -1}})
    assert RULE_SYSTEM.check_stats({"elevation": "up"})
    assert RULE_SYSTEM.check_stats({"warp": 3})


def test_map_loader_reports_a_bad_ship_sheet_with_file_line_and_key():
    text = MAP.read_text().replace("internals = 22", "internals = 21")
    with pytest.raises(UserError) as error:
        loads_map(text, source="bad.toml")
    message = str(error.value)
    assert message.startswith("bad.toml:") and "boxes" in message and "21" in message


def test_the_scenario_loads_and_sets_up():
    state = HC.setup(load_map(MAP))
    duel_state = the_duel(state)
    assert duel_state.ids == ("enterprise", "kronos") and duel_state.turn == 1
    assert ship_state(state, "kronos").torpedoes == 10
    assert HC.weapons(state.unit("kronos"), {}) == ("phasers", "photon-1", "disruptors")
    assert HC.weapons(state.unit("enterprise"), {}) == ("phasers", "photon-1", "photon-2")


def test_A001_22_a_duel_is_two_ships_on_two_sides():
    state = duel()
    crowd = state.__class__(
        state.rules,
        state.board,
        units=(
            *state.units,
            state.units[0].__class__("c", "c", "A", state.units[0].pose, state.units[0].base),
        ),
    )
    with pytest.raises(UserError) as error:
        HC.setup(crowd)
    assert error.value.spec_id == "A001.22"
    with pytest.raises(UserError) as error:
        HC.declare_attack(state, "a", "phasers", "a", {"power": 1})
    assert error.value.spec_id == "A001.22"


def test_odds_command_json(capsys):
    assert main(["odds", str(MAP), "enterprise", "photon-1", "kronos", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["rules"], document["weapon"], document["target"]) == (
        "heavy-combat",
        "photon-1",
        "kronos",
    )
    facts = document["facts"]
    assert (facts["range"], facts["needed"], facts["hit_probability"]) == (3, 3, "2/3")
    hit = next(s for s in document["distributions"] if s["name"] == "hit")
    assert {row["hit"]: row["probability"] for row in hit["outcomes"]} == {
        False: "1/3",
        True: "2/3",
    }
    damage = next(s for s in document["distributions"] if s["name"] == "shield_damage")
    assert sum(Fraction(r["probability"]) for r in damage["outcomes"]) == 1


def test_odds_command_refuses_an_out_of_arc_weapon(capsys):
    assert main(["odds", str(MAP), "enterprise", "photon-2", "kronos", "--json"]) == 2
    assert "R001.18" in capsys.readouterr().err


def test_action_odds_come_from_the_same_resolver():
    state = duel(distance=30.0)
    action = Action("fire", "a", FrozenMap(weapon="photon-1", target="b"))
    report = HC.action_odds(state, action)
    attack = HC.declare_attack(state, "a", "photon-1", "b")
    assert report.as_dict() == HC.attack_odds(state, attack).as_dict()
    assert report.section("hit").distribution.probability(True) == Fraction(2, 3)
    assert HC.action_odds(state, Action("close", "a")) is None
    power = HC.action_odds(state, Action("roll_power", "a"))
    assert power.section("power").distribution.probability(7) == Fraction(1, 6)


def test_result_odds_fold_every_declared_weapon():
    state = act(duel(distance=30.0), "roll_power", "a", [6, 6]).state
    state = act(state, "fire", "a", weapon="photon-1", target="b").state
    state = act(state, "fire", "a", weapon="phasers", target="b", power=3).state
    report = HC.action_odds(state, Action("resolve", "A"))
    shields = report.section("b shield damage").distribution
    # phasers 3 always; the photon adds 1-6 on a 3-6
    assert shields.probability(3) == Fraction(1, 3)
    assert shields.probability(9) == Fraction(2, 3) * Fraction(1, 6)
    assert report.section("a shield damage").distribution.probability(0) == 1


def test_rule_state_survives_a_json_round_trip():
    state = act(duel(), "roll_power", "a", [3, 4]).state
    state = act(state, "rotate", "a", to="dorsal").state
    state = act(state, "reinforce", "a", facing="fore", power=4).state
    text = json.dumps(thaw(state.rule_state))
    restored = state.__class__(
        state.rules, state.board, units=state.units, rule_state=freeze(json.loads(text))
    )
    assert from_rule_state(restored) == from_rule_state(state)


def test_a_damaged_rule_state_is_a_user_error():
    state = duel().with_rule_state(heavy_combat=FrozenMap(turn=1))
    with pytest.raises(UserError, match="damaged"):
        from_rule_state(state)


def test_unknown_actions_and_parameters_are_user_errors():
    state = duel()
    with pytest.raises(UserError, match="no action 'dance'"):
        HC.apply(state, Action("dance", "a"), ScriptedDice([]))
    with pytest.raises(UserError, match="takes no speed"):
        HC.apply(state, Action("close", "a", FrozenMap(speed=2)), ScriptedDice([]))
    with pytest.raises(UserError) as error:
        HC.apply(state, Action("close", "zz"), ScriptedDice([]))
    assert error.value.spec_id == "A001.22"
    with pytest.raises(UserError) as error:
        HC.declare_attack(state, "a", "lasers", "b")
    assert error.value.spec_id == "R001.14"
    with pytest.raises(UserError) as error:
        HC.declare_attack(state, "a", "phasers", "b", {"power": 0})
    assert error.value.spec_id == "R001.15"
    with pytest.raises(UserError) as error:
        HC.declare_attack(state, "a", "photon-1", "b", {"power": 3})
    assert error.value.spec_id == "R001.5"


def test_actions_offer_only_legal_declarations_with_their_fields():
    state = duel(distance=30.0)
    power_phase = HC.actions(state, TurnPosition(1, 0, 0, 0), "A")
    assert [(c.kind, c.actor, c.spec_id) for c in power_phase] == [("roll_power", "a", "R001.4")]
    assert HC.actions(state, TurnPosition(1, 1, 0, 0), "A")[0].kind == "rotate"
    assert "close" not in {c.kind for c in HC.actions(state, TurnPosition(1, 1, 0, 0), "A")}
    state = act(state, "roll_power", "a", [1, 1]).state
    movement = {c.kind for c in HC.actions(state, TurnPosition(1, 1, 0, 0), "A")}
    assert movement == {"rotate", "close", "lateral"}  # no cloak, no retreat beyond 3
    fire = HC.actions(state, TurnPosition(1, 3, 0, 0), "A")
    phasers = next(c for c in fire if c.title.startswith("phasers:"))
    power = next(f for f in phasers.fields if f.name == "power")
    assert (power.default, power.low, power.high) == (2, 1, 2)
    # what sets the rows apart first, the ship last (one ship's rows)
    assert {c.title for c in fire} == {"phasers: fire from a", "photon-1: fire from a"}
    result = HC.actions(state, TurnPosition(1, 4, 0, 0), "A")
    assert [(c.kind, c.actor) for c in result] == [("resolve", "A")]
    assert HC.actions(state, TurnPosition(2, 0, 0, 0), "B")[0].kind == "resolve"  # pending
    resolved = act(state, "resolve", "A").state
    assert HC.actions(resolved, TurnPosition(1, 4, 1, 0), "B") == ()


def test_categorical_geometry_keeps_the_models_still():
    state = duel(distance=30.0, geometry="categorical", start_range=2)
    assert the_duel(state).range == 2
    state = act(act(state, "roll_power", "a", [1, 1]).state, "close", "a").state
    state = act(act(state, "roll_power", "b", [1, 1]).state, "lateral", "b", engage="port").state
    result = act(state, "resolve", "A")
    assert the_duel(result.state).range == 1
    assert result.state.units == state.units  # nothing moved on the table
    assert ship_state(result.state, "a").facing == "port"  # B engaged A's port side
    rotated = act(act(result.state, "rotate", "b", to="dorsal").state, "resolve", "A").state
    rotated = act(rotated, "resolve", "A").state
    assert ship_state(rotated, "b").facing == "dorsal"


def test_with_ship_helper_keeps_the_rest():
    state = with_ship(duel(), "a", torpedoes=3)
    assert ship_state(state, "a").torpedoes == 3 and ship_state(state, "b").torpedoes == 20
    assert to_rule_state(state, the_duel(state)) == state
