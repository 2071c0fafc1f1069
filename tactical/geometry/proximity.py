"""Within-X checks, distance graphs and relative motion (GEO002.3-GEO002.6, GEO002.11,
GEO003.2, GEO003.3, R002.23-R002.25).

"Within X" means distance <= X (G.4), with `LENGTH_TOLERANCE` of rounding slack.
The Commanded Element (R002.25, adopted reading A002.2) is the connected
component of the "centre-to-centre <= Command Distance" graph that holds the
commanding model; a model outside it is Out of Command. Components are found
with a union-find over the adjacency's pairs (numpy, no scipy).
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np

from tactical.errors import UserError
from tactical.geometry.measure import LENGTH_TOLERANCE, From, To, measure
from tactical.geometry.shapes import Base, Pose


def within(
    pose_a: Pose,
    base_a: Base,
    pose_b: Pose,
    base_b: Base,
    distance: float,
    from_: From = "centre",
    to: To = "centre",
) -> bool:
    """Whether B is within `distance` inches of A, measured as `measure` does.

    GEO002.3 Command Distance: centre to centre; GEO002.4 Guardian: from the
    centre to the nearest point (A002.11); other checks as the rule system says.
    """
    if distance < 0:
        raise UserError(f"a 'within' distance cannot be negative, got {distance}")
    return measure(pose_a, base_a, pose_b, base_b, from_, to).distance <= distance + (
        LENGTH_TOLERANCE
    )


def within_matrix(centres: np.ndarray, radius: float) -> np.ndarray:
    """(N, N) booleans: centre i within `radius` of centre j (the diagonal is True)."""
    points = np.asarray(centres, dtype=float).reshape(-1, 2)
    if radius < 0:
        raise UserError(f"a 'within' distance cannot be negative, got {radius}")
    delta = points[:, None, :] - points[None, :, :]
    reach = radius + LENGTH_TOLERANCE
    return (delta * delta).sum(axis=-1) <= reach * reach


def within_distances(distances: np.ndarray, radius: float) -> np.ndarray:
    """Booleans: each distance (any shape, e.g. PairMatrix.edge_distance) is within `radius`."""
    return np.asarray(distances) <= radius + LENGTH_TOLERANCE


def connected_components(adjacency: np.ndarray) -> np.ndarray:
    """Component label of every node of an undirected graph given as an (N, N) boolean matrix.

    Labels are 0, 1, ... numbered by each component's lowest node, so node 0 is in component 0.
    """
    matrix = np.asarray(adjacency, dtype=bool)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise UserError(f"an adjacency matrix must be square, got shape {matrix.shape}")
    count = matrix.shape[0]
    parent = np.arange(count)

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    rows, cols = np.nonzero(np.triu(matrix | matrix.T, 1))
    for a, b in zip(rows.tolist(), cols.tolist(), strict=True):
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    roots = np.array([root(node) for node in range(count)], dtype=np.int64)
    _, labels = np.unique(roots, return_inverse=True)
    return labels.reshape(count)


def command_components(centres: np.ndarray, command_distance: float) -> np.ndarray:
    """Component labels of the "centre-to-centre <= Command Distance" graph (GEO002.3)."""
    return connected_components(within_matrix(centres, command_distance))


def commanded_element(centres: np.ndarray, command_distance: float, commander: int) -> np.ndarray:
    """Indices of the models in the Commanded Element of model `commander` (R002.25, A002.2).

    `centres` are the squadron's models' centres; the element is every model linked
    to the commander through a chain of links of at most `command_distance`.
    """
    points = np.asarray(centres, dtype=float).reshape(-1, 2)
    if not 0 <= commander < len(points):
        raise UserError(
            f"commanding model index {commander} is not one of the squadron's {len(points)} models"
        )
    labels = command_components(points, command_distance)
    return np.flatnonzero(labels == labels[commander])


def out_of_command(centres: np.ndarray, command_distance: float, commander: int) -> np.ndarray:
    """(N,) booleans: the models outside the commander's Commanded Element (R002.25 OoC)."""
    points = np.asarray(centres, dtype=float).reshape(-1, 2)
    inside = np.zeros(len(points), dtype=bool)
    inside[commanded_element(points, command_distance, commander)] = True
    return ~inside


# --------------------------------------------------------------------------- relative motion

Approach = Literal["toward", "perpendicular", "away"]


def approach_angle(
    obstacle: tuple[float, float],
    obstacle_velocity: tuple[float, float],
    pilot: tuple[float, float],
    pilot_velocity: tuple[float, float] = (0.0, 0.0),
) -> float:
    """GEO003.3: the angle θ in degrees [0, 180] between the obstacle's velocity relative to
    the pilot and the line from the obstacle to the pilot.

    θ = 0 is a head-on approach. With no relative motion the angle is 90 (neither closing
    nor opening); an obstacle on top of the pilot is at 0.
    """
    rx, ry = obstacle_velocity[0] - pilot_velocity[0], obstacle_velocity[1] - pilot_velocity[1]
    lx, ly = pilot[0] - obstacle[0], pilot[1] - obstacle[1]
    if lx == 0.0 and ly == 0.0:
        return 0.0
    if rx == 0.0 and ry == 0.0:
        return 90.0
    return abs(math.degrees(math.atan2(rx * ly - ry * lx, rx * lx + ry * ly)))


def approach(theta: float) -> Approach:
    """GEO003.3 classification: θ < 45 toward, θ > 135 away, otherwise perpendicular."""
    if theta < 45.0:
        return "toward"
    if theta > 135.0:
        return "away"
    return "perpendicular"
