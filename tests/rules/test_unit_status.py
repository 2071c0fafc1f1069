"""Each rule system reports a unit's status and a resolution in words.

`RuleSystem.unit_status` gives labelled current values with their maxima and which
of them the table shows; `summarise` a plain-words line of what an action did and
what it changed; `unavailable` the refused actions of the phase with reasons.
"""

from __future__ import annotations

import re

import pytest

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import FrozenMap
from tactical.rules import registry
from tactical.rules.base import Action
from tactical.rules.status import counted, label, plain_value, words
from tactical.session import autoplay
from tactical.session.game import Game

CODE = re.compile(r"\b[A-Z]\w+\(\w+=|\bTrue\b|\bFalse\b|\bNone\b|\b[a-z]+_[a-z_]+\b")


def test_words_and_labels_read_schema_keys_as_words():
    assert words("battery_damage") == "battery damage"
    assert label("laser_strength") == "Laser strength"
    assert label("deimos-base.fighters") == "Deimos base fighters"
    assert plain_value(True) == "yes" and plain_value(None) == "-" and plain_value(2.0) == "2"
    value = counted("Hull", 6, 7, token="bar")
    assert value.text == "6/7" and value.fraction == pytest.approx(6 / 7)


def started(rules_id: str) -> Game:
    state = load_map(builtin_map(rules_id))
    return Game.new(state, 3)


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_every_unit_has_a_labelled_status_with_a_token(rules_id):
    game = started(rules_id)
    system = game.system
    tokens = 0
    for unit in game.state.units:
        status = system.unit_status(game.state, unit)
        assert status.values, unit.id
        for value in status.values:
            assert value.label and value.text, (unit.id, value)
            assert not CODE.search(value.label) and not CODE.search(value.text), value
            if value.maximum is not None and value.current is not None:
                assert 0 <= value.current <= value.maximum or value.token == "", value
        tokens += bool(status.tokens)
        for weapon in status.weapons:
            assert weapon.name and not CODE.search(" ".join(vars_of(weapon))), weapon
    assert tokens > 0


def vars_of(weapon) -> list[str]:
    return [weapon.name, weapon.arc, weapon.ranges, weapon.attack, weapon.shots]


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_every_step_of_a_scripted_game_is_said_in_words(rules_id):
    game = started(rules_id)
    for _ in range(40):
        game = autoplay.next_game(game)
        said = game.last_step.words
        assert said and not CODE.search(said), said


def test_R000_11_a_hit_on_a_group_says_the_count_it_lost():
    """BFM: a laser hit that destroys one of a missile group reads "Count 9 → 8"."""
    game = started("battlefleet-mars")
    for _ in range(300):
        game = autoplay.next_game(game)
        step = game.last_step
        if step.action.kind == "attack" and any(
            e.kind == "outcome" and e.get("destroyed") for e in step.events
        ):
            break
    else:
        pytest.fail("no group lost one in 300 steps")
    assert "one destroyed" in step.words and "Count" in step.words and "→" in step.words


def test_R000_3_units_that_fired_are_listed_as_unavailable():
    game = started("battlefleet-mars")
    while not any(c.kind == "attack" for c in game.choices()):
        game = autoplay.next_game(game)
    attack = next(c for c in game.choices() if c.kind == "attack")
    params = next(autoplay.candidate_params(attack))
    game = game.apply(Action(attack.kind, attack.actor, FrozenMap(params)))
    side = game.state.unit(attack.actor).side
    refused = game.system.unavailable(game.state, game.position, side)
    mine = [r for r in refused if r.actor == attack.actor]
    assert mine and all(r.spec_id == "R000.3" and "has fired this turn" in r.reason for r in mine)
    assert not [
        c
        for c in game.system.actions(game.state, game.position, side)
        if c.actor == attack.actor and c.kind == "attack"
    ]
