"""Saves made before readings were revised replay exactly as they were played, and saves
record the option defaults they were played under.

The saves in tests/data/before-revision are greedy-against-greedy games of each built-in
map (seeds 1 and 2), saved by the version before the rules revision (save version 1, no
recorded defaults); `digests.jsonl` holds, for each, the digest of every frame of its
replay by that version (`tests/replay_digest.py`). Loading fills each revised option the save
does not name with the value that plays the earlier reading (`Field.before`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from replay_digest import replay_digests

from tactical.io import builtin_map, load_map
from tactical.io.saves import SavedGame, SaveError, dumps_save, loads_save, read_save
from tactical.rules import registry
from tactical.session.saving import history_from_saved

DATA = Path(__file__).parents[1] / "data" / "before-revision"
DIGESTS = {
    line["save"]: line["digests"]
    for line in map(json.loads, (DATA / "digests.jsonl").read_text().splitlines())
}


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_a_save_from_before_the_revision_replays_as_it_was_played(name):
    """Every frame: the units (poses, stats, damage) and the side to act, as played."""
    path = DATA / name
    assert read_save(path).initial.options  # the earlier readings were filled in
    assert replay_digests(path) == DIGESTS[name]


def test_every_revised_option_is_read_with_its_earlier_value_in_a_version_1_save():
    for name in sorted(DIGESTS):
        saved = read_save(DATA / name)
        system = registry.get(saved.rules)
        revised = [field for field in system.option_fields if field.before is not None]
        for field in revised:
            assert saved.initial.options[field.name] == field.before, (name, field.name)
    # the revisions cover every rule system whose readings changed
    revised_systems = {
        rules
        for rules in registry.rule_ids()
        if any(f.before is not None for f in registry.get(rules).option_fields)
    }
    assert revised_systems == set(registry.rule_ids())


def _version_2(rules: str) -> tuple[SavedGame, dict]:
    state = load_map(builtin_map(rules))
    saved = SavedGame(state, 5, (), 0)
    return saved, json.loads(dumps_save(saved))


@pytest.mark.parametrize("rules", ["dystopian-wars", "sw-d6-capital"])
def test_a_new_save_records_the_defaults_and_plays_by_them_after_a_default_changes(rules):
    saved, document = _version_2(rules)
    system = registry.get(rules)
    in_force = system.options(dict(saved.initial.options))
    assert document["version"] == 3  # version 3 keeps the defaults as version 2 did
    assert document["defaults"] == {
        key: value for key, value in in_force.items() if key not in saved.initial.options
    }
    assert loads_save(json.dumps(document)) == saved  # today's defaults: nothing to add
    # a default recorded that is not today's (as after a later revision) is kept explicit
    revised = next(f for f in system.option_fields if f.before is not None)
    document["defaults"][revised.name] = revised.before
    assert revised.before != revised.default
    loaded = loads_save(json.dumps(document))
    assert loaded.initial.options[revised.name] == revised.before
    assert system.options(dict(loaded.initial.options))[revised.name] == revised.before


def test_a_version_1_save_without_the_revised_options_gets_the_earlier_readings():
    _, document = _version_2("dystopian-wars")
    document["version"] = 1
    del document["defaults"]
    loaded = loads_save(json.dumps(document))
    assert loaded.initial.options["models_block"] == "none"
    assert loaded.initial.options["half_rounding"] == "up"
    # an option the map set is kept as set
    document["map"].setdefault("options", {})["models_block"] = "larger"
    assert loads_save(json.dumps(document)).initial.options["models_block"] == "larger"
    # and the game it starts is played under them
    history = history_from_saved(loads_save(json.dumps(document)), "old.json")
    assert history.games[0].state.options["half_rounding"] == "up"


@pytest.mark.parametrize(
    ("change", "key", "words"),
    [
        (lambda d: d.update(defaults=[1]), "defaults", "an object of option values"),
        (
            lambda d: d["defaults"].update(models_block="some"),
            "defaults.models_block",
            "one of 'all', 'larger', 'none'",
        ),
        (lambda d: d["defaults"].update(nonsense=1), "defaults.nonsense", "a known key"),
        (lambda d: d.pop("defaults"), "defaults", "a value (this key is required)"),
        (lambda d: d.update(version=1), "defaults", "no defaults in a version 1 save"),
    ],
)
def test_bad_recorded_defaults_are_refused_naming_the_key(change, key, words):
    _, document = _version_2("dystopian-wars")
    change(document)
    with pytest.raises(SaveError) as caught:
        loads_save(json.dumps(document), "game.json")
    assert caught.value.key == key
    assert words in caught.value.expected
