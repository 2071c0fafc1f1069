"""Unit catalogues: the built-in classes of every rule system and a player's own."""

from __future__ import annotations

import textwrap

import pytest

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.io.catalogue import (
    builtin_catalogue,
    catalogue_for,
    load_catalogue,
    loads_catalogue,
)
from tactical.io.maps import MapError, read_unit
from tactical.rules import registry
from tactical.session import adjust

SCENARIO = {
    "battlefleet-mars": "battlefleet-mars",
    "heavy-combat": "heavy-combat",
    "dystopian-wars": "dystopian-wars",
    "cortex-space": "cortex-space",
    "sw-d6-capital": "sw-d6-capital",
}

OWN = textwrap.dedent(
    """\
    # my own ships
    rules = "dystopian-wars"

    [[class]]
    id = "dreadnought"
    name = "Dreadnought"
    side = "A"
    base = { shape = "rect", width = 2, length = 5 }
    size = "massive"
    [class.stats]
    points = 200
    move = 5.0
    hull_points = 10
    damage_rating = 8
    critical_rating = 12
    """
)


@pytest.mark.parametrize("rules", sorted(SCENARIO))
def test_every_builtin_class_places_on_its_scenario_table(rules):
    catalogue = builtin_catalogue(rules)
    assert catalogue.rules == rules and len(catalogue.classes) >= 2
    assert len(catalogue.sides()) == 2
    state = load_map(builtin_map(SCENARIO[rules]))
    system = registry.get(rules)
    for unit_class in catalogue.classes:
        table = unit_class.unit_table("new", state.board.width / 2, state.board.height / 2)
        unit = read_unit(table, system, state.board, {}, "test", "new")
        assert unit.stats == unit_class.stats and unit.base == unit_class.template.base


def test_a_players_catalogue_adds_classes(tmp_path):
    file = tmp_path / "mine.toml"
    file.write_text(OWN)
    catalogue = catalogue_for("dystopian-wars", file)
    assert catalogue.find("dreadnought").name == "Dreadnought"
    assert catalogue.find("RULER").id == "ruler"  # the built-in ones are still there
    assert catalogue.by_side("A")[-1].id == "dreadnought"
    # a catalogue for another rule system adds nothing to this one
    assert catalogue_for("cortex-space", file) == builtin_catalogue("cortex-space")


def test_a_class_placed_by_adjustment():
    catalogue = builtin_catalogue("dystopian-wars")
    draft = adjust.TableDraft.empty("dystopian-wars", 72, 48)
    table = catalogue.find("ruler").unit_table("ruler", 12, 6, 0)
    draft = draft.apply(adjust.add_unit(table))
    assert draft.state.unit("ruler").stats["hull_points"] == 8


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (("hull_points = 10", "hull_points = -2"), "mine.toml:13: class[0].stats.hull_points"),
        (("size = ", "colour = "), "mine.toml:9: class[0].colour: expected a known key"),
        (('id = "dreadnought"', 'id = "two words"'), "mine.toml:5: class[0].id"),
        (('rules = "dystopian-wars"', 'rules = "chess"'), "mine.toml:2: rules"),
        (("width = 2", "width = 0"), "class[0].base.width: expected a number greater than 0"),
    ],
)
def test_a_bad_catalogue_is_one_message_with_file_line_key(tmp_path, change, where):
    file = tmp_path / "mine.toml"
    file.write_text(OWN.replace(*change))
    with pytest.raises(MapError) as caught:
        load_catalogue(file)
    assert where in caught.value.describe()


def test_duplicate_class_ids_are_refused():
    text = OWN + OWN[OWN.index("[[class]]") :]
    with pytest.raises(UserError, match="already used"):
        loads_catalogue(text, "twice.toml")


def test_missing_catalogue_file(tmp_path):
    with pytest.raises(UserError, match="no such file"):
        load_catalogue(tmp_path / "absent.toml")


def test_play_refuses_a_bad_catalogue_before_opening_a_window(tmp_path, capsys):
    from tactical.cli import main

    bad = tmp_path / "bad.toml"
    bad.write_text(OWN.replace("hull_points = 10", "hull_points = 0"))
    assert main(["play", "--catalogue", str(bad)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.endswith(
        "bad.toml:13: class[0].stats.hull_points: expected a whole number from 1 to 100"
    )
    assert "\n" not in error
