"""What the adjust panel says of the selection, without its widgets (no pygame)."""

from __future__ import annotations

import pytest

from tactical.io import load_map
from tactical.io.paths import default_map_path
from tactical.present.adjust_selection import (
    NOTHING,
    TERRAIN_HINT,
    piece_centre,
    selection_words,
)
from tactical.rules import registry


@pytest.fixture(scope="module")
def table():
    state = load_map(default_map_path())  # the Dystopian Wars default table
    return registry.get(state.rules), state


def test_a_unit_reads_its_pose_its_name_and_side_and_how_to_set_a_status(table):
    system, state = table
    words = selection_words(system, state, "ruler", None, in_game=True)
    assert words.pose == ("24.00", "6.00", "0")
    assert words.title == "Ruler Class Battleship, side A"
    assert words.html.startswith("Hull 8/8 · Damage rating 7")
    # in a game a typed value sets its status: one hull point less than it has
    assert words.html.endswith("<i>set a value by typing: set ruler hull 7</i>")


def test_on_a_table_with_no_game_a_unit_lists_its_values_and_no_status_to_set(table):
    system, state = table
    words = selection_words(system, state, "ruler", None, in_game=False)
    assert words.pose == ("24.00", "6.00", "0") and "set ruler hull" not in words.html
    assert words.html.startswith("Hull 8/8")


def test_a_terrain_piece_reads_its_centre_name_kind_and_height(table):
    system, state = table
    rock = selection_words(system, state, None, "rock-stack", in_game=True)
    assert rock == type(rock)(("58.00", "16.00", "0"), "Rock stack: dense, medium", TERRAIN_HINT)
    isle = selection_words(system, state, None, "isle-of-wight", in_game=True)
    cx, cy = piece_centre(state, "isle-of-wight")  # a polygon: its centroid
    assert 29 < cx < 41 and 18 < cy < 28
    assert isle.pose == (f"{cx:.2f}", f"{cy:.2f}", "0") == ("35.08", "23.19", "0")
    assert isle.title == "Wooded island: dense, large"


def test_a_unit_selected_wins_over_a_piece_and_nothing_left_reads_nothing(table):
    system, state = table
    assert selection_words(system, state, "ruler", "rock-stack", True).title.startswith("Ruler")
    gone = selection_words(system, state, "gone", "gone too", True)
    assert (gone.pose, gone.title, gone.html) == (("", "", ""), "Nothing selected", NOTHING)
