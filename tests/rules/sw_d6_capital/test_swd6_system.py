"""The sw-d6-capital RuleSystem: registration, conventions (GEO004.1-GEO004.4), options, stats
schema, the scenario map, the CLI odds, and a two-turn game through the generic protocol."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from swd6_builders import ISD, NOWHERE, SYSTEM, ship, table

from tactical.cli import main
from tactical.dice import SeededDice
from tactical.errors import UserError
from tactical.io import load_map, loads_map
from tactical.model import FrozenMap
from tactical.rules import registry
from tactical.rules.base import Action, RuleSystem, TurnPosition
from tactical.rules.measuring import TableGeometry
from tactical.rules.sw_d6_capital import RULE_SYSTEM, ledger

ROOT = Path(__file__).resolve().parents[3]
MAP = ROOT / "maps" / "sw-d6-capital.toml"


def test_rule_system_is_registered_with_its_conventions_GEO004_3():
    assert registry.get("sw-d6-capital") is RULE_SYSTEM is SYSTEM
    assert isinstance(RULE_SYSTEM, RuleSystem) and RULE_SYSTEM.has_combat
    conventions = RULE_SYSTEM.conventions
    assert (conventions.distance_from, conventions.distance_to, conventions.arc_test) == (
        "centre",
        "centre",
        "centre",
    )
    assert [(a.name, a.start, a.end) for a in conventions.arcs] == [
        ("front", 315.0, 45.0),
        ("right", 45.0, 135.0),
        ("rear", 135.0, 225.0),
        ("left", 225.0, 315.0),
    ]


def test_R004_10_turn_sequence_phases_cite_their_rules():
    phases = RULE_SYSTEM.turn_sequence().phases
    assert [(p.name, p.spec_id, p.alternating) for p in phases] == [
        ("Initiative", "R004.11", True),
        ("Command", "R004.15", True),
        ("Damage Control", "R004.19", True),
        ("Action", "R004.25", True),
        ("Movement", "R004.50", True),
    ]


def test_options_defaults_are_the_adopted_readings():
    assert RULE_SYSTEM.options({}) == {
        "turn_limit": 6,  # docs/game-end.md
        "inches_per_space": 1.0,
        "meet_or_beat": False,  # R004.5, A004.5 (revised): a to-hit tie misses
        "meet_or_beat_scope": "to-hit",
        "initiative_pass": False,  # R004.11: no pass before the Initiative roll
        "command_pass": False,  # R004.15, R004.17: no pass before the Command rolls and orders
        "initiative_rounding": "half-pips",
        "range_point_blank": 5,
        "range_short": 10,
        "range_medium": 15,
        "range_long": 20,
        "catastrophic_damage": True,
        "passenger_damage": "bridge",
        "hazard_difficulty": 15,
        "hazard_proximity": 1.0,
    }
    assert RULE_SYSTEM.check_options({"initiative_rounding": "down"})[0].spec_id == "A004.1"
    assert RULE_SYSTEM.check_options({"meet_or_beat": "yes"})[0].spec_id == "A004.5"


def test_A004_5_strict_success_option():
    """A Gunnery roll exactly on the Difficulty hits under meet-or-beat, misses under '>'."""
    outcomes = []
    for meet in (True, False):
        state = SYSTEM.setup(
            table(
                ship("a", 30, 10, "A", **ISD),
                ship("t", 30, 30, "B", 180, **NOWHERE),
                meet_or_beat=meet,
            )
        )
        action = Action("attack", "a", FrozenMap(weapon="front-turbolasers", target="t"))
        exact = [2, 2, 2, 2, 2, 2, 2, 1]  # 8D = 15 against 15 at medium range
        dice = exact + [1] * 11 if meet else exact
        outcomes.append(SYSTEM.apply(state, action, _dice(*dice)).summary.result)
    assert outcomes == ["no-effect", "miss"]


def _dice(*values):
    from tactical.dice import ScriptedDice

    return ScriptedDice(list(values))


def test_GEO004_1_inches_per_space_scales_ranges_and_moves():
    state = SYSTEM.setup(
        table(
            ship("a", 30, 10, "A", **ISD),
            ship("t", 30, 30, "B", 180, **NOWHERE),
            inches_per_space=2.0,
        )
    )
    from tactical.rules.sw_d6_capital import combat, maneuver

    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert facts.space_units == pytest.approx(10) and facts.band == "short"
    assert maneuver.plan_ship_move(state, "a", None).path == "F12"


def test_GEO004_2_check_reports_the_range_band():
    state = load_map(MAP)
    report = TableGeometry.of(state).pair("isd", "nowhere")
    assert report.range_band == "medium" and report.arcs == ("front",)


def test_stats_schema_errors_name_the_key_and_rule():
    good = 'rules = "sw-d6-capital"\n[board]\nwidth = 48\nheight = 48\n'
    unit = (
        '[[unit]]\nid = "isd"\nside = "A"\nx = 5\ny = 5\n'
        'base = { shape = "circle", diameter = 2 }\n'
    )
    cases = [
        ('[unit.stats]\nhull = "seven"\n', "hull", "R004.1"),
        (
            '[unit.stats]\nshields = "1D"\nshield_arcs = { front = "1D", left = "0D+1" }\n',
            "shield_arcs",
            "R004.24",
        ),
        (
            '[[unit.stats.weapons]]\nname = "Guns"\n[[unit.stats.weapons]]\nname = "guns"\n',
            "weapons",
            "R004.26",
        ),
        ('[[unit.stats.weapons]]\nname = "Guns"\nranges = "far"\n', "ranges", "GEO004.2"),
    ]
    for stats, key, rule in cases:
        with pytest.raises(UserError) as error:
            loads_map(good + unit + stats, "bad.toml")
        assert key in str(error.value) and rule in str(error.value)
    assert loads_map(good + unit, "ok.toml").unit("isd").stats == {}


def test_the_scenario_map_loads_with_two_sides_and_full_decks():
    state = load_map(MAP)
    assert state.rules == "sw-d6-capital" and state.sides == ("Rebels", "Empire")
    assert len(state.units) == 6 and {t.kind for t in state.terrain} == {
        "dense",
        "soft",
        "obstructing",
    }
    assert RULE_SYSTEM.weapons(state.unit("isd"), state.options) == (
        "front-turbolaser-batteries",
        "front-ion-cannons",
        "left-turbolasers",
        "left-ion-cannons",
        "right-turbolasers",
    )


def test_tactical_odds_cli_on_the_scenario(capsys):
    code = main(["odds", str(MAP), "isd", "front-turbolaser-batteries", "nowhere", "--json"])
    assert code == 0
    document = json.loads(capsys.readouterr().out)
    assert document["rules"] == "sw-d6-capital" and document["facts"]["band"] == "medium"
    names = [d["name"] for d in document["distributions"]]
    assert names == ["result", "damage_level", "effect", "destroyed"]
    total = sum(float(row["percent"]) for row in document["distributions"][0]["outcomes"])
    assert total == pytest.approx(100)


def test_unknown_action_kinds_and_bad_params_are_user_errors():
    state = SYSTEM.setup(load_map(MAP))
    with pytest.raises(UserError, match="no action 'dance'"):
        SYSTEM.apply(state, Action("dance", "isd"), SeededDice(1))
    assert SYSTEM.action_odds(state, Action("dance", "isd")) is None
    with pytest.raises(UserError, match="takes no"):
        SYSTEM.apply(state, Action("command", "isd", FrozenMap(loud=True)), SeededDice(1))
    with pytest.raises(UserError, match="no unit"):
        SYSTEM.apply(state, Action("command", "x-wing"), SeededDice(1))


# --------------------------------------------------------------------------- a whole game


def _sensible(choice) -> dict:
    """The choice's defaults, with every Battery Die the range allows put into Damage."""
    params = {f.name: f.default for f in choice.fields if f.default is not None}
    for spec in choice.fields:
        if spec.name == "battery_damage":
            params["battery_damage"] = int(spec.high or 0)
    return params


