"""GEO001.1-GEO001.7 on the table: range bands, presented facings, and the manoeuvres that
move the models (property tests with hypothesis)."""

from __future__ import annotations

import math

from hc_builders import HC, duel, ship, the_duel
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tactical.geometry.measure import centre_to_centre
from tactical.model import Board, FrozenMap, GameState
from tactical.rules.heavy_combat.engagement import (
    band_of,
    engage_facing,
    engagement,
    keep_on_table,
    present_facing,
    shift_range,
)
from tactical.rules.heavy_combat.ships import settings as options_of
from tactical.rules.heavy_combat.tables import IN_PLANE

coordinate = st.floats(min_value=4.0, max_value=68.0)
heading = st.floats(min_value=0.0, max_value=359.999)
facing = st.sampled_from(IN_PLANE)


def pair(ax, ay, ah, bx, by, bh, **options):
    state = GameState(
        "heavy-combat",
        Board(72, 72),
        options=FrozenMap(options),
        units=(ship("a", ax, ay, ah, "A"), ship("b", bx, by, bh, "B")),
    )
    return HC.setup(state)


def view(state):
    return engagement(state, the_duel(state), options_of(state.options))


def test_GEO001_7_band_limits_are_inclusive():
    assert [band_of(d, 12.0) for d in (0.0, 12.0, 12.000001, 24.0, 36.0, 36.1)] == [
        1,
        1,
        2,
        2,
        3,
        4,
    ]


@given(st.floats(min_value=0.01, max_value=100.0), st.floats(min_value=1.0, max_value=48.0))
def test_GEO001_1_band_holds_the_distance(distance, step):
    band = band_of(distance, step)
    assert (band - 1) * step - 1e-6 <= distance <= band * step + 1e-6


def test_GEO001_2_presented_facing_from_the_bearing_and_the_elevation():
    assert view(duel(a_heading=90.0)).facing("a") == "fore"
    assert view(duel(a_heading=0.0)).facing("a") == "starboard"
    assert view(duel(a_heading=270.0)).facing("a") == "aft"
    assert view(duel(a_heading=180.0)).facing("a") == "port"
    assert view(duel({"elevation": "ventral"})).facing("a") == "ventral"
    assert view(duel(a_heading=45.0)).facing("a") == "fore"  # on a line: fore first


@settings(max_examples=60, deadline=None)
@given(coordinate, coordinate, heading, coordinate, coordinate, heading, facing)
def test_GEO001_3_a_completed_rotation_step_presents_the_new_facing(ax, ay, ah, bx, by, bh, to):
    assume(math.hypot(ax - bx, ay - by) > 2.0)
    state = pair(ax, ay, ah, bx, by, bh)
    before = view(state)
    state, duel_after = present_facing(state, the_duel(state), "a", to, options_of({}))
    after = engagement(state, duel_after, options_of({}))
    assert after.facing("a") == to
    assert after.facing("b") == before.facing("b")
    assert (state.unit("a").x, state.unit("a").y) == (ax, ay)  # turned in place
    assert after.band == before.band


@settings(max_examples=60, deadline=None)
@given(coordinate, coordinate, heading, coordinate, coordinate, heading, facing)
def test_GEO001_4_a_lateral_move_changes_the_enemy_facing_only(ax, ay, ah, bx, by, bh, engage):
    distance = math.hypot(ax - bx, ay - by)
    assume(2.0 < distance < 30.0)
    state = pair(ax, ay, ah, bx, by, bh)
    before = view(state)
    state, duel_after = engage_facing(state, the_duel(state), "a", engage, options_of({}))
    after = engagement(state, duel_after, options_of({}))
    assert after.facing("b") == engage
    assert after.facing("a") == before.facing("a")
    moved = centre_to_centre(state.unit("a").pose, state.unit("b").pose).distance
    assert math.isclose(moved, distance, abs_tol=1e-6)


@settings(max_examples=60, deadline=None)
@given(
    coordinate,
    coordinate,
    heading,
    coordinate,
    coordinate,
    heading,
    st.sampled_from([-2, -1, 1, 2]),
)
def test_R001_9_close_and_retreat_move_the_models_by_whole_bands(ax, ay, ah, bx, by, bh, change):
    distance = math.hypot(ax - bx, ay - by)
    step = 12.0
    band = band_of(distance, step)
    assume(band + change >= 1)
    assume(min(abs(distance - k * step) for k in range(6)) > 1e-3)  # not on a band limit
    state = pair(ax, ay, ah, bx, by, bh)
    before = view(state)
    movers = {"a": change} if abs(change) == 1 else {"a": change // 2, "b": change // 2}
    state, duel_after = shift_range(state, the_duel(state), movers, change, options_of({}))
    after = engagement(state, duel_after, options_of({}))
    assert after.band == band + change
    assert (after.facing("a"), after.facing("b")) == (before.facing("a"), before.facing("b"))


@settings(max_examples=40, deadline=None)
@given(st.floats(min_value=-30.0, max_value=100.0), st.floats(min_value=-30.0, max_value=80.0))
def test_keep_on_table_shifts_the_pair_together(x, y):
    state = pair(x, y, 0.0, x + 20.0, y, 180.0)
    kept = keep_on_table(state, ("a", "b"))
    a, b = kept.unit("a"), kept.unit("b")
    assert math.isclose(b.x - a.x, 20.0, abs_tol=1e-9) and math.isclose(
        b.y - a.y, 0.0, abs_tol=1e-9
    )
    for unit in (a, b):
        low_x, low_y, high_x, high_y = unit.footprint.bounds
        assert low_x >= -1e-9 and low_y >= -1e-9
        assert high_x <= 72 + 1e-9 and high_y <= 72 + 1e-9


def test_GEO001_5_true_direction_of_a_cloaked_target_is_the_firers_facing():
    from hc_builders import with_ship

    from tactical.dice import ScriptedDice

    state = with_ship(duel(distance=18.0, a_heading=0.0), "b", cloak="on")  # B off A's starboard
    attack = HC.declare_attack(state, "a", "phasers", "b", {"power": 1})
    result = HC.resolve_attack(state, attack, ScriptedDice([4, 1, 1]))  # 4 = starboard
    to_hit = next(e for e in result.events if e.kind == "to-hit")
    assert (to_hit.get("nominated"), to_hit.get("actual"), to_hit.get("hit")) == (
        "starboard",
        "starboard",
        True,
    )
