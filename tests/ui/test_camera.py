"""The camera: the one inches <-> pixels conversion (docs/architecture.md: y up on the table)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactical.ui.camera import MAX_SCALE, MIN_SCALE, Camera, Margins

finite = st.floats(-500, 500, allow_nan=False)
scales = st.floats(MIN_SCALE, MAX_SCALE)
points = st.tuples(finite, finite)


@st.composite
def cameras(draw) -> Camera:
    return Camera(
        draw(scales), draw(points), (draw(st.integers(1, 4000)), draw(st.integers(1, 4000)))
    )


def test_y_grows_up_on_the_table_and_down_on_screen():
    camera = Camera(10.0, (100.0, 500.0), (800, 600))
    assert camera.to_screen(0, 0) == (100.0, 500.0)
    assert camera.to_screen(1, 0) == (110.0, 500.0)  # right is right
    assert camera.to_screen(0, 1) == (100.0, 490.0)  # away from side A is up the screen


def test_heading_zero_points_up_the_screen_and_ninety_right():
    camera = Camera(10.0, (0.0, 0.0), (100, 100))
    up = camera.screen_direction(0)
    right = camera.screen_direction(90)
    assert up == pytest.approx((0.0, -1.0))
    assert right == pytest.approx((1.0, 0.0))


@given(cameras(), points)
def test_round_trip_world_screen_world(camera, point):
    back = camera.to_world(*camera.to_screen(*point))
    assert back == pytest.approx(point, abs=1e-6)


@given(cameras(), st.lists(points, min_size=1, max_size=20))
def test_vectorised_transforms_agree_with_the_scalar_ones(camera, many):
    array = np.array(many)
    screen = camera.to_screen_array(array)
    assert screen == pytest.approx(np.array([camera.to_screen(*p) for p in many]))
    assert camera.to_world_array(screen) == pytest.approx(array, abs=1e-6)


@given(cameras(), st.tuples(st.floats(0, 4000), st.floats(0, 4000)), st.floats(0.2, 5.0))
def test_zoom_keeps_the_table_point_under_the_cursor_fixed(camera, cursor, factor):
    before = camera.to_world(*cursor)
    zoomed = camera.zoomed(factor, cursor)
    assert zoomed.to_screen(*before) == pytest.approx(cursor, abs=1e-6)
    assert MIN_SCALE <= zoomed.scale <= MAX_SCALE


def test_zoom_is_clamped_to_the_scale_limits():
    camera = Camera(10.0, (0.0, 0.0), (100, 100))
    assert camera.zoomed(1e9, (50, 50)).scale == MAX_SCALE
    assert camera.zoomed(1e-9, (50, 50)).scale == MIN_SCALE


@given(cameras(), st.floats(-300, 300), st.floats(-300, 300), points)
def test_panning_moves_every_point_by_the_drag(camera, dx, dy, point):
    moved = camera.panned(dx, dy)
    x, y = camera.to_screen(*point)
    assert moved.to_screen(*point) == pytest.approx((x + dx, y + dy), abs=1e-6)


def test_fit_shows_the_whole_table_centred_inside_the_margins():
    margins = Margins(left=40, top=70, right=40, bottom=90)
    camera = Camera.fit((0, 0, 72, 48), (1600, 1200), margins)
    left, top = camera.to_screen(0, 48)
    right, bottom = camera.to_screen(72, 0)
    assert left >= 40 - 1e-9 and right <= 1560 + 1e-9
    assert top >= 70 - 1e-9 and bottom <= 1110 + 1e-9
    # the limiting dimension touches both margins; the other is centred
    assert right - left == pytest.approx(1520)
    assert (top - 70) == pytest.approx(1110 - bottom)


def test_resizing_the_window_keeps_the_centre_and_the_scale():
    camera = Camera.fit((0, 0, 72, 48), (800, 600))
    centre = camera.to_world(400, 300)
    resized = camera.resized((1920, 1080))
    assert resized.scale == camera.scale
    assert resized.to_world(960, 540) == pytest.approx(centre)


def test_visible_bounds_are_the_table_under_the_viewport():
    camera = Camera(10.0, (0.0, 480.0), (720, 480))
    assert camera.visible_bounds == pytest.approx((0.0, 0.0, 72.0, 48.0))


def test_screen_rect_of_the_table():
    camera = Camera(10.0, (5.0, 485.0), (800, 600))
    assert camera.screen_rect((0, 0, 72, 48)) == (5, 5, 720, 480)


def test_lengths_convert_both_ways():
    camera = Camera(12.5, (0.0, 0.0), (10, 10))
    assert camera.pixels(2) == 25.0
    assert camera.inches(25) == 2.0


@pytest.mark.parametrize("scale", [0.0, -1.0, math.inf, math.nan])
def test_a_camera_needs_a_positive_finite_scale(scale):
    with pytest.raises(ValueError):
        Camera(scale, (0, 0), (10, 10))


def test_cameras_are_values_usable_as_cache_keys():
    a = Camera(10.0, (1.0, 2.0), (100, 100))
    b = Camera(10, (1, 2), (100, 100))
    assert a == b and hash(a) == hash(b)
    assert a.panned(1, 0) != a
