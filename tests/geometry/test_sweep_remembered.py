"""First contact remembered by what it reads (R002.35): the motions, the base and the
allowed obstacles in order, whichever index holds them and wherever they sit in it."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import box

from tactical.geometry import sweep
from tactical.geometry.movement import Translation
from tactical.geometry.shapes import Pose, RectBase
from tactical.geometry.sweep import Obstacles, board_exterior, first_contact

HULL = RectBase(1.5, 4.0)
PATH = (Translation(Pose(10, 10, 0), 12.0),)  # north, from y 10 to y 22
NEAR = box(9, 16, 11, 17)  # met first
FAR = box(9, 19, 11, 20)
ASIDE = box(30, 30, 31, 31)


@pytest.fixture(autouse=True)
def _fresh():
    sweep._CONTACTS.clear()
    yield
    sweep._CONTACTS.clear()


def test_a_second_index_of_the_same_obstacles_names_its_own_index(monkeypatch):
    first = first_contact(PATH, HULL, Obstacles([NEAR, FAR]))
    assert first is not None and first.obstacle == 0
    # the same geometries elsewhere in another index, masked-out ones before and between
    again = Obstacles([ASIDE, NEAR, box(9, 12, 11, 13), FAR])
    allowed = np.array([False, True, False, True])
    monkeypatch.setattr(sweep, "_first_contact", None)  # remembered: not searched again
    found = first_contact(PATH, HULL, again, allowed)
    assert found is not None and found.obstacle == 1
    assert found.pose == first.pose and found.t == first.t


def test_remembered_equals_searched_afresh():
    table = Obstacles([FAR, ASIDE, NEAR])
    allowed = np.array([True, True, True])
    remembered = [first_contact(PATH, HULL, table, allowed) for _ in range(2)]
    sweep._CONTACTS.clear()
    fresh = first_contact(PATH, HULL, table, allowed)
    assert remembered[0] == remembered[1] == fresh
    assert fresh is not None and fresh.obstacle == 2


def test_a_different_mask_is_a_different_search():
    table = Obstacles([NEAR, FAR])
    assert first_contact(PATH, HULL, table).obstacle == 0
    found = first_contact(PATH, HULL, table, np.array([False, True]))
    assert found is not None and found.obstacle == 1
    assert first_contact(PATH, HULL, table, np.array([False, False])) is None


def test_a_contact_is_not_given_for_other_obstacles():
    first_contact(PATH, HULL, Obstacles([NEAR]))  # remembered: a contact with NEAR
    assert first_contact(PATH, HULL, Obstacles([ASIDE])) is None
    moved = first_contact(PATH, HULL, Obstacles([FAR]))
    assert moved is not None and moved.pose.y > 14.0


def test_one_exterior_polygon_per_table_size():
    assert board_exterior(48.0, 48.0) is board_exterior(48.0, 48.0)
    assert board_exterior(48.0, 48.0) is not board_exterior(72.0, 48.0)
