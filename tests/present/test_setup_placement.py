"""Where setup mode lets a unit or a terrain piece stand, and its roll-off (no pygame)."""

from __future__ import annotations

import pytest

from tactical.geometry.shapes import Pose
from tactical.io import load_map
from tactical.io.paths import default_map_path
from tactical.model import Circle
from tactical.present.setup_placement import placement_problem, shifted_terrain, terrain_problem
from tactical.present.setup_rolloff import roll_off_html, seeded_roll_off
from tactical.rules import registry
from tactical.session.deployment import choose_edges


@pytest.fixture(scope="module")
def table():
    state = load_map(default_map_path())  # the Dystopian Wars default table, 72" x 48"
    return registry.get(state.rules), state


def test_a_unit_stays_on_the_table_and_with_zones_inside_its_own_clear_of_the_others(table):
    system, state = table
    ruler = state.unit("ruler")  # side A, at (24, 6)
    level = system.los_level

    def problem(x, y, heading=0.0, deployment=None):
        return placement_problem(state, ruler.moved_to(Pose(x, y, heading)), deployment, level)

    assert problem(24, 6) == ""
    assert problem(24, -3) == "ruler would stand off the table"
    assert problem(38, 5.5) == ""  # over a cruiser: free placement checks no overlap
    zones = choose_edges(state.board, "A", "bottom", ("A", "B"))  # A: the bottom 8"
    assert problem(24, 30, deployment=zones) == (
        "ruler is not wholly inside side A's deployment zone (bottom edge) [R002.17]"
    )
    assert problem(38, 5.5, deployment=zones) == "ruler and tribal-2 would overlap [R002.33]"
    assert problem(36, 4, deployment=zones) == ""


def test_a_terrain_piece_moves_whole_and_stays_on_the_table_and_off_the_others(table):
    _, state = table
    rock = state.terrain_piece("rock-stack")  # a circle of 2.5" at (58, 16)
    assert shifted_terrain(rock, (1.5, -2)).circle == Circle(59.5, 14, 2.5)
    isle = state.terrain_piece("isle-of-wight")
    moved = shifted_terrain(isle, (1, 2))
    assert moved.polygon == tuple((x + 1, y + 2) for x, y in isle.polygon)
    assert terrain_problem(state, shifted_terrain(rock, (0.5, 0))) == ""
    assert terrain_problem(state, shifted_terrain(rock, (100, 0))) == (
        "terrain rock-stack would lie off the table"
    )
    onto = shifted_terrain(rock, (35.08 - 58, 23.19 - 16))  # onto the wooded island
    assert terrain_problem(state, onto) == "terrain rock-stack would overlap isle-of-wight"


def test_each_press_of_roll_off_throws_afresh_and_the_same_press_throws_the_same():
    first = seeded_roll_off(1, 1, ("A", "B"))
    assert first.rounds[0].dice == {"A": (2, 2), "B": (4, 2)} and first.winner == "B"
    assert roll_off_html(first) == "A 2+2=4, B 4+2=6 <b>B picks an edge</b>"
    assert seeded_roll_off(1, 1, ("A", "B")) == first
    presses = {roll_off_html(seeded_roll_off(1, press, ("A", "B"))) for press in range(1, 7)}
    assert len(presses) > 1  # a new press is a new throw