def play_two_turns(seed: int, odds_for: set[str] | None = None):
    """Start to the end of turn 2 through `actions()` / `apply()` only, taking the first
    choice offered (`_sensible` parameters) or passing; odds for the kinds in `odds_for`."""
    state = SYSTEM.setup(load_map(MAP))
    sequence = SYSTEM.turn_sequence()
    position = sequence.start()
    dice = SeededDice(seed)
    log, taken, reports = [], [], {}
    for _ in range(400):
        if position.turn > 2:
            break
        side = state.sides[position.side]
        choices = SYSTEM.actions(state, position, side)
        if not choices:
            position = sequence.advance(position, len(state.sides), passed=True)
            continue
        choice = choices[0]
        action = Action(choice.kind, choice.actor, FrozenMap(_sensible(choice)))
        if odds_for is not None and choice.kind in odds_for and choice.kind not in reports:
            reports[choice.kind] = SYSTEM.action_odds(state, action)
        resolution = SYSTEM.apply(state, action, dice)
        state = resolution.state
        log.extend(resolution.events)
        taken.append((position.turn, sequence.phase(position).name, choice.kind, choice.actor))
        position = sequence.advance(position, len(state.sides))
    else:
        raise AssertionError("the game did not reach the end of turn 2")
    return state, log, taken, reports, dice.rolls


def test_a_two_turn_game_through_the_generic_protocol_is_reproducible():
    state, log, taken, reports, rolls = play_two_turns(3, {"initiative", "attack", "command"})
    assert ledger.turn_of(state) == 2
    phases = {(turn, phase) for turn, phase, _, _ in taken}
    assert {
        (t, p) for t in (1, 2) for p in ("Initiative", "Command", "Action", "Movement")
    } <= phases
    kinds = {kind for _, _, kind, _ in taken}
    assert {
        "initiative",
        "force-point",
        "command",
        "orders",
        "damage-control",
        "angle-shields",
        "attack",
        "maneuver",
        "move",
    } <= kinds
    assert [e.get("level") for e in log if e.kind == "damage-level"] == ["light", "light"]
    start = load_map(MAP)
    assert any(state.unit(u.id).pose != u.pose for u in start.units if state.has_unit(u.id))
    assert all(e.spec_id for e in log)
    json.dumps([e.as_dict() for e in log])  # plain data only
    assert sum(1 for e in log if e.kind == "roll") > 20 and len(rolls) > 100
    assert reports["attack"].section("result").distribution.total == 1
    assert reports["initiative"].section("winner").distribution.total == 1
    again = play_two_turns(3)
    assert again[1] == log and again[0] == state and again[2] == taken
    other = play_two_turns(7)
    assert other[1] != log


def test_actions_only_offer_what_the_position_allows():
    state = SYSTEM.setup(load_map(MAP))
    first = SYSTEM.actions(state, TurnPosition(1, 0, 0, 0), "Rebels")
    assert [c.kind for c in first] == ["initiative"]
    assert first[0].spec_id == "R004.11"
    started = SYSTEM.apply(state, Action("initiative", "Rebels"), SeededDice(5)).state
    command = SYSTEM.actions(started, TurnPosition(1, 1, 0, 0), "Rebels")
    assert {c.kind for c in command} <= {"command", "orders"}
    assert all(started.unit(c.actor).side == "Rebels" for c in command)
