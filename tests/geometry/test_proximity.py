"""Within-X checks and the command-distance graph (GEO002.3-GEO002.6, R002.23-R002.25, A002.2)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.geometry.proximity import (
    approach,
    approach_angle,
    command_components,
    commanded_element,
    connected_components,
    out_of_command,
    within,
    within_distances,
    within_matrix,
)
from tactical.geometry.shapes import CircleBase, Pose, RectBase

SHIP = RectBase(2.0, 4.0)
GENERATOR = RectBase(2.0, 6.0)


def test_within_is_inclusive_G4_and_measures_as_told_GEO002_4():
    """GEO002.4: Guardian aura from the centre of the GG vessel to the nearest point of the
    protected model (A002.11); "within 8"" means <= 8" (G.4)."""
    guardian, protected = Pose(0, 0, 0), Pose(9, 0, 0)  # protected ship's side is 8" away
    assert within(guardian, GENERATOR, protected, SHIP, 8.0, from_="centre", to="nearest")
    assert not within(guardian, GENERATOR, protected, SHIP, 8.0, from_="centre", to="centre")
    assert not within(guardian, GENERATOR, protected, SHIP, 7.999, "centre", "nearest")


def test_within_4_inches_edge_to_edge_GEO002_5():
    """GEO002.5: CAP attachment / landing within 4" (bases edge to edge here)."""
    carrier, wing = Pose(0, 0, 0), Pose(6, 0)
    assert within(carrier, SHIP, wing, CircleBase(2), 4.0, "edge", "nearest")  # 6 - 1 - 1 = 4
    assert not within(carrier, SHIP, wing, CircleBase(1.9), 3.9, "edge", "nearest")


def test_within_32_inches_of_the_target_GEO002_6():
    """GEO002.6: a Spotter within 32" of the target (R002.43 Indirect Fire)."""
    spotter, target = Pose(10, 10), Pose(10, 42)
    assert within(spotter, SHIP, target, SHIP, 32.0)
    assert not within(spotter, SHIP, Pose(10, 42.01), SHIP, 32.0)


def test_within_rejects_negative_distances():
    with pytest.raises(UserError, match="cannot be negative"):
        within(Pose(0, 0), SHIP, Pose(1, 1), SHIP, -1.0)
    with pytest.raises(UserError, match="cannot be negative"):
        within_matrix(np.zeros((2, 2)), -1.0)


def test_within_matrix_centre_to_centre_GEO002_3():
    centres = np.array([[0.0, 0.0], [3.0, 4.0], [20.0, 0.0]])
    result = within_matrix(centres, 5.0)
    assert result.tolist() == [[True, True, False], [True, True, False], [False, False, True]]
    assert within_distances(np.array([4.0, 5.0, 5.1]), 5.0).tolist() == [True, True, False]


def test_connected_components_label_each_component_by_its_lowest_node():
    adjacency = np.zeros((6, 6), dtype=bool)
    for a, b in ((0, 3), (3, 5), (1, 2)):
        adjacency[a, b] = True  # one direction is enough: the graph is undirected
    assert connected_components(adjacency).tolist() == [0, 1, 1, 0, 2, 0]
    with pytest.raises(UserError, match="square"):
        connected_components(np.zeros((2, 3), dtype=bool))


def test_commanded_element_is_the_component_of_the_commander_R002_25_A002_2():
    """R002.25 / A002.2: a chain of links <= Command Distance from the commanding model.
    Two stragglers within CD of each other but not of the chain are Out of Command: they do
    not qualify each other."""
    centres = np.array(
        [
            [0.0, 0.0],  # 0 commander
            [10.0, 0.0],  # 1 exactly CD away: in (G.4)
            [19.0, 0.0],  # 2 linked through 1
            [40.0, 0.0],  # 3 straggler
            [45.0, 0.0],  # 4 straggler near 3
        ]
    )
    assert commanded_element(centres, 10.0, 0).tolist() == [0, 1, 2]
    assert out_of_command(centres, 10.0, 0).tolist() == [False, False, False, True, True]
    assert command_components(centres, 10.0).tolist() == [0, 0, 0, 1, 1]
    # a model that becomes connected again is no longer OoC (4 is still 17" from 3)
    centres[3] = [28.0, 0.0]
    assert out_of_command(centres, 10.0, 0).tolist() == [False, False, False, False, True]
    with pytest.raises(UserError, match="commanding model index 7"):
        commanded_element(centres, 10.0, 7)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 72), st.floats(0, 48)), min_size=1, max_size=25),
    st.floats(0.5, 20),
)
def test_components_match_a_reachability_closure(points, distance):
    centres = np.array(points)
    labels = command_components(centres, distance)
    reach = within_matrix(centres, distance)
    closure = reach.copy()
    for _ in range(len(points)):
        closure = closure | ((closure.astype(int) @ closure.astype(int)) > 0)
    same = labels[:, None] == labels[None, :]
    assert (same == closure).all()
    assert labels[0] == 0


@pytest.mark.parametrize(
    ("obstacle", "velocity", "pilot", "pilot_velocity", "theta", "kind"),
    [
        ((0, 0), (0, 5), (0, 10), (0, 0), 0.0, "toward"),  # head on
        ((0, 0), (0, -5), (0, 10), (0, 0), 180.0, "away"),
        ((0, 0), (5, 0), (0, 10), (0, 0), 90.0, "perpendicular"),
        ((0, 0), (0, 0), (0, 10), (0, -5), 0.0, "toward"),  # the pilot flies into it
        ((0, 0), (5, 5), (0, 10), (0, 0), 45.0, "perpendicular"),  # 45 itself is not < 45
        ((0, 0), (3, 3), (0, 10), (3, 3), 90.0, "perpendicular"),  # same velocity: no motion
    ],
)
def test_GEO003_3_relative_movement_classification(
    obstacle, velocity, pilot, pilot_velocity, theta, kind
):
    """GEO003.3: θ < 45° toward, θ > 135° away, else perpendicular."""
    angle = approach_angle(obstacle, velocity, pilot, pilot_velocity)
    assert angle == pytest.approx(theta)
    assert approach(angle) == kind
