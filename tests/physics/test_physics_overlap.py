"""Overlap detection and resolution with pymunk (R002.33, GEO002.9)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.model import (
    Circle,
    CircleBase,
    FrozenMap,
    MovementClass,
    Pose,
    RectBase,
    SizeClass,
    Terrain,
    Unit,
)
from tactical.physics.overlap import (
    MAX_STEPS,
    overlapping_pairs,
    resolve_overlaps,
    terrain_overlaps,
)


def unit(unit_id: str, x: float, y: float, heading: float = 0.0, base=None, **stats) -> Unit:
    return Unit(
        unit_id,
        unit_id,
        "A",
        Pose(x, y, heading),
        base or RectBase(2.0, 2.0),
        MovementClass.NAVAL,
        stats=FrozenMap(stats),
    )


def always(unit: Unit, terrain: Terrain) -> bool:
    return True


def check_clear(result, terrain=(), table=None):
    assert overlapping_pairs(result.units) == []
    assert terrain_overlaps(result.units, terrain, always) == []
    if table is not None:
        for u in result.units:
            x0, y0, x1, y1 = u.footprint.bounds
            assert x0 >= -1e-3 and y0 >= -1e-3 and x1 <= table[0] + 1e-3 and y1 <= table[1] + 1e-3


def test_touching_bases_do_not_overlap_geo002_9():
    assert overlapping_pairs([unit("a", 0, 0), unit("b", 2, 0)]) == []
    assert overlapping_pairs([unit("a", 0, 0), unit("b", 1.9, 0)]) == [("a", "b")]


def test_layers_keep_flyers_off_ships():
    def layer(u: Unit) -> str:
        return str(u.stats.get("level", "surface"))

    units = [unit("ship", 0, 0), unit("plane", 0.5, 0, level="air")]
    assert overlapping_pairs(units, layer) == []
    assert resolve_overlaps(units, layer_of=layer).displacements == ()


def test_nothing_moves_when_nothing_overlaps():
    units = [unit("a", 0, 0), unit("b", 5, 0)]
    result = resolve_overlaps(units)
    assert result.units == tuple(units)
    assert result.displacements == ()


def test_two_equal_bases_share_the_readjustment_r002_33():
    """Least disturbance: two equal squares overlapping by 0.5" each move about 0.25" apart."""
    result = resolve_overlaps([unit("a", 10, 10), unit("b", 11.5, 10)])
    check_clear(result)
    moved = {d.unit_id: d for d in result.displacements}
    assert set(moved) == {"a", "b"}
    assert moved["a"].dx == pytest.approx(-0.25, abs=0.03)
    assert moved["b"].dx == pytest.approx(0.25, abs=0.03)
    assert abs(moved["a"].dy) < 0.02 and abs(moved["b"].dy) < 0.02
    assert result.total_displacement == pytest.approx(0.5, abs=0.05)


def test_headings_never_change_r002_33():
    """No model gains an advantage: readjustment only translates."""
    units = [unit("a", 10, 10, 30), unit("b", 10.5, 10.5, 200, RectBase(1.5, 4))]
    result = resolve_overlaps(units)
    check_clear(result)
    assert [u.heading for u in result.units] == [30.0, 200.0]


def test_fixed_units_never_move():
    result = resolve_overlaps([unit("a", 10, 10), unit("b", 11, 10)], fixed=["a"])
    check_clear(result)
    assert [d.unit_id for d in result.displacements] == ["b"]
    assert result.units[0].pose == Pose(10, 10, 0)


def test_never_into_colliding_terrain_r002_33():
    """b overlaps a and has a rock on its right: it may not be pushed into the rock."""
    outline = ((12.1, 5), (20, 5), (20, 15), (12.1, 15))
    rock = Terrain("rock", "dense", SizeClass.LARGE, polygon=outline)
    units = [unit("a", 9.5, 10), unit("b", 11, 10)]
    result = resolve_overlaps(units, (rock,), collides=always)
    check_clear(result, (rock,))


def test_terrain_it_does_not_collide_with_is_no_obstacle():
    reef = Terrain("reef", "soft", SizeClass.TINY, circle=Circle(11, 10, 1.0))
    units = [unit("a", 10, 10), unit("b", 11, 10)]
    result = resolve_overlaps(units, (reef,), collides=lambda u, t: t.kind != "soft")
    assert overlapping_pairs(result.units) == []


def test_every_displacement_is_reported():
    units = [unit("a", 10, 10), unit("b", 10.5, 10.2), unit("c", 30, 30)]
    result = resolve_overlaps(units)
    by_id = {u.id: u for u in result.units}
    for d in result.displacements:
        original = next(u for u in units if u.id == d.unit_id)
        assert by_id[d.unit_id].x - original.x == pytest.approx(d.dx)
        assert by_id[d.unit_id].y - original.y == pytest.approx(d.dy)
        assert d.distance == pytest.approx(math.hypot(d.dx, d.dy))
        assert set(d.to_json()) == {"unit", "dx", "dy", "distance"}
    assert "c" not in {d.unit_id for d in result.displacements}


def test_the_spiral_fallback_is_deterministic_and_clear():
    units = [unit("a", 10, 10), unit("b", 10.2, 10), unit("c", 10, 10.3)]
    first = resolve_overlaps(units, max_steps=0, table=(72, 48))
    second = resolve_overlaps(units, max_steps=0, table=(72, 48))
    check_clear(first, table=(72, 48))
    assert first.placed_by_search
    assert first.units == second.units


def test_no_room_is_a_clear_error():
    units = [unit("a", 1, 1), unit("b", 1.2, 1)]
    with pytest.raises(UserError, match="no clear place") as caught:
        resolve_overlaps(units, table=(2.5, 2.0))
    assert caught.value.spec_id == "R002.33"


def test_two_hundred_models_dropped_in_a_pile_terminate_clear():
    """R002.33 / GEO002.9: 200 overlapping bases around one point come apart, within the
    step bound, onto the table, clear of each other and of the rocks they collide with."""
    rng = np.random.default_rng(7)
    units = []
    for i in range(200):
        x, y = rng.normal((36, 24), 3.0)
        base = RectBase(1.5, 4) if i % 3 else CircleBase(1.25)
        units.append(unit(f"u{i:03d}", x, y, float(rng.uniform(0, 360)), base))
    rocks = (
        Terrain("rock", "dense", SizeClass.LARGE, polygon=((30, 20), (34, 20), (34, 24), (31, 26))),
        Terrain("stack", "dense", SizeClass.LARGE, circle=Circle(42, 27, 2.0)),
    )
    result = resolve_overlaps(units, rocks, collides=always, table=(72, 48))
    check_clear(result, rocks, (72, 48))
    assert result.steps <= MAX_STEPS
    assert [u.heading for u in result.units] == [u.heading for u in units]
    moved = {d.unit_id for d in result.displacements}
    assert len(moved) > 150


@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(4, 20), st.floats(4, 20), st.floats(0, 359), st.booleans()),
        min_size=2,
        max_size=12,
    )
)
def test_resolution_never_leaves_an_overlap(spots):
    units = [
        unit(f"u{i}", x, y, h, CircleBase(1.5) if round_ else RectBase(1, 2.5))
        for i, (x, y, h, round_) in enumerate(spots)
    ]
    rock = Terrain("rock", "dense", SizeClass.LARGE, circle=Circle(12, 12, 1.5))
    result = resolve_overlaps(units, (rock,), collides=always, table=(24, 24))
    check_clear(result, (rock,), (24, 24))
