"""Expected effects remembered by what they read of the rule state (`agents.reads`): a
key read, or its absence, is a dependency; a key written first is not; reading the map
whole (iterating, comparing, hashing) makes every key one. An effect asked again on a
table that differs only in keys it never read is the same effect, not computed again;
a change to a key it read computes it again."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tactical.agents.evaluation import Effect, Material
from tactical.agents.reads import ALL, WatchedMap, path, watching
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.session.game import Game


def _counted_effect(calls: list[int]):
    """An effect of the rule-state entry "a" that counts in `calls` each time it is worked
    out."""

    def compute(state):
        calls.append(1)
        return Effect(float(state.rule_state.get("a", 0)), 1, True)

    return compute


@pytest.fixture(scope="module")
def game():
    return Game.new(load_map(builtin_map("battlefleet-mars")), 7)


def _with(state, **rule_state):
    return replace(state, rule_state=FrozenMap(rule_state))


def test_keys_read_are_noted_and_keys_written_first_are_not(game):
    state, reads = watching(_with(game.state, a=1, b=2, c=3))
    assert state.rule_state["a"] == 1
    assert state.rule_state.get("missing") is None
    assert "b" in state.rule_state
    after = state.with_rule_state(c=30)
    assert after.rule_state["c"] == 30  # its own write: not a dependency
    assert isinstance(after.rule_state, WatchedMap)
    assert after.rule_state.get("b") == 2  # still the watched state's value: a dependency
    assert reads.key() == ("a", "b", "missing")


@pytest.mark.parametrize(
    "whole",
    [
        lambda m: list(m),
        lambda m: len(m),
        lambda m: hash(m),
        lambda m: dict(m),
        lambda m: m == FrozenMap(a=1),
        lambda m: FrozenMap(a=1) == m,
        lambda m: FrozenMap(a=1) != m,
    ],
)
def test_reading_the_map_whole_makes_every_key_a_dependency(game, whole):
    state, reads = watching(_with(game.state, a=1))
    whole(state.rule_state)
    assert reads.key() is ALL


def test_an_effect_is_computed_again_only_when_what_it_read_changes(game):
    material = Material(game)
    calls: list[int] = []
    compute = _counted_effect(calls)

    head = ("test", "declared", "side")
    first = material.remembered(head, _with(game.state, a=1, b=1), compute)
    again = material.remembered(head, _with(game.state, a=1, b=2), compute)  # b never read
    assert (first, again, len(calls)) == (Effect(1.0, 1, True), Effect(1.0, 1, True), 1)
    changed = material.remembered(head, _with(game.state, a=2, b=2), compute)
    assert (changed, len(calls)) == (Effect(2.0, 1, True), 2)
    moved = replace(_with(game.state, a=1, b=3), units=game.state.units[1:])
    material.remembered(head, moved, compute)  # another table: computed again
    assert len(calls) == 3


def test_a_table_is_read_entry_by_entry(game):
    state, reads = watching(_with(game.state, t=FrozenMap(x=1, y=2), n=3))
    assert state.rule_state["t"]["x"] == 1
    assert state.rule_state.get("t").get("z") is None  # an entry's absence is read too
    assert reads.key() == (path("t", "x"), path("t", "z"))
    after = state.with_rule_state(t=state.rule_state["t"].set("x", 5))
    assert after.rule_state["t"]["x"] == 5  # set by the computation: its own
    assert after.rule_state["t"]["y"] == 2  # kept from the watched table: a dependency
    assert reads.key() == (path("t", "x"), path("t", "y"), path("t", "z"))
    list(after.rule_state["t"])  # the table read whole: the whole key
    assert reads.key() == ("t", path("t", "x"), path("t", "y"), path("t", "z"))


def test_an_effect_reading_one_entry_is_computed_again_only_when_that_entry_changes(game):
    material = Material(game)
    calls = []

    def compute(state):
        calls.append(1)
        table = state.rule_state.get("t")
        return Effect(float(table.get("x", 0) if isinstance(table, FrozenMap) else -1), 1, True)

    head = ("test", "entry", "side")
    first = material.remembered(head, _with(game.state, t=FrozenMap(x=1, y=1)), compute)
    again = material.remembered(head, _with(game.state, t=FrozenMap(x=1, y=2)), compute)
    assert (first, again, len(calls)) == (Effect(1.0, 1, True), Effect(1.0, 1, True), 1)
    changed = material.remembered(head, _with(game.state, t=FrozenMap(x=2, y=2)), compute)
    assert (changed, len(calls)) == (Effect(2.0, 1, True), 2)
    gone = material.remembered(head, _with(game.state, t=7), compute)  # no table there now
    assert (gone, len(calls)) == (Effect(-1.0, 1, True), 3)


def test_the_effects_remembered_by_reads_stay_bounded_and_right(game, monkeypatch):
    monkeypatch.setattr("tactical.agents.evaluation.MAX_EFFECTS", 4)
    material = Material(game)
    calls: list[int] = []
    compute = _counted_effect(calls)

    head = ("test", "declared", "side")
    for a in range(10):
        assert material.remembered(head, _with(game.state, a=a, b=a), compute).expected == a
        held = sum(len(inner) for inner in material.by_reads.values())
        assert held <= 4 and held == material._by_reads_held
    assert len(calls) == 10
    # the last one is still known by its reads: another b, the same a
    assert material.remembered(head, _with(game.state, a=9, b=0), compute).expected == 9
    assert len(calls) == 10


def test_the_very_state_asked_again_is_found_by_identity_and_an_equal_one_by_its_reads(game):
    material = Material(game)
    calls: list[int] = []
    compute = _counted_effect(calls)

    head = ("test", "declared", "side")
    state = _with(game.state, a=3)
    first = material.remembered(head, state, compute)
    assert material.remembered(head, state, compute) is first  # the same object, kept
    equal = _with(game.state, a=3)  # equal by value, another object: by what it read
    assert equal is not state and material.remembered(head, equal, compute) is first
    assert len(calls) == 1
    assert all(kept[0] is not None for kept in material.effects.values())


def test_a_question_or_a_read_that_is_no_value_is_computed_every_time(game):
    material = Material(game)
    calls = []

    def compute(state):
        calls.append(1)
        return Effect(float(len(state.rule_state.get("a", ()))), 1, True)

    unhashable = ("test", ["not", "a", "value"])
    state = _with(game.state, a=(1, 2))
    assert material.remembered(unhashable, state, compute).expected == 2.0
    assert material.remembered(unhashable, state, compute).expected == 2.0
    assert len(calls) == 2

    loose = replace(game.state, rule_state=FrozenMap(a=(1,)))
    loose.rule_state._data["a"] = [1]  # a list slipped in: no key can hold it
    head = ("test", "declared", "side")
    assert material.remembered(head, loose, compute).expected == 1.0
    assert material.remembered(head, loose, compute).expected == 1.0
    assert len(calls) == 4
    assert material._by_reads_held == 0


def test_an_equal_question_asked_anew_is_found_and_the_questions_kept_stay_bounded(
    game, monkeypatch
):
    monkeypatch.setattr("tactical.agents.evaluation.MAX_EFFECTS", 4)
    material = Material(game)
    calls: list[int] = []
    compute = _counted_effect(calls)

    state = _with(game.state, a=5)
    # an equal question made anew (another tuple, another map): the same effect, once
    first = material.remembered(("test", FrozenMap(w="gun")), state, compute)
    again = material.remembered(("test", FrozenMap(w="gun")), _with(game.state, a=5), compute)
    assert (first, again, len(calls)) == (Effect(5.0, 1, True), Effect(5.0, 1, True), 1)
    other = material.remembered(("test", FrozenMap(w="torpedo")), state, compute)
    assert (other, len(calls)) == (Effect(5.0, 1, True), 2)
    for k in range(10):
        material.remembered(("test", k), state, compute)
        assert len(material._heads) <= 4
    assert len(calls) == 12
    # a question that is no value: computed every time, never kept
    assert material.remembered(("test", []), state, compute) == Effect(5.0, 1, True)
    assert material.remembered(("test", []), state, compute) == Effect(5.0, 1, True)
    assert len(calls) == 14
