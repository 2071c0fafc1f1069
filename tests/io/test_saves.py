"""Saved games as JSON: format, round trip, atomic write, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.io.maps import map_document
from tactical.io.saves import (
    SAVE_FORMAT,
    SAVE_VERSION,
    SavedAction,
    SavedGame,
    SaveError,
    dumps_save,
    loads_save,
    read_save,
    save_document,
    write_save,
)
from tactical.model import FrozenMap, thaw
from tactical.rules import registry


@pytest.fixture(scope="module")
def saved() -> SavedGame:
    state = load_map(builtin_map("battlefleet-mars"))
    return SavedGame(
        state,
        77,
        (
            SavedAction("pass", "Mars"),
            SavedAction(
                "attack", "ares-cruiser", FrozenMap(weapon="laser", target="deimos-base"), (3, 9)
            ),
            SavedAction(
                "move", "mars-fighters", FrozenMap(path="C90 F2", activation={"x": [1, 2]})
            ),
        ),
        2,
    )


def document_of(saved: SavedGame) -> dict:
    return json.loads(dumps_save(saved))


def test_the_document_has_fixed_keys_and_the_map_document(saved):
    document = document_of(saved)
    assert list(document) == [
        "format",
        "version",
        "rules",
        "seed",
        "map",
        "defaults",
        "cursor",
        "actions",
    ]
    assert (document["format"], document["version"]) == (SAVE_FORMAT, SAVE_VERSION)
    assert document["rules"] == "battlefleet-mars" and document["seed"] == 77
    assert document["map"] == json.loads(json.dumps(map_document(saved.initial)))
    # the defaults of the options the map leaves out are recorded beside it, so that a
    # changed default never changes how the save plays
    in_force = registry.get(saved.rules).options(dict(saved.initial.options))
    assert document["defaults"] == {
        key: value for key, value in in_force.items() if key not in saved.initial.options
    }
    assert document["defaults"]["turn_limit"] == 6
    assert document["actions"][1] == {
        "kind": "attack",
        "actor": "ares-cruiser",
        "params": {"weapon": "laser", "target": "deimos-base"},
        "rolls": [3, 9],
    }
    assert document["cursor"] == 2


def test_round_trip_gives_the_same_game_and_the_same_bytes(saved):
    text = dumps_save(saved)
    loaded = loads_save(text, "x.json")
    assert loaded == saved
    assert loaded.initial == saved.initial
    assert dumps_save(loaded) == text


def test_rule_state_of_the_starting_map_is_kept(saved):
    from dataclasses import replace

    kept = registry.get(saved.rules).setup(saved.initial).rule_state
    started = {**kept, "turn": 3, "order": ("a",)}
    seeded = replace(saved, initial=saved.initial.with_rule_state(**started))
    document = document_of(seeded)
    assert document["rule_state"]["turn"] == 3 and document["rule_state"]["order"] == ["a"]
    assert loads_save(dumps_save(seeded)).initial.rule_state == seeded.initial.rule_state


@pytest.mark.parametrize(
    ("change", "key", "expected"),
    [
        (lambda kept: kept.pop("fired"), "rule_state.fired", "a value (the rules keep it"),
        (lambda kept: kept.update(turn="three"), "rule_state.turn", "a number, as the rules"),
        (lambda kept: kept.update(fired={"a": 1}), "rule_state.fired", "a list, as the rules"),
    ],
)
def test_a_made_up_rule_state_is_refused_naming_the_key(saved, change, key, expected):
    """The starting bookkeeping is the rules' own: their keys all there, each value of the
    kind they keep (a number, a text, a list, a table, true or false)."""
    document = document_of(saved)
    kept = thaw(registry.get(saved.rules).setup(saved.initial).rule_state)
    change(kept)
    document["rule_state"] = kept
    with pytest.raises(SaveError) as refused:
        loads_save(json.dumps(document), "made-up.json")
    assert refused.value.message.startswith(f"made-up.json: {key}: expected {expected}")


def test_write_is_atomic_and_leaves_no_temporary_file(saved, tmp_path):
    path = tmp_path / "game.json"
    path.write_text("old")
    write_save(saved, path)
    assert read_save(path) == saved
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_write_to_a_missing_folder_is_a_user_error(saved, tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        write_save(saved, tmp_path / "nowhere" / "game.json")


def edited(saved: SavedGame, **changes) -> str:
    document = save_document(saved)
    document = json.loads(json.dumps(document))
    for key, value in changes.items():
        if value is None:
            document.pop(key)
        else:
            document[key] = value
    return json.dumps(document)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "the file is empty"),
        ("{not json", r"expected JSON \(line 1, column 2"),
        ("[1, 2]", "a JSON object"),
        ('{"format": "other"}', "format: expected 'tactical-save'"),
    ],
)
def test_not_a_save_is_a_save_error(text, match):
    with pytest.raises(SaveError, match=match) as error:
        loads_save(text, "bad.json")
    assert str(error.value).startswith("bad.json: ")


@pytest.mark.parametrize(
    ("changes", "key", "expected"),
    [
        ({"version": 4}, "version", "1, 2 or 3 (this save has version 4)"),
        ({"rules": "chess"}, "rules", "a known rule system id"),
        ({"seed": -3}, "seed", "a whole number >= 0"),
        ({"seed": None}, "seed", "a value (this key is required)"),
        ({"cursor": 9}, "cursor", "a whole number from 0 to 3"),
        ({"actions": {}}, "actions", "an array of actions"),
        ({"actions": [{"kind": "pass"}]}, "actions[0].actor", "a value"),
        ({"actions": [{"kind": "", "actor": "A"}]}, "actions[0].kind", "a non-empty string"),
        (
            {"actions": [{"kind": "x", "actor": "A", "rolls": [1.5]}]},
            "actions[0].rolls",
            "an array",
        ),
        ({"actions": [{"kind": "x", "actor": "A", "why": 1}]}, "actions[0].why", "a known key"),
        ({"extra": 1}, "extra", "a known key"),
        ({"map": []}, "map", "a map document"),
        ({"rule_state": [1]}, "rule_state", "an object"),
    ],
)
def test_a_bad_save_names_the_key_and_what_was_expected(saved, changes, key, expected):
    with pytest.raises(SaveError) as error:
        loads_save(edited(saved, **changes), "game.json")
    assert error.value.key == key
    assert expected in error.value.expected
    assert str(error.value).startswith(f"game.json: {key}: expected ")


def test_a_bad_map_inside_the_save_names_its_key(saved):
    document = json.loads(dumps_save(saved))
    document["map"]["unit"][0]["x"] = "left"
    with pytest.raises(SaveError) as error:
        loads_save(json.dumps(document), "game.json")
    assert error.value.key == "map.unit[0].x"
    assert "number" in error.value.expected
    document["map"]["rules"] = "heavy-combat"
    with pytest.raises(SaveError, match=r"map\.rules: expected 'battlefleet-mars'"):
        loads_save(json.dumps(document), "game.json")


def test_unreadable_files_are_save_errors(tmp_path):
    with pytest.raises(SaveError, match="no such file"):
        read_save(tmp_path / "missing.json")
    with pytest.raises(SaveError, match="not a directory"):
        read_save(tmp_path)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe")
    with pytest.raises(SaveError, match="UTF-8"):
        read_save(binary)


def test_a_value_json_cannot_hold_is_a_user_error(saved):
    from dataclasses import replace

    odd = replace(saved, actions=(SavedAction("x", "A", FrozenMap(n=float("nan"))),), cursor=0)
    with pytest.raises(UserError, match="cannot be saved as JSON"):
        dumps_save(odd)


def test_saves_are_data_only(saved, tmp_path):
    """Nothing in a save is evaluated: a string that looks like code stays a string."""
    from dataclasses import replace

    trick = replace(saved, actions=(SavedAction("x", "__import__('os')", FrozenMap()),), cursor=0)
    path = Path(tmp_path / "trick.json")
    write_save(trick, path)
    assert read_save(path).actions[0].actor == "__import__('os')"
