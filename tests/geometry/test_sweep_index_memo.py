"""An obstacle index remembers what sweeps ask of it (R002.35): where a base already stands,
which obstacles a motion's box meets and the first touch along a motion, each by what it
reads; a polygon's edges by the polygon itself. Remembered answers equal fresh ones."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import box

from tactical.geometry import sweep
from tactical.geometry.movement import Rotation, Translation
from tactical.geometry.shapes import Pose, RectBase
from tactical.geometry.sweep import Obstacles

HULL = RectBase(1.5, 4.0)
START = Pose(10, 10, 0)
NEAR = box(9, 16, 11, 17)  # met first going north
FAR = box(9, 19, 11, 20)
UNDER = box(9.5, 9.5, 10.5, 10.5)  # under the base where it starts: ignored
EAST = box(14, 8, 15, 12)


@pytest.fixture(autouse=True)
def _fresh():
    sweep._CONTACTS.clear()
    sweep._HITS.clear()
    yield
    sweep._CONTACTS.clear()
    sweep._HITS.clear()


def _searched(motions, table, allowed=None, ignore_touching=False):
    return sweep._first_contact(tuple(motions), HULL, table, allowed, ignore_touching)


def _pieces():
    return [UNDER, NEAR, FAR, EAST]


def test_paths_from_one_place_answer_as_fresh_indexes():
    table = Obstacles(_pieces())
    paths = [
        (Translation(START, 12.0),),
        (Translation(START, 3.0),),
        (Rotation(START, (10.0, 10.0), 90.0), Translation(Pose(10, 10, 90), 8.0)),
        (Translation(START, 12.0),),  # asked again
    ]
    kept = [_searched(path, table) for path in paths]
    fresh = [_searched(path, Obstacles(_pieces())) for path in paths]
    assert kept == fresh
    assert [None if c is None else c.obstacle for c in kept] == [1, None, 3, 1]
    assert kept[0].pose.y == pytest.approx(16.0 - 2.0 - sweep.CONTACT_TOLERANCE, abs=2e-3)


def test_a_motion_is_remembered_by_the_obstacles_it_may_meet():
    table = Obstacles(_pieces())
    path = (Translation(START, 12.0),)
    assert _searched(path, table).obstacle == 1
    # the same motion with NEAR masked out: another set of candidates, another answer
    found = _searched(path, table, np.array([True, False, True, True]))
    assert found is not None and found.obstacle == 2
    assert found.pose.y == pytest.approx(17.0, abs=2e-3)  # stopped by FAR, not NEAR
    assert _searched(path, table, np.array([True, False, False, True])) is None


def test_an_obstacle_under_the_start_is_ignored_each_time():
    table = Obstacles([UNDER])
    for _ in range(2):
        assert _searched((Translation(START, 3.0),), table) is None
    assert len(table.started_in(START, sweep._shrunk(HULL), False)) == 1
    # one touching the front only is met at once, unless the unit disengages (R002.32)
    touching = Obstacles([box(9, 12, 11, 13)])
    ahead = (Translation(START, 2.0),)
    assert _searched(ahead, touching, ignore_touching=True) is None
    met = _searched(ahead, touching)
    assert met is not None and met.t < 1e-3


def test_the_memos_are_bounded(monkeypatch):
    monkeypatch.setattr(sweep, "MAX_KEPT", 2)
    monkeypatch.setattr(sweep, "MAX_HITS", 2)
    table = Obstacles(_pieces())
    for length in (3.0, 5.0, 7.0, 12.0):
        _searched((Translation(START, length),), table)
    assert len(table._near) <= 2 and len(sweep._HITS) <= 2
    assert _searched((Translation(START, 12.0),), table).obstacle == 1


def test_a_motion_met_in_another_index_of_the_same_polygons_is_not_searched_again(monkeypatch):
    path = (Translation(START, 12.0),)
    first = _searched(path, Obstacles(_pieces()))
    # the same polygons in the same order, among others elsewhere: the same touch, this
    # index's own place
    again = Obstacles([box(40, 40, 41, 41), NEAR, FAR, UNDER])
    monkeypatch.setattr(sweep, "_gathered_contact", None)  # remembered: not searched
    found = _searched(path, again)
    assert found is not None and found.obstacle == 1 and found.pose == first.pose


def test_a_motion_is_not_given_another_polygon_s_touch():
    path = (Translation(START, 12.0),)
    near = box(9, 16, 11, 17)
    assert _searched(path, Obstacles([near])).obstacle == 0
    # a remembered touch whose polygon is gone, its id taken by another: searched again
    ((key, (_, found)),) = sweep._HITS.items()
    farther = box(9, 18, 11, 19)
    sweep._HITS[(key[0], key[1], (id(farther),))] = ((near,), found)
    moved = _searched(path, Obstacles([farther]))
    assert moved is not None and moved.pose.y == pytest.approx(16.0, abs=2e-3)


def test_edges_are_kept_by_the_polygon_itself():
    first = Obstacles([NEAR]).edges(0)
    assert Obstacles([FAR, NEAR]).edges(1) is first
    assert not first.flags.writeable  # shared: never changed in place
    equal = box(9, 16, 11, 17)  # the same outline, another polygon: its own edges
    again = Obstacles([equal]).edges(0)
    assert again is not first
    assert np.array_equal(again, sweep.polygon_edges(equal))
    # an id seen before, of a polygon gone since: not its edges
    other = box(0, 0, 1, 1)
    sweep._EDGES[id(other)] = (NEAR, first)
    assert np.array_equal(Obstacles([other]).edges(0), sweep.polygon_edges(other))


def test_the_shapes_asked_about_are_shared_by_indexes_and_answer_as_made_afresh(monkeypatch):
    monkeypatch.setattr(sweep, "MAX_SHAPES", 3)
    monkeypatch.setattr(sweep, "_BOXES", {})
    monkeypatch.setattr(sweep, "_STARTS", {})
    core = sweep._shrunk(HULL)
    motions = [Translation(START, length) for length in (3.0, 5.0, 7.0, 12.0)]
    for table in (Obstacles(_pieces()), Obstacles(_pieces()[::-1])):
        for motion in motions:
            fresh = table.tree.query(box(*sweep.coarse_bounds(motion, core)), "intersects")
            assert table.near_motion(motion, core).tolist() == sorted(set(fresh.tolist()))
        for grown in (False, True):
            start = sweep.footprint(START, core)
            if grown:
                start = start.buffer(3 * sweep.CONTACT_TOLERANCE, quad_segs=2)
            assert table.started_in(START, core, grown).tolist() == table.touching(start).tolist()
    assert len(sweep._BOXES) <= 3 and len(sweep._STARTS) <= 3
    assert sweep._box_of((motions[-1], core)) is sweep._box_of((motions[-1], core))
