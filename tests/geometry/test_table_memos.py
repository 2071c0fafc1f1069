"""What a table's geometry (GEO002.10) finds again rather than makes afresh, each table: the
plan of its arcs (a new tuple of the same arc objects) and the (terrain, model) level codes
of R002.41 (marked rather than sorted), its range ends (from the units' own rows), each the
same answer as made afresh."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from tactical.geometry import arcs as arcs_module
from tactical.geometry.arcs_spec import Omni, Sector
from tactical.geometry.measure import BaseArrays
from tactical.geometry.shapes import CircleBase, Pose, RectBase
from tactical.rules import measuring
from tactical.rules.conventions import ModelBlocking

FORE, AFT, ROUND = Sector("fore", 315.0, 45.0), Sector("aft", 135.0, 225.0), Omni("all-round")


def test_a_new_tuple_of_the_same_arcs_finds_their_plan():
    """Two tuples of the same arc objects share one plan (and its flat layouts); equal arcs
    that are other objects get a plan of their own, with the same bounds."""
    first = arcs_module._plan((FORE, ROUND, AFT))
    again = arcs_module._plan(tuple([FORE, ROUND, AFT]))
    assert again is first
    assert again.flat(3) is first.flat(3)
    other = arcs_module._plan((Sector("fore", 315.0, 45.0), ROUND, AFT))
    assert other is not first
    assert other.first.tolist() == first.first.tolist() and other.everything == [1]
    assert other.reach.tolist() == first.reach.tolist()
    swapped = arcs_module._plan((AFT, ROUND, FORE))
    assert swapped.first.tolist() == first.first.tolist()[::-1]


@pytest.mark.parametrize("marked", [True, False])
def test_model_codes_marked_or_sorted_are_the_same(monkeypatch, marked):
    """The (terrain, model) code pairs numbered in order, by marks on a table or by
    `np.unique` beyond: the same codes and masks."""
    if not marked:
        monkeypatch.setattr(measuring, "MAX_MARKED_CODES", 0)
    rng = np.random.default_rng(3)
    levels = rng.integers(0, 3, 40)
    terrain = measuring.LevelBlocking(levels, rng.random((3, 3, 4)) < 0.5)
    models = ModelBlocking(
        np.arange(0, 40, 4), rng.integers(0, 5, 40), rng.random((5, 5, 10)) < 0.5
    )
    found = measuring._with_models(terrain, models)
    pairs = np.stack((levels, models.levels), axis=1)
    rows, codes = np.unique(pairs, axis=0, return_inverse=True)
    assert found.levels.tolist() == codes.reshape(-1).tolist()
    expected = np.concatenate(
        (
            terrain.mask[rows[:, 0][:, None], rows[:, 0][None, :]],
            models.mask[rows[:, 1][:, None], rows[:, 1][None, :]],
        ),
        axis=2,
    )
    assert np.array_equal(found.mask, expected)


@pytest.mark.parametrize("from_", ["centre", "edge"])
@pytest.mark.parametrize("to", ["centre", "edge"])
def test_range_ends_are_the_built_rows(from_, to):
    """Every unit as a firer then as a target, a point or its base as the conventions measure
    range: the rows `BaseArrays.build` gives the poses twice with those ends, bit for bit."""
    rng = np.random.default_rng(9)
    poses = [Pose(*rng.uniform(0, 40, 2), rng.uniform(0, 360)) for _ in range(7)]
    bases = [RectBase(1.0, 3.5), CircleBase(0.75), RectBase(0.5, 1.25)] * 2 + [CircleBase(2)]
    units = BaseArrays.build(poses, bases)
    system = SimpleNamespace(conventions=SimpleNamespace(distance_from=from_, distance_to=to))
    geometry = measuring.TableGeometry(None, system, units, None, (), (), None)
    point = CircleBase(0.0)
    firers = [point] * 7 if from_ == "centre" else bases
    targets = [point] * 7 if to == "centre" else bases
    built = BaseArrays.build(poses + poses, firers + targets)
    found = geometry._range_ends
    assert found.poses == built.poses and found.bases == built.bases
    for name in ("x", "y", "heading", "sin", "cos", "half_width", "half_length", "radius"):
        assert getattr(found, name).tobytes() == getattr(built, name).tobytes(), name
