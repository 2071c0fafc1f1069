"""The rule-system protocol: events, resolutions, odds reports, turn sequences, combat hooks."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tactical.dice import Distribution, SeededDice
from tactical.errors import UserError
from tactical.model import Board, FrozenMap, GameState
from tactical.rules import registry
from tactical.rules.base import (
    Attack,
    Event,
    NoCombatResolvers,
    OddsReport,
    OddsSection,
    Phase,
    RuleSystem,
    TurnPosition,
    TurnSequence,
)


def test_event_cites_its_rule_and_renders():
    event = Event.of("threshold", "R000.5", laser_strength=6, range=11, needed=9)
    assert event.get("needed") == 9
    assert event.values == {"laser_strength": 6, "range": 11, "needed": 9}
    assert event.as_dict() == {
        "kind": "threshold",
        "spec_id": "R000.5",
        "laser_strength": 6,
        "range": 11,
        "needed": 9,
    }
    assert event.describe() == "threshold: laser_strength=6, range=11, needed=9 (R000.5)"
    assert hash(event) == hash(
        Event.of("threshold", "R000.5", laser_strength=6, range=11, needed=9)
    )


def test_odds_report_json_keys_are_stable():
    report = OddsReport(
        "x",
        Attack("a", "gun", "b", FrozenMap(n=2)),
        FrozenMap(range=3),
        (
            OddsSection(
                "result", "R1", "result", Distribution.from_weights([("hit", 1), ("miss", 3)])
            ),
        ),
    )
    document = report.as_dict()
    assert set(document) == {
        "rules",
        "attacker",
        "weapon",
        "target",
        "params",
        "facts",
        "distributions",
    }
    assert document["distributions"][0] == {
        "name": "result",
        "spec_id": "R1",
        "outcomes": [
            {"result": "hit", "probability": "1/4", "percent": 25.0},
            {"result": "miss", "probability": "3/4", "percent": 75.0},
        ],
    }
    assert report.section("result").distribution.probability("miss") == Fraction(3, 4)


def test_plain_turn_sequence_gives_each_side_one_go_per_phase():
    sequence = TurnSequence((Phase("Move"), Phase("Fire")))
    position = sequence.start()
    seen = []
    for _ in range(5):
        seen.append((position.turn, sequence.phase(position).name, position.side))
        position = sequence.advance(position, 2)
    assert seen == [(1, "Move", 0), (1, "Move", 1), (1, "Fire", 0), (1, "Fire", 1), (2, "Move", 0)]


def test_alternating_phase_runs_until_every_side_passes_in_a_row():
    sequence = TurnSequence((Phase("Combat", "R000.18", alternating=True),))
    position = sequence.start()
    position = sequence.advance(position, 2)  # A attacks
    assert position == TurnPosition(1, 0, 1, 0)
    position = sequence.advance(position, 2, passed=True)  # B passes
    assert position == TurnPosition(1, 0, 0, 1)
    position = sequence.advance(position, 2)  # A attacks again: the passes reset
    assert position.passes == 0 and position.side == 1
    position = sequence.advance(position, 2, passed=True)
    position = sequence.advance(position, 2, passed=True)
    assert position == TurnPosition(2, 0, 0, 0)
    with pytest.raises(UserError):
        sequence.advance(position, 0)


def test_default_turn_sequence_comes_from_phase_names():
    system = RuleSystem(id="t", title="T", seed="999", phases=("One", "Two"))
    assert [p.name for p in system.turn_sequence().phases] == ["One", "Two"]


def test_systems_without_resolvers_say_so():
    system = RuleSystem(id="t", title="Test rules", seed="999")
    state = GameState("t", Board(24, 24))
    assert not system.has_combat
    assert system.weapons(None, {}) == ()  # type: ignore[arg-type]
    for call in (
        lambda: system.declare_attack(state, "a", "gun", "b"),
        lambda: system.resolve_attack(state, Attack("a", "gun", "b"), SeededDice(1)),
        lambda: system.attack_odds(state, Attack("a", "gun", "b")),
    ):
        with pytest.raises(NoCombatResolvers, match="no combat resolvers"):
            call()


def test_registry_finds_battlefleet_mars_and_rejects_unknown_ids():
    system = registry.get("battlefleet-mars")
    assert system.id == "battlefleet-mars" and system.has_combat
    with pytest.raises(UserError, match="unknown rule system"):
        registry.get("nope")
