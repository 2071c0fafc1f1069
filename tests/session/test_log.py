"""The game log: every action, roll and event with its SPEC id; text and JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import pytest
from plain_words import code_like

from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.session.game import MOVE, Game
from tactical.session.log import LOG_FORMAT, LOG_VERSION, game_log, plain, step_entries

SEED = 31337


@pytest.fixture(scope="module")
def played() -> Game:
    game = Game.new(load_map(builtin_map("battlefleet-mars")), SEED)
    game = game.apply(Action(MOVE, "mars-fighters", FrozenMap(path="C90 F2")))
    game = game.pass_go().pass_go().pass_go().pass_go()  # Logistics and Launch (R000.16-17)
    return game.apply(
        Action("attack", "deimos-base", FrozenMap(weapon="missiles", target="ares-cruiser"))
    )


def test_the_log_opens_with_the_game_and_its_first_phase(played):
    entries = game_log(played).entries
    start, phase = entries[:2]
    assert start.as_dict() == {
        "step": 0,
        "entry": "start",
        "rules": "battlefleet-mars",
        "title": "Deimos orbital base",
        "seed": SEED,
    }
    assert phase.as_dict() == {
        "step": 0,
        "entry": "phase",
        "turn": 1,
        "phase": "Logistics",
        "spec_id": "R000.16",
        "side": "Mars",
    }


def test_every_step_logs_its_action_rolls_and_events(played):
    step = played.last_step
    entries = step_entries(step)
    action = entries[0].as_dict()
    assert action == {
        "step": 6,
        "entry": "action",
        "turn": 1,
        "phase": "Tactical combat",
        "phase_spec_id": "R000.18",
        "side": "Mars",
        "kind": "attack",
        "actor": "deimos-base",
        # the declaration as completed from the choice's defaults: six missiles, CIWS on
        "params": {"weapon": "missiles", "target": "ares-cruiser", "missiles": 6, "ciws": True},
        "title": "Deimos Base: missiles",
    }
    rolls = [e.as_dict() for e in entries if e.entry == "roll"]
    assert rolls == [{"step": 6, "entry": "roll", **r.as_dict()} for r in step.rolls]
    assert len(rolls) >= 6  # one CIWS roll per declared missile at least (R000.22)
    events = [e for e in entries if e.entry == "event"]
    assert [(e.get("kind"), e.get("spec_id")) for e in events] == [
        (ev.kind, ev.spec_id) for ev in step.events
    ]
    assert all(e.get("spec_id") for e in events)  # every event cites its rule


def test_a_phase_change_is_logged_after_the_step_that_made_it(played):
    phases = [e for e in game_log(played).entries if e.entry == "phase"]
    assert [(e.step, e.get("phase"), e.get("side")) for e in phases] == [
        (0, "Logistics", "Mars"),
        (3, "Launch", "Mars"),
        (5, "Tactical combat", "Mars"),
    ]


def test_text_is_one_line_per_entry_in_plain_words(played):
    """Each entry a line a player reads: units by name, keys as words, yes / no, the step's
    own words after its action; no key=value pairs nor snake_case."""
    log = game_log(played)
    lines = log.text().splitlines()
    assert len(lines) == len(log.entries)
    assert lines[0] == (
        f'#0 Start: Battlefleet Mars: Tactical Game Changes, "Deimos orbital base", seed {SEED}'
    )
    assert lines[1] == "#0 Turn 1, Logistics (R000.16): Mars to act"
    assert lines[2] == "#1 Mars: move Mars fighter wing, path C90 F2 (turn 1, Logistics)"
    assert lines[3].startswith("#1   move: unit Mars fighter wing, path C90 F2, x 17, y 14")
    assert lines[4] == "#2 Mars: pass (turn 1, Logistics)"
    assert "#5 Turn 1, Tactical combat (R000.18): Mars to act" in lines
    attack = next(line for line in lines if line.startswith("#6 "))
    assert attack.startswith(
        "#6 Mars: attack Deimos Base, weapon missiles, target Ares cruiser Nemesis, missiles 6, "
        "ciws yes (turn 1, Tactical combat) — Deimos Base's missiles at Ares cruiser Nemesis"
    )
    roll = next(line for line in lines if line.startswith("#6   ") and " rolls " in line)
    assert roll.startswith("#6   Ares cruiser Nemesis rolls ") or roll.startswith(
        "#6   Deimos Base rolls "
    )
    assert "(a d10z, 10 faces)" in roll
    cited = [line for line in lines if line.startswith("#6   ") and " rolls " not in line]
    assert all("(R000." in line or "(A000." in line or "(T000." in line for line in cited)
    assert not [line for line in lines if "=" in line or code_like(line)]


def test_json_has_stable_keys_and_round_trips(played):
    log = game_log(played)
    document = json.loads(log.json())
    assert list(document) == ["format", "version", "rules", "title", "seed", "entries"]
    assert (document["format"], document["version"]) == (LOG_FORMAT, LOG_VERSION)
    assert document["entries"] == [entry.as_dict() for entry in log.entries]
    assert log.json().endswith("\n")


def test_the_same_seed_and_actions_give_the_same_log_byte_for_byte(played):
    again = Game.new(load_map(builtin_map("battlefleet-mars")), SEED)
    for step in played.steps:
        again = again.apply(step.action)
    assert game_log(again).text().encode() == game_log(played).text().encode()
    assert game_log(again).json().encode() == game_log(played).json().encode()
    other = Game.new(load_map(builtin_map("battlefleet-mars")), SEED + 1)
    for step in played.steps:
        other = other.apply(step.action)
    assert game_log(other).text() != game_log(played).text()


def test_for_step_picks_one_steps_entries(played):
    log = game_log(played)
    assert log.for_step(6) == step_entries(played.last_step)
    assert [e.entry for e in log.for_step(0)] == ["start", "phase"]


class Colour(StrEnum):
    RED = "red"


@dataclass(frozen=True)
class Card:
    name: str
    odds: Fraction


def test_plain_values_render_the_same_in_every_run():
    assert plain(Fraction(1, 3)) == "1/3" and plain(Fraction(4, 2)) == 2
    assert plain({"b", "a", "c"}) == ["a", "b", "c"]
    assert plain(frozenset({2, 1})) == [1, 2]
    assert plain(Colour.RED) == "red"
    assert plain(Card("x", Fraction(1, 2))) == {"name": "x", "odds": "1/2"}
    assert plain(FrozenMap(a=(1, 2))) == {"a": [1, 2]}
    assert plain(float("inf")) == "inf"
    assert plain(None) is None and plain(True) is True


def test_an_event_line_reads_a_coded_result_by_the_name_the_rules_give_it():
    """A table result stored as a code ("critical-5") reads by its name in the text log,
    the code itself kept in the data (saves and the JSON log stay as they were)."""
    from tactical.session.log_words import entry_line

    values = {
        "kind": "lookup",
        "spec_id": "G.5",
        "data": {"table": "Critical Hit Table", "total": 5, "result": "critical-5",
                 "name": "Critical Hit Table 5"},
    }  # fmt: skip
    line = entry_line(7, "event", values, {}, "")
    assert (
        line == "#7   lookup (G.5): table Critical Hit Table, total 5, result Critical Hit Table 5"
    )
    repair = {
        "kind": "damage-repair",
        "spec_id": "R002.19",
        "data": {"unit": "ruler", "effect": "chaos", "name": "Chaos and Disarray", "roll": 4},
    }
    assert entry_line(9, "event", repair, {"ruler": "Ruler"}, "") == (
        "#9   damage repair (R002.19): unit Ruler, effect Chaos and Disarray, roll 4"
    )
