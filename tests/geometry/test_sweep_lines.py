"""A straight motion settled by another along the same line (GEO002.8, R002.35): the paths
weighed for one unit begin alike ("F6", "F3", "F3 P45 F3"), and a motion along a line an
index has swept before gets the touch a sweep of it finds, to the last bit, or none where
a sweep finds none: at random, and at the touch itself (a length ending exactly there, a
bit short of it and a bit past it)."""

from __future__ import annotations

import math
import random

import pytest
from shapely.geometry import box

from tactical.geometry import sweep
from tactical.geometry.movement import Rotation, Translation
from tactical.geometry.shapes import CircleBase, Pose, RectBase
from tactical.geometry.sweep import Obstacles


@pytest.fixture(autouse=True)
def _fresh():
    sweep._CONTACTS.clear()
    sweep._HITS.clear()
    yield
    sweep._CONTACTS.clear()
    sweep._HITS.clear()


def _pieces(rng: random.Random, start: Pose):
    heading = math.radians(start.heading)
    found = []
    for _ in range(rng.randint(1, 5)):
        ahead = rng.uniform(-8, 12)
        side = rng.uniform(-2, 2)
        x = start.x + ahead * math.sin(heading) + side * math.cos(heading)
        y = start.y + ahead * math.cos(heading) - side * math.sin(heading)
        w, h = rng.uniform(0.3, 3), rng.uniform(0.3, 3)
        found.append(box(x - w / 2, y - h / 2, x + w / 2, y + h / 2))
    return found


def _paths(rng: random.Random, start: Pose):
    lengths = [rng.uniform(0.5, 12) for _ in range(4)]
    paths = [(Translation(start, sign * length),) for length in lengths for sign in (1, -1)]
    for length in lengths[:2]:
        first = Translation(start, length)
        turn = Rotation(first.end, (first.end.x, first.end.y), 45.0)
        paths.append((first, turn, Translation(turn.end, 3.0)))
    rng.shuffle(paths)
    return paths


@pytest.mark.parametrize("base", [RectBase(1.0, 3.0), CircleBase(1.0)])
def test_GEO002_8_motions_along_one_line_answer_as_their_own_sweeps(base):
    rng = random.Random(38)
    settled = 0
    for _ in range(60):
        start = Pose(
            rng.uniform(10, 30), rng.uniform(10, 30), rng.choice((0, 90, 45, rng.uniform(0, 360)))
        )
        pieces = _pieces(rng, start)
        table = Obstacles(pieces)
        for path in _paths(rng, start):
            before = len(table._near)
            kept = sweep._first_contact(path, base, table, None, False)
            sweep._HITS.clear()  # a fresh index, a fresh search
            assert kept == sweep._first_contact(path, base, Obstacles(pieces), None, False)
            settled += len(table._near) == before
    assert settled >= 100  # most motions were settled by the line, not swept


@pytest.mark.parametrize("base", [RectBase(1.0, 3.0), CircleBase(1.0)])
def test_GEO002_8_a_motion_ending_at_the_touch_a_bit_short_or_past_it(base):
    start = Pose(20, 20, 30)
    pieces = [box(22, 25, 26, 27), box(10, 10, 11, 11)]
    table = Obstacles(pieces)
    first = sweep._first_contact((Translation(start, 12.0),), base, table, None, False)
    assert first is not None and first.obstacle == 0
    ((line),) = table._lines.values()
    touch = line.hit[0]
    for length in (touch, math.nextafter(touch, 0), math.nextafter(touch, 20), touch - 1e-7):
        path = (Translation(start, length),)
        kept = sweep._first_contact(path, base, table, None, False)
        sweep._HITS.clear()
        assert kept == sweep._first_contact(path, base, Obstacles(pieces), None, False)
    reached = sweep._first_contact((Translation(start, touch),), base, table, None, False)
    short = sweep._first_contact(
        (Translation(start, math.nextafter(touch, 0)),), base, table, None, False
    )
    assert reached is not None and short is None  # the line's bound is the sweep's own


@pytest.mark.parametrize("base", [RectBase(1.0, 3.0), CircleBase(1.0)])
def test_GEO002_8_longer_and_longer_motions_past_what_is_known_clear(base):
    start = Pose(20, 20, 30)
    pieces = [box(22, 25, 26, 27), box(10, 10, 11, 11)]
    table = Obstacles(pieces)
    answers = []
    for step in range(1, 50):
        path = (Translation(start, step * 0.25),)
        kept = sweep._first_contact(path, base, table, None, False)
        sweep._HITS.clear()
        assert kept == sweep._first_contact(path, base, Obstacles(pieces), None, False)
        answers.append(kept is None)
    assert answers[0] and not answers[-1]  # clear at first, then met
