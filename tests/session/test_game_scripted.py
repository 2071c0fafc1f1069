"""Scripted two-turn games through the Game API, one per registered rule system.

Each registered rule system has its scenario in maps/<rule id>.toml. The stand-in player
(`session.autoplay`: the first attack it may make, else the first other action that
applies, else pass) plays it from the start to the end of two full turns. The same seed
and actions give the same log byte for byte: in this process (replaying the save) and in
another one with a different hash seed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.rules.base import TurnPosition
from tactical.session.autoplay import play_turns
from tactical.session.game import Game
from tactical.session.log import game_log
from tactical.session.saving import history_from_saved, saved_game

SEED = 20260611
RULES = registry.rule_ids()
ROOT = Path(__file__).resolve().parents[2]


def scenario(rules_id: str) -> Path:
    path = builtin_map(rules_id)
    assert path.is_file(), f"rule system {rules_id!r} has no scenario maps/{rules_id}.toml"
    return path


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return {}


def two_turns(games: dict[str, Game], rules_id: str) -> Game:
    if rules_id not in games:
        state = load_map(scenario(rules_id))
        assert state.rules == rules_id
        games[rules_id] = play_turns(Game.new(state, SEED), turns=2)
    return games[rules_id]


@pytest.mark.parametrize("rules_id", RULES)
def test_two_full_turns_from_the_start(games, rules_id):
    game = two_turns(games, rules_id)
    assert game.position == TurnPosition(3, 0, 0, 0)
    sequence = registry.get(rules_id).turn_sequence()
    for turn in (1, 2):
        steps = [s for s in game.steps if s.before.turn == turn]
        ruled = [s for s in steps if not s.by_session]
        assert ruled, f"turn {turn}: the rule system was never asked to resolve anything"
        phases = {s.before.phase for s in steps}
        assert phases == set(range(len(sequence.phases))), "every phase was played"
    for step in game.steps:
        if not step.by_session:
            assert all(event.spec_id for event in step.events), step.action
    assert game.state != Game.new(game.initial, SEED).state, "two turns changed nothing"


@pytest.mark.parametrize("rules_id", RULES)
def test_every_roll_is_in_the_log_as_rolled(games, rules_id):
    game = two_turns(games, rules_id)
    entries = game_log(game).entries
    logged = [(e.step, e.get("die"), e.get("result")) for e in entries if e.entry == "roll"]
    rolled = [(s.number, r.die, r.result) for s in game.steps for r in s.rolls]
    assert logged == rolled
    assert rolled, "two turns without a single die"


@pytest.mark.parametrize("rules_id", RULES)
def test_replaying_the_save_gives_the_same_game_and_log_byte_for_byte(games, rules_id):
    game = two_turns(games, rules_id)
    replayed = history_from_saved(saved_game(game), f"{rules_id}.json").game
    assert replayed.position == game.position
    assert replayed.state.units == game.state.units
    assert replayed.state.rule_state == game.state.rule_state
    assert game_log(replayed).text().encode() == game_log(game).text().encode()
    assert game_log(replayed).json().encode() == game_log(game).json().encode()


def test_another_process_gives_the_same_logs(games):
    """Nothing in a log depends on the process (hash seeds, addresses, set order)."""
    script = (
        "import hashlib, sys\n"
        "from tactical.io import builtin_map, load_map\n"
        "from tactical.session.autoplay import play_turns\n"
        "from tactical.session.game import Game\n"
        "from tactical.session.log import game_log\n"
        "for rules_id in sys.argv[2:]:\n"
        "    game = play_turns(Game.new(load_map(builtin_map(rules_id)), int(sys.argv[1])))\n"
        "    log = game_log(game)\n"
        "    text = (log.text() + log.json()).encode()\n"
        "    print(rules_id, hashlib.sha256(text).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    result = subprocess.run(
        [sys.executable, "-c", script, str(SEED), *RULES],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    theirs = dict(line.split() for line in result.stdout.splitlines())
    ours = {}
    for rules_id in RULES:
        log = game_log(two_turns(games, rules_id))
        ours[rules_id] = hashlib.sha256((log.text() + log.json()).encode()).hexdigest()
    assert theirs == ours


def test_a_different_seed_gives_a_different_game():
    state = load_map(scenario("battlefleet-mars"))
    one = play_turns(Game.new(state, SEED), turns=1)
    other = play_turns(Game.new(state, SEED + 1), turns=1)
    assert [s.results for s in one.steps] != [s.results for s in other.steps]


def test_battlefleet_mars_final_state_follows_its_log(games):
    """R000.17/R000.18: declared missiles are spent; R000.10/R000.11: destroyed units leave;
    A000.11: L results lower a ship's or base's laser strength."""
    game = two_turns(games, "battlefleet-mars")
    start = Game.new(game.initial, SEED).state
    declared: dict[str, int] = {}
    destroyed: dict[str, int] = {}
    lowered: dict[str, int] = {}
    for step in game.steps:
        for event in step.events:
            if event.kind == "laser-damage":
                lowered[event.get("target")] = event.get("lowered_to")
            if event.kind == "declare" and event.get("weapon") == "missiles":
                attacker = event.get("attacker")
                declared[attacker] = declared.get(attacker, 0) + event.get("missiles")
            if event.kind == "outcome" and event.get("destroyed"):
                destroyed[event.get("target")] = destroyed.get(event.get("target"), 0) + 1
    assert declared, "the stand-in fired a missile salvo"
    for unit_id, count in declared.items():
        before = start.unit(unit_id).stats
        if before["type"] == "missile":
            left = before["count"] - count - destroyed.get(unit_id, 0)
            assert left > 0 or not game.state.has_unit(unit_id)
            if left > 0:
                assert game.state.unit(unit_id).stats["count"] == left
        else:
            assert game.state.unit(unit_id).stats["missiles"] == before["missiles"] - count
    for unit in start.units:
        if unit.id not in declared and unit.id not in destroyed:
            now = game.state.unit(unit.id)
            laser = ("laser_strength", "printed_laser_strength")
            # other damage results are base-game codes (R000.12)
            assert {k: v for k, v in now.stats.items() if k not in laser} == {
                k: v for k, v in unit.stats.items() if k not in laser
            }
            if "laser_strength" in unit.stats or unit.id in lowered:
                assert now.stats["laser_strength"] == lowered.get(
                    unit.id, unit.stats.get("laser_strength")
                )
